package dev.llmload.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes a request as the bytes of one HTTP/1.1 message, head and body in one buffer, straight
 * into what goes to the socket. These are the bytes Netty's request encoder writes for the same
 * request (the same headers in the same order, a header of the request replacing the client's of
 * that name), without a request object, a header map and the encoder's passes over them for each
 * request. Immutable; any thread.
 */
final class RequestBytes {

    private static final byte[] VERSION_LINE_END = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final String ACCEPT = "text/event-stream, application/json";

    private final String basePath;
    private final String hostHeader;
    /** The API key's header, or null to send none. */
    private final String keyHeaderName;

    private final String keyHeaderValue;

    RequestBytes(Endpoint endpoint, String keyHeaderName, String keyHeaderValue) {
        this.basePath = endpoint.basePath();
        this.hostHeader = endpoint.hostHeader();
        this.keyHeaderName = keyHeaderName;
        this.keyHeaderValue = keyHeaderValue;
    }

    /** The whole message of {@code request}, in a buffer from {@code alloc} that the caller owns. */
    ByteBuf encode(ByteBufAllocator alloc, HttpExchangeRequest request) {
        byte[] body = request.body();
        Map<String, String> extra = request.headers();
        // The client's headers in Netty's order, each one a header of the request names (in any
        // case) left out: setting it there moved it behind all the others.
        String[] names = new String[6 + extra.size()];
        String[] values = new String[names.length];
        int n = 0;
        if (!named(extra, "host")) {
            names[n] = "host";
            values[n++] = hostHeader;
        }
        names[n] = "connection";
        values[n++] = "keep-alive";
        if (!named(extra, "content-length")) {
            names[n] = "content-length";
            values[n++] = Integer.toString(body.length);
        }
        if (body.length > 0 && !named(extra, "content-type")) {
            names[n] = "content-type";
            values[n++] = "application/json";
        }
        if (!named(extra, "accept")) {
            names[n] = "accept";
            values[n++] = ACCEPT;
        }
        if (keyHeaderName != null && !named(extra, keyHeaderName)) {
            names[n] = keyHeaderName;
            values[n++] = keyHeaderValue;
        }
        int own = n;
        for (Map.Entry<String, String> header : extra.entrySet()) {
            // Two of the request's own that differ in case only: the later one stands, as it would have.
            for (int i = own; i < n; i++) {
                if (names[i].equalsIgnoreCase(header.getKey())) {
                    System.arraycopy(names, i + 1, names, i, n - i - 1);
                    System.arraycopy(values, i + 1, values, i, n - i - 1);
                    n--;
                    break;
                }
            }
            names[n] = header.getKey();
            values[n++] = header.getValue();
        }
        String target = basePath + request.path();
        byte[] uri = (target.isEmpty() ? "/" : target).getBytes(StandardCharsets.UTF_8);
        int size = request.method().length() + 1 + uri.length + VERSION_LINE_END.length + 2 + body.length;
        for (int i = 0; i < n; i++) {
            size += names[i].length() + 2 + values[i].length() + 2;
        }
        ByteBuf out = alloc.ioBuffer(size);
        writeLatin1(out, request.method());
        out.writeByte(' ');
        out.writeBytes(uri);
        out.writeBytes(VERSION_LINE_END);
        for (int i = 0; i < n; i++) {
            writeLatin1(out, names[i]);
            out.writeByte(':');
            out.writeByte(' ');
            writeLatin1(out, values[i]);
            out.writeByte('\r');
            out.writeByte('\n');
        }
        out.writeByte('\r');
        out.writeByte('\n');
        out.writeBytes(body);
        return out;
    }

    private static boolean named(Map<String, String> headers, String name) {
        if (headers.isEmpty()) {
            return false;
        }
        for (String key : headers.keySet()) {
            if (key.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** One byte a character, as Netty's encoder writes header text: a character beyond Latin-1 as '?'. */
    private static void writeLatin1(ByteBuf out, String text) {
        out.writeCharSequence(text, StandardCharsets.ISO_8859_1);
    }
}
