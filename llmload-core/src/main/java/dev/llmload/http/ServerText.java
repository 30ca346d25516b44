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
     * U+FFFD, and every character that is invisible or moves what a reader sees written out as a
     * visible escape: {@code \n}, {@code \t}, or a backslash, {@code u} and four hex digits for the
     * others (ESC reads {@code u001b}). Those are the control characters (C0, DEL, C1), the line and
     * paragraph separators U+2028 and U+2029 (a terminal or an editor breaks the line there), and
     * every format character (Unicode's category Cf: the zero-width space, joiners and no-break
     * space U+200B to U+200D and U+FEFF, the bidirectional marks, embeddings, overrides and
     * isolates that reorder a line, the invisible tag characters U+E0000 to U+E007F); a format
     * character beyond U+FFFF is written as its two surrogates' escapes. This is the one place where
     * a server's text is made safe for the terminal and the report files alike: whatever prints a
     * server's words (error samples, notes, the model's name) goes through it. Null stays null; a
     * clean string is returned as it is.
     */
    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            if (Character.isSurrogate(text.charAt(i)) && Character.charCount(c) == 1 || isHidden(c)) {
                break;
            }
            i += Character.charCount(c);
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        while (i < text.length()) {
            int c = text.codePointAt(i);
            int chars = Character.charCount(c);
            if (chars == 1 && Character.isSurrogate((char) c)) {
                out.append('\uFFFD');
            } else if (isHidden(c)) {
                switch (c) {
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        for (int k = 0; k < chars; k++) {
                            out.append(String.format("\\u%04x", (int) text.charAt(i + k)));
                        }
                    }
                }
            } else {
                out.appendCodePoint(c);
            }
            i += chars;
        }
        return out.toString();
    }

    /** Control, line or paragraph separator, or format (Cf): what a reader cannot see as it is. */
    private static boolean isHidden(int c) {
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            return true;
        }
        if (c < 0xa0) {
            return false;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }
}
