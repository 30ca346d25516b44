package dev.llmload.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.random.RandomGenerator;

/**
 * When the requests of an open-loop run are sent: a process that yields intended send offsets, in
 * nanoseconds from the run start, in ascending order, independent of how the server responds.
 *
 * <p>Randomness comes only from the {@link RandomGenerator} passed in and only through
 * {@code nextLong()} (see {@link RandomVariates}), so a seeded generator of a specified algorithm
 * gives the same offsets on any JDK. Offsets do not depend on how many are taken: a run bounded
 * by count and one bounded by duration with the same seed share their common prefix (unlike
 * {@code vllm bench serve}, which rescales its delays so the last lands at N/rate).
 *
 * <p>Where the first request goes: evenly spaced processes ({@link Constant}, a non-Poisson
 * {@link Ramp} or {@link Stages}) and {@link Bursts} send at offset 0; random processes draw their
 * first gap too, so a Poisson run's first request comes after an exponential gap like every other.
 */
public sealed interface ArrivalProcess {

    /** A fresh iterator over the send offsets in nanoseconds, ascending; endless unless {@link #isFinite()}. */
    PrimitiveIterator.OfLong arrivals(RandomGenerator rng);

    /** Whether the process ends by itself ({@link Stages}, {@link Trace}) rather than needing a count or duration bound. */
    boolean isFinite();

    /** One request every 1/rate seconds, the first at offset 0. */
    record Constant(double ratePerSecond) implements ArrivalProcess {
        public Constant {
            requirePositiveRate("rate", ratePerSecond);
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            return TimeRescaledArrivals.evenlySpaced(
                    List.of(new RateSegment.Flat(ratePerSecond, Double.POSITIVE_INFINITY)));
        }

        @Override
        public boolean isFinite() {
            return false;
        }
    }

    /** A Poisson process: independent exponential gaps with mean 1/rate (CV 1). */
    record Poisson(double rate) implements ArrivalProcess {
        public Poisson {
            requirePositiveRate("rate", rate);
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            return TimeRescaledArrivals.poisson(List.of(new RateSegment.Flat(rate, Double.POSITIVE_INFINITY)), rng);
        }

        @Override
        public boolean isFinite() {
            return false;
        }
    }

    /**
     * Independent gamma-distributed gaps with mean 1/rate, shape {@code burstiness} (K) and scale
     * 1/(rate·K), as {@code vllm bench serve --burstiness}: the gaps' coefficient of variation is
     * 1/√K, so K = 1 is Poisson, K &lt; 1 burstier and K &gt; 1 more regular (towards
     * {@link Constant} as K grows).
     */
    record Gamma(double rate, double burstiness) implements ArrivalProcess {
        public Gamma {
            requirePositiveRate("rate", rate);
            requirePositiveRate("burstiness", burstiness);
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            double scale = 1 / (rate * burstiness);
            return new PrimitiveIterator.OfLong() {
                private double seconds;

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public long nextLong() {
                    seconds += scale * RandomVariates.gamma(burstiness, rng);
                    return Math.round(seconds * 1e9);
                }
            };
        }

        @Override
        public boolean isFinite() {
            return false;
        }
    }

    /**
     * A rate that moves from {@code fromRate} to {@code toRate} over {@code over}, then stays at
     * {@code toRate}. LINEAR: λ(t) = from + (to − from)·t/T, so 1 → 10 over 10 s sends
     * (1 + 10)/2·10 = 55 requests during the ramp. EXPONENTIAL: λ(t) = from·(to/from)^(t/T), equal
     * ratios in equal times. {@code poisson} draws Poisson arrivals at that rate, otherwise they are
     * evenly spaced at the current rate; both by time-rescaling (see {@link TimeRescaledArrivals}).
     *
     * @param fromRate may be 0 for a LINEAR ramp; EXPONENTIAL needs both rates above 0
     */
    record Ramp(double fromRate, double toRate, Duration over, Shape shape, boolean poisson) implements ArrivalProcess {

        public enum Shape {
            LINEAR,
            EXPONENTIAL
        }

        public Ramp {
            requirePositiveRate("toRate", toRate);
            if (shape == Shape.EXPONENTIAL) {
                requirePositiveRate("fromRate of an exponential ramp", fromRate);
            } else {
                requireRate("fromRate", fromRate);
            }
            requirePositive("over", over);
        }

        /** λ at {@code atSeconds} from the start: the ramp's rate, {@code toRate} once it is over. */
        public double rateAt(double atSeconds) {
            double progress = Math.min(1, Math.max(0, atSeconds) / seconds(over));
            return switch (shape) {
                case LINEAR -> fromRate + (toRate - fromRate) * progress;
                case EXPONENTIAL -> fromRate * Math.pow(toRate / fromRate, progress);
            };
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            double seconds = seconds(over);
            RateSegment ramp = switch (shape) {
                case LINEAR -> new RateSegment.Linear(fromRate, toRate, seconds);
                case EXPONENTIAL -> new RateSegment.Exponential(fromRate, toRate, seconds);
            };
            List<RateSegment> segments = List.of(ramp, new RateSegment.Flat(toRate, Double.POSITIVE_INFINITY));
            return poisson ? TimeRescaledArrivals.poisson(segments, rng) : TimeRescaledArrivals.evenlySpaced(segments);
        }

        @Override
        public boolean isFinite() {
            return false;
        }
    }

    /** One step of {@link Stages}: this rate for this long. A rate of 0 is a pause. */
    record Stage(double rate, Duration duration) {
        public Stage {
            requireRate("rate", rate);
            requirePositive("duration", duration);
        }
    }

    /**
     * Constant-rate stages one after the other; the process ends with the last stage. Arrivals are
     * Poisson or evenly spaced ({@code poisson}); either way the process runs on across stage
     * boundaries rather than restarting, and an arrival exactly on a boundary belongs to the later
     * stage. Evenly spaced, 2/s for 3 s then 4/s for 2 s gives 0, 0.5, ..., 2.5, 3.0, 3.25, ..., 4.75.
     */
    record Stages(List<Stage> stages, boolean poisson) implements ArrivalProcess {
        public Stages {
            stages = List.copyOf(stages);
            if (stages.isEmpty()) {
                throw new IllegalArgumentException("stages must not be empty");
            }
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            List<RateSegment> segments = new ArrayList<>(stages.size());
            for (Stage stage : stages) {
                segments.add(new RateSegment.Flat(stage.rate(), seconds(stage.duration())));
            }
            return poisson ? TimeRescaledArrivals.poisson(segments, rng) : TimeRescaledArrivals.evenlySpaced(segments);
        }

        @Override
        public boolean isFinite() {
            return true;
        }
    }

    /**
     * {@code burstSize} requests at the same offset every {@code period}, at 0, P, 2P, ..., on top
     * of a Poisson background at {@code baseRate} (0 for bursts alone).
     */
    record Bursts(double baseRate, int burstSize, Duration period) implements ArrivalProcess {
        public Bursts {
            requireRate("baseRate", baseRate);
            if (burstSize < 1) {
                throw new IllegalArgumentException("burstSize must be at least 1: " + burstSize);
            }
            requirePositive("period", period);
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            PrimitiveIterator.OfLong background = baseRate == 0 ? null : new Poisson(baseRate).arrivals(rng);
            long periodNanos = period.toNanos();
            return new PrimitiveIterator.OfLong() {
                private long nextBurst;
                private int leftInBurst = burstSize;
                private long nextBackground = background == null ? Long.MAX_VALUE : background.nextLong();

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public long nextLong() {
                    if (nextBurst <= nextBackground) {
                        long offset = nextBurst;
                        if (--leftInBurst == 0) {
                            nextBurst += periodNanos;
                            leftInBurst = burstSize;
                        }
                        return offset;
                    }
                    long offset = nextBackground;
                    nextBackground = background.nextLong();
                    return offset;
                }
            };
        }

        @Override
        public boolean isFinite() {
            return false;
        }
    }

    /**
     * Replays recorded send times: {@code offsetsNanos} from the run start, non-decreasing,
     * divided by {@code speed} (2 replays twice as fast, 0.5 at half speed).
     */
    record Trace(long[] offsetsNanos, double speed) implements ArrivalProcess {
        public Trace {
            offsetsNanos = offsetsNanos.clone();
            requirePositiveRate("speed", speed);
            for (int i = 0; i < offsetsNanos.length; i++) {
                if (offsetsNanos[i] < 0 || (i > 0 && offsetsNanos[i] < offsetsNanos[i - 1])) {
                    throw new IllegalArgumentException("trace offsets must be non-negative and non-decreasing; offset "
                            + i + " is " + offsetsNanos[i] + (i > 0 ? " after " + offsetsNanos[i - 1] : ""));
                }
            }
        }

        @Override
        public long[] offsetsNanos() {
            return offsetsNanos.clone();
        }

        @Override
        public PrimitiveIterator.OfLong arrivals(RandomGenerator rng) {
            return new PrimitiveIterator.OfLong() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < offsetsNanos.length;
                }

                @Override
                public long nextLong() {
                    if (next == offsetsNanos.length) {
                        throw new NoSuchElementException("the trace has ended");
                    }
                    return Math.round(offsetsNanos[next++] / speed);
                }
            };
        }

        @Override
        public boolean isFinite() {
            return true;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Trace trace
                    && Double.compare(speed, trace.speed) == 0
                    && Arrays.equals(offsetsNanos, trace.offsetsNanos);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(offsetsNanos) + Double.hashCode(speed);
        }

        @Override
        public String toString() {
            return "Trace[" + offsetsNanos.length + " offsets, speed=" + speed + "]";
        }
    }

    private static void requireRate(String name, double value) {
        if (!(value >= 0 && value < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(name + " must be finite and not negative: " + value);
        }
    }

    private static void requirePositiveRate(String name, double value) {
        if (!(value > 0 && value < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(name + " must be finite and above 0: " + value);
        }
    }

    private static void requirePositive(String name, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be above 0: " + duration);
        }
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
