package dev.llmload.config;

import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.schedule.ConcurrencyStage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads the written shapes of a load: ramps, stages, bursts and concurrency profiles. */
final class Shapes {

    private Shapes() {}

    /** {@code FROM:TO:TIME[:linear|:exponential][:poisson]}: a rate moving from FROM to TO over TIME. */
    static ArrivalProcess ramp(String spec) {
        String[] parts = spec.split(":");
        if (parts.length < 3) {
            throw new ConfigException("ramp '" + spec + "': expected FROM:TO:TIME[:exponential][:poisson]");
        }
        ArrivalProcess.Ramp.Shape shape = ArrivalProcess.Ramp.Shape.LINEAR;
        boolean poisson = false;
        for (int i = 3; i < parts.length; i++) {
            switch (parts[i].toLowerCase(Locale.ROOT)) {
                case "linear" -> shape = ArrivalProcess.Ramp.Shape.LINEAR;
                case "exponential", "exp" -> shape = ArrivalProcess.Ramp.Shape.EXPONENTIAL;
                case "poisson" -> poisson = true;
                default -> throw new ConfigException("ramp '" + spec + "': unknown option '" + parts[i] + "'");
            }
        }
        double from = number(parts[0], spec);
        double to = number(parts[1], spec);
        Duration over = duration(parts[2], spec);
        boolean randomGaps = poisson;
        ArrivalProcess.Ramp.Shape rampShape = shape;
        return checked(() -> new ArrivalProcess.Ramp(from, to, over, rampShape, randomGaps));
    }

    /** {@code RATE:TIME,RATE:TIME,...}: steady rates one after another. */
    static ArrivalProcess stages(String spec) {
        List<ArrivalProcess.Stage> stages = new ArrayList<>();
        for (String stage : spec.split(",")) {
            String[] parts = stage.trim().split(":");
            if (parts.length != 2) {
                throw new ConfigException("stages '" + spec + "': each stage is RATE:TIME, e.g. 5:30s");
            }
            double rate = number(parts[0], spec);
            Duration duration = duration(parts[1], spec);
            stages.add(checked(() -> new ArrivalProcess.Stage(rate, duration)));
        }
        return checked(() -> new ArrivalProcess.Stages(stages, true));
    }

    /** {@code BASE:SIZE:PERIOD}: SIZE requests at once every PERIOD on top of a Poisson BASE rate. */
    static ArrivalProcess bursts(String spec) {
        String[] parts = spec.split(":");
        if (parts.length != 3) {
            throw new ConfigException("bursts '" + spec + "': expected BASE_RATE:SIZE:PERIOD, e.g. 2:20:10s");
        }
        double base = number(parts[0], spec);
        int size = (int) number(parts[1], spec);
        Duration period = duration(parts[2], spec);
        return checked(() -> new ArrivalProcess.Bursts(base, size, period));
    }

    /** A closed-loop profile: {@code ramp:FROM:TO:TIME} or {@code N:TIME,N:TIME,...}. */
    static ConcurrencyPlan concurrencyPlan(String profile) {
        if (profile.startsWith("ramp:")) {
            String[] parts = profile.split(":");
            if (parts.length != 4) {
                throw new ConfigException("concurrency ramp '" + profile + "': expected ramp:FROM:TO:TIME");
            }
            int from = (int) number(parts[1], profile);
            int to = (int) number(parts[2], profile);
            Duration over = duration(parts[3], profile);
            return checked(() -> new ConcurrencyPlan.Ramp(from, to, over));
        }
        List<ConcurrencyStage> stages = new ArrayList<>();
        for (String stage : profile.split(",")) {
            String[] parts = stage.trim().split(":");
            if (parts.length != 2) {
                throw new ConfigException("concurrency stages '" + profile + "': each stage is N:TIME, e.g. 8:30s");
            }
            int n = (int) number(parts[0], profile);
            Duration duration = duration(parts[1], profile);
            stages.add(checked(() -> new ConcurrencyStage(n, duration)));
        }
        return checked(() -> new ConcurrencyPlan.Steps(stages));
    }

    /** A shape's own checks (positive rates, ordered stages) as one-line config errors. */
    private static <T> T checked(java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw e instanceof ConfigException config ? config : new ConfigException(e.getMessage());
        }
    }

    private static double number(String text, String spec) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException("'" + spec + "': '" + text + "' is not a number");
        }
    }

    private static Duration duration(String text, String spec) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("'" + spec + "': " + e.getMessage());
        }
    }
}
