/**
 * Faults the simulator injects on purpose: HTTP errors, stalls, cut or broken streams, engine
 * pauses, forced by a header or drawn by seeded rule. Parsing is pure; the planner is called from
 * every event loop and draws under its own monitor, so the same seed and arrival order give the
 * same faults.
 */
package dev.llmload.sim.fault;
