package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;

/**
 * The scheduler's state of one accepted request. Token accounting follows vLLM V1: the sequence
 * has {@code prompt + output} tokens, of which the first {@link #numComputed} have their KV in the
 * cache; a step computes some of the rest and, once it reaches the end, samples new tokens. A
 * preemption drops the KV ({@code numComputed = 0}) but keeps the output already streamed, so
 * the request resumes by recomputing prompt and output and then carries on generating.
 * Owned by the {@link BatchScheduler}'s thread.
 */
final class Sequence {

    final GenerationRequest request;
    final TokenSink sink;
    final int promptLength;
    /** Tokens this request will generate in all: sampled at arrival, clamped to its limits. */
    final int targetOutput;

    final FinishReason finishReason;
    /** Hash chain of the prompt's full blocks; empty when prefix caching is off. */
    final long[] promptBlockHashes;
    /** KV blocks held, in token order. */
    final int[] blocks;

    int numBlocks;
    /** Leading blocks known to the prefix cache (found there, or registered once computed). */
    int numCachedBlocks;

    int numComputed;
    int numOutput;
    boolean started;
    boolean preempted;
    boolean inBatch;
    /** Cancelled or finished: no further sink call, and it leaves the waiting queue or batch. */
    boolean done;
    /** The last step that scheduled this sequence, and what it scheduled there. */
    long scheduledInStep = -1;

    int stepTokens;
    boolean stepDecodes;
    /** Tokens the step that just ended emits: counted by {@code countStep}, sent by {@code deliverStep}. */
    int stepEmitted;

    Sequence(GenerationRequest request, TokenSink sink, int targetOutput, long[] promptBlockHashes, int blockSize) {
        this.request = request;
        this.sink = sink;
        this.promptLength = request.promptTokens();
        this.targetOutput = targetOutput;
        this.finishReason = targetOutput == request.maxTokens() ? FinishReason.LENGTH : FinishReason.STOP;
        this.promptBlockHashes = promptBlockHashes;
        this.blocks = new int[Math.ceilDiv(promptLength + targetOutput, blockSize)];
    }

    int numTokens() {
        return promptLength + numOutput;
    }

    /** Generating: its only uncomputed token is the one sampled last. */
    boolean decoding() {
        return numOutput > 0 && numComputed == numTokens() - 1;
    }
}
