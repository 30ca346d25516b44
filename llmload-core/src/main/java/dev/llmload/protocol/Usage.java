package dev.llmload.protocol;

/** Token counts as the server reported them; -1 where it gave none. */
public record Usage(int promptTokens, int completionTokens) {}
