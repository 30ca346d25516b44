package dev.llmload.run;

import dev.llmload.load.LoadPlan;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.segment.Segment;
import dev.llmload.segment.SegmentSchedule;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.session.SessionSource;
import dev.llmload.workload.source.RequestSource;

/**
 * The part of a run that one segment sends (docs/distributed.md): its share of the plan and of the
 * requests. An open loop keeps every intended send time of requests k ≡ I (mod N) of the whole
 * schedule; a closed loop divides the concurrency at every moment and the request count; the
 * prompts are the whole run's prompts k ≡ I (mod N), so the segments together send exactly what
 * one host would. Sessions are dealt whole the same way: session k to segment k mod N, and
 * {@code --num-sessions} is divided like the request count. Pure apart from the source it wraps.
 */
final class SegmentPart {

    private SegmentPart() {}

    /** This segment's part of the whole run's plan. */
    static LoadPlan plan(LoadPlan whole, Segment segment) {
        return switch (whole) {
            case LoadPlan.OpenLoop open ->
                new LoadPlan.OpenLoop(
                        SegmentSchedule.of(segment, open.offsetsNanos()).offsetsNanos(),
                        open.maxConcurrency() == 0 ? 0 : (int) Math.max(1, segment.share(open.maxConcurrency())));
            case LoadPlan.ClosedLoop closed -> new LoadPlan.ClosedLoop(closedPlan(closed.concurrency(), segment));
        };
    }

    /**
     * The request bound of this segment: an open loop sends its part of the schedule, which the
     * whole count already bounds; a closed loop, and any run of sessions (whose schedule starts
     * sessions, not requests), its share of the count (-1: no count).
     */
    static long count(LoadPlan part, long wholeCount, Segment segment, boolean sessions) {
        if (sessions) {
            return wholeCount < 0 ? -1 : segment.share(wholeCount);
        }
        return switch (part) {
            case LoadPlan.OpenLoop open -> open.offsetsNanos().length;
            case LoadPlan.ClosedLoop ignored -> wholeCount < 0 ? -1 : segment.share(wholeCount);
        };
    }

    /**
     * This segment's part of {@code --num-sessions} (-1: no count): its share, which is exactly the
     * sessions below the whole count that it is dealt (session k to segment k mod N), 7 over 3 as
     * 3, 2 and 2. A segment whose share is none refuses to start.
     */
    static long sessionCount(long wholeCount, Segment segment) {
        if (wholeCount < 0) {
            return -1;
        }
        long share = segment.share(wholeCount);
        if (share < 1) {
            throw new IllegalArgumentException("--num-sessions " + wholeCount + " over " + segment.count()
                    + " segments leaves segment " + segment + " no session; use at most " + wholeCount
                    + " segments");
        }
        return share;
    }

    private static ConcurrencyPlan closedPlan(ConcurrencyPlan whole, Segment segment) {
        if (whole instanceof ConcurrencyPlan.Fixed fixed) {
            long share = segment.share(fixed.concurrency());
            if (share < 1) {
                throw new IllegalArgumentException("--concurrency " + fixed.concurrency() + " over " + segment.count()
                        + " segments leaves segment " + segment + " nothing to send; use at most "
                        + fixed.concurrency() + " segments");
            }
            return new ConcurrencyPlan.Fixed((int) share);
        }
        return new ConcurrencyPlan.Part(whole, segment.index(), segment.count());
    }

    /**
     * This segment's sessions: whole sessions i with i mod N = I, never one split over segments,
     * behind its share of {@code --max-sessions}.
     */
    static SessionSource sessions(SessionSource whole, Segment segment) {
        int bound = whole.plan().maxActiveSessions();
        int share = bound == Integer.MAX_VALUE ? bound : (int) Math.max(1, segment.share(bound));
        return whole.part(segment.index(), segment.count(), share);
    }

    /** The whole run's requests that are this segment's: index k with k mod N = I, in order. */
    static RequestSource requests(RequestSource whole, Segment segment) {
        return new RequestSource() {
            private RequestSpec next;

            @Override
            public boolean hasNext() {
                while (next == null && whole.hasNext()) {
                    RequestSpec candidate = whole.next();
                    if (segment.owns(candidate.index())) {
                        next = candidate;
                    }
                }
                return next != null;
            }

            @Override
            public RequestSpec next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                RequestSpec taken = next;
                next = null;
                return taken;
            }

            @Override
            public String describe() {
                return whole.describe();
            }

            @Override
            public String contentHash() {
                return whole.contentHash();
            }

            @Override
            public void close() {
                whole.close();
            }
        };
    }
}
