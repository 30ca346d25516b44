/**
 * llmload as a library: {@code LlmLoad.run(config)} runs one benchmark on the caller's thread and
 * returns its {@code RunResult}. The configuration is built with {@code config.RunConfig.builder()}
 * and checked as it is made; the results are {@code metrics.RunResults} with one
 * {@code stats.Summary} per distribution. docs/library.md lists the packages that make the API.
 *
 * <p>Threads: {@code LlmLoad.run} blocks the caller's thread, which becomes the run's dispatcher
 * (see {@code run}); everything else the run starts it also stops before it returns.
 */
package dev.llmload;
