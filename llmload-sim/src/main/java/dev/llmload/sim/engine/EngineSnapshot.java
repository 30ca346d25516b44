package dev.llmload.sim.engine;

/**
 * A consistent view of an engine's gauges and counters, read by the {@code /metrics} endpoint.
 * Counters are cumulative since the engine started.
 *
 * @param kvCacheUsage     share of KV blocks in use, 0 to 1 (cached-but-free blocks count as free)
 * @param stepLagSeconds   how far the engine's real-time loop has fallen behind its own schedule
 */
public record EngineSnapshot(
        int running,
        int waiting,
        double kvCacheUsage,
        long preemptions,
        long promptTokens,
        long generationTokens,
        long prefixCacheQueries,
        long prefixCacheHits,
        int numBlocks,
        int blockSize,
        int maxModelLen,
        double stepLagSeconds) {}
