package dev.llmload.config;

import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.ConcurrencyPlan;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.List;

/**
 * How the load is applied (DESIGN.md §5 {@code load}): a closed loop that keeps requests in
 * flight, an open loop that sends on a schedule computed up front, or the replay of a trace at
 * its own timestamps. Each keeps the text its shape was written as, for the report.
 */
public sealed interface Load {

    /** Whether requests go out on a schedule, whatever the server does. */
    default boolean isOpen() {
        return !(this instanceof Closed);
    }

    /** The open loop's steady rate in req/s; null for a closed loop, a trace, or a shape without one. */
    default Double requestRate() {
        return null;
    }

    /** The open loop's gate on requests in flight; null for none. */
    default Integer maxConcurrency() {
        return null;
    }

    /** A short label for directory names and headers, e.g. {@code c8}, {@code r20} or {@code ramp}. */
    String label();

    /** This load as report.json records it; the one projection both of its load sections are made from. */
    default Recorded recorded() {
        return switch (this) {
            case Closed closed ->
                new Recorded(Mode.CLOSED, closed.concurrency(), null, null, null, null, closed.profile());
            case Open open ->
                new Recorded(
                        Mode.OPEN,
                        null,
                        open.requestRate(),
                        open.arrival(),
                        open.burstiness(),
                        open.maxConcurrency(),
                        open.profile());
            case Trace trace -> new Recorded(Mode.OPEN, null, null, Arrival.TRACE, null, trace.maxConcurrency(), null);
        };
    }

    /** Closed (a concurrency kept in flight) or open (arrivals on a schedule, a trace's too) loop. */
    enum Mode {
        CLOSED,
        OPEN;

        /** Lower case, as report.json writes it. */
        @com.fasterxml.jackson.annotation.JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A load as report.json records it, typed: the {@code load} of its {@code config} section as
     * it stands, and the parameters of the top-level {@code load} section. Unchecked, as read: the
     * rows of {@link OptionTable} that choose the load read their values from it, and the builder
     * makes the load again through the records' constructors.
     *
     * @param concurrency a closed loop's requests in flight; null for an open loop
     * @param arrival     an open loop's arrivals ({@code trace} for a replay); null for a closed loop
     * @param profile     the shape as written (a closed loop's profile, a ramp, stages, bursts); null for none
     */
    record Recorded(
            Mode mode,
            Integer concurrency,
            Double requestRate,
            Arrival arrival,
            Double burstiness,
            Integer maxConcurrency,
            String profile) {}

    /** A closed loop of {@code concurrency} requests in flight. */
    static Closed closed(int concurrency) {
        return Closed.of(concurrency);
    }

    /** A steady open loop; {@code arrival} null is Poisson (gamma with a burstiness). */
    static Open open(double requestRate, Arrival arrival, Double burstiness, Integer maxConcurrency) {
        return Open.of(requestRate, arrival, burstiness, maxConcurrency, null);
    }

    /**
     * A closed loop.
     *
     * @param concurrency requests in flight, or the first stage of a profile
     * @param profile     {@code ramp:FROM:TO:TIME} or {@code N:TIME,...} as written; null for a fixed concurrency
     * @param plan        the concurrency over time that {@code profile} describes
     */
    record Closed(int concurrency, String profile, ConcurrencyPlan plan) implements Load {

        public Closed {
            if (concurrency < 1) {
                throw new ConfigException("--concurrency must be at least 1, got " + concurrency);
            }
            if (plan == null) {
                throw new ConfigException("a closed loop needs its concurrency plan");
            }
        }

        /** {@code concurrency} requests in flight. */
        public static Closed of(int concurrency) {
            return of(concurrency, null);
        }

        /** @param profile null, or a concurrency profile as written */
        public static Closed of(int concurrency, String profile) {
            if (concurrency < 1) {
                throw new ConfigException("--concurrency must be at least 1, got " + concurrency);
            }
            return new Closed(
                    concurrency,
                    profile,
                    profile == null ? new ConcurrencyPlan.Fixed(concurrency) : Shapes.concurrencyPlan(profile));
        }

        @Override
        public String label() {
            return profile == null ? "c" + concurrency : "c-profile";
        }
    }

    /**
     * An open loop on arrivals computed up front from the seed.
     *
     * @param requestRate    req/s of a steady arrival, or the rate given beside a shape; null for none
     * @param arrival        the kind of arrival
     * @param burstiness     gamma shape K (1 = Poisson); null except for gamma arrivals
     * @param maxConcurrency at most this many requests in flight (the rest wait); null for no gate
     * @param profile        a ramp, stages or bursts as written; null for a steady arrival
     * @param process        the arrival process these describe
     */
    record Open(
            Double requestRate,
            Arrival arrival,
            Double burstiness,
            Integer maxConcurrency,
            String profile,
            ArrivalProcess process)
            implements Load {

        public Open {
            if (arrival == null || process == null) {
                throw new ConfigException("an open loop needs its arrival process");
            }
            check(requestRate, burstiness, maxConcurrency);
        }

        /**
         * @param arrival    the kind; {@code null} is Poisson, or gamma when a burstiness is given
         * @param profile    the shape of {@code ramp}, {@code stages} or {@code bursts} as written
         */
        public static Open of(
                Double requestRate, Arrival arrival, Double burstiness, Integer maxConcurrency, String profile) {
            check(requestRate, burstiness, maxConcurrency);
            Arrival kind = arrival != null ? arrival : burstiness != null ? Arrival.GAMMA : Arrival.POISSON;
            if (kind.shaped() && requestRate != null) {
                // The shape sets every rate (a ramp's ends, each stage's, the bursts' Poisson base).
                throw new ConfigException("--request-rate does not combine with --" + kind.cliName() + ", which sets "
                        + "the rates itself"
                        + (kind == Arrival.BURSTS ? " (BASE is the Poisson rate between bursts)" : ""));
            }
            if (burstiness != null && kind != Arrival.GAMMA) {
                throw new ConfigException("--burstiness applies to gamma arrivals, not --arrival " + kind.cliName());
            }
            ArrivalProcess process = switch (kind) {
                case POISSON -> new ArrivalProcess.Poisson(rate(requestRate, kind));
                case CONSTANT -> new ArrivalProcess.Constant(rate(requestRate, kind));
                case GAMMA ->
                    ConfigException.parsing(
                            "--burstiness",
                            () -> new ArrivalProcess.Gamma(
                                    rate(requestRate, kind), burstiness == null ? 1.0 : burstiness));
                case RAMP -> Shapes.ramp(required(profile, kind, "--ramp FROM:TO:TIME[:exponential]"));
                case STAGES -> Shapes.stages(required(profile, kind, "--stages RATE:TIME,RATE:TIME,..."));
                case BURSTS -> Shapes.bursts(required(profile, kind, "--bursts BASE_RATE:SIZE:PERIOD"));
                case TRACE -> throw new ConfigException("--arrival trace needs --trace FILE");
            };
            return new Open(requestRate, kind, burstiness, maxConcurrency, kind.shaped() ? profile : null, process);
        }

        /** A steady arrival of {@code template}'s kind, gate and burstiness at another rate (a sweep point). */
        public Open atRate(double rate) {
            Arrival kind = arrival.shaped() ? Arrival.POISSON : arrival;
            return of(rate, kind, kind == Arrival.GAMMA ? burstiness : null, maxConcurrency, null);
        }

        private static void check(Double requestRate, Double burstiness, Integer maxConcurrency) {
            if (requestRate != null && (!(requestRate > 0) || requestRate.isInfinite())) {
                throw new ConfigException("--request-rate must be a positive number, got " + requestRate);
            }
            if (burstiness != null && !(burstiness > 0)) {
                throw new ConfigException("--burstiness must be positive, got " + burstiness);
            }
            if (maxConcurrency != null && maxConcurrency < 1) {
                throw new ConfigException("--max-concurrency must be at least 1, got " + maxConcurrency);
            }
        }

        private static double rate(Double requestRate, Arrival kind) {
            if (requestRate == null) {
                throw new ConfigException("--arrival " + kind.cliName() + " needs --request-rate");
            }
            return requestRate;
        }

        private static String required(String profile, Arrival kind, String flag) {
            if (profile == null) {
                throw new ConfigException("--arrival " + kind.cliName() + " needs " + flag);
            }
            return profile;
        }

        @Override
        public String label() {
            if (requestRate == null || profile != null) {
                return arrival.cliName();
            }
            return "r" + rateLabel(requestRate);
        }

        /**
         * A rate as a name: as typed (its shortest decimal, {@code 12.25}, {@code 1000}) up to 6
         * significant figures, else rounded to 3 ({@code 85.60645640536984}, a capacity search's
         * point, is {@code 85.6}), never in exponent form.
         */
        static String rateLabel(double rate) {
            BigDecimal typed = new BigDecimal(Double.toString(rate));
            BigDecimal shown = typed.precision() <= 6 ? typed : typed.round(new MathContext(3, RoundingMode.HALF_EVEN));
            return shown.stripTrailingZeros().toPlainString();
        }
    }

    /**
     * Requests of a recorded trace, sent at its own timestamps.
     *
     * @param file           the trace (JSONL or CSV)
     * @param speed          how much faster than recorded it is replayed
     * @param maxConcurrency at most this many requests in flight; null for no gate
     * @param format         one of {@link #FORMATS}; null to tell by the file's first entry
     */
    record Trace(Path file, double speed, Integer maxConcurrency, String format) implements Load {

        /** The formats {@code --trace-format} names. */
        public static final List<String> FORMATS =
                List.of("mooncake", "llmload-sessions", "aiperf-mooncake", "aiperf-multi-turn");

        /** A trace whose format is told by its first entry. */
        public Trace(Path file, double speed, Integer maxConcurrency) {
            this(file, speed, maxConcurrency, null);
        }

        public Trace {
            if (format != null && !FORMATS.contains(format)) {
                throw new ConfigException(
                        "--trace-format must be one of " + String.join(", ", FORMATS) + ", not '" + format + "'");
            }
            if (file == null) {
                throw new ConfigException("--arrival trace needs --trace FILE");
            }
            if (!(speed > 0) || Double.isInfinite(speed)) {
                throw new ConfigException("--trace-speed must be a positive number, got " + speed);
            }
            if (maxConcurrency != null && maxConcurrency < 1) {
                throw new ConfigException("--max-concurrency must be at least 1, got " + maxConcurrency);
            }
        }

        @Override
        public String label() {
            return "trace";
        }
    }

    /**
     * The open-loop arrivals, as {@code --arrival} and report.json name them; {@code TRACE} is a
     * replay of {@link Trace}, never an {@link Open} load's.
     */
    enum Arrival {
        POISSON,
        CONSTANT,
        GAMMA,
        RAMP,
        STAGES,
        BURSTS,
        TRACE;

        @com.fasterxml.jackson.annotation.JsonValue
        public String cliName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public String toString() {
            return cliName();
        }

        /** Whether the rate follows a written shape rather than one steady rate. */
        public boolean shaped() {
            return this == RAMP || this == STAGES || this == BURSTS;
        }

        /** @throws ConfigException for a name that is none of them */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static Arrival parse(String name) {
            for (Arrival arrival : values()) {
                if (arrival.cliName().equals(name.toLowerCase(java.util.Locale.ROOT))) {
                    return arrival;
                }
            }
            throw new ConfigException("unknown --arrival '" + name
                    + "' (expected poisson, constant, gamma, ramp, stages, bursts or trace)");
        }
    }
}
