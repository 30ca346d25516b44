package dev.llmload.sim.engine.batching;

import static dev.llmload.sim.engine.batching.VirtualTimeDriver.prompt;
import static dev.llmload.sim.engine.batching.VirtualTimeDriver.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.EngineSnapshot;
import dev.llmload.sim.engine.FinishReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The scheduler's behaviour in virtual time: exact, instant, and deterministic. */
class BatchSchedulerTest {

    private static final long MS = 1_000_000L;

    private static double dynamoPrefillMs(int tokens) {
        return 4.209989e-7 * tokens * tokens + 1.518344e-2 * tokens + 16.50142;
    }

    private static double mean(List<Recording> recs, java.util.function.ToLongFunction<Recording> f) {
        return recs.stream().mapToLong(f).average().orElseThrow();
    }

    /** Constant-rate arrivals of 256-token prompts generating exactly 64 tokens each. */
    private static List<Recording> constantLoad(VirtualTimeDriver driver, int count, double perSecond) {
        List<Recording> recs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long at = Math.round(i * 1e9 / perSecond);
            recs.add(driver.submit(request("r" + i, at, prompt(i, 256), 64, 0, true)));
        }
        return recs;
    }

    private static int waitingAt(VirtualTimeDriver driver, long time) {
        return driver.steps.stream()
                .filter(s -> s.end() >= time)
                .findFirst()
                .orElseThrow()
                .after()
                .waiting();
    }

    @Test
    void aboveCapacityQueueAndTtftGrowWithoutBound() {
        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        List<Recording> recs = constantLoad(driver, 1000, 500); // ~5x what the default engine serves
        driver.run();

        double firstTenth = mean(recs.subList(0, 100), Recording::ttft);
        double lastTenth = mean(recs.subList(900, 1000), Recording::ttft);
        assertThat(lastTenth).isGreaterThan(10 * firstTenth);
        long arrivalsEnd = recs.get(999).request.arrivalNanos();
        int quarter = waitingAt(driver, arrivalsEnd / 4);
        int half = waitingAt(driver, arrivalsEnd / 2);
        int threeQuarters = waitingAt(driver, arrivalsEnd * 3 / 4);
        assertThat(quarter).isLessThan(half);
        assertThat(half).isLessThan(threeQuarters);
        assertThat(threeQuarters).isGreaterThan(300);
        assertThat(recs).allSatisfy(r -> assertThat(r.tokenCount()).isEqualTo(64));
    }

    @Test
    void belowCapacityQueueAndTtftStayFlat() {
        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        List<Recording> recs = constantLoad(driver, 1000, 20);
        driver.run();

        double firstTenth = mean(recs.subList(0, 100), Recording::ttft);
        double lastTenth = mean(recs.subList(900, 1000), Recording::ttft);
        assertThat(lastTenth).isLessThan(1.5 * firstTenth);
        assertThat(driver.steps.stream()
                        .mapToInt(s -> s.after().waiting())
                        .max()
                        .orElseThrow())
                .isZero();
        assertThat(recs).allSatisfy(r -> assertThat(r.ttft()).isLessThan(100 * MS));
    }

    @Test
    void ttftOfALoneRequestIsItsPrefillStepAndGrowsWithPromptLength() {
        long previous = 0;
        for (int length : new int[] {100, 1000, 4000}) {
            VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
            Recording r = driver.submit(request("r", 0, prompt(1, length), 4, 0, true));
            driver.run();
            assertThat((double) r.ttft()).isCloseTo(dynamoPrefillMs(length) * MS, within(1.0));
            assertThat(r.ttft()).isGreaterThan(previous);
            previous = r.ttft();
        }
    }

    @Test
    void aKvCacheTooSmallForTheLoadPreemptsAndStillFinishesEveryRequest() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().numBlocks(64).maxModelLen(512).build();
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        List<Recording> recs = IntStream.range(0, 16)
                .mapToObj(i -> driver.submit(request("r" + i, 0, prompt(i, 100), 300, 0, true)))
                .toList();
        driver.run();

        EngineSnapshot end = driver.snapshot();
        assertThat(end.preemptions()).isGreaterThan(0);
        assertThat(driver.steps)
                .anySatisfy(s -> assertThat(s.after().kvCacheUsage()).isGreaterThan(0.9));
        assertThat(recs).allSatisfy(r -> {
            assertThat(r.finishReason).isEqualTo(FinishReason.LENGTH);
            assertThat(r.tokenCount()).isEqualTo(300); // nothing re-sent after a recomputation
            assertThat(r.callsAfterFinish).isZero();
        });
        assertThat(end.generationTokens()).isEqualTo(16 * 300);
        assertThat(end.kvCacheUsage()).isZero();
        assertThat(end.running()).isZero();
        assertThat(end.waiting()).isZero();
    }

    @Test
    void aSharedPrefixIsServedFromTheCacheAndShortensTheSecondTtft() {
        int[] first = prompt(7, 2048);
        int[] second = Arrays.copyOf(first, 2048);
        System.arraycopy(prompt(8, 48), 0, second, 2000, 48); // same first 2000 tokens (125 blocks)

        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        Recording a = driver.submit(request("a", 0, first, 8, 0, true));
        Recording b = driver.submit(request("b", 1000 * MS, second, 8, 0, true));
        Recording c = driver.submit(request("c", 2000 * MS, first, 8, 0, true));
        driver.run();

        assertThat((double) a.ttft()).isCloseTo(dynamoPrefillMs(2048) * MS, within(1.0));
        assertThat((double) b.ttft()).isCloseTo(dynamoPrefillMs(48) * MS, within(1.0));
        // All 128 blocks are cached, but the last one is recomputed so the step has a token to sample from.
        assertThat((double) c.ttft()).isCloseTo(dynamoPrefillMs(16) * MS, within(1.0));
        EngineSnapshot s = driver.snapshot();
        assertThat(s.prefixCacheQueries()).isEqualTo(3 * 2048);
        assertThat(s.prefixCacheHits()).isEqualTo(2000 + 2032);
    }

    @Test
    void withoutPrefixCachingASharedPrefixIsPrefilledAgain() {
        int[] shared = prompt(7, 2048);
        VirtualTimeDriver driver = new VirtualTimeDriver(
                BatchingEngineConfig.builder().enablePrefixCaching(false).build());
        Recording a = driver.submit(request("a", 0, shared, 8, 0, true));
        Recording b = driver.submit(request("b", 1000 * MS, shared, 8, 0, true));
        driver.run();

        assertThat(b.ttft()).isEqualTo(a.ttft());
        assertThat(driver.snapshot().prefixCacheHits()).isZero();
        assertThat(driver.snapshot().prefixCacheQueries()).isZero();
    }

    @Test
    void chunkedPrefillKeepsEveryStepWithinTheTokenBudgetAndDecodesGoFirst() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().maxNumBatchedTokens(512).build();
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        Recording decoding = driver.submit(request("decoding", 0, prompt(1, 100), 400, 0, true));
        Recording longPrompt = driver.submit(request("long", 50 * MS, prompt(2, 3000), 4, 0, true));
        List<Recording> shortOnes = IntStream.range(0, 8)
                .mapToObj(i -> driver.submit(request("s" + i, 50 * MS, prompt(10 + i, 300), 4, 0, true)))
                .toList();
        driver.run();

        assertThat(driver.steps)
                .allSatisfy(s -> assertThat(s.shape().scheduledTokens()).isLessThanOrEqualTo(512));
        assertThat(driver.steps)
                .anySatisfy(s -> assertThat(s.shape().scheduledTokens()).isEqualTo(512));
        // While the long prompt is prefilled in chunks, the running request still gets a token every step.
        List<VirtualTimeDriver.Step> duringPrefill = driver.steps.stream()
                .filter(s -> s.start() >= 50 * MS && s.end() <= longPrompt.firstTokenAt())
                .toList();
        assertThat(duringPrefill).hasSizeGreaterThanOrEqualTo(3000 / 512);
        assertThat(duringPrefill)
                .allSatisfy(s -> assertThat(s.shape().decodeSequences()).isGreaterThanOrEqualTo(1));
        long decodingTokensDuringPrefill = decoding.tokenEvents.stream()
                .filter(e -> e[0] > duringPrefill.get(0).start() && e[0] <= longPrompt.firstTokenAt())
                .count();
        assertThat(decodingTokensDuringPrefill).isEqualTo(duringPrefill.size());
        assertThat(shortOnes).allSatisfy(r -> assertThat(r.tokenCount()).isEqualTo(4));
    }

    @Test
    void interTokenLatencyRisesWithBatchSize() {
        for (StepTimeProfile profile : StepTimeProfile.values()) {
            BatchingEngineConfig config =
                    BatchingEngineConfig.builder().profile(profile).build();
            double alone = medianItl(config, 1);
            double in64 = medianItl(config, 64);
            double in256 = medianItl(config, 256);
            assertThat(in64).as(profile.id()).isGreaterThan(1.2 * alone);
            assertThat(in256).as(profile.id()).isGreaterThan(1.2 * in64);
        }
    }

    private static double medianItl(BatchingEngineConfig config, int batch) {
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        List<Recording> recs = IntStream.range(0, batch)
                .mapToObj(i -> driver.submit(request("r" + i, 0, prompt(i, 800), 200, 0, true)))
                .toList();
        driver.run();
        long[] itls = recs.stream()
                .flatMap(r -> r.itls().stream())
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
        return itls[itls.length / 2];
    }

    @Test
    void ignoreEosGivesExactlyMaxTokens() {
        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        List<Recording> recs = IntStream.range(0, 50)
                .mapToObj(i -> driver.submit(request("r" + i, i * MS, prompt(i, 50), 1 + 37 * i, 0, true)))
                .toList();
        driver.run();
        for (int i = 0; i < 50; i++) {
            assertThat(recs.get(i).tokenCount()).isEqualTo(1 + 37 * i);
            assertThat(recs.get(i).finishReason).isEqualTo(FinishReason.LENGTH);
        }
    }

    @Test
    void withoutIgnoreEosTheSampledLengthIsClampedByMinAndMaxTokens() {
        BatchingEngineConfig fixedLength = BatchingEngineConfig.builder()
                .outputLength(new OutputLength(10, 0))
                .build();
        VirtualTimeDriver driver = new VirtualTimeDriver(fixedLength);
        Recording natural = driver.submit(request("natural", 0, prompt(1, 20), 100, 0, false));
        Recording atLeast = driver.submit(request("atLeast", 0, prompt(2, 20), 100, 50, false));
        Recording cut = driver.submit(request("cut", 0, prompt(3, 20), 5, 0, false));
        driver.run();
        assertThat(natural.tokenCount()).isEqualTo(10);
        assertThat(natural.finishReason).isEqualTo(FinishReason.STOP);
        assertThat(atLeast.tokenCount()).isEqualTo(50);
        assertThat(atLeast.finishReason).isEqualTo(FinishReason.STOP);
        assertThat(cut.tokenCount()).isEqualTo(5);
        assertThat(cut.finishReason).isEqualTo(FinishReason.LENGTH);

        BatchingEngineConfig spread = BatchingEngineConfig.builder()
                .outputLength(new OutputLength(20, 1))
                .build();
        VirtualTimeDriver many = new VirtualTimeDriver(spread);
        List<Recording> recs = IntStream.range(0, 300)
                .mapToObj(i -> many.submit(request("r" + i, 0, prompt(i, 20), 40, 5, false)))
                .toList();
        many.run();
        assertThat(recs).allSatisfy(r -> assertThat(r.tokenCount()).isBetween(5, 40));
        assertThat(recs.stream().mapToInt(Recording::tokenCount).distinct().count())
                .isGreaterThan(10);
        assertThat(recs).anySatisfy(r -> assertThat(r.finishReason).isEqualTo(FinishReason.LENGTH));
        assertThat(recs).anySatisfy(r -> assertThat(r.finishReason).isEqualTo(FinishReason.STOP));
    }

    @Test
    void speculativeDecodingEmitsSeveralTokensPerStep() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().tokensPerStep(3).build();
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        Recording r = driver.submit(request("r", 0, prompt(1, 100), 11, 0, true));
        driver.run();
        assertThat(r.tokenEvents.stream().map(e -> e[1]).toList()).containsExactly(1L, 3L, 3L, 3L, 1L);
    }

    @Test
    void requestsLongerThanTheModelAreRejectedWith400() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().maxModelLen(1024).build();
        BatchScheduler scheduler = new BatchScheduler(config);

        assertThat(scheduler.reserve(request("ok", 0, prompt(1, 1000), 24, 0, false)))
                .isEqualTo(Admission.ACCEPTED);
        Admission tooLong = scheduler.reserve(request("long", 0, prompt(1, 1000), 100, 0, false));
        assertThat(tooLong).isInstanceOfSatisfying(Admission.Rejected.class, r -> {
            assertThat(r.httpStatus()).isEqualTo(400);
            assertThat(r.errorType()).isEqualTo("BadRequestError");
            assertThat(r.message())
                    .contains("maximum context length is 1024 tokens")
                    .contains("1000 input tokens");
        });
        assertThat(scheduler.reserve(request("prompt", 0, prompt(1, 1024), 1, 0, false)))
                .isInstanceOfSatisfying(
                        Admission.Rejected.class,
                        r -> assertThat(r.httpStatus()).isEqualTo(400));
        assertThat(scheduler.reserve(request("min", 0, prompt(1, 10), 5, 6, false)))
                .isInstanceOfSatisfying(
                        Admission.Rejected.class,
                        r -> assertThat(r.httpStatus()).isEqualTo(400));
    }

    @Test
    void aFullWaitingQueueRejectsWith429AndRetryAfter() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().maxWaiting(2).build();
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        Recording a = driver.submit(request("a", 0, prompt(1, 100), 10, 0, true));
        Recording b = driver.submit(request("b", 0, prompt(2, 100), 10, 0, true));
        Recording c = driver.submit(request("c", 0, prompt(3, 100), 10, 0, true));
        Recording d = driver.submit(request("d", 500 * MS, prompt(4, 100), 10, 0, true));
        driver.run();

        assertThat(a.admission).isEqualTo(Admission.ACCEPTED);
        assertThat(b.admission).isEqualTo(Admission.ACCEPTED);
        assertThat(c.admission).isInstanceOfSatisfying(Admission.Rejected.class, r -> {
            assertThat(r.httpStatus()).isEqualTo(429);
            assertThat(r.errorType()).isEqualTo("RateLimitError");
            assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        });
        assertThat(c.tokenEvents).isEmpty();
        assertThat(d.admission).isEqualTo(Admission.ACCEPTED); // the queue drained into the batch
        assertThat(d.tokenCount()).isEqualTo(10);
    }

    @Test
    void cancellingARunningRequestFreesItsBlocksAndStopsItsTokens() {
        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        Recording r = driver.submit(request("r", 0, prompt(1, 1000), 2000, 0, true));
        driver.cancelAt(200 * MS, "r");
        driver.run();

        assertThat(r.finishReason).isEqualTo(FinishReason.ABORT);
        assertThat(r.finishedAt).isGreaterThanOrEqualTo(200 * MS);
        assertThat(r.tokenEvents).allSatisfy(e -> assertThat(e[0]).isLessThanOrEqualTo(r.finishedAt));
        assertThat(r.tokenCount()).isBetween(2, 2000 - 1);
        assertThat(driver.steps.get(driver.steps.size() - 1).after().kvCacheUsage())
                .isGreaterThan(0);
        EngineSnapshot end = driver.snapshot();
        assertThat(end.kvCacheUsage()).isZero();
        assertThat(end.running()).isZero();
        assertThat(driver.steps.get(driver.steps.size() - 1).end()).isLessThanOrEqualTo(r.finishedAt);
    }

    @Test
    void cancellingAWaitingRequestRemovesItFromTheQueue() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().maxNumSeqs(1).build();
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        Recording first = driver.submit(request("first", 0, prompt(1, 100), 50, 0, true));
        Recording second = driver.submit(request("second", 0, prompt(2, 100), 50, 0, true));
        driver.cancelAt(20 * MS, "second");
        driver.run();

        assertThat(first.tokenCount()).isEqualTo(50);
        assertThat(second.scheduledAt).isEqualTo(-1);
        assertThat(second.tokenEvents).isEmpty();
        assertThat(second.finishReason).isEqualTo(FinishReason.ABORT);
        assertThat(driver.steps.stream().filter(s -> s.start() >= 20 * MS))
                .allSatisfy(s -> assertThat(s.after().waiting()).isZero());
    }

    @Test
    void countersFollowVllmMeanings() {
        VirtualTimeDriver driver = new VirtualTimeDriver(BatchingEngineConfig.defaults());
        driver.submit(request("a", 0, prompt(1, 300), 20, 0, true));
        driver.submit(request("b", 0, prompt(2, 500), 30, 0, true));
        driver.run();
        EngineSnapshot s = driver.snapshot();
        assertThat(s.promptTokens()).isEqualTo(800);
        assertThat(s.generationTokens()).isEqualTo(50);
        assertThat(s.prefixCacheQueries()).isEqualTo(800);
        assertThat(s.numBlocks()).isEqualTo(16384);
        assertThat(s.blockSize()).isEqualTo(16);
        assertThat(s.maxModelLen()).isEqualTo(8192);
    }

    @Test
    void aSeededRunRepeatsExactlyEvenWithJitter() {
        BatchingEngineConfig config =
                BatchingEngineConfig.builder().jitter(0.2).seed(42).build();
        assertThat(tokenTimes(config)).isEqualTo(tokenTimes(config));
        assertThat(tokenTimes(config))
                .isNotEqualTo(tokenTimes(config.toBuilder().seed(43).build()));
    }

    private static List<Long> tokenTimes(BatchingEngineConfig config) {
        VirtualTimeDriver driver = new VirtualTimeDriver(config);
        List<Recording> recs = IntStream.range(0, 20)
                .mapToObj(i -> driver.submit(request("r" + i, i * 10 * MS, prompt(i, 200), 100, 0, false)))
                .toList();
        driver.run();
        return recs.stream().flatMap(r -> r.tokenEvents.stream().map(e -> e[0])).toList();
    }
}
