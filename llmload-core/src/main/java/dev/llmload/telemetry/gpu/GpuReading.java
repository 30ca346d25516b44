package dev.llmload.telemetry.gpu;

/**
 * A GPU sample with the time it arrived.
 *
 * @param nanos  {@code System.nanoTime()} when the line or scrape holding it was received
 * @param sample the readings
 */
public record GpuReading(long nanos, GpuSample sample) {}
