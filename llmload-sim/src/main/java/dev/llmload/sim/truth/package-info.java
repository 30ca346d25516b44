/**
 * The ground-truth log: what the server did for each request, one flushed JSON line per finished
 * request, so tests judge the client against an independent record. Any event loop enqueues;
 * the {@code sim-ground-truth} thread owns the file.
 */
package dev.llmload.sim.truth;
