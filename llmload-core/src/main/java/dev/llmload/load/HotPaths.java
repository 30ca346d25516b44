package dev.llmload.load;

import dev.llmload.http.sse.SseDecoder;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.ResponseDecoder;
import dev.llmload.protocol.ResponseEvents;
import dev.llmload.protocol.Usage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Runs the per-message path (framing, the dialect's decoding) on the dialect's made-up sample
 * stream before a run, so the JIT has compiled it when the first real tokens arrive: otherwise the
 * first requests of every run would measure an interpreter, not the server.
 */
final class HotPaths {

    /** Enough passes for the JIT's first tiers; a few tens of milliseconds. */
    private static final int PASSES = 5_000;

    private HotPaths() {}

    /**
     * Waits (at most two seconds) until the JIT compiler has been idle for a moment. Compiling
     * what start-up made hot (the tokenizer, prompt generation) occupies cores for a second or
     * more; on a small machine that delays the event loops' reads, and so every timestamp, of the
     * first requests.
     */
    public static void awaitQuietCompiler() throws InterruptedException {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long until = System.nanoTime() + QUIET_WAIT_LIMIT_NANOS;
        long last = compiler.getTotalCompilationTime();
        while (System.nanoTime() < until) {
            Thread.sleep(QUIET_PERIOD_MS);
            long now = compiler.getTotalCompilationTime();
            if (now == last) {
                return;
            }
            last = now;
        }
    }

    private static final long QUIET_PERIOD_MS = 100;
    private static final long QUIET_WAIT_LIMIT_NANOS = 2_000_000_000L;

    /** Decodes the dialect's sample stream many times over; fails if its decoder misreads it. */
    public static void warmUp(Dialect dialect) {
        byte[] sample = dialect.sampleStream();
        Counts counts = new Counts();
        ResponseDecoder decoder = dialect.newDecoder(counts);
        ByteBuf buffer = Unpooled.wrappedBuffer(sample);
        SseDecoder sse = switch (dialect.streamFraming()) {
            case SSE -> new SseDecoder((type, data, nanos) -> decoder.message(type, data, nanos));
            case WHOLE_BODY -> null;
        };
        for (int i = 0; i < PASSES; i++) {
            if (sse != null) {
                buffer.readerIndex(0);
                sse.feed(buffer, System.nanoTime());
            } else {
                decoder.body(sample, System.nanoTime());
            }
        }
        if (sse != null) {
            sse.endOfStream();
        }
        if (counts.texts == 0 || counts.texts % PASSES != 0 || counts.endMarkers != (sse != null ? PASSES : 0)) {
            throw new IllegalStateException("the response decoder misread its own warm-up stream");
        }
    }

    /** Counts what the sample stream holds, to check the decoder read it as meant. */
    private static final class Counts implements ResponseEvents {
        int texts;
        int endMarkers;

        @Override
        public void text(String content, String reasoning, long nanos) {
            texts++;
        }

        @Override
        public void usage(Usage usage) {}

        @Override
        public void finishReason(String reason) {}

        @Override
        public void error(String message) {}

        @Override
        public void endMarker() {
            endMarkers++;
        }
    }
}
