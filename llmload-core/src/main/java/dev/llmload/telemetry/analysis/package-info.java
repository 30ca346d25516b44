/**
 * Reduces a telemetry recording to the measured window (the report's {@code telemetry} section)
 * and draws the telemetry notes from it and the client's own figures. Pure, on the caller's
 * thread at the end of a run.
 */
package dev.llmload.telemetry.analysis;
