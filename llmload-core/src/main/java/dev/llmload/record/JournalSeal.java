package dev.llmload.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A journal's seal: {@code requests.jsonl.sha256} beside it, the SHA-256 of the journal's bytes
 * in the form {@code sha256sum} writes and checks ({@code <64 hex>  requests.jsonl}), written by
 * the writer when it closes the journal whole ({@link Journal#close}). A journal whose writer
 * never closed it (the process was killed, or a write failed) has no seal; a journal with a seal
 * is what its run wrote exactly when the two agree, so {@code llmload merge} can tell a segment
 * whose journal was changed afterwards (a line edited by hand) from one as its run left it.
 * Pure but for the file it reads or writes.
 */
public final class JournalSeal {

    /** Appended to the journal's file name: {@code requests.jsonl.sha256}. */
    public static final String SUFFIX = ".sha256";

    private static final Pattern FORM = Pattern.compile("([0-9a-f]{64}) [ *](\\S+)\\R?");
    private static final int READ_BYTES = 1 << 20;

    private JournalSeal() {}

    /** What {@link #check} found. */
    public enum Verdict {
        /** The journal has a seal, and its bytes are those the seal names. */
        VERIFIED,
        /** The journal has no seal: its writer never closed it, or it was written before journals were sealed. */
        UNSEALED
    }

    /** The seal of {@code journal}: the file beside it, its name and {@link #SUFFIX}. */
    public static Path of(Path journal) {
        return journal.resolveSibling(journal.getFileName() + SUFFIX);
    }

    /** A SHA-256 digest, as the writer keeps one over the bytes it has written. */
    static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Writes {@code journal}'s seal for the SHA-256 {@code sha256} of its bytes, whole or not at all. */
    static void write(Path journal, byte[] sha256) throws IOException {
        Path seal = of(journal);
        Path partial = seal.resolveSibling(seal.getFileName() + ".partial");
        try {
            Files.writeString(
                    partial,
                    HexFormat.of().formatHex(sha256) + "  " + journal.getFileName() + "\n",
                    StandardCharsets.US_ASCII);
            Files.move(partial, seal, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(partial);
            throw new IOException(
                    "cannot write " + seal + " (" + e.getMessage() + "): " + journal + " is whole but unsealed", e);
        }
    }

    /** Removes a seal left by an earlier journal of the same name, which the new one would not match. */
    static void remove(Path journal) throws IOException {
        Files.deleteIfExists(of(journal));
    }

    /**
     * Checks {@code journal} against its seal, reading it whole.
     *
     * @return {@link Verdict#VERIFIED}, or {@link Verdict#UNSEALED} when it has no seal
     * @throws IOException with a one-line reason naming the file when the journal's bytes are not
     *                     those its seal names, or the seal is not a checksum of it
     */
    public static Verdict check(Path journal) throws IOException {
        Path seal = of(journal);
        String text;
        try {
            text = Files.readString(seal, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return Verdict.UNSEALED;
        } catch (CharacterCodingException e) {
            text = "";
        }
        Matcher form = FORM.matcher(text);
        if (!form.matches() || !form.group(2).equals(journal.getFileName().toString())) {
            throw new IOException(seal + " is not a SHA-256 checksum of " + journal.getFileName()
                    + " (sha256sum's form: 64 hex digits, two spaces, the file's name)");
        }
        MessageDigest sha = digest();
        byte[] buffer = new byte[READ_BYTES];
        try (InputStream in = Files.newInputStream(journal)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
        }
        String actual = HexFormat.of().formatHex(sha.digest());
        if (!actual.equals(form.group(1))) {
            throw new IOException(journal + " is not the journal its run wrote: its SHA-256 is not the one in "
                    + seal.getFileName() + " (a line was changed, added or removed after the run)");
        }
        return Verdict.VERIFIED;
    }
}
