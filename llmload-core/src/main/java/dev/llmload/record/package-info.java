/**
 * What a run keeps of each request: {@link dev.llmload.record.RequestRecord} with its
 * {@link dev.llmload.record.RequestTimings}, its outcome and failure class, the server's own
 * {@link dev.llmload.record.ServerTimings} where its API reports them, and the journal
 * ({@code requests.jsonl}) that holds them one line each.
 *
 * <p>The journal by job: the form of a line is defined once ({@code JournalFormat}: the fields,
 * their order, the spelling of milliseconds); {@code JournalEncoder} makes a line of a record,
 * {@code JournalDecoder} reads a line in any JSON spelling and {@code JournalLineScanner} the
 * encoder's own spelling from bytes, both into a {@code JournalLine}; the writer
 * {@link dev.llmload.record.Journal} appends lines; {@link dev.llmload.record.JournalReader}
 * reads a file back on parsing threads of its own. Beside it, {@link dev.llmload.record.InputLog}
 * keeps the exact body of each request sent ({@code inputs.jsonl}), on a thread of its own.
 *
 * <p>Records are immutable values, made on the recorder thread and read anywhere afterwards. A
 * {@link dev.llmload.record.Journal} is written by one thread (the recorder's) and flushed line by
 * line, so a request that finished is on disk before the process can die; encoding and decoding
 * are pure, and a reader's parsing threads hand what they read back to the reading thread.
 */
package dev.llmload.record;
