package dev.llmload.sim.server;

import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import java.util.concurrent.Executor;

/**
 * A Netty event loop whose task quantum holds after every task, not every 64th.
 *
 * <p>Why: Netty's loop runs its queued tasks for at most the quantum before it polls its sockets
 * again, but it reads the clock only every 64 tasks. The simulator's tasks are heavy (a
 * {@link LoopInbox} slice writes and flushes up to 128 token events; a request's parsing,
 * tokenizing and engine hand-over is a task of its own), and a slice posts its successor as a new
 * task, so under a streaming load 64 of them ran back to back while a request waited to be read
 * and its arrival stamped (docs/performance.md, the wire's truth). Here the loop stops taking
 * tasks once the quantum is spent and polls its sockets (without blocking, since tasks are left)
 * before it goes on with them.
 *
 * <p>Threading: the quantum's end is read and written only on the loop's own thread.
 */
final class QuantumEventLoop extends SingleThreadIoEventLoop {

    /** Whether {@link #runAllTasks(long)} is running, so that {@link #quantumEndNanos} holds. */
    private boolean inQuantum;

    private long quantumEndNanos;

    QuantumEventLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory, long quantumMs) {
        super(parent, executor, ioHandlerFactory, Integer.MAX_VALUE, RejectedExecutionHandlers.reject(), quantumMs);
    }

    @Override
    protected boolean runAllTasks(long timeoutNanos) {
        inQuantum = timeoutNanos > 0;
        quantumEndNanos = getCurrentTimeNanos() + timeoutNanos;
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
