package dev.llmload.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine llmload itself runs on, recorded so a reader can tell whether the client could
 * have limited the measurement. Fields that cannot be read are null.
 */
public record ClientHost(String cpu, int cores, Double ramGib, String os, String jvm) {

    public static ClientHost discover() {
        return new ClientHost(
                readCpuModel(),
                Runtime.getRuntime().availableProcessors(),
                readRamGib(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    private static String readCpuModel() {
        for (String line : lines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return null;
    }

    private static Double readRamGib() {
        for (String line : lines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.trim().split("\\s+");
                try {
                    return Math.round(Long.parseLong(parts[1]) / 1024.0 / 1024.0 * 10) / 10.0;
                } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }
}
