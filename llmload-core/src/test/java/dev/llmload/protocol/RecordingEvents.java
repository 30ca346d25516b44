package dev.llmload.protocol;

import dev.llmload.record.ServerTimings;
import java.util.List;

/** Writes each event of a decoder down as a line, so a test compares them in order. */
record RecordingEvents(List<String> events) implements ResponseEvents {

    @Override
    public void text(String content, String reasoning, long nanos) {
        events.add("text content=" + content + " reasoning=" + reasoning + " at " + nanos);
    }

    @Override
    public void tokenCount(int tokens) {
        events.add("tokens " + tokens);
    }

    @Override
    public void serverTimings(ServerTimings t) {
        events.add("server load=" + t.loadMs() + " prefill=" + t.prefillMs() + " decode=" + t.decodeMs() + " total="
                + t.totalMs() + " cached=" + t.cachedPromptTokens());
    }

    @Override
    public void usage(Usage usage) {
        events.add("usage " + usage.promptTokens() + "/" + usage.completionTokens());
    }

    @Override
    public void finishReason(String reason) {
        events.add("finish " + reason);
    }

    @Override
    public void error(String message) {
        events.add("error " + message);
    }

    @Override
    public void endMarker() {
        events.add("end");
    }
}
