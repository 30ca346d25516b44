package dev.llmload.twin.fit;

import java.util.Arrays;
import java.util.List;

/**
 * One run's token events grouped into the engine steps that produced them: every event within a
 * tolerance of a step's earliest event belongs to that step (the client reads one step's tokens
 * with a little jitter; steps lie further apart than that). A step that gave no token to anyone
 * (a prefill chunk with nothing decoding) is not seen. Pure.
 *
 * @param nanos        per step: its earliest token event
 * @param decodeTokens per step: tokens of the events that were not a request's first
 * @param decoders     per step: requests whose event in it was not their first
 * @param firstTokens  per step: requests whose first token came in it
 * @param context      per step: KV tokens read by its decoders (prompt and tokens before this one)
 *                     and by the prompts that completed in it (the whole prompt)
 * @param firstStep    per request, in the order given: the step of its first token
 * @param eventStep    per request, per token event: its step
 */
record VisibleSteps(
        long[] nanos,
        int[] decodeTokens,
        int[] decoders,
        int[] firstTokens,
        long[] context,
        int[] firstStep,
        int[][] eventStep) {

    /** Groups the token events of {@code requests}, each within {@code toleranceNanos} of its step's earliest. */
    static VisibleSteps of(List<RequestTimeline> requests, long toleranceNanos) {
        int events = 0;
        for (RequestTimeline r : requests) {
            events += r.tokenNanos().length;
        }
        long[] time = new long[events];
        int[] request = new int[events];
        int[] event = new int[events];
        Integer[] order = new Integer[events];
        int k = 0;
        for (int i = 0; i < requests.size(); i++) {
            long[] t = requests.get(i).tokenNanos();
            for (int e = 0; e < t.length; e++, k++) {
                time[k] = t[e];
                request[k] = i;
                event[k] = e;
                order[k] = k;
            }
        }
        Arrays.sort(order, (a, b) -> Long.compare(time[a], time[b]));
        int[][] eventStep = new int[requests.size()][];
        for (int i = 0; i < requests.size(); i++) {
            eventStep[i] = new int[requests.get(i).tokenNanos().length];
        }
        long[] nanos = new long[events];
        int steps = 0;
        for (int o : order) {
            if (steps == 0 || time[o] - nanos[steps - 1] > toleranceNanos) {
                nanos[steps++] = time[o];
            }
            eventStep[request[o]][event[o]] = steps - 1;
        }
        int[] decodeTokens = new int[steps];
        int[] decoders = new int[steps];
        int[] firstTokens = new int[steps];
        long[] context = new long[steps];
        int[] firstStep = new int[requests.size()];
        for (int i = 0; i < requests.size(); i++) {
            RequestTimeline r = requests.get(i);
            for (int e = 0; e < eventStep[i].length; e++) {
                int s = eventStep[i][e];
                if (e == 0) {
                    firstStep[i] = s;
                    firstTokens[s]++;
                    context[s] += r.inputTokens();
                } else {
                    decoders[s]++;
                    decodeTokens[s] += r.tokensAt(e);
                    context[s] += r.inputTokens() + r.tokensThrough()[e - 1];
                }
            }
        }
        return new VisibleSteps(
                Arrays.copyOf(nanos, steps), decodeTokens, decoders, firstTokens, context, firstStep, eventStep);
    }

    int count() {
        return nanos.length;
    }

    /** Requests with a token in step {@code s}. */
    int batch(int s) {
        return decoders[s] + firstTokens[s];
    }

    /** The largest batch of one step: a lower bound on the engine's most running sequences. */
    int maxBatch() {
        int max = 0;
        for (int s = 0; s < count(); s++) {
            max = Math.max(max, batch(s));
        }
        return max;
    }
}
