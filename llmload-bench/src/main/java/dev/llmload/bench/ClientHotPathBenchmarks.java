package dev.llmload.bench;

import dev.llmload.http.sse.SseDecoder;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.protocol.ResponseDecoder;
import dev.llmload.protocol.ResponseEvents;
import dev.llmload.protocol.Usage;
import dev.llmload.record.ServerTimings;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The client's per-event work on the I/O thread: SSE framing of one chunk, and the dialect's
 * decoding of that chunk (one vLLM chat chunk) into typed events; and the end-of-run statistics
 * (100,000 samples). Results and the command are in docs/performance.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClientHotPathBenchmarks {

    /** One token event exactly as vLLM (and the simulator) writes it. */
    static final String CHUNK_JSON = "{\"id\":\"chatcmpl-run-42\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1733000000,\"model\":\"llmload-sim\",\"choices\":[{\"index\":0,\"delta\":"
            + "{\"content\":\" quick\"},\"logprobs\":null,\"finish_reason\":null}]}";

    private static final byte[] CHUNK_BYTES = CHUNK_JSON.getBytes(StandardCharsets.UTF_8);

    private ByteBuf event;
    private SseDecoder decoder;
    private Blackhole sink;
    private ResponseDecoder chunkDecoder;
    private double[] samples;

    @Setup
    public void setUp(Blackhole blackhole) {
        sink = blackhole;
        event = Unpooled.directBuffer().writeBytes(("data: " + CHUNK_JSON + "\n\n").getBytes(StandardCharsets.UTF_8));
        decoder = new SseDecoder((type, data, offset, length, nanos) -> sink.consume(length));
        chunkDecoder = Dialect.of(new RequestOptions(ApiKind.CHAT, "llmload-sim", true, true, null))
                .newDecoder(new Sink(blackhole));
        SplittableRandom random = new SplittableRandom(1);
        samples = new double[100_000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = 20 + random.nextExponential() * 5; // ITL-like: ms, long right tail
        }
    }

    /** Framing one SSE event of one vLLM chunk, as it arrives in one read. */
    @Benchmark
    public void sseDecoderFeed() {
        event.readerIndex(0);
        decoder.feed(event, 1L);
    }

    /** Decoding one chat chunk into its typed events (the name is kept so results compare across versions). */
    @Benchmark
    public void openAiCodecDecodeChunk() {
        chunkDecoder.message(null, CHUNK_BYTES, 0, CHUNK_BYTES.length, 1L);
    }

    /** Hands every event to the blackhole, as the request's measurement would take it. */
    private record Sink(Blackhole blackhole) implements ResponseEvents {
        @Override
        public void text(String content, String reasoning, long nanos) {
            blackhole.consume(content);
            blackhole.consume(reasoning);
        }

        @Override
        public void tokenCount(int tokens) {
            blackhole.consume(tokens);
        }

        @Override
        public void serverTimings(ServerTimings timings) {
            blackhole.consume(timings);
        }

        @Override
        public void usage(Usage usage) {
            blackhole.consume(usage);
        }

        @Override
        public void finishReason(String reason) {
            blackhole.consume(reason);
        }

        @Override
        public void error(String message) {
            blackhole.consume(message);
        }

        @Override
        public void endMarker() {
            blackhole.consume(true);
        }
    }

    /** Summary statistics (sort, mean, std, five percentiles) of 100,000 values. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Summary statisticsSummarize100k() {
        return Statistics.summarize(samples);
    }
}
