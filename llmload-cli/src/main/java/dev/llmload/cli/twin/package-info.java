/**
 * The digital twin of a server: {@code TwinFit} makes the simulator's engine configuration from a
 * fit ({@code dev.llmload.twin.fit}), writes the profile file and the fit report, and replays each
 * run through the fitted engine; {@code WhatIf} runs workloads through the engine in virtual time
 * ({@code sim.engine.batching.VirtualEngine}) and searches the highest rate that meets an SLO.
 * Pure and seeded; called on the command's thread.
 */
package dev.llmload.cli.twin;
