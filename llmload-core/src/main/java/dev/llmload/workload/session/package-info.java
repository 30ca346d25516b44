/**
 * Multi-turn chat sessions: their plan, each session's turns with the model's real answers folded
 * into the history, and the seeded source of sessions. Owned by the session dispatcher's thread.
 */
package dev.llmload.workload.session;
