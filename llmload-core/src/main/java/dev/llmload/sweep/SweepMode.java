package dev.llmload.sweep;

import dev.llmload.config.Load;
import java.util.List;

/** How a sweep chooses its load points. */
public sealed interface SweepMode {

    /** What a sweep varies. */
    enum Axis {
        /** Open loop: requests per second, with the arrival process of the template. */
        RATE,
        /** Closed loop: requests in flight. */
        CONCURRENCY;

        /** The load at {@code value}, keeping the template's arrival process, burstiness and gate for rates. */
        public Load at(double value, Load template) {
            return switch (this) {
                case RATE ->
                    template instanceof Load.Open open
                            ? open.atRate(value)
                            : Load.open(value, null, null, template.maxConcurrency());
                case CONCURRENCY -> Load.closed((int) Math.round(value));
            };
        }

        public String cliName() {
            return this == RATE ? "rate" : "concurrency";
        }
    }

    String name();

    /** The loads given, run from the lowest to the highest. */
    record Fixed(Axis axis, List<Double> values) implements SweepMode {
        public Fixed {
            values = values.stream().sorted().distinct().toList();
        }

        @Override
        public String name() {
            return "fixed";
        }
    }

    /**
     * GuideLLM's sweep: one request at a time (the baseline throughput), then everything at once
     * ({@code unboundedConcurrency} in flight, the maximum throughput), then {@code points} rates
     * from {@link SweepValues#autoRates}.
     */
    record Auto(int points, int unboundedConcurrency) implements SweepMode {
        public Auto {
            if (points < 1) {
                throw new IllegalArgumentException("--points must be at least 1, got " + points);
            }
        }

        @Override
        public String name() {
            return "auto";
        }
    }

    /** The highest load whose run meets the sweep's SLO, by {@link CapacitySearch}. */
    record Capacity(Axis axis, double start, CapacitySearch.Precision precision, int maxPoints) implements SweepMode {
        @Override
        public String name() {
            return "capacity";
        }
    }
}
