package dev.llmload.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/** Where a run writes: a default name made its own, a given directory checked, never another run's. */
public final class OutputDirectory {

    private OutputDirectory() {}

    /**
     * Creates {@code dir}, or the first of {@code dir-2}, {@code dir-3}, … that does not exist yet,
     * and returns it. Creating is the claim ({@link Files#createDirectory} fails when the name
     * exists), so runs started in the same second each get a directory of their own.
     */
    public static Path claimUnique(Path dir) throws RunException {
        try {
            if (dir.getParent() != null) {
                Files.createDirectories(dir.getParent());
            }
            for (int n = 1; ; n++) {
                Path candidate = n == 1 ? dir : dir.resolveSibling(dir.getFileName() + "-" + n);
                try {
                    return Files.createDirectory(candidate);
                } catch (FileAlreadyExistsException taken) {
                    // Another run (or anything else) has this name: try the next.
                }
            }
        } catch (IOException e) {
            throw new RunException("cannot create the run directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The file whose lock a run holds while it writes into its directory; left in place, empty of meaning after. */
    public static final String LOCK_FILE = ".llmload.lock";

    /**
     * A given {@code --output-dir} held by this process until {@link #close}: the operating
     * system's lock on its {@link #LOCK_FILE}, which it releases also when the process dies (a
     * kill -9 leaves no stale claim). The lock file itself stays: deleting it would let a run that
     * opened it just before lock a file no longer in the directory.
     */
    public static final class Claim implements AutoCloseable {
        private final FileChannel channel;
        private final FileLock lock;

        private Claim(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }

        @Override
        public void close() throws IOException {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }

    /**
     * Claims {@code dir} for one run, atomically: creates it, takes the lock on its
     * {@link #LOCK_FILE}, and only then checks that it is empty (unless {@code overwrite}), so of
     * two runs started into it at the same moment one gets it and the other is refused in one line,
     * also with {@code --overwrite}.
     *
     * @throws RunException another run holds it, or it is a file, not empty, or cannot be created
     */
    public static Claim claim(Path dir, boolean overwrite) throws RunException {
        // Checked first as well, so a directory refused is left as it was, without a lock file.
        String early = refusal(dir, overwrite);
        if (early != null) {
            throw new RunException(early);
        }
        Path lockFile = dir.resolve(LOCK_FILE);
        FileChannel channel;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new RunException("cannot use --output-dir " + dir + ": " + e.getMessage(), e);
        }
        try {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException held) {
                lock = null; // this process holds it already: another run of the same JVM
            }
            if (lock == null) {
                throw new RunException("--output-dir " + dir + " is in use by another llmload run" + holder(channel)
                        + "; choose another directory");
            }
            String refusal = overwrite ? null : refusal(dir, false);
            if (refusal != null) {
                lock.release();
                throw new RunException(refusal);
            }
            // Who holds it, for the message of a run refused it.
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            return new Claim(channel, lock);
        } catch (IOException | RuntimeException | RunException e) {
            try {
                channel.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            if (e instanceof RunException refused) {
                throw refused;
            }
            throw new RunException("cannot use --output-dir " + dir + ": " + e.getMessage(), e);
        }
    }

    /** " (process N)" as the holder wrote it into the lock file, or nothing when it cannot be read. */
    private static String holder(FileChannel channel) {
        try {
            ByteBuffer read = ByteBuffer.allocate(32);
            channel.read(read, 0);
            String pid = new String(read.array(), 0, read.position(), StandardCharsets.US_ASCII).trim();
            return pid.matches("\\d{1,10}") ? " (process " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Why the given {@code --output-dir} cannot be used, or null when it can: a file of that name,
     * or a directory holding anything (but a {@link #LOCK_FILE}) while {@code overwrite} is off.
     */
    public static String refusal(Path dir, boolean overwrite) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--output-dir " + dir + " is a file, not a directory";
        }
        if (overwrite || !Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.anyMatch(entry -> !entry.getFileName().toString().equals(LOCK_FILE))
                    ? "--output-dir " + dir + " is not empty; choose another directory or add --overwrite"
                    : null;
        } catch (IOException e) {
            return "--output-dir " + dir + " cannot be read: " + e.getMessage();
        }
    }
}
