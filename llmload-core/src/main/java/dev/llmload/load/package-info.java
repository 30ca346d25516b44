/**
 * Sends a run's load and turns each response into measurements: the dispatchers, the request in
 * flight, the feed of prepared requests and the recorder that journals finished requests. From
 * outside, the package is {@link dev.llmload.load.LoadPhase} (the sending phase of a run, which
 * {@code run} drives), the {@link dev.llmload.load.LoadPlan} it follows and the
 * {@link dev.llmload.load.Timeouts} it keeps; everything else is package-private.
 *
 * <p>The path of one request: a {@link dev.llmload.load.PreparedFeed} encodes it ahead of time;
 * a dispatcher ({@link dev.llmload.load.Dispatcher} for independent requests on a schedule or in a
 * closed loop, {@link dev.llmload.load.SessionDispatcher} for multi-turn sessions) decides when it
 * goes out and hands it to the package-private {@code Launcher}, which every sender shares: it
 * sends on the event loop's timer, keeps the set of requests in flight, cancels them and records
 * requests that were never sent. Both dispatchers are made from one {@code SendContext} (what a
 * sender is given besides what it sends) and end through a {@code RunEnd} of their own, the one
 * stop protocol of the package: the stop, the grace period after it or the deadline, and the
 * cancelling, once, of what is left. The request's {@code RequestExecution} measures it from the
 * typed events of the run's {@link dev.llmload.protocol.Dialect}, and the
 * {@link dev.llmload.load.Recorder} counts its tokens and journals it.
 *
 * <p>Threads and what each owns:
 * <ul>
 *   <li>{@code llmload-prepare}: the request source, and the making and encoding of requests.
 *       The ready queue between it and the senders is lock-free; taking from it never waits.</li>
 *   <li>The dispatcher thread (the caller of {@link dev.llmload.load.Sender#run}): the open-loop
 *       schedule walk, the session timers and all session state, waiting for a feed that lags,
 *       and the grace period at the end with the cancelling after it ({@code RunEnd}). It alone
 *       ever waits, parks or spins. A stop comes from any thread (a signal handler, the
 *       recorder on a failed journal write) and only sets the {@code RunEnd}'s volatile fields
 *       and wakes it.</li>
 *   <li>The I/O threads ({@code llmload-io-N}, Netty event loops): each request in flight, from
 *       the send to its end, with every timestamp, timer and cancellation of it; a completion
 *       also frees its gate slot and, in a closed loop, sends the next request. They never block:
 *       they poll the feed, and hold the dispatcher's gate monitor only for a few field updates.</li>
 *   <li>{@code llmload-recorder}: the journal and the list of records; local token counting.</li>
 * </ul>
 */
package dev.llmload.load;
