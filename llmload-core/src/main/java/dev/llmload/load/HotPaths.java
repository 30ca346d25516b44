package dev.llmload.load;

import dev.llmload.http.sse.SseDecoder;
import dev.llmload.protocol.OpenAiCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * Runs the per-chunk path (SSE decoding, chunk decoding) on made-up chunks before a run, so the
 * JIT has compiled it when the first real tokens arrive: otherwise the first requests of every
 * run would measure an interpreter, not the server.
 */
public final class HotPaths {

    /** Enough passes for the JIT's first tiers; a few tens of milliseconds. */
    private static final int PASSES = 5_000;

    private static final byte[] STREAM = ("""
            data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" warm"},"finish_reason":null}]}

            data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":" up"},"finish_reason":null}]}

            data: {"id":"x","object":"text_completion","choices":[{"index":0,"text":" text","finish_reason":"length"}],"usage":null}

            data: {"id":"x","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":3,"total_tokens":11}}

            data: [DONE]

            """).getBytes(StandardCharsets.UTF_8);

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

    public static void warmUp(OpenAiCodec codec) {
        int[] tokens = new int[1];
        SseDecoder decoder = new SseDecoder((type, data) -> {
            if (!data.equals("[DONE]") && codec.decode(data).carriesText()) {
                tokens[0]++;
            }
        });
        ByteBuf buffer = Unpooled.wrappedBuffer(STREAM);
        for (int i = 0; i < PASSES; i++) {
            buffer.readerIndex(0);
            decoder.feed(buffer);
        }
        decoder.endOfStream();
        if (tokens[0] != 3 * PASSES) {
            throw new IllegalStateException("the chunk decoder misread its own warm-up stream");
        }
    }
}
