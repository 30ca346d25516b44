/**
 * What a run is, as one checked value: {@link dev.llmload.config.RunConfig} and the records it is
 * made of ({@link dev.llmload.config.Target}, {@link dev.llmload.config.Load},
 * {@link dev.llmload.config.Data}, {@link dev.llmload.config.Sessions},
 * {@link dev.llmload.config.Bounds}, {@link dev.llmload.config.Client},
 * {@link dev.llmload.config.Telemetry}, {@link dev.llmload.config.Output},
 * {@link dev.llmload.config.SloLimits}), and {@link dev.llmload.config.OptionTable}, the one table
 * of run options (a {@link dev.llmload.config.RunOption} row each: flag, type, default, help,
 * report.json key and how it is read back), from which the command line, the builder's defaults,
 * report.json's {@code config} section ({@link dev.llmload.config.ReportLayout}) and replay are made.
 *
 * <p>The bottom layer of a run: it reads values (shapes, lengths, limits, durations) with the
 * packages that define them and imports nothing from {@code run}, {@code report},
 * {@code analysis} or the command line. Every record refuses a bad value in its constructor with a
 * one-line {@link dev.llmload.config.ConfigException}; every value is read once, when the
 * configuration is made, and keeps the text it was written as for report.json.
 *
 * <p>Threads: none of its own. The values are immutable and may be shared by any thread; a
 * {@link dev.llmload.config.RunConfig.Builder} belongs to the thread that fills it.
 */
package dev.llmload.config;
