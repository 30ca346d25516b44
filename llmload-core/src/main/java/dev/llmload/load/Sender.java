package dev.llmload.load;

import java.time.Duration;

/**
 * What sends a run's load: independent requests ({@link Dispatcher}) or multi-turn sessions
 * ({@link SessionDispatcher}). {@link #run} walks the load on the calling thread; {@link #stop}
 * may come from any thread (a signal handler).
 */
sealed interface Sender permits Dispatcher, SessionDispatcher {

    /** Sends everything and returns once all has finished, or the run stopped and its grace ran out. */
    void run(Duration grace) throws InterruptedException;

    /** Stops sending; requests in flight get the grace period given to {@link #run}. */
    void stop();

    /** Requests sent and not yet finished; any thread may ask (the live progress line does). */
    int inFlight();
}
