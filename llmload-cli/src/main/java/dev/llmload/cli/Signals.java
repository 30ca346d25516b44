package dev.llmload.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into a graceful stop of the run instead of an abrupt exit, so
 * the report of what finished still gets written; the caller then exits with 130 or 143. A second
 * signal falls through to the JVM's default handling.
 */
final class Signals {

    private final SignalHandler previousInt;
    private final SignalHandler previousTerm;
    private volatile String received = "";

    private Signals(Runnable onSignal) {
        SignalHandler handler = signal -> {
            if (!received.isEmpty()) {
                restore();
                Signal.raise(signal);
                return;
            }
            received = signal.getName();
            System.err.println();
            System.err.println(
                    "llmload: " + signal.getName() + " received: stopping, in-flight requests get the grace period; "
                            + "signal again to quit at once");
            onSignal.run();
        };
        previousInt = Signal.handle(new Signal("INT"), handler);
        previousTerm = Signal.handle(new Signal("TERM"), handler);
    }

    static Signals install(Runnable onSignal) {
        return new Signals(onSignal);
    }

    /** {@code INT}, {@code TERM}, or empty when no signal came. */
    String received() {
        return received;
    }

    void uninstall() {
        restore();
    }

    private void restore() {
        Signal.handle(new Signal("INT"), previousInt);
        Signal.handle(new Signal("TERM"), previousTerm);
    }
}
