package dev.llmload.sim.fault;

/**
 * A failure the server injects into one request. The text form, used by the
 * {@code x-llmload-sim-fault} header and by {@link FaultRule}, is:
 * <pre>
 * http-400 | http-429 | http-500 | http-503   answer at once with that status (429 adds Retry-After)
 * http-500-oom                                a 500 whose message is PyTorch's CUDA out-of-memory error
 * disconnect-after:N                          close the connection after N tokens were written
 * stream-error-after:N                        after N tokens send vLLM's in-stream error, then [DONE]
 * stall:N:MS                                  hold token N (1-based) and everything after it back MS ms
 * malformed-after:N                           after N tokens send one data: line of broken JSON
 * </pre>
 */
public sealed interface Fault {

    /**
     * The HTTP status and OpenAI error {@code type} of an immediate error response.
     *
     * @param outOfMemory the 500 says what a server says when the GPU ran out of memory
     */
    record HttpError(int status, boolean outOfMemory) implements Fault {
        public HttpError(int status) {
            this(status, false);
        }

        public HttpError {
            if (status != 400 && status != 429 && status != 500 && status != 503) {
                throw new IllegalArgumentException("unsupported fault status " + status + "; use 400, 429, 500 or 503");
            }
        }

        public String errorType() {
            return switch (status) {
                case 400 -> "BadRequestError";
                case 429 -> "RateLimitError";
                case 503 -> "ServiceUnavailableError";
                default -> "InternalServerError";
            };
        }

        public String message() {
            return switch (status) {
                case 400 -> "Injected bad request (llmload-sim fault)";
                case 429 -> "Rate limit reached (llmload-sim fault)";
                case 503 -> "The server is overloaded or not ready yet. (llmload-sim fault)";
                default ->
                    outOfMemory
                            ? "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of "
                                    + "which 1.06 GiB is free. (llmload-sim fault)"
                            : "Internal server error (llmload-sim fault)";
            };
        }
    }

    record DisconnectAfter(int tokens) implements Fault {}

    record StreamErrorAfter(int tokens) implements Fault {}

    record Stall(int atToken, long millis) implements Fault {}

    record MalformedAfter(int tokens) implements Fault {}

    /** Parses the text form; throws {@link IllegalArgumentException} with the accepted syntax. */
    static Fault parse(String text) {
        String s = text.strip();
        String[] parts = s.split(":", -1);
        try {
            Fault fault = switch (parts.length) {
                case 1 ->
                    parts[0].equals("http-500-oom")
                            ? new HttpError(500, true)
                            : parts[0].matches("http-(400|429|500|503)")
                                    ? new HttpError(Integer.parseInt(parts[0].substring(5)))
                                    : null;
                case 2 ->
                    switch (parts[0]) {
                        case "disconnect-after" -> new DisconnectAfter(count(parts[1]));
                        case "stream-error-after" -> new StreamErrorAfter(count(parts[1]));
                        case "malformed-after" -> new MalformedAfter(count(parts[1]));
                        default -> null;
                    };
                case 3 -> parts[0].equals("stall") ? new Stall(Math.max(1, count(parts[1])), count(parts[2])) : null;
                default -> null;
            };
            if (fault != null) {
                return fault;
            }
        } catch (NumberFormatException e) {
            // reported below, with the syntax
        }
        throw new IllegalArgumentException(
                "bad fault '" + text + "'; expected one of http-400, http-429, "
                        + "http-500, http-503, http-500-oom, disconnect-after:N, stream-error-after:N, stall:N:MS, malformed-after:N");
    }

    private static int count(String number) {
        int n = Integer.parseInt(number);
        if (n < 0) {
            throw new NumberFormatException("negative");
        }
        return n;
    }
}
