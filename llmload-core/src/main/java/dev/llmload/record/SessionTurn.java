package dev.llmload.record;

/**
 * Where a request sits in a multi-turn session: journaled as {@code session_id} and {@code turn}.
 *
 * @param sessionId 0-based, in the order sessions were made
 * @param turn      1-based
 */
public record SessionTurn(long sessionId, int turn) {}
