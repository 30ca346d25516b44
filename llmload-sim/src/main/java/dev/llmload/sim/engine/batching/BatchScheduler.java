package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.EngineSnapshot;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The continuous-batching scheduler and its paged KV cache, with no notion of real time: the
 * caller says what time it is. A driver alternates {@link #beginStep} (choose the batch, allocate
 * its blocks, return the step's modelled duration) and {@link #endStep} (the step's tokens are out:
 * emit them, finish what is done), and feeds arrivals and cancellations in between. The threaded
 * {@link BatchingEngine} and the virtual-time test driver both run exactly this code.
 *
 * <p>Scheduling follows vLLM's V1 scheduler. Each step has a token budget. Decoding sequences of
 * the running batch take their token first, oldest first; then sequences of the batch still
 * prefilling take a chunk of their prompt; then, unless this step preempted something, waiting
 * requests are admitted in FIFO order while the batch has room, the budget lasts and their first
 * chunk's blocks fit above the watermark. A sequence that needs a block when none is free preempts
 * the newest sequence of the batch not yet scheduled in this step (possibly itself): its blocks are
 * freed and it goes back to the front of the waiting queue, to recompute its KV later.
 *
 * <p>Threading: {@link #reserve} may be called from any thread (it checks the request and holds a
 * place in the waiting queue); every other method belongs to the one thread that drives the
 * scheduler, and the sinks are called on it.
 */
final class BatchScheduler {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final int blockSize;
    private final int maxNumSeqs;
    private final int maxNumBatchedTokens;
    private final int tokensPerStep;
    private final int watermarkBlocks;
    private final int maxModelLen;
    private final int maxWaiting;
    private final boolean prefixCaching;
    private final OutputLength outputLength;
    private final BlockPool pool;
    private final StepTimer timer;
    private final SplittableRandom lengthRandom;

    /** Accepted requests outside the batch: reserved but not yet enqueued, or waiting. Any thread. */
    private final AtomicInteger queued = new AtomicInteger();

    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    /** Sequences in {@link #waiting} that are not done (the deque drops cancelled ones lazily). */
    private int numWaiting;

    private final Sequence[] running;
    private int numRunning;
    /** Some sequence in {@link #running} is done and must be compacted away. */
    private boolean runningHasDone;
    /**
     * Sequences of the running batch that the step {@link #countStep} counted reaches the end of:
     * {@link #deliverStep} finishes them, and a {@link #snapshot} taken between the two already
     * leaves them out of the running count.
     */
    private int finishingInStep;

    private final Map<String, Sequence> byId = new HashMap<>();

    private final Sequence[] stepSequences;
    private int stepCount;
    private long stepId;
    private boolean preemptedThisStep;
    private StepShape lastStep;

    private long preemptions;
    private long promptTokens;
    private long generationTokens;
    private long prefixCacheQueries;
    private long prefixCacheHits;

    BatchScheduler(BatchingEngineConfig config) {
        blockSize = config.blockSize();
        maxNumSeqs = config.maxNumSeqs();
        maxNumBatchedTokens = config.maxNumBatchedTokens();
        tokensPerStep = config.tokensPerStep();
        watermarkBlocks = config.watermarkBlocks();
        maxModelLen = config.maxModelLen();
        maxWaiting = config.maxWaiting();
        prefixCaching = config.enablePrefixCaching();
        outputLength = config.outputLength();
        pool = new BlockPool(config.numBlocks());
        // Separate streams, so turning jitter on does not change the output lengths.
        SplittableRandom root = new SplittableRandom(config.seed());
        lengthRandom = root.split();
        timer = new StepTimer(config.stepTimeModel(), config.speedup(), config.jitter(), root.nextLong());
        running = new Sequence[maxNumSeqs];
        stepSequences = new Sequence[maxNumSeqs];
    }

    /**
     * Checks the request against the model's limits and the queue bound. When it is accepted, a
     * place in the waiting queue is held for it and the caller must {@link #enqueue} it. Any thread.
     */
    Admission reserve(GenerationRequest request) {
        int prompt = request.promptTokens();
        int maxTokens = request.maxTokens();
        if (prompt == 0) {
            return badRequest("The prompt must contain at least one token.");
        }
        if (maxTokens < 1) {
            return badRequest("max_tokens must be at least 1, got " + maxTokens + ".");
        }
        if (request.minTokens() < 0 || request.minTokens() > maxTokens) {
            return badRequest("min_tokens must be greater than or equal to 0 and less than or equal to max_tokens="
                    + maxTokens + ", got " + request.minTokens() + ".");
        }
        if (prompt >= maxModelLen) {
            return badRequest(
                    "This model's maximum context length is " + maxModelLen + " tokens. However, your request has "
                            + prompt + " input tokens. Please reduce the length of the input messages.");
        }
        if ((long) prompt + maxTokens > maxModelLen) {
            return badRequest("'max_tokens' or 'max_completion_tokens' is too large: " + maxTokens
                    + ". This model's maximum context length is " + maxModelLen + " tokens and your request has "
                    + prompt + " input tokens (" + maxTokens + " > " + maxModelLen + " - " + prompt + ").");
        }
        if (maxWaiting == 0) {
            queued.incrementAndGet();
            return Admission.ACCEPTED;
        }
        for (int q = queued.get(); q < maxWaiting; q = queued.get()) {
            if (queued.compareAndSet(q, q + 1)) {
                return Admission.ACCEPTED;
            }
        }
        return new Admission.Rejected(
                429,
                "RateLimitError",
                "The server is busy: " + maxWaiting + " requests are already waiting. Please retry later.",
                RETRY_AFTER);
    }

    /** Puts a request accepted by {@link #reserve} at the back of the waiting queue. */
    void enqueue(GenerationRequest request, TokenSink sink) {
        int target = request.ignoreEos()
                ? request.maxTokens()
                : outputLength.sample(lengthRandom, request.minTokens(), request.maxTokens());
        long[] hashes = prefixCaching ? blockHashes(request.promptTokenIds(), blockSize) : new long[0];
        Sequence s = new Sequence(request, sink, target, hashes, blockSize);
        waiting.addLast(s);
        numWaiting++;
        byId.put(request.requestId(), s);
    }

    /** Ends the request with {@link FinishReason#ABORT} and frees its blocks; unknown ids are ignored. */
    void cancel(String requestId, long now) {
        Sequence s = byId.get(requestId);
        if (s != null) {
            end(s, FinishReason.ABORT, now);
        }
    }

    /** Aborts every request, for shutdown. */
    void abortAll(long now) {
        for (int i = 0; i < numRunning; i++) {
            if (!running[i].done) {
                end(running[i], FinishReason.ABORT, now);
            }
        }
        for (Sequence s : waiting) {
            if (!s.done) {
                end(s, FinishReason.ABORT, now);
            }
        }
        waiting.clear();
        compactRunning();
    }

    boolean hasWork() {
        if (runningHasDone) {
            compactRunning();
        }
        return numRunning > 0 || numWaiting > 0;
    }

    /**
     * Chooses this step's batch, allocates its KV blocks and calls {@link TokenSink#scheduled} for
     * requests entering the batch for the first time.
     *
     * @return the step's duration in nanoseconds, or 0 when there is nothing to schedule
     */
    long beginStep(long now) {
        if (runningHasDone) {
            compactRunning();
        }
        stepId++;
        stepCount = 0;
        preemptedThisStep = false;
        int budget = maxNumBatchedTokens;

        for (int i = 0; i < numRunning && budget > 0; ) {
            Sequence s = running[i];
            if (!s.decoding()) {
                i++;
                continue;
            }
            int n = Math.min(Math.min(tokensPerStep, s.targetOutput - s.numOutput), budget);
            if (reserveBlocks(s, n)) {
                schedule(s, n, true);
                budget -= n;
                i++;
            } // else s preempted itself and the next sequence moved into slot i
        }
        for (int i = 0; i < numRunning && budget > 0; ) {
            Sequence s = running[i];
            if (s.scheduledInStep == stepId || s.decoding()) {
                i++;
                continue;
            }
            int n = Math.min(s.numTokens() - s.numComputed, budget);
            if (reserveBlocks(s, n)) {
                schedule(s, n, false);
                budget -= n;
                i++;
            }
        }
        if (!preemptedThisStep) {
            admitWaiting(budget, now);
        }
        if (stepCount == 0) {
            lastStep = null;
            // Only self-preemptions emptied this step; the next one admits from the queue again.
            return preemptedThisStep ? beginStep(now) : 0;
        }
        lastStep = shapeOfStep();
        return timer.nanos(lastStep);
    }

    /** The step begun last is over at {@code now}: emits its tokens and finishes what is complete. */
    void endStep(long now) {
        countStep();
        deliverStep(now);
    }

    /**
     * The first half of {@link #endStep}: the step's computed tokens, what each sequence emits, and
     * the engine's counters, with no sink told yet. A {@link #snapshot} taken before {@link
     * #deliverStep} counts every token the sinks are about to send, so a client never holds a token
     * the server's counters do not: published after the sinks, a scrape between the two (a client
     * that read its last token and then {@code /metrics}) saw one step less. Nor does it count as
     * running a request the step ends: a client that read its answer whole and then scraped, while
     * the engine's thread waited for a core after the delivery (a busy host), saw it running.
     */
    void countStep() {
        finishingInStep = 0;
        for (int i = 0; i < stepCount; i++) {
            Sequence s = stepSequences[i];
            s.stepEmitted = 0;
            if (s.done) {
                continue;
            }
            s.numComputed += s.stepTokens;
            registerComputedPromptBlocks(s);
            if (s.stepDecodes) {
                s.stepEmitted = s.stepTokens;
            } else if (s.numComputed == s.numTokens()) {
                s.stepEmitted = 1; // prefill (or recomputation) complete: the step samples the next token
            } else {
                continue; // one chunk of a longer prefill
            }
            if (s.numOutput == 0) {
                promptTokens += s.promptLength;
            }
            s.numOutput += s.stepEmitted;
            generationTokens += s.stepEmitted;
            if (s.numOutput >= s.targetOutput) {
                finishingInStep++;
            }
        }
    }

    /** The second half of {@link #endStep}: the tokens {@link #countStep} counted to their sinks, and what is complete finished. */
    void deliverStep(long now) {
        for (int i = 0; i < stepCount; i++) {
            Sequence s = stepSequences[i];
            stepSequences[i] = null;
            if (s.done || s.stepEmitted == 0) {
                continue;
            }
            try {
                s.sink.tokens(s.stepEmitted, now);
            } catch (RuntimeException e) {
                sinkFailed(s, e);
                continue;
            }
            if (s.numOutput >= s.targetOutput) {
                end(s, s.finishReason, now);
            }
        }
        stepCount = 0;
        finishingInStep = 0;
    }

    /** The shape of the step begun last, or null when it scheduled nothing. */
    StepShape lastStep() {
        return lastStep;
    }

    EngineSnapshot snapshot(double stepLagSeconds) {
        if (runningHasDone) {
            compactRunning();
        }
        return new EngineSnapshot(
                numRunning - finishingInStep,
                queued.get(),
                kvCacheUsage(),
                preemptions,
                promptTokens,
                generationTokens,
                prefixCacheQueries,
                prefixCacheHits,
                pool.numBlocks(),
                blockSize,
                maxModelLen,
                stepLagSeconds);
    }

    private double kvCacheUsage() {
        return 1 - pool.numFree() / (double) pool.numBlocks();
    }

    private void admitWaiting(int budget, long now) {
        while (budget > 0 && numRunning < maxNumSeqs && !waiting.isEmpty()) {
            Sequence s = waiting.peekFirst();
            if (s.done) {
                waiting.pollFirst();
                continue;
            }
            // Longest cached prefix of full prompt blocks; at least one token is always computed,
            // so the step has something to sample from (vLLM caps the hit at numTokens - 1 too).
            int hitBlocks = 0;
            int hitBlocksNowFree = 0;
            int maxHitBlocks = Math.min(s.promptBlockHashes.length, (s.numTokens() - 1) / blockSize);
            while (hitBlocks < maxHitBlocks) {
                int b = pool.cachedBlock(s.promptBlockHashes[hitBlocks]);
                if (b < 0) {
                    break;
                }
                if (pool.isFree(b)) {
                    hitBlocksNowFree++;
                }
                s.blocks[hitBlocks++] = b;
            }
            int hitTokens = hitBlocks * blockSize;
            int n = Math.min(s.numTokens() - hitTokens, budget);
            int newBlocks = Math.ceilDiv(hitTokens + n, blockSize) - hitBlocks;
            if (pool.numFree() - hitBlocksNowFree - newBlocks < watermarkBlocks) {
                return; // FIFO: nobody overtakes the head of the queue
            }
            waiting.pollFirst();
            numWaiting--;
            queued.decrementAndGet();
            for (int k = 0; k < hitBlocks; k++) {
                pool.touch(s.blocks[k]);
            }
            s.numBlocks = hitBlocks;
            s.numCachedBlocks = hitBlocks;
            for (int k = 0; k < newBlocks; k++) {
                s.blocks[s.numBlocks++] = pool.allocate();
            }
            s.numComputed = hitTokens;
            // vLLM counts prefix-cache queries and hits in tokens, for requests not resumed after a preemption.
            if (prefixCaching && !s.preempted) {
                prefixCacheQueries += s.numTokens();
                prefixCacheHits += hitTokens;
            }
            running[numRunning++] = s;
            s.inBatch = true;
            schedule(s, n, false);
            budget -= n;
            if (!s.started) {
                s.started = true;
                try {
                    s.sink.scheduled(now, hitTokens);
                } catch (RuntimeException e) {
                    sinkFailed(s, e);
                }
            }
        }
    }

    /** Gives {@code s} the blocks for {@code n} more tokens, preempting as needed; false if {@code s} itself went. */
    private boolean reserveBlocks(Sequence s, int n) {
        int needed = Math.ceilDiv(s.numComputed + n, blockSize) - s.numBlocks;
        while (needed > pool.numFree()) {
            Sequence victim = newestUnscheduled();
            preempt(victim);
            if (victim == s) {
                return false;
            }
        }
        for (int k = 0; k < needed; k++) {
            s.blocks[s.numBlocks++] = pool.allocate();
        }
        return true;
    }

    /** The sequence asking for blocks is itself unscheduled, so this always finds one. */
    private Sequence newestUnscheduled() {
        for (int j = numRunning - 1; ; j--) {
            if (running[j].scheduledInStep != stepId) {
                return running[j];
            }
        }
    }

    private void preempt(Sequence v) {
        removeFromRunning(v);
        releaseBlocks(v);
        v.numComputed = 0;
        v.numCachedBlocks = 0;
        v.preempted = true;
        waiting.addFirst(v);
        numWaiting++;
        queued.incrementAndGet();
        preemptions++;
        preemptedThisStep = true;
    }

    private void schedule(Sequence s, int n, boolean decodes) {
        s.scheduledInStep = stepId;
        s.stepTokens = n;
        s.stepDecodes = decodes;
        stepSequences[stepCount++] = s;
    }

    private StepShape shapeOfStep() {
        int prefill = 0;
        int decodeSequences = 0;
        int decodeTokens = 0;
        long context = 0;
        for (int i = 0; i < stepCount; i++) {
            Sequence s = stepSequences[i];
            if (s.stepDecodes) {
                decodeSequences++;
                decodeTokens += s.stepTokens;
            } else {
                prefill += s.stepTokens;
            }
            context += s.numComputed + s.stepTokens;
        }
        return new StepShape(prefill, decodeSequences, decodeTokens, context, stepCount, kvCacheUsage());
    }

    /** Full prompt blocks whose KV is now computed become findable by later requests. */
    private void registerComputedPromptBlocks(Sequence s) {
        int computedFull = Math.min(s.promptBlockHashes.length, s.numComputed / blockSize);
        for (int k = s.numCachedBlocks; k < computedFull; k++) {
            pool.register(s.blocks[k], s.promptBlockHashes[k]);
        }
        s.numCachedBlocks = Math.max(s.numCachedBlocks, computedFull);
    }

    /** Finishes, cancels or aborts {@code s}: frees what it holds and tells its sink. */
    private void end(Sequence s, FinishReason reason, long now) {
        retire(s);
        try {
            s.sink.finished(reason, now);
        } catch (RuntimeException e) {
            report(e);
        }
    }

    /** A sink that throws is a bug on the HTTP side; the request is dropped, the engine carries on. */
    private void sinkFailed(Sequence s, RuntimeException e) {
        retire(s);
        report(e);
    }

    private void retire(Sequence s) {
        s.done = true;
        byId.remove(s.request.requestId(), s);
        if (s.inBatch) {
            s.inBatch = false;
            releaseBlocks(s);
            runningHasDone = true;
        } else {
            numWaiting--;
            queued.decrementAndGet();
        }
    }

    private static void report(RuntimeException e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
    }

    /** Releases the tail first, so the blocks least likely to be shared are evicted first (as vLLM). */
    private void releaseBlocks(Sequence s) {
        for (int k = s.numBlocks - 1; k >= 0; k--) {
            pool.release(s.blocks[k]);
        }
        s.numBlocks = 0;
    }

    private void removeFromRunning(Sequence s) {
        for (int j = numRunning - 1; j >= 0; j--) {
            if (running[j] == s) {
                System.arraycopy(running, j + 1, running, j, numRunning - j - 1);
                running[--numRunning] = null;
                s.inBatch = false;
                return;
            }
        }
        throw new IllegalStateException("not in the running batch: " + s.request.requestId());
    }

    private void compactRunning() {
        int kept = 0;
        for (int i = 0; i < numRunning; i++) {
            if (!running[i].done) {
                running[kept++] = running[i];
            }
        }
        for (int i = kept; i < numRunning; i++) {
            running[i] = null;
        }
        numRunning = kept;
        runningHasDone = false;
    }

    /**
     * The hash chain of the prompt's full blocks: each block's value mixes the previous block's
     * value with this block's token ids, so equal values mean equal prefixes (up to 64-bit collisions).
     */
    static long[] blockHashes(int[] tokenIds, int blockSize) {
        long[] hashes = new long[tokenIds.length / blockSize];
        long h = 0x243F6A8885A308D3L;
        for (int b = 0, t = 0; b < hashes.length; b++) {
            for (int end = t + blockSize; t < end; t++) {
                h = Long.rotateLeft(h ^ (tokenIds[t] * 0x9E3779B97F4A7C15L), 31) * 0xBF58476D1CE4E5B9L;
            }
            h ^= h >>> 33;
            h *= 0xFF51AFD7ED558CCDL;
            h ^= h >>> 33;
            hashes[b] = h;
        }
        return hashes;
    }

    private static Admission badRequest(String message) {
        return new Admission.Rejected(400, "BadRequestError", message, null);
    }
}
