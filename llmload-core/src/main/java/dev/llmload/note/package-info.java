/**
 * The one note type: a finding with a kind and a sentence of evidence, as report.json's
 * {@code notes} lists it. Bottom layer, imports nothing of llmload; immutable values, any thread.
 */
package dev.llmload.note;
