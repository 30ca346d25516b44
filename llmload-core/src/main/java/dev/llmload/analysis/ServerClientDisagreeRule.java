package dev.llmload.analysis;

import dev.llmload.metrics.ServerView;
import dev.llmload.note.Note;
import java.util.Optional;

/**
 * {@code server_client_disagree}: the server reported its own timings ({@code results.server_view})
 * and they lie far from the client's: a gap that is network, queueing or a proxy in front of the
 * engine (client above server), or server timings that do not mean what they seem (server above
 * client). The comparison and its thresholds are {@link ServerView#disagreement}'s; this rule only
 * writes what that finds.
 */
final class ServerClientDisagreeRule implements NoteRule {

    static final String KIND = "server_client_disagree";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        ServerView view = run.results().serverView();
        String disagreement = view == null ? null : view.disagreement();
        return disagreement == null ? Optional.empty() : Optional.of(new Note(KIND, disagreement));
    }
}
