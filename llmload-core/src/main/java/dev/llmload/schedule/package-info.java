/**
 * When requests go out: open-loop arrival processes (a schedule of send offsets computed up front
 * from the seed, so sending never depends on responses) and closed-loop concurrency plans. Pure
 * arithmetic, reproducible bit for bit; the schedule is computed before the run on the caller's
 * thread and then only read.
 */
package dev.llmload.schedule;
