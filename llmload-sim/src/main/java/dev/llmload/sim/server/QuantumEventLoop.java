package dev.llmload.sim.server;

import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import java.util.concurrent.Executor;

/**
 * A Netty event loop whose task quantum holds after every task, not every 64th, and which knows
 * when its current pass over its ready sockets began.
 *
 * <p>Why the quantum: Netty's loop runs its queued tasks for at most the quantum before it polls
 * its sockets again, but it reads the clock only every 64 tasks. The simulator's tasks are heavy
 * (a {@link LoopInbox} slice writes and flushes up to 128 token events; a request's parsing,
 * tokenizing and engine hand-over is a task of its own), and a slice posts its successor as a new
 * task, so under a streaming load 64 of them ran back to back while a request waited to be read
 * and its arrival stamped (docs/performance.md, the wire's truth). Here the loop stops taking
 * tasks once the quantum is spent and polls its sockets (without blocking, since tasks are left)
 * before it goes on with them.
 *
 * <p>Why the pass: every socket the kernel reported ready in one wake-up had its first bytes in
 * the kernel before the loop learned of them, but the loop reads them one after another, and a
 * burst of 64 requests was stamped over tens of ms by the order of reading alone. {@link
 * #ioPassStartNanos} is when the first read of the current pass over the ready sockets began: an
 * upper bound on the arrival of every request read in that pass, and the earliest the loop could
 * have known of it ({@link ArrivalStamp}).
 *
 * <p>Threading: every field is read and written only on the loop's own thread.
 */
final class QuantumEventLoop extends SingleThreadIoEventLoop {

    private final long quantumNanos;

    /** Whether {@link #runAllTasks(long)} is running, so that {@link #quantumEndNanos} holds. */
    private boolean inQuantum;

    private long quantumEndNanos;

    /** Whether the loop is in {@link #runIo()}: a read now is part of a pass over ready sockets. */
    private boolean inIoPass;

    /** Whether {@link #passStartNanos} was taken in the current pass. */
    private boolean passStamped;

    private long passStartNanos;

    QuantumEventLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory, long quantumNanos) {
        super(
                parent,
                executor,
                ioHandlerFactory,
                Integer.MAX_VALUE,
                RejectedExecutionHandlers.reject(),
                Math.max(1, quantumNanos / 1_000_000));
        this.quantumNanos = quantumNanos;
    }

    @Override
    protected int runIo() {
        inIoPass = true;
        passStamped = false;
        try {
            return super.runIo();
        } finally {
            inIoPass = false;
        }
    }

    /**
     * When the read that is going on began, for a read in a pass over ready sockets the time the
     * pass's first read began; {@code nowNanos} for a read outside one (a read Netty runs as a
     * task). Called on the loop's thread from a read.
     */
    long ioPassStartNanos(long nowNanos) {
        if (!inIoPass) {
            return nowNanos;
        }
        if (!passStamped) {
            passStamped = true;
            passStartNanos = nowNanos;
        }
        return passStartNanos;
    }

    @Override
    protected boolean runAllTasks(long timeoutNanos) {
        inQuantum = timeoutNanos > 0;
        quantumEndNanos = getCurrentTimeNanos() + Math.min(timeoutNanos, quantumNanos);
        try {
            return super.runAllTasks(timeoutNanos);
        } finally {
            inQuantum = false;
        }
    }

    /**
     * No task once the quantum is spent: Netty's loop then ends its task run as if the queue were
     * empty, and goes back to its sockets.
     */
    @Override
    protected Runnable pollTask() {
        if (inQuantum && getCurrentTimeNanos() - quantumEndNanos >= 0) {
            return null;
        }
        return super.pollTask();
    }
}
