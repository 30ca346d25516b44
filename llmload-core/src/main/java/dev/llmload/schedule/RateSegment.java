package dev.llmload.schedule;

/**
 * One interval of an arrival rate λ(t) that changes over time, with what time-rescaling needs:
 * the expected number of arrivals in the interval, Λ = ∫λ dt, and the inverse of Λ(t).
 * Times are in seconds from the start of the segment; rates in requests per second.
 */
sealed interface RateSegment {

    /** Length of the segment; {@code +∞} for the last segment of an unending process. */
    double seconds();

    /** Λ over the whole segment; {@code +∞} when the segment never ends. */
    double expectedArrivals();

    /** The time t within the segment at which Λ(t) reaches {@code arrivals}, for 0 ≤ arrivals < {@link #expectedArrivals()}. */
    double secondsUntil(double arrivals);

    /** λ(t) = rate. */
    record Flat(double rate, double seconds) implements RateSegment {
        @Override
        public double expectedArrivals() {
            return rate * seconds;
        }

        @Override
        public double secondsUntil(double arrivals) {
            return arrivals / rate;
        }
    }

    /** λ(t) = from + (to − from)·t/T, so Λ(t) = from·t + (to − from)·t²/(2T). */
    record Linear(double from, double to, double seconds) implements RateSegment {
        @Override
        public double expectedArrivals() {
            return (from + to) / 2 * seconds;
        }

        @Override
        public double secondsUntil(double arrivals) {
            if (arrivals == 0) {
                return 0;
            }
            // The root of the quadratic written as 2s / (a + √(a² + 2(b − a)s/T)): no cancellation when
            // the rate falls, and no division by zero when a ramp starts from 0 or is flat.
            double discriminant = from * from + 2 * (to - from) * arrivals / seconds;
            return 2 * arrivals / (from + StrictMath.sqrt(Math.max(0, discriminant)));
        }
    }

    /** λ(t) = from·(to/from)^(t/T) = from·e^(g·t) with g = ln(to/from)/T, so Λ(t) = from·(e^(g·t) − 1)/g. */
    record Exponential(double from, double to, double seconds) implements RateSegment {
        @Override
        public double expectedArrivals() {
            return from == to ? from * seconds : (to - from) / growth();
        }

        @Override
        public double secondsUntil(double arrivals) {
            if (from == to) {
                return arrivals / from;
            }
            double growth = growth();
            return StrictMath.log1p(growth * arrivals / from) / growth;
        }

        private double growth() {
            return StrictMath.log(to / from) / seconds;
        }
    }
}
