package dev.llmload.schedule;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The closed-loop counterpart of {@link ArrivalProcess}: how many requests to keep in flight at
 * each moment of the run. A worker pool sends a new request when one finishes and the in-flight
 * count is below {@link #concurrencyAt(long)}; when the target drops, finishing requests are simply
 * not replaced (nothing is cancelled).
 */
public sealed interface ConcurrencyPlan {

    /** The target number of requests in flight at {@code elapsedNanos} after the run start (≥ 0). */
    int concurrencyAt(long elapsedNanos);

    /** When the plan itself ends (only {@link Steps}); otherwise the run's count or duration bound ends it. */
    Optional<Duration> length();

    /** Always {@code concurrency} in flight. */
    record Fixed(int concurrency) implements ConcurrencyPlan {
        public Fixed {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
            }
        }

        @Override
        public int concurrencyAt(long elapsedNanos) {
            return concurrency;
        }

        @Override
        public Optional<Duration> length() {
            return Optional.empty();
        }
    }

    /**
     * From {@code from} to {@code to} in flight, moving linearly over {@code over} and rounded to
     * the nearest whole request, then {@code to} from then on.
     */
    record Ramp(int from, int to, Duration over) implements ConcurrencyPlan {
        public Ramp {
            if (from < 0 || to < 1) {
                throw new IllegalArgumentException(
                        "a ramp goes from 0 or more to 1 or more requests: " + from + " -> " + to);
            }
            if (over.isNegative() || over.isZero()) {
                throw new IllegalArgumentException("over must be above 0: " + over);
            }
        }

        @Override
        public int concurrencyAt(long elapsedNanos) {
            long overNanos = over.toNanos();
            if (elapsedNanos >= overNanos) {
                return to;
            }
            double progress = Math.max(0, elapsedNanos) / (double) overNanos;
            return (int) Math.round(from + (to - from) * progress);
        }

        @Override
        public Optional<Duration> length() {
            return Optional.empty();
        }
    }

    /** The stages one after the other; after the last one the target is 0 and the plan has ended. */
    record Steps(List<ConcurrencyStage> stages) implements ConcurrencyPlan {
        public Steps {
            stages = List.copyOf(stages);
            if (stages.isEmpty()) {
                throw new IllegalArgumentException("stages must not be empty");
            }
        }

        @Override
        public int concurrencyAt(long elapsedNanos) {
            long stageEnd = 0;
            for (ConcurrencyStage stage : stages) {
                stageEnd += stage.duration().toNanos();
                if (elapsedNanos < stageEnd) {
                    return stage.concurrency();
                }
            }
            return 0;
        }

        @Override
        public Optional<Duration> length() {
            Duration total = Duration.ZERO;
            for (ConcurrencyStage stage : stages) {
                total = total.plus(stage.duration());
            }
            return Optional.of(total);
        }
    }

    /**
     * Part {@code index} of {@code count} of a whole plan, for a run spread over hosts: at every
     * moment the whole's concurrency divided as equally as it goes, the first {@code whole mod count}
     * parts one more (16 over 3: 6, 5, 5), so the parts add up to the whole at every moment.
     */
    record Part(ConcurrencyPlan whole, int index, int count) implements ConcurrencyPlan {
        public Part {
            if (count < 1 || index < 0 || index >= count) {
                throw new IllegalArgumentException("part " + index + " of " + count);
            }
        }

        @Override
        public int concurrencyAt(long elapsedNanos) {
            int total = whole.concurrencyAt(elapsedNanos);
            return total / count + (index < total % count ? 1 : 0);
        }

        @Override
        public Optional<Duration> length() {
            return whole.length();
        }
    }
}
