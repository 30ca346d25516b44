package dev.llmload.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The runs of one configuration as a directory holds them: one run, or the runs of a repeats
 * directory ({@code repeats.json} beside {@code repeat-1} .. {@code repeat-K}, as {@code run
 * --repeat} and {@code sweep --repeat} write it).
 *
 * @param label how tables name it: the run's label, or the repeats directory's name
 * @param runs  its runs, in the order run; one for a single run
 */
public record RunGroup(String label, List<RunDirectory> runs) {

    /** The file that makes a directory a repeats directory; written by {@code dev.llmload.compare.Repeats}. */
    public static final String REPEATS_JSON = "repeats.json";

    public RunGroup {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a run group needs a run");
        }
        runs = List.copyOf(runs);
    }

    public static RunGroup of(RunDirectory run) {
        return new RunGroup(run.label(), List.of(run));
    }

    /** Whether these are the repeats of one configuration rather than one run. */
    public boolean repeated() {
        return runs.size() > 1;
    }

    /**
     * The run groups of a run directory (one run), a repeats directory (its runs, one group) or a
     * sweep directory (each point listed in its {@code sweep.json}, in the sweep's load order, with
     * its repeats when it was repeated).
     *
     * @throws IOException with a one-line reason when {@code path} is none of these or cannot be read
     */
    public static List<RunGroup> load(Path path) throws IOException {
        Path sweepFile = path.resolve(ReportFiles.SWEEP_JSON);
        if (Files.isRegularFile(sweepFile)) {
            JsonNode sweep = ReportFiles.JSON.readTree(sweepFile.toFile());
            List<RunGroup> groups = new ArrayList<>();
            for (JsonNode point : sweep.path("points")) {
                Path dir = path.resolve(point.path("directory").asText());
                groups.add(loadOne(dir, path.getFileName() + "/" + dir.getFileName()));
            }
            if (groups.isEmpty()) {
                throw new IOException(sweepFile + " lists no finished point");
            }
            return groups;
        }
        if (!Files.isDirectory(path)) {
            throw new IOException("no such directory: " + path);
        }
        return List.of(
                loadOne(path, String.valueOf(path.toAbsolutePath().normalize().getFileName())));
    }

    /** A run directory, or a repeats directory with its runs named in its {@code repeats.json}. */
    private static RunGroup loadOne(Path dir, String label) throws IOException {
        Path repeatsFile = dir.resolve(REPEATS_JSON);
        if (!Files.isRegularFile(repeatsFile)) {
            return of(RunDirectory.loadRun(dir, label));
        }
        List<RunDirectory> runs = new ArrayList<>();
        for (JsonNode run : ReportFiles.JSON.readTree(repeatsFile.toFile()).path("runs")) {
            Path runDir = dir.resolve(run.asText()).normalize();
            if (!runDir.startsWith(dir.normalize())) {
                throw new IOException(repeatsFile + " names a run outside its directory: " + run.asText());
            }
            runs.add(RunDirectory.loadRun(runDir, label + "/" + runDir.getFileName()));
        }
        if (runs.isEmpty()) {
            throw new IOException(repeatsFile + " lists no run");
        }
        return new RunGroup(label, runs);
    }
}
