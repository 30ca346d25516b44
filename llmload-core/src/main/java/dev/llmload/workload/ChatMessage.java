package dev.llmload.workload;

/** One message of a chat conversation, as sent in the {@code messages} array. */
public record ChatMessage(String role, String content) {

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content);
    }
}
