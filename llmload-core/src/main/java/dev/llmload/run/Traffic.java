package dev.llmload.run;

import dev.llmload.config.Load;
import dev.llmload.load.LoadPlan;
import dev.llmload.schedule.ArrivalProcess;
import dev.llmload.schedule.Schedule;
import java.time.Duration;

/**
 * Turns a {@link Load} into what the dispatcher walks: a schedule of send times computed up front
 * from the seed (open loop), or a concurrency plan (closed loop). The load's shapes were read and
 * checked when it was made; only a trace's send times come from its file, here.
 */
final class Traffic {

    private Traffic() {}

    /**
     * @param count         most requests, or -1
     * @param duration      time bound, or null
     * @param traceOffsets  the trace's own send offsets for a {@link Load.Trace}, else null
     */
    public static LoadPlan plan(Load load, long count, Duration duration, long seed, long[] traceOffsets) {
        ArrivalProcess process;
        switch (load) {
            case Load.Closed closed -> {
                return new LoadPlan.ClosedLoop(closed.plan());
            }
            case Load.Open open -> process = open.process();
            case Load.Trace trace -> process = new ArrivalProcess.Trace(traceOffsets, trace.speed());
        }
        int maxCount = count < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, count);
        Schedule schedule = Schedule.build(process, maxCount, duration, seed);
        return new LoadPlan.OpenLoop(
                schedule.offsetsNanos(), load.maxConcurrency() == null ? 0 : load.maxConcurrency());
    }
}
