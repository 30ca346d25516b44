/**
 * Reading finished runs for {@code llmload fit}: {@code RunLoader} turns run directories (or a
 * sweep's) into the pure fit's inputs ({@code twin.fit}). Called on the command's thread.
 */
package dev.llmload.twin;
