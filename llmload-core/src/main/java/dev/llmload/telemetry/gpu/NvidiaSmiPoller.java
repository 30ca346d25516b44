package dev.llmload.telemetry.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@code nvidia-smi ... -lms <ms>} as one long-lived process and hands each GPU line to a
 * consumer, timestamped with {@code System.nanoTime()} as it is read.
 *
 * <p>Threads: the process's output is read by one daemon thread this class owns
 * ({@code llmload-nvidia-smi}); the consumers are called on that thread, so they must only hand
 * the reading on. {@link #close()} may be called from any thread.
 */
public final class NvidiaSmiPoller implements AutoCloseable {

    private final Process process;
    private final Thread reader;
    private volatile boolean closed;

    private NvidiaSmiPoller(Process process, Consumer<GpuReading> readings, Consumer<String> ended) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("llmload-nvidia-smi").unstarted(() -> read(readings, ended));
    }

    /**
     * Starts the process. {@code ended} is told, once, why the output stopped (the process
     * exited or could not be read) unless {@link #close()} stopped it.
     *
     * @throws IOException when the executable cannot be started
     */
    public static NvidiaSmiPoller start(
            String executable, long intervalMs, Consumer<GpuReading> readings, Consumer<String> ended)
            throws IOException {
        Process process = new ProcessBuilder(NvidiaSmi.command(executable, intervalMs))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        NvidiaSmiPoller poller = new NvidiaSmiPoller(process, readings, ended);
        poller.reader.start();
        return poller;
    }

    private void read(Consumer<GpuReading> readings, Consumer<String> ended) {
        String why;
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                long now = System.nanoTime();
                NvidiaSmi.parseLine(line).ifPresent(sample -> readings.accept(new GpuReading(now, sample)));
            }
            why = "nvidia-smi exited with status " + process.waitFor();
        } catch (IOException e) {
            why = "nvidia-smi output could not be read: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!closed) {
            ended.accept(why);
        }
    }

    /** Stops the process and waits briefly for the reader to finish. */
    @Override
    public void close() {
        closed = true;
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
