package dev.llmload.telemetry;

/**
 * A scrape that produced nothing: timed out, refused, an HTTP error, an unreadable body.
 * Readings on either side of a gap are still used; a gap only means no reading at that tick.
 *
 * @param nanos  {@code System.nanoTime()} when the failure was known
 * @param source the URL (or {@code nvidia-smi})
 * @param reason what went wrong
 */
public record ScrapeGap(long nanos, String source, String reason) {}
