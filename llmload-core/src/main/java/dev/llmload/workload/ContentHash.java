package dev.llmload.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 in lower-case hex, of a file streamed in blocks or of a parameter string: the content
 * hashes that let reports tell whether two runs sent comparable data.
 */
public final class ContentHash {

    private ContentHash() {}

    /** A fresh digest, e.g. to hash a file while a prescan reads it. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    public static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    public static String of(String parameters) {
        MessageDigest digest = sha256();
        digest.update(parameters.getBytes(StandardCharsets.UTF_8));
        return hex(digest);
    }

    /**
     * @throws DatasetException when the file cannot be read
     */
    public static String of(Path file) {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int read;
            while ((read = in.read(buffer)) > 0) {
                digest.update(buffer, 0, read);
            }
        } catch (IOException e) {
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
        return hex(digest);
    }
}
