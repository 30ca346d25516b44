package dev.llmload.http;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

/**
 * One request/response on one connection. All state is owned by {@link #loop()}; only
 * {@link #abort} may be called from other threads, and it hops onto the loop.
 */
public final class Exchange {

    private final EventLoop loop;
    /** Until it is written: then the connection has the body, and a stream in flight holds none. */
    private HttpExchangeRequest request;

    private final ResponseListener listener;
    private Channel channel;
    private boolean done;

    Exchange(EventLoop loop, HttpExchangeRequest request, ResponseListener listener) {
        this.loop = loop;
        this.request = request;
        this.listener = listener;
    }

    public EventLoop loop() {
        return loop;
    }

    /** The request, handed over once to be written; nothing resends it (a failed write fails the exchange). */
    HttpExchangeRequest takeRequest() {
        HttpExchangeRequest taken = request;
        request = null;
        return taken;
    }

    ResponseListener listener() {
        return listener;
    }

    boolean isDone() {
        return done;
    }

    void connecting(Channel channel) {
        this.channel = channel;
    }

    /** The request was written on {@code channel} (a pooled one, or the one {@link #connecting} opened). */
    void sent(Channel channel) {
        this.channel = channel;
    }

    /** Ends the exchange cleanly; the caller decides whether the connection is reusable. */
    void complete(long nanos) {
        if (!done) {
            done = true;
            listener.onComplete(nanos);
        }
    }

    void fail(ExchangeFailure failure) {
        if (!done) {
            done = true;
            listener.onFailure(failure, System.nanoTime());
        }
    }

    /**
     * Ends the exchange from this side: the listener hears {@link ExchangeFailure.Aborted} and the
     * connection is closed, since the rest of its response can no longer be told apart.
     */
    public void abort(String reason) {
        if (loop.inEventLoop()) {
            abortOnLoop(reason);
        } else {
            loop.execute(() -> abortOnLoop(reason));
        }
    }

    private void abortOnLoop(String reason) {
        if (done) {
            return;
        }
        fail(new ExchangeFailure.Aborted(reason));
        if (channel != null) {
            channel.close();
        }
    }
}
