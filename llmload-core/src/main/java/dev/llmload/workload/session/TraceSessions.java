package dev.llmload.workload.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.source.HashedLines;
import dev.llmload.workload.source.JsonLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A session trace in llmload's format (docs/workloads.md): JSON Lines, one turn a line, with the
 * session it belongs to, its 1-based turn number, when it may be sent (a delay after the previous
 * answer, a tool wait, or an absolute timestamp), its new input (a token count or fixed text) and
 * its answer length. A session that names a parent session and a parent turn is a subagent: it
 * forks from the parent's history once that turn is answered, and the parent's next turn waits
 * until every such subagent has ended.
 *
 * <p>AIPerf's {@code mooncake_trace} records with sessions and its {@code multi_turn} sessions
 * ({@link AiperfTraceLines}) are read into the same sessions: root sessions without forks, whose
 * turns wait for the previous answer plus their delay or for their timestamp.
 *
 * <p>The whole file is read and checked when it is opened, so a bad line stops the run with its
 * line number before any load; the trace is then held in memory (a line costs some tens of bytes
 * without a fixed prompt). The root sessions start at their first turn's {@code timestamp_ms},
 * given as {@link #startOffsetsNanos} for the schedule; {@code speed} divides delays, tool waits
 * and the later turns' timestamps, as the schedule divides the start offsets.
 *
 * <p>{@link #nextSession} is called from one thread; sessions may then be driven from others.
 */
public final class TraceSessions implements SessionSupply {

    /** The {@code --trace-format} name of this format. */
    public static final String FORMAT = "llmload-sessions";

    /** The {@code --trace-format} name of AIPerf's {@code mooncake_trace} records with sessions. */
    public static final String AIPERF_MOONCAKE = "aiperf-mooncake";

    /** The {@code --trace-format} name of AIPerf's {@code multi_turn} sessions. */
    public static final String AIPERF_MULTI_TURN = "aiperf-multi-turn";

    private final Path file;
    private final SyntheticPrompts prompts;
    private final long seed;
    private final double speed;
    private final String sha256;
    private final List<Spec> roots;
    private final long[] startOffsetsNanos;
    private final int sessionCount;
    private final long turnCount;
    private final AtomicLong requests = new AtomicLong();
    private int next;

    /** One turn as the trace gives it; times already divided by the speed, -1 where absent. */
    record Turn(
            long delayNanos,
            long toolWaitNanos,
            long notBeforeNanos,
            int inputTokens,
            int outputTokens,
            String prompt) {}

    /**
     * One session of the trace.
     *
     * @param id        0-based, in the order of the sessions' first lines
     * @param forks     the sessions forking after turn k, under k
     * @param treeTurns its turns and those of every session forking from it, transitively
     */
    record Spec(long id, String name, List<Turn> turns, Map<Integer, List<Spec>> forks, int treeTurns) {

        List<Spec> forksAfter(int turn) {
            return forks.getOrDefault(turn, List.of());
        }
    }

    /** Reads and checks a trace in llmload's format. */
    public TraceSessions(Path file, SyntheticPrompts prompts, long seed, double speed) {
        this(file, FORMAT, prompts, null, seed, speed);
    }

    /**
     * Reads and checks the trace.
     *
     * @param format        {@link #FORMAT}, {@link #AIPERF_MOONCAKE} or {@link #AIPERF_MULTI_TURN}
     * @param defaultOutput the answer length of an AIPerf {@code multi_turn} turn that gives none;
     *                      null to require one
     * @param speed         replay this many times faster (&gt; 0)
     * @throws DatasetException at the first bad line, naming it, or when the trace has no turn
     */
    public TraceSessions(
            Path file,
            String format,
            SyntheticPrompts prompts,
            LengthDistribution defaultOutput,
            long seed,
            double speed) {
        AiperfTraceLines aiperf = switch (format) {
            case FORMAT -> null;
            case AIPERF_MOONCAKE -> new AiperfTraceLines(file, true, prompts, defaultOutput, seed);
            case AIPERF_MULTI_TURN -> new AiperfTraceLines(file, false, prompts, defaultOutput, seed);
            default -> throw new IllegalArgumentException("not a session trace format: " + format);
        };
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed " + speed + " must be a positive number");
        }
        this.file = file;
        this.prompts = prompts;
        this.seed = seed;
        this.speed = speed;
        Map<String, Draft> drafts = new LinkedHashMap<>();
        this.sha256 = HashedLines.read(file, (number, line) -> {
            JsonNode node = JsonLine.object(file, number, line);
            if (aiperf == null) {
                read(node, number, drafts);
            } else {
                for (AiperfTraceLines.Turn turn : aiperf.read(node, number)) {
                    append(turn, drafts);
                }
            }
        });
        if (drafts.isEmpty()) {
            throw DatasetException.in(file, "empty trace");
        }
        List<Draft> all = new ArrayList<>(drafts.values());
        for (Draft draft : all) {
            if (draft.parent != null && draft.parentTurn > draft.parent.turns.size()) {
                throw DatasetException.at(
                        file,
                        draft.firstLine,
                        "parent_turn " + draft.parentTurn + " but session '" + draft.parent.name + "' has "
                                + draft.parent.turns.size() + " turn" + (draft.parent.turns.size() == 1 ? "" : "s"));
            }
        }
        double originMillis = all.stream()
                .filter(d -> d.parent == null)
                .mapToDouble(d -> d.startMillis)
                .min()
                .orElseThrow();
        // Children come after their parents in the file, so building from the end finds every
        // child built before its parent.
        Map<Draft, Spec> built = new HashMap<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            Draft draft = all.get(i);
            built.put(draft, draft.build(built, originMillis, speed));
        }
        List<Draft> rootDrafts = all.stream()
                .filter(d -> d.parent == null)
                .sorted(Comparator.comparingDouble(d -> d.startMillis))
                .toList();
        this.roots = rootDrafts.stream().map(built::get).toList();
        this.startOffsetsNanos = rootDrafts.stream()
                .mapToLong(d -> Math.round((d.startMillis - originMillis) * 1e6))
                .toArray();
        this.sessionCount = all.size();
        this.turnCount = all.stream().mapToLong(d -> d.turns.size()).sum();
    }

    /**
     * Whether a trace file is in this format rather than Mooncake's: its first entry is a JSON
     * object with {@code session_id} and {@code turn}.
     */
    public static boolean detect(Path file) {
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")) {
            return false;
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    JsonNode first = JsonLine.object(file, number, line);
                    return first.has("session_id") && first.has("turn");
                }
            }
            return false;
        } catch (IOException e) {
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    /**
     * Whether an AIPerf {@code mooncake_trace} file has sessions: any record names a
     * {@code session_id}. One without is independent requests, for the Mooncake reader.
     */
    public static boolean hasSessionIds(Path file) {
        return AiperfTraceLines.hasSessions(file);
    }

    /** When root session i starts, in nanoseconds after the first, before the speed; a new array each call. */
    public long[] startOffsetsNanos() {
        return startOffsetsNanos.clone();
    }

    /** Sessions of every kind, subagents included. */
    public int sessions() {
        return sessionCount;
    }

    /** Turns in all, of every session. */
    public long turns() {
        return turnCount;
    }

    @Override
    public Session nextSession() {
        if (next == roots.size()) {
            throw new NoSuchElementException("the trace's " + roots.size() + " root sessions have all started");
        }
        return new TraceSession(roots.get(next++), null, prompts, seed, requests::getAndIncrement, List.of(), 0);
    }

    /** A trace's sessions start at their timestamps, whatever is in flight. */
    @Override
    public int maxActiveSessions() {
        return Integer.MAX_VALUE;
    }

    @Override
    public String describe() {
        return "session trace " + file + " sessions=" + sessionCount + " roots=" + roots.size() + " turns=" + turnCount
                + " speed=" + speed + " tokenizer=" + prompts.tokenizer().name() + " seed=" + seed;
    }

    /** The file's SHA-256. */
    @Override
    public String contentHash() {
        return sha256;
    }

    /** Appends an AIPerf turn to its session, a new root session when it is the first. */
    private void append(AiperfTraceLines.Turn turn, Map<String, Draft> drafts) {
        Draft draft = drafts.get(turn.key());
        boolean first = draft == null;
        if (first) {
            if (turn.delayMillis() >= 0) {
                throw DatasetException.at(
                        file,
                        turn.line(),
                        "a session's first turn starts at \"timestamp\"; \"delay\" needs a turn before it");
            }
            draft = new Draft(drafts.size(), turn.name(), null, 0, turn.line());
            drafts.put(turn.key(), draft);
            draft.startMillis = Math.max(0, turn.timestampMillis());
        }
        draft.turns.add(new DraftTurn(
                first ? -1 : turn.timestampMillis(),
                Math.max(0, turn.delayMillis()),
                0,
                turn.inputTokens(),
                turn.outputTokens(),
                turn.prompt()));
    }

    private void read(JsonNode node, long line, Map<String, Draft> drafts) {
        String name = name(file, node, "session_id", line);
        if (name == null) {
            throw DatasetException.at(file, line, "needs \"session_id\"");
        }
        int turn = whole(file, node, "turn", line, 1);
        if (turn < 1) {
            throw DatasetException.at(file, line, "needs a whole number \"turn\" ≥ 1");
        }
        Draft draft = drafts.get(name);
        String parentName = name(file, node, "parent_session", line);
        boolean parentTurnGiven = node.hasNonNull("parent_turn");
        if (draft == null) {
            if (turn != 1) {
                throw DatasetException.at(file, line, "session '" + name + "' starts with turn " + turn + ", not 1");
            }
            if (parentName == null && parentTurnGiven) {
                throw DatasetException.at(file, line, "\"parent_turn\" needs \"parent_session\"");
            }
            Draft parent = null;
            int parentTurn = 0;
            if (parentName != null) {
                parent = drafts.get(parentName);
                if (parent == null) {
                    throw DatasetException.at(
                            file, line, "parent session '" + parentName + "' is not on an earlier line");
                }
                if (!parentTurnGiven) {
                    throw DatasetException.at(file, line, "\"parent_session\" needs \"parent_turn\"");
                }
                parentTurn = whole(file, node, "parent_turn", line, 1);
            }
            draft = new Draft(drafts.size(), name, parent, parentTurn, line);
            drafts.put(name, draft);
            if (parent != null) {
                parent.children.add(draft);
            }
        } else {
            if (turn != draft.turns.size() + 1) {
                throw DatasetException.at(
                        file, line, "session '" + name + "' turn " + turn + " follows turn " + draft.turns.size());
            }
            if (parentName != null || parentTurnGiven) {
                throw DatasetException.at(file, line, "\"parent_session\" belongs on a session's first turn only");
            }
        }
        double timestampMillis = millis(file, node, "timestamp_ms", line);
        double delayMillis = millis(file, node, "delay_ms", line);
        if (timestampMillis >= 0 && delayMillis >= 0) {
            throw DatasetException.at(file, line, "give \"timestamp_ms\" or \"delay_ms\", not both");
        }
        boolean rootStart = draft.parent == null && turn == 1;
        if (rootStart && delayMillis >= 0) {
            throw DatasetException.at(
                    file,
                    line,
                    "a session's first turn starts at \"timestamp_ms\"; \"delay_ms\" needs a turn before it");
        }
        double toolWaitMillis = millis(file, node, "tool_wait_ms", line);
        String prompt = null;
        JsonNode text = node.get("prompt");
        if (text != null && !text.isNull()) {
            if (!text.isTextual() || text.asText().isEmpty()) {
                throw DatasetException.at(file, line, "\"prompt\" must be non-empty text");
            }
            if (node.hasNonNull("input_tokens")) {
                throw DatasetException.at(file, line, "give \"input_tokens\" or \"prompt\", not both");
            }
            prompt = text.asText();
        }
        int inputTokens =
                prompt != null ? prompts.tokenizer().count(prompt) : whole(file, node, "input_tokens", line, 1);
        int outputTokens = whole(file, node, "output_tokens", line, 1);
        if (rootStart) {
            draft.startMillis = Math.max(0, timestampMillis);
        }
        draft.turns.add(new DraftTurn(
                rootStart ? -1 : timestampMillis,
                Math.max(0, delayMillis),
                Math.max(0, toolWaitMillis),
                inputTokens,
                outputTokens,
                prompt));
    }

    /** A string or whole-number field as text; null when absent. */
    static String name(Path file, JsonNode node, String field, long line) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual() && !value.asText().isEmpty() || value.isIntegralNumber()) {
            return value.asText();
        }
        throw DatasetException.at(file, line, "\"" + field + "\" must be a non-empty string or a whole number");
    }

    /** A required whole number of at least {@code min}. */
    static int whole(Path file, JsonNode node, String field, long line, int min) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw DatasetException.at(file, line, "needs \"" + field + "\"");
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < min) {
            throw DatasetException.at(
                    file, line, "\"" + field + "\" must be a whole number ≥ " + min + ", got " + value);
        }
        return value.asInt();
    }

    /** An optional time in milliseconds ≥ 0, fractions allowed; -1 when absent. */
    static double millis(Path file, JsonNode node, String field, long line) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return -1;
        }
        if (!value.isNumber() || !(value.asDouble() >= 0) || Double.isInfinite(value.asDouble())) {
            throw DatasetException.at(file, line, "\"" + field + "\" must be milliseconds ≥ 0, got " + value);
        }
        return value.asDouble();
    }

    private record DraftTurn(
            double timestampMillis,
            double delayMillis,
            double toolWaitMillis,
            int inputTokens,
            int outputTokens,
            String prompt) {}

    /** A session while the file is read. Owned by the reading thread. */
    private static final class Draft {
        final long id;
        final String name;
        final Draft parent;
        final int parentTurn;
        final long firstLine;
        final List<DraftTurn> turns = new ArrayList<>();
        /** In the order of their first lines. */
        final List<Draft> children = new ArrayList<>();

        double startMillis;

        Draft(long id, String name, Draft parent, int parentTurn, long firstLine) {
            this.id = id;
            this.name = name;
            this.parent = parent;
            this.parentTurn = parentTurn;
            this.firstLine = firstLine;
        }

        Spec build(Map<Draft, Spec> built, double originMillis, double speed) {
            Map<Integer, List<Spec>> forks = new HashMap<>();
            int treeTurns = turns.size();
            for (Draft child : children) {
                Spec spec = built.get(child);
                forks.computeIfAbsent(child.parentTurn, k -> new ArrayList<>()).add(spec);
                treeTurns += spec.treeTurns();
            }
            List<Turn> made = new ArrayList<>(turns.size());
            for (DraftTurn turn : turns) {
                made.add(new Turn(
                        Math.round(turn.delayMillis() * 1e6 / speed),
                        Math.round(turn.toolWaitMillis() * 1e6 / speed),
                        turn.timestampMillis() < 0
                                ? -1
                                : Math.round(Math.max(0, turn.timestampMillis() - originMillis) * 1e6 / speed),
                        turn.inputTokens(),
                        turn.outputTokens(),
                        turn.prompt()));
            }
            Map<Integer, List<Spec>> frozen = new HashMap<>();
            forks.forEach((turn, specs) -> frozen.put(turn, List.copyOf(specs)));
            return new Spec(id, name, List.copyOf(made), Map.copyOf(frozen), treeTurns);
        }
    }
}
