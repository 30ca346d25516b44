/**
 * Estimating a continuous-batching engine from what a client measured: pure arithmetic, no I/O.
 *
 * <h2>The model</h2>
 *
 * The engine runs steps back to back while it has work. A step of batch size B, reading C KV
 * tokens of context and prefilling P prompt tokens, takes
 * <pre>
 *   T = s + b·B + c·C/1000 + p·P + q·P²                                       (1)
 * </pre>
 * ({@code StepTimeModel.Linear} in llmload-sim; {@code s} = step_ms, {@code b} = per_sequence_ms,
 * {@code c} = context_ms_per_1k_tokens, {@code p} = prefill_ms_per_token, {@code q} =
 * prefill_ms_per_token_sq). Every step emits one token to each sequence that decodes in it, and the
 * first token to each sequence whose prefill completes in it. The batch holds at most
 * {@code maxNumSeqs} sequences, and their KV at most {@code numBlocks} blocks of 16 tokens.
 *
 * <h2>Steps seen from the client</h2>
 *
 * A request that is decoding gets a token at the end of every step, so the gap between two of its
 * consecutive token events, (t0, t1], is the duration T of the step that ended at t1. Every other
 * request of the same run is on the same clock, so the run's token events are grouped into the
 * steps that produced them ({@code VisibleSteps}): an event within τ = 0.3 × the run's median gap
 * of a step's earliest event belongs to that step (the client reads one step's tokens with a little
 * jitter; steps lie further apart). In the step s:
 * <ul>
 *   <li>request j decoded when its event in s was not its first; it read ISL_j + n_j KV tokens,
 *       n_j its tokens before this one (the prompt and every token but the one this step computes,
 *       plus that one);
 *   <li>request j completed its prefill when its first token came in s: it read ISL_j context
 *       tokens and computed the last chunk of its prompt (below).
 * </ul>
 *
 * <h2>Chunked prefill</h2>
 *
 * The engine computes at most M = {@code maxNumBatchedTokens} tokens per step: decodes first,
 * then the prompts already under way, then new admissions in first-come order, and a prompt that
 * does not fit what is left is cut there and continues in the next steps ({@code PrefillChunks}).
 * A cut prompt takes all that was left, so at most one prompt is under way at a time, and none
 * admitted after it can complete before it. The client does not see the cut: only the first token,
 * in the step of the last chunk. So the budget is replayed over the steps, requests ordered by the
 * step of their first token and then by when they were sent (the engine's first-come order): in
 * step s, with D_s decode tokens, L = M − D_s is left; each prompt completing in s takes what it
 * had to go (its whole prompt unless it was cut before); if L is still positive, the prompt under
 * way takes it all; else the next request k in order is cut in s, taking L, when (a) it was sent
 * before the step began (the previous step's events), (b) a seat was free (the step's batch was
 * below the largest batch any run saw, a lower bound on {@code maxNumSeqs}), and (c) with the cut
 * there, taking each following step's M − D, it completes exactly in the step where its first
 * token came, with no other first token in between. Otherwise k was still waiting (for a seat, for
 * KV blocks, or not yet sent) and its prompt is computed where its first token came; when that is
 * more than L (a long prompt with nothing decoding: its earlier chunks gave nobody a token), the
 * whole budgets M of those unseen steps come off it. A step whose completions need more than L is
 * counted as unexplained: M is likely set too low. M is the fit's input (vLLM publishes it in no
 * metric; {@code llmload fit --max-num-batched-tokens}, default the simulator's 8192).
 *
 * <p>A step of B sequences (decoding, completing, and the one cut), reading C KV tokens and
 * computing P prompt tokens (the chunks) is one row (1, B, C/1000, P, P²) → T of a linear model
 * for each of its decoders' gaps, and (1) is fitted by least squares ({@code StepRows},
 * {@code StepTimeFit}). A step is seen once by each of its D decoding requests; weighting each row
 * by 1/D makes every step count once. Gaps further than 5 robust standard deviations (1.4826 ·
 * median |residual| of the rows kept, at least 1 µs) from the fit are dropped and the fit repeated,
 * three times, each time judging every gap against the latest fit: a stalled client shows one
 * enormous gap that would otherwise pull every coefficient, while a step of a rare shape (a long
 * prefill) that the first, contaminated fit missed comes back once it is right.
 *
 * <p>Uncertainty: the gaps of one request are not independent (they share its context), so the
 * bootstrap resamples requests, not gaps: 200 replicates, each the fit of the rows of n requests
 * drawn with replacement from the n. The standard error is the replicates' standard deviation,
 * the 95% interval their 2.5th and 97.5th percentiles. A coefficient is identified when that
 * interval lies within ±10% of the estimate. A regressor that never varies (no prefill in any
 * gap) is left out at 0; when the rest cannot be told apart (a singular system) the finest terms
 * are left out first (P², then context, then batch, then P), each with a warning.
 *
 * <h2>Capacity</h2>
 *
 * {@code CapacityFit}. A request is in the batch from half a step before its first token (its
 * prefill step) to its last token, and waiting from its send to 1.5 steps before its first token
 * (longer than its own prefill step). The largest batch B* held for a while (5 typical steps
 * and 1% of the busy time: a token read late makes a request overlap its successor for an
 * instant) bounds {@code maxNumSeqs} from below; it is identified, as B*, when the batch sat at
 * B* while requests waited for at least 20 typical steps: the engine left them waiting with B*
 * running.
 *
 * <p>A running request holds ⌈(ISL + n(t)) / 16⌉ blocks, from its admission (the start of the
 * step that gave its first token: the run's last token event more than 0.3 typical steps before
 * that token) to its last token. Without the server's metrics the client
 * sees only the most blocks held at once, a lower bound on {@code numBlocks}. With the server's KV
 * cache use u_k per second (0–1), and b_k the blocks the client's view of the batch held on
 * average over the last scrape interval of the same second (u_k is the second's last reading),
 * b_k = numBlocks · u_k, so
 * <pre>
 *   numBlocks = Σ b_k u_k / Σ u_k²,   se = √( Σ (b_k − numBlocks·u_k)² / (K − 1) / Σ u_k² )
 * </pre>
 * (least squares through the origin over the K seconds with u_k ≥ 0.02).
 *
 * <h2>Limits</h2>
 *
 * Prefix-cache hits are invisible to the client (P counts the whole prompt); a chunk computed in
 * a step that gave nobody a token is not seen (only its effect on the last chunk); a preempted
 * request looks like one that decodes slowly; a token read later than τ after its step's first
 * makes a step of its own, whose gap is then dropped as an outlier. Events that carry several tokens (a server that coalesces its stream)
 * give no rows. The network's own delay adds to TTFT, not to the gaps.
 */
package dev.llmload.twin.fit;
