package dev.llmload.http;

/**
 * Every string a server sends is untrusted: it passes through {@link #clean} once, where it enters
 * llmload, so that nothing later (a report file, a terminal, the journal) sees content it could
 * fail on or be steered by.
 */
public final class ServerText {

    private ServerText() {}

    /**
     * The text with every unpaired UTF-16 surrogate (which no UTF-8 writer can encode) replaced by
     * U+FFFD, and every control character (C0, DEL, C1, and the bidirectional overrides that
     * reorder what a reader sees) written out as a visible escape: {@code \n}, {@code \t}, or a
     * backslash, {@code u} and four hex digits for the others (ESC reads {@code u001b}). Null stays
     * null; a clean string is returned as it is.
     */
    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (isPairAt(text, i)) {
                i += 2;
            } else if (Character.isSurrogate(c) || isControl(c)) {
                break;
            } else {
                i++;
            }
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isPairAt(text, i)) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else if (isControl(c)) {
                switch (c) {
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> out.append(String.format("\\u%04x", (int) c));
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isPairAt(String text, int i) {
        return i + 1 < text.length() && Character.isHighSurrogate(text.charAt(i)) && Character.isLowSurrogate(text.charAt(i + 1));
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }
}
