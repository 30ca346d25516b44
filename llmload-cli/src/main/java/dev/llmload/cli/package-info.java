/**
 * The command line: picocli commands ({@code run}, {@code sweep}, {@code compare}, {@code report},
 * {@code sim}), option parsing and config files, presets, live progress and signal handling. The
 * top layer: it turns flags into a run configuration and hands it to {@code run}, {@code sweep} or
 * {@code compare}; bad input becomes one line and exit code 2.
 *
 * <p>Threads: the main thread parses and becomes the run's dispatcher; {@code llmload-progress}
 * prints progress from counters the recorder thread feeds; a JVM shutdown hook turns Ctrl-C and
 * SIGTERM into a graceful stop ({@code Signals}).
 */
package dev.llmload.cli;
