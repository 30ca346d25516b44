package dev.llmload.workload.source;

import java.nio.file.Path;

/**
 * What a prescan of a dataset file found: every entry parsed and checked, none sent.
 *
 * @param file    the file
 * @param entries entries that will become requests
 * @param skipped entries that are valid but unusable and will be passed over (e.g. a ShareGPT
 *                conversation with no human turn)
 * @param sha256  SHA-256 of the file's bytes, lower-case hex
 */
public record DatasetScan(Path file, long entries, long skipped, String sha256) {}
