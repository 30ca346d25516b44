package dev.llmload.stats;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The bucket rule of a {@link LogHistogram} of relative error α: a value {@code v > 0} belongs to
 * bucket {@code ceil(ln v / ln γ)}, γ = (1 + α) / (1 − α), computed in doubles exactly as
 * written ({@link #indexByLog}). The histogram's hot path ({@link #index}) gets the same bucket
 * without a logarithm: that expression is non-decreasing in {@code v} (the logarithm is
 * semi-monotonic, a division by a positive constant and the ceiling keep order), so each bucket
 * is the run of doubles from its lowest member up to the next bucket's lowest. Those lowest
 * members are found once per binary octave [2<sup>e</sup>, 2<sup>e+1</sup>) by bisection over
 * the doubles with the very expression; a value then takes its octave from its exponent bits,
 * a first guess from the leading bits of its mantissa, and one comparison against
 * the octave's boundaries. The bucket is therefore the one the logarithm gives, value for value.
 *
 * <p>For α below about 0.00025 (slots of more than 2<sup>12</sup> an octave) the tables would
 * outweigh the histogram, and {@link #index} takes the logarithm.
 *
 * <p>One instance per α, shared by every histogram of that α on any thread: an octave's table is
 * built on first use and never changes, published through its final fields.
 */
final class LogBuckets {

    private static final ConcurrentHashMap<Double, LogBuckets> SHARED = new ConcurrentHashMap<>();
    private static final int MANTISSA_BITS = 52;
    private static final long MANTISSA_MASK = (1L << MANTISSA_BITS) - 1;
    /** At most 2^12 slots (16 KB) per octave. */
    private static final int MAX_SLOT_BITS = 12;

    private final double logGamma;
    /** Leading mantissa bits that pick a first guess: slots no wider than half a bucket. */
    private final int slotBits;
    /** The tables of normal octaves by {@code exponent + 1022}, built when first needed; null for a fine α. */
    private final Octave[] octaves;

    private LogBuckets(double relativeError) {
        this.logGamma = Math.log((1 + relativeError) / (1 - relativeError));
        // A slot of relative width at most 2^-bits holds at most one bucket boundary when that is
        // below the bucket's width ln γ, so one comparison corrects the guess.
        this.slotBits = Math.max(1, (int) Math.ceil(-Math.log(logGamma) / Math.log(2)) + 1);
        // Below α ≈ 0.00025 an octave holds thousands of buckets; such a histogram takes the logarithm.
        this.octaves = slotBits <= MAX_SLOT_BITS ? new Octave[Double.MAX_EXPONENT - Double.MIN_EXPONENT + 1] : null;
    }

    static LogBuckets of(double relativeError) {
        return SHARED.computeIfAbsent(relativeError, LogBuckets::new);
    }

    double logGamma() {
        return logGamma;
    }

    /** The bucket of positive normal {@code value} by the definition. */
    int indexByLog(double value) {
        return (int) Math.ceil(Math.log(value) / logGamma);
    }

    /** The bucket of positive normal {@code value}: {@link #indexByLog}, without the logarithm. */
    int index(double value) {
        if (octaves == null) {
            return indexByLog(value);
        }
        long bits = Double.doubleToRawLongBits(value);
        int exponent = (int) (bits >>> MANTISSA_BITS) - Double.MAX_EXPONENT;
        Octave octave = octaves[exponent - Double.MIN_EXPONENT];
        if (octave == null) {
            octave = octave(exponent);
        }
        int j = octave.guess[(int) ((bits & MANTISSA_MASK) >>> (MANTISSA_BITS - slotBits))];
        // A slot holds at most one boundary: step over it when the value is at or past it. Positive
        // doubles order as their bits, so the step is the sign of a difference, without a branch.
        return octave.first + j + (int) ((octave.lowestBits[j + 1] - bits - 1) >>> 63);
    }

    private Octave octave(int exponent) {
        Octave built = new Octave(exponent);
        octaves[exponent - Double.MIN_EXPONENT] = built;
        return built;
    }

    /**
     * One octave's buckets: the bucket of its smallest value, the lowest member of each bucket
     * that starts in it, and per slot of leading mantissa bits the bucket of the slot's smallest value.
     */
    private final class Octave {
        final int first;
        /**
         * The bits of the smallest value of the octave in bucket first + j (j = 0: 2^e), and past
         * the last an end no value reaches.
         */
        final long[] lowestBits;

        final int[] guess;

        Octave(int exponent) {
            long low = Double.doubleToRawLongBits(Math.scalb(1.0, exponent));
            long high = low + MANTISSA_MASK; // the octave's largest double
            first = indexByLog(Double.longBitsToDouble(low));
            int last = indexByLog(Double.longBitsToDouble(high));
            double[] lowest = new double[last - first + 1];
            lowest[0] = Double.longBitsToDouble(low);
            long from = low;
            for (int j = 1; j < lowest.length; j++) {
                if (indexByLog(Double.longBitsToDouble(from)) >= first + j) {
                    lowest[j] = lowest[j - 1]; // bucket first + j holds no double
                    continue;
                }
                // The smallest bit pattern in (from, high] whose bucket is at least first + j.
                long below = from;
                long above = high;
                while (above - below > 1) {
                    long middle = (below + above) >>> 1;
                    if (indexByLog(Double.longBitsToDouble(middle)) >= first + j) {
                        above = middle;
                    } else {
                        below = middle;
                    }
                }
                lowest[j] = Double.longBitsToDouble(above);
                from = above;
            }
            lowestBits = new long[lowest.length + 1];
            for (int j = 0; j < lowest.length; j++) {
                lowestBits[j] = Double.doubleToRawLongBits(lowest[j]);
            }
            lowestBits[lowest.length] = Long.MAX_VALUE;
            guess = new int[1 << slotBits];
            int j = 0;
            long slotWidth = 1L << (MANTISSA_BITS - slotBits);
            for (int slot = 0; slot < guess.length; slot++) {
                long slotLow = low + slot * slotWidth;
                while (slotLow >= lowestBits[j + 1]) {
                    j++;
                }
                guess[slot] = j;
                // The slot's width was chosen below a bucket's, so its last value is at most one bucket on.
                if (j + 2 < lowestBits.length && slotLow + slotWidth - 1 >= lowestBits[j + 2]) {
                    throw new IllegalStateException("a slot of octave " + exponent + " spans two bucket boundaries");
                }
            }
        }
    }
}
