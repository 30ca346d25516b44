package dev.llmload.config;

/** The load generator's own resources. @param ioThreads client event loop threads */
public record Client(int ioThreads) {

    public Client {
        if (ioThreads < 1) {
            throw new ConfigException("--io-threads must be at least 1");
        }
    }

    /** The number of CPU cores, at most 4. */
    public static Client defaults() {
        return new Client(Math.min(4, Runtime.getRuntime().availableProcessors()));
    }
}
