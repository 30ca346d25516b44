package dev.llmload.metrics;

import dev.llmload.record.RequestRecord;
import dev.llmload.record.ServerTimings;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.stats.Summary;
import java.util.List;
import java.util.Locale;

/**
 * The server's own timings beside the client's, over the measured successful requests whose
 * server reported them (native APIs: Ollama, llama.cpp, SGLang). The server's time to first token
 * (load plus prefill) against the client's TTFT of the same requests: the difference is what the
 * server cannot see (network, queueing ahead of its engine, framing and the client's own reading).
 * Pure arithmetic.
 *
 * @param requests            how many measured successful requests carried server timings
 * @param serverFirstTokenMs  the server's load plus prefill time, where it reported prefill
 * @param clientTtftMs        the client's TTFT of the same requests
 * @param ttftMinusServerFirstTokenMsP50 client TTFT p50 minus server first-token p50; null when either is missing
 * @param serverDecodeMs      the server's decode time
 * @param serverTotalMs       the server's whole time for the request
 * @param clientE2eMs         the client's E2E latency of the same requests
 * @param e2eMinusServerTotalMsP50 client E2E p50 minus server total p50; null when either is missing
 */
public record ServerView(
        long requests,
        Summary serverFirstTokenMs,
        Summary clientTtftMs,
        Double ttftMinusServerFirstTokenMsP50,
        Summary serverDecodeMs,
        Summary serverTotalMs,
        Summary clientE2eMs,
        Double e2eMinusServerTotalMsP50) {

    /**
     * Server and client disagree when their p50s are further apart than both this many
     * milliseconds and {@link #DISAGREE_SHARE} of the client's value. Loopback and a LAN add a few
     * milliseconds; a gap beyond this is queueing in front of the engine, a proxy, or timings that
     * do not mean what they are taken to mean.
     */
    public static final double DISAGREE_MIN_MS = 50;

    public static final double DISAGREE_SHARE = 0.5;

    /** The view of these records; null when none of the measured successful ones carried server timings. */
    public static ServerView of(List<RequestRecord> records) {
        Tally tally = new Tally();
        records.forEach(tally::add);
        return tally.result();
    }

    /** The view taken as records stream past, in the accumulators' bounded memory. Owned by one thread. */
    public static final class Tally {

        private final DistributionAccumulator firstToken = new DistributionAccumulator();
        private final DistributionAccumulator ttft = new DistributionAccumulator();
        private final DistributionAccumulator decode = new DistributionAccumulator();
        private final DistributionAccumulator total = new DistributionAccumulator();
        private final DistributionAccumulator e2e = new DistributionAccumulator();
        private long requests;

        /** Adds one record; warm-up, failed ones and those without server timings add nothing. */
        public void add(RequestRecord record) {
            ServerTimings server = record.serverTimings();
            if (record.warmup() || !record.succeeded() || server == null) {
                return;
            }
            requests++;
            RequestMetrics client = RequestMetrics.of(record);
            if (!Double.isNaN(server.firstTokenMs()) && client.ttftMs() != null) {
                firstToken.add(server.firstTokenMs());
                ttft.add(client.ttftMs());
            }
            if (!Double.isNaN(server.decodeMs())) {
                decode.add(server.decodeMs());
            }
            if (!Double.isNaN(server.totalMs()) && client.e2eMs() != null) {
                total.add(server.totalMs());
                e2e.add(client.e2eMs());
            }
        }

        /** @return null when no record carried server timings */
        public ServerView result() {
            if (requests == 0) {
                return null;
            }
            Summary serverFirst = firstToken.summary();
            Summary clientTtft = ttft.summary();
            Summary serverTotal = total.summary();
            Summary clientE2e = e2e.summary();
            return new ServerView(
                    requests,
                    serverFirst,
                    clientTtft,
                    difference(clientTtft, serverFirst),
                    decode.summary(),
                    serverTotal,
                    clientE2e,
                    difference(clientE2e, serverTotal));
        }
    }

    private static Double difference(Summary client, Summary server) {
        return client.p50() == null || server.p50() == null ? null : client.p50() - server.p50();
    }

    /**
     * One line saying how server and client disagree, or null when they agree within the
     * threshold ({@link #DISAGREE_MIN_MS}, {@link #DISAGREE_SHARE}). First token is compared
     * where the server reported prefill, else the whole request.
     */
    public String disagreement() {
        if (ttftMinusServerFirstTokenMsP50 != null) {
            return describe("TTFT", clientTtftMs.p50(), "prefill (load + prompt evaluation)", serverFirstTokenMs.p50());
        }
        if (e2eMinusServerTotalMsP50 != null) {
            return describe("E2E latency", clientE2eMs.p50(), "total time", serverTotalMs.p50());
        }
        return null;
    }

    private String describe(String clientName, double client, String serverName, double server) {
        double gap = client - server;
        if (Math.abs(gap) <= Math.max(DISAGREE_MIN_MS, DISAGREE_SHARE * client)) {
            return null;
        }
        String meaning = gap > 0
                ? "the gap is network, queueing ahead of the engine and framing"
                : "the server reports more time than the client measured, so its timings do not mean what they seem";
        return String.format(
                Locale.ROOT,
                "client %s p50 %.1f ms vs server %s p50 %.1f ms over %d requests: "
                        + "%.1f ms apart, more than max(%.0f ms, %.0f%% of the client's); %s",
                clientName,
                client,
                serverName,
                server,
                requests,
                Math.abs(gap),
                DISAGREE_MIN_MS,
                DISAGREE_SHARE * 100,
                meaning);
    }
}
