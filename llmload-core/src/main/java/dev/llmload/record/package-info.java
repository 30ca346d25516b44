/**
 * What a run keeps of each request: {@link dev.llmload.record.RequestRecord} with its
 * {@link dev.llmload.record.RequestTimings}, its outcome and failure class, the server's own
 * {@link dev.llmload.record.ServerTimings} where its API reports them, and the journal
 * ({@code requests.jsonl}) that holds them one line each.
 *
 * <p>Records are immutable values, made on the recorder thread and read anywhere afterwards. A
 * {@link dev.llmload.record.Journal} is written by one thread (the recorder's) and flushed line by
 * line, so a request that finished is on disk before the process can die; reading one back is
 * pure.
 */
package dev.llmload.record;
