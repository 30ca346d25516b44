package dev.llmload.run;

import dev.llmload.load.LoadPlan;
import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.schedule.ConcurrencyStage;
import dev.llmload.schedule.Schedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a {@link LoadSpec} into what the dispatcher walks: a schedule of send times computed up
 * front from the seed (open loop), or a concurrency plan (closed loop). Parses the profile strings
 * of ramps, stages and bursts; a bad one is an {@link IllegalArgumentException} with a one-line reason.
 */
public final class Traffic {

    private Traffic() {}

    /**
     * @param count         most requests, or -1
     * @param duration      time bound, or null
     * @param traceOffsets  the trace's own send offsets for {@code arrival=trace}, else null
     */
    public static LoadPlan plan(LoadSpec load, long count, Duration duration, long seed, long[] traceOffsets,
                                Double traceSpeed) {
        if (!load.isOpen()) {
            return new LoadPlan.ClosedLoop(concurrencyPlan(load));
        }
        ArrivalProcess process = arrivalProcess(load, traceOffsets, traceSpeed);
        boolean bounded = count >= 0 || duration != null || process instanceof ArrivalProcess.Trace
                || process instanceof ArrivalProcess.Stages;
        if (!bounded) {
            throw new IllegalArgumentException("an open-loop run needs --num-requests or --duration");
        }
        int maxCount = count < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, count);
        Schedule schedule = Schedule.build(process, maxCount, duration, seed);
        return new LoadPlan.OpenLoop(schedule.offsetsNanos(), load.maxConcurrency() == null ? 0 : load.maxConcurrency());
    }

    static ArrivalProcess arrivalProcess(LoadSpec load, long[] traceOffsets, Double traceSpeed) {
        String arrival = load.arrival() == null ? "poisson" : load.arrival().toLowerCase(Locale.ROOT);
        return switch (arrival) {
            case "poisson" -> new ArrivalProcess.Poisson(rate(load));
            case "constant" -> new ArrivalProcess.Constant(rate(load));
            case "gamma" -> new ArrivalProcess.Gamma(rate(load), load.burstiness() == null ? 1.0 : load.burstiness());
            case "ramp" -> ramp(required(load, "--ramp FROM:TO:TIME[:exponential]"));
            case "stages" -> stages(required(load, "--stages RATE:TIME,RATE:TIME,..."));
            case "bursts" -> bursts(required(load, "--bursts BASE_RATE:SIZE:PERIOD"));
            case "trace" -> {
                if (traceOffsets == null) {
                    throw new IllegalArgumentException("--arrival trace needs --trace FILE");
                }
                yield new ArrivalProcess.Trace(traceOffsets, traceSpeed == null ? 1.0 : traceSpeed);
            }
            default -> throw new IllegalArgumentException("unknown --arrival '" + load.arrival()
                    + "' (expected poisson, constant, gamma, ramp, stages, bursts or trace)");
        };
    }

    private static double rate(LoadSpec load) {
        if (load.requestRate() == null) {
            throw new IllegalArgumentException("--arrival " + load.arrival() + " needs --request-rate");
        }
        return load.requestRate();
    }

    private static String required(LoadSpec load, String flag) {
        if (load.profile() == null) {
            throw new IllegalArgumentException("--arrival " + load.arrival() + " needs " + flag);
        }
        return load.profile();
    }

    /** {@code FROM:TO:TIME[:linear|:exponential][:poisson]}: a rate moving from FROM to TO over TIME. */
    static ArrivalProcess ramp(String spec) {
        String[] parts = spec.split(":");
        if (parts.length < 3) {
            throw new IllegalArgumentException("ramp '" + spec + "': expected FROM:TO:TIME[:exponential][:poisson]");
        }
        ArrivalProcess.Ramp.Shape shape = ArrivalProcess.Ramp.Shape.LINEAR;
        boolean poisson = false;
        for (int i = 3; i < parts.length; i++) {
            switch (parts[i].toLowerCase(Locale.ROOT)) {
                case "linear" -> shape = ArrivalProcess.Ramp.Shape.LINEAR;
                case "exponential", "exp" -> shape = ArrivalProcess.Ramp.Shape.EXPONENTIAL;
                case "poisson" -> poisson = true;
                default -> throw new IllegalArgumentException("ramp '" + spec + "': unknown option '" + parts[i] + "'");
            }
        }
        return new ArrivalProcess.Ramp(number(parts[0], spec), number(parts[1], spec), duration(parts[2], spec), shape, poisson);
    }

    /** {@code RATE:TIME,RATE:TIME,...}: steady rates one after another. */
    static ArrivalProcess stages(String spec) {
        List<ArrivalProcess.Stage> stages = new ArrayList<>();
        for (String stage : spec.split(",")) {
            String[] parts = stage.trim().split(":");
            if (parts.length != 2) {
                throw new IllegalArgumentException("stages '" + spec + "': each stage is RATE:TIME, e.g. 5:30s");
            }
            stages.add(new ArrivalProcess.Stage(number(parts[0], spec), duration(parts[1], spec)));
        }
        return new ArrivalProcess.Stages(stages, true);
    }

    /** {@code BASE:SIZE:PERIOD}: SIZE requests at once every PERIOD on top of a Poisson BASE rate. */
    static ArrivalProcess bursts(String spec) {
        String[] parts = spec.split(":");
        if (parts.length != 3) {
            throw new IllegalArgumentException("bursts '" + spec + "': expected BASE_RATE:SIZE:PERIOD, e.g. 2:20:10s");
        }
        return new ArrivalProcess.Bursts(number(parts[0], spec), (int) number(parts[1], spec), duration(parts[2], spec));
    }

    /** A closed-loop profile: {@code ramp:FROM:TO:TIME} or {@code N:TIME,N:TIME,...}; none means fixed. */
    static ConcurrencyPlan concurrencyPlan(LoadSpec load) {
        String profile = load.profile();
        if (profile == null) {
            return new ConcurrencyPlan.Fixed(load.concurrency());
        }
        if (profile.startsWith("ramp:")) {
            String[] parts = profile.split(":");
            if (parts.length != 4) {
                throw new IllegalArgumentException("concurrency ramp '" + profile + "': expected ramp:FROM:TO:TIME");
            }
            return new ConcurrencyPlan.Ramp((int) number(parts[1], profile), (int) number(parts[2], profile),
                    duration(parts[3], profile));
        }
        List<ConcurrencyStage> stages = new ArrayList<>();
        for (String stage : profile.split(",")) {
            String[] parts = stage.trim().split(":");
            if (parts.length != 2) {
                throw new IllegalArgumentException("concurrency stages '" + profile + "': each stage is N:TIME, e.g. 8:30s");
            }
            stages.add(new ConcurrencyStage((int) number(parts[0], profile), duration(parts[1], profile)));
        }
        return new ConcurrencyPlan.Steps(stages);
    }

    private static double number(String text, String spec) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + spec + "': '" + text + "' is not a number");
        }
    }

    private static Duration duration(String text, String spec) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + spec + "': " + e.getMessage());
        }
    }
}
