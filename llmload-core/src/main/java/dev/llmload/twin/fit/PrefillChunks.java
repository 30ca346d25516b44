package dev.llmload.twin.fit;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Which prompt tokens each visible engine step of one run computed, when the engine splits a
 * prefill that does not fit what is left of its per-step token budget into chunks over several
 * steps (vLLM's chunked prefill; the simulator's {@code maxNumBatchedTokens}). Pure; derivation in
 * the package doc.
 *
 * <p>The budget is replayed over the {@link VisibleSteps} in the engine's first-come order: by the
 * step of the first token, and within a step by the time the request was sent (a prompt admitted
 * first completes first, and the engine admits in the order requests arrived). In each step the
 * decode tokens come first, then the prompts that complete in it, then at most one prompt that is
 * cut where the budget runs out and completes in a later step.
 *
 * @param prefillTokens    per step: prompt tokens computed in it
 * @param cutContext       per step: the prompt tokens computed by the step's end of the request
 *                         whose prefill was cut in it (the KV its chunk read), 0 when none was
 * @param cutPrefills      prompts whose prefill was cut at least once
 * @param unexplainedSteps steps whose first tokens needed more prefill than the budget left them
 *                         (a budget set too low, or one step's token events read far apart)
 */
record PrefillChunks(int[] prefillTokens, int[] cutContext, int cutPrefills, int unexplainedSteps) {

    /**
     * Replays a per-step budget of {@code budgetTokens} over the {@code steps} of {@code requests}
     * (in the order {@code steps} numbers them). A prompt is cut in a step only where that
     * is what the engine would have done: the step had budget left after its decodes and
     * completions, a seat free below {@code seatLimit}, the request had been sent before the step
     * began, and with the chunk cut there the following steps' budgets complete the prompt exactly
     * in the step where its first token came. Otherwise the request was still waiting (for a seat,
     * for KV blocks, or it was not yet sent) and its whole prompt is computed where its first token
     * came, less whole budgets of earlier steps that gave no token, when it is longer than what was
     * left there.
     */
    static PrefillChunks of(List<RequestTimeline> requests, VisibleSteps steps, int budgetTokens, int seatLimit) {
        int n = requests.size();
        List<RequestTimeline> fifo = IntStream.range(0, n)
                .boxed()
                .sorted(Comparator.<Integer>comparingInt(i -> steps.firstStep()[i])
                        .thenComparingLong(i -> requests.get(i).sentNanos()))
                .map(requests::get)
                .toList();
        int[] firstStep =
                IntStream.range(0, n).map(i -> steps.firstStep()[i]).sorted().toArray();
        int stepCount = steps.count();
        int[] prefill = new int[stepCount];
        int[] cutContext = new int[stepCount];
        boolean[] wasCut = new boolean[n];
        int cutPrefills = 0;
        int unexplained = 0;
        int cut = -1; // the request whose prefill is under way, cut at the budget
        int cutDone = 0;
        int next = 0; // the first request, in first-come order, not yet through its first token
        for (int s = 0; s < stepCount; s++) {
            int left = budgetTokens - steps.decodeTokens()[s];
            boolean overBudget = false;
            for (; next < n && firstStep[next] == s; next++) {
                int prompt = fifo.get(next).inputTokens();
                if (next == cut) {
                    prompt -= cutDone;
                    cut = -1;
                } else if (prompt > left && left >= 1) {
                    // More than this step had left: the rest went in earlier steps that gave nobody a
                    // token (nothing was decoding), each of a whole budget.
                    prompt = Math.max(1, prompt - Math.ceilDiv(prompt - left, budgetTokens) * budgetTokens);
                }
                overBudget |= prompt > left;
                prefill[s] += prompt;
                left -= prompt;
            }
            if (overBudget) {
                unexplained++;
            }
            if (left <= 0 || next >= n) {
                continue;
            }
            if (cut >= 0) {
                // Still under way (the steps ahead complete it): it takes all that is left.
                cutDone += left;
                prefill[s] += left;
                cutContext[s] = cutDone;
                continue;
            }
            RequestTimeline head = fifo.get(next);
            long stepStart = steps.nanos()[Math.max(0, s - 1)];
            if (steps.batch(s) < seatLimit
                    && head.sentNanos() <= stepStart
                    && head.inputTokens() > left
                    && completesAt(steps, head.inputTokens() - left, s, budgetTokens) == firstStep[next]) {
                cut = next;
                cutDone = left;
                prefill[s] += left;
                cutContext[s] = left;
                if (!wasCut[next]) {
                    wasCut[next] = true;
                    cutPrefills++;
                }
            }
        }
        return new PrefillChunks(prefill, cutContext, cutPrefills, unexplained);
    }

    /**
     * The step where a prefill with {@code rest} tokens to go after step {@code s} completes when it
     * takes each following step's budget after the step's decodes; -1 when another prompt completes
     * first (none could have, behind a prefill under way) or the steps run out.
     */
    private static int completesAt(VisibleSteps steps, int rest, int s, int budgetTokens) {
        for (int t = s + 1; t < steps.count(); t++) {
            int left = budgetTokens - steps.decodeTokens()[t];
            if (rest <= left) {
                return t;
            }
            if (steps.firstTokens()[t] > 0) {
                return -1;
            }
            rest -= Math.max(0, left);
        }
        return -1;
    }

    /** Whether a prompt was cut in step {@code s}: one more sequence in its batch. */
    boolean cutIn(int s) {
        return cutContext[s] > 0;
    }
}
