/**
 * Helpers shared by the modules' tests only: load-aware slack for wall-clock bounds and programs
 * a test needs, skipped with a reason when missing (failing under {@code CI=true}). Any thread.
 */
package dev.llmload.testsupport;
