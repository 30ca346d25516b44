/**
 * The non-blocking HTTP/1.1 client that carries the load ({@link dev.llmload.http.LoadHttpClient}),
 * over Netty with the native epoll transport where it loads.
 *
 * <p>Each exchange is pinned to one event loop, which owns its connection, its pool of keep-alive
 * connections and every {@link dev.llmload.http.ResponseListener} callback; no lock is needed.
 * Every response message is timestamped with {@link System#nanoTime()} first thing in
 * {@code channelRead}, before anything looks at it, and that time travels with the bytes to the
 * listener. The only calls from other threads are starting an exchange (handed to its loop, now
 * or on the loop's timer) and {@link dev.llmload.http.Exchange#abort}, which hops onto the loop.
 */
package dev.llmload.http;
