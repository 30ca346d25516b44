package dev.llmload.load;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.llmload.http.sse.StreamFramer;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.Framing;
import dev.llmload.protocol.ResponseDecoder;
import dev.llmload.protocol.ResponseEvents;
import dev.llmload.protocol.Usage;
import dev.llmload.record.ServerTimings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/**
 * Runs the per-message path (framing, the dialect's decoding) on the dialect's made-up sample
 * stream before a run, so the JIT has compiled it when the first real tokens arrive: otherwise the
 * first requests of every run would measure an interpreter, not the server. Then waits for the JIT
 * to go quiet and clears start-up's garbage, so that neither works on the client's cores once the
 * clock runs.
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

    /**
     * The JIT's total compilation time so far, in milliseconds (its only running count the JVM
     * reports); -1 where it is not reported. Unchanged across a stretch: nothing was compiled in it.
     */
    static long compilerMillis() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler == null || !compiler.isCompilationTimeMonitoringSupported()
                ? -1
                : compiler.getTotalCompilationTime();
    }

    /**
     * Collects start-up's garbage (the tokenizer's tables, prompt generation, class loading) when
     * it fills more than half the heap's soft limit ({@code -XX:SoftMaxHeapSize}: 256 MiB from the
     * launcher; ZGC's own default is 90% of the maximum heap). Left for the load, it made the
     * collector's threads share the event loops' cores in the first seconds and kept ZGC's
     * allocation-rate trigger firing: about 20 collections in a 14 s open loop at 500 requests/s
     * with the launcher's settings, none after one collection here. Below half, the collector has
     * room and the full collection (a few tenths of a second on one core) is not worth it: a
     * library user's large heap, or a test JVM running many short runs.
     */
    public static void collectStartUpGarbage() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        if (worthCollecting(heap.getUsed(), softLimitBytes(heap.getMax()))) {
            System.gc();
        }
    }

    /** Whether {@code usedBytes} fills more than half of a known {@code limitBytes}. */
    static boolean worthCollecting(long usedBytes, long limitBytes) {
        return limitBytes > 0 && usedBytes > limitBytes / 2;
    }

    /** {@code -XX:SoftMaxHeapSize} where set (and below {@code maxBytes}), else {@code maxBytes} (-1: unknown). */
    static long softLimitBytes(long maxBytes) {
        HotSpotDiagnosticMXBean diagnostics = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (diagnostics != null) {
            try {
                long soft = Long.parseLong(
                        diagnostics.getVMOption("SoftMaxHeapSize").getValue());
                if (soft > 0 && (maxBytes <= 0 || soft < maxBytes)) {
                    return soft;
                }
            } catch (IllegalArgumentException noSuchOptionOrNumber) {
                // A JVM without the option: the maximum heap is the limit.
            }
        }
        return maxBytes;
    }

    private static final long QUIET_PERIOD_MS = 100;
    private static final long QUIET_WAIT_LIMIT_NANOS = 2_000_000_000L;

    /**
     * Decodes the dialect's sample stream many times over, each pass as a new response; fails if
     * its decoder misreads it. A dialect that never streams gives a sample body instead.
     */
    public static void warmUp(Dialect dialect) {
        byte[] sample = dialect.sampleStream();
        Counts counts = new Counts();
        ByteBuf buffer = Unpooled.wrappedBuffer(sample);
        boolean framed = dialect.streamFraming() != Framing.WHOLE_BODY;
        for (int i = 0; i < PASSES; i++) {
            ResponseDecoder decoder = dialect.newDecoder(counts);
            StreamFramer framer = Framers.of(dialect.streamFraming(), decoder::message);
            if (framer != null) {
                buffer.readerIndex(0);
                framer.feed(buffer, System.nanoTime());
                framer.endOfStream();
            } else {
                decoder.body(sample, System.nanoTime());
            }
        }
        int markers = framed && dialect.endMarker() != null ? PASSES : 0;
        if (framed && (counts.texts == 0 || counts.texts % PASSES != 0)
                || counts.endMarkers != markers
                || counts.errors != 0) {
            throw new IllegalStateException("the response decoder misread its own warm-up stream");
        }
    }

    /** Counts what the sample stream holds, to check the decoder read it as meant. */
    private static final class Counts implements ResponseEvents {
        int texts;
        int endMarkers;
        int errors;

        @Override
        public void text(String content, String reasoning, long nanos) {
            texts++;
        }

        @Override
        public void usage(Usage usage) {}

        @Override
        public void finishReason(String reason) {}

        @Override
        public void error(String message) {
            errors++;
        }

        @Override
        public void tokenCount(int tokens) {}

        @Override
        public void serverTimings(ServerTimings timings) {}

        @Override
        public void endMarker() {
            endMarkers++;
        }
    }
}
