package dev.llmload.schedule;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.random.RandomGenerator;

/**
 * Arrivals at a rate λ(t) given piecewise by {@link RateSegment}s, by time-rescaling: the n-th
 * arrival of a unit-rate process, at "operational time" u_n, happens at the time t where
 * Λ(t) = ∫₀ᵗ λ = u_n. With u_n a sum of n exponential(1) gaps this is an inhomogeneous Poisson
 * process (exact, no thinning rejections); with u_n = n it is evenly spaced in operational time,
 * i.e. one request every 1/λ(t) seconds as the rate changes.
 *
 * <p>Evenly spaced arrivals start at offset 0; Poisson arrivals start after a first drawn gap.
 * An arrival that falls exactly on a segment boundary belongs to the later segment.
 */
final class TimeRescaledArrivals implements PrimitiveIterator.OfLong {

    private final List<RateSegment> segments;
    /** Null for evenly spaced arrivals. */
    private final RandomGenerator rng;

    private int segment;
    private double segmentStartSeconds;
    private double segmentStartArrivals;
    private long emitted;
    /** Λ at the next arrival. */
    private double nextArrivals;

    private TimeRescaledArrivals(List<RateSegment> segments, RandomGenerator rng) {
        this.segments = List.copyOf(segments);
        this.rng = rng;
        this.nextArrivals = rng == null ? 0 : RandomVariates.exponential(rng);
    }

    static TimeRescaledArrivals poisson(List<RateSegment> segments, RandomGenerator rng) {
        return new TimeRescaledArrivals(segments, rng);
    }

    static TimeRescaledArrivals evenlySpaced(List<RateSegment> segments) {
        return new TimeRescaledArrivals(segments, null);
    }

    @Override
    public boolean hasNext() {
        while (segment < segments.size()) {
            RateSegment current = segments.get(segment);
            if (nextArrivals < segmentStartArrivals + current.expectedArrivals()) {
                return true;
            }
            segmentStartSeconds += current.seconds();
            segmentStartArrivals += current.expectedArrivals();
            segment++;
        }
        return false;
    }

    @Override
    public long nextLong() {
        if (!hasNext()) {
            throw new NoSuchElementException("the arrival process has ended");
        }
        double seconds = segmentStartSeconds + segments.get(segment).secondsUntil(nextArrivals - segmentStartArrivals);
        emitted++;
        // Evenly spaced: u_n = n exactly, so no rounding error accumulates over a long run.
        nextArrivals = rng == null ? emitted : nextArrivals + RandomVariates.exponential(rng);
        return Math.round(seconds * 1e9);
    }
}
