/**
 * Distributions of token counts (input and output lengths) as the command line writes them.
 * Pure; sampling uses the caller's seeded generator.
 */
package dev.llmload.workload.length;
