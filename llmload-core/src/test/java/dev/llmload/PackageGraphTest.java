package dev.llmload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of llmload form a layered graph: no package imports one that, directly or through
 * others, imports it back. Read from the import lines of every module's main sources (a subpackage
 * is a package of its own), so a new cycle fails here with the packages on it and, for each step,
 * a class that makes it. And every package has a package-info saying what it is for.
 */
class PackageGraphTest {

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.llmload\\.[\\w.]+?)(?:\\.\\*)?\\s*;", Pattern.MULTILINE);

    /**
     * Two-way imports known and still to be removed. An entry that no longer holds fails the test,
     * so this list can only shrink; it is empty since the run configuration moved to
     * {@code dev.llmload.config}.
     */
    private static final Set<String> PENDING = Set.of();

    /** package -> imported package -> "its.Class imports the.Other", the first such import found. */
    private static final Map<String, Map<String, String>> GRAPH = readGraph(repositoryRoot());

    @Test
    void noPackageImportsOneThatImportsItBack() {
        List<String> cycles = cycles(GRAPH);
        assertThat(cycles)
                .as("package cycles, each step with an import that makes it")
                .allMatch(cycle -> PENDING.stream().anyMatch(pending -> cycle.startsWith(pending + " (")));
        for (String pending : PENDING) {
            assertThat(cycles)
                    .as("%s is gone: take it out of PENDING", pending)
                    .anyMatch(cycle -> cycle.startsWith(pending + " ("));
        }
    }

    @Test
    void theGraphIsReadFromEveryModule() {
        // Guards the test above against passing on an empty or partial graph.
        assertThat(GRAPH.keySet()).contains("dev.llmload.load", "dev.llmload.cli", "dev.llmload.sim.server");
        assertThat(GRAPH.get("dev.llmload.run")).containsKeys("dev.llmload.load", "dev.llmload.report");
        assertThat(GRAPH.get("dev.llmload.cli")).containsKey("dev.llmload.run");
    }

    @Test
    void everyPackageSaysWhatItIsForAndWhichThreadOwnsIt() throws IOException {
        List<String> without = new ArrayList<>();
        for (Path sources : sourceRoots(repositoryRoot())) {
            try (Stream<Path> dirs = Files.walk(sources)) {
                for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                    boolean hasClasses;
                    try (Stream<Path> files = Files.list(dir)) {
                        hasClasses = files.anyMatch(f -> f.toString().endsWith(".java"));
                    }
                    if (hasClasses && !Files.isRegularFile(dir.resolve("package-info.java"))) {
                        without.add(sources.relativize(dir).toString().replace('/', '.'));
                    }
                }
            }
        }
        assertThat(without).as("packages without a package-info.java").isEmpty();
    }

    @Test
    void aTwoWayImportIsNamedWithAClassOnEachSide() {
        Map<String, Map<String, String>> graph = Map.of(
                "a", Map.of("b", "a.One imports b.X"),
                "b", Map.of("c", "b.Two imports c.Y", "a", "b.Three imports a.Z"),
                "c", Map.of());
        assertThat(cycles(graph)).containsExactly("a <-> b (a.One imports b.X; b.Three imports a.Z)");
    }

    @Test
    void aLongerCycleIsNamedStepByStep() {
        Map<String, Map<String, String>> graph = Map.of(
                "a", Map.of("b", "a.One imports b.X"),
                "b", Map.of("c", "b.Two imports c.Y"),
                "c", Map.of("a", "c.Three imports a.Z", "d", "c.Four imports d.W"),
                "d", Map.of());
        assertThat(cycles(graph))
                .containsExactly("a -> b -> c -> a (a.One imports b.X; b.Two imports c.Y; c.Three imports a.Z)");
    }

    /**
     * Every two-way import as {@code a <-> b (...)}, and for each knot of packages that reach each
     * other without one, its shortest cycle as {@code a -> b -> c -> a (...)}.
     */
    private static List<String> cycles(Map<String, Map<String, String>> graph) {
        List<String> found = new ArrayList<>();
        for (Set<String> component : stronglyConnected(graph)) {
            List<String> pairs = new ArrayList<>();
            for (String a : component) {
                for (String b : component) {
                    String ab = graph.get(a).get(b);
                    String ba = graph.get(b).get(a);
                    if (a.compareTo(b) < 0 && ab != null && ba != null) {
                        pairs.add(a + " <-> " + b + " (" + ab + "; " + ba + ")");
                    }
                }
            }
            found.addAll(pairs.isEmpty() ? List.of(shortestCycle(component, graph)) : pairs);
        }
        return found;
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm), sorted. */
    private static List<Set<String>> stronglyConnected(Map<String, Map<String, String>> graph) {
        Tarjan tarjan = new Tarjan(graph);
        for (String node : new TreeSet<>(graph.keySet())) {
            if (!tarjan.index.containsKey(node)) {
                tarjan.visit(node);
            }
        }
        tarjan.components.sort(
                (x, y) -> x.iterator().next().compareTo(y.iterator().next()));
        return tarjan.components;
    }

    private static final class Tarjan {
        final Map<String, Map<String, String>> graph;
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> low = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new TreeSet<>();
        final List<Set<String>> components = new ArrayList<>();

        Tarjan(Map<String, Map<String, String>> graph) {
            this.graph = graph;
        }

        void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            for (String next : new TreeSet<>(graph.getOrDefault(node, Map.of()).keySet())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    components.add(component);
                }
            }
        }
    }

    /** The shortest cycle through the component's first package by name (breadth first), described. */
    private static String shortestCycle(Set<String> component, Map<String, Map<String, String>> graph) {
        String start = component.iterator().next();
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String node = queue.poll();
            for (String next : new TreeSet<>(graph.getOrDefault(node, Map.of()).keySet())) {
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>();
                    for (String at = node; at != null; at = cameFrom.get(at)) {
                        path.addFirst(at);
                    }
                    path.add(start);
                    List<String> steps = new ArrayList<>();
                    for (int i = 0; i + 1 < path.size(); i++) {
                        steps.add(graph.get(path.get(i)).get(path.get(i + 1)));
                    }
                    return String.join(" -> ", path) + " (" + String.join("; ", steps) + ")";
                }
                if (component.contains(next) && !next.equals(start) && !cameFrom.containsKey(next)) {
                    cameFrom.put(next, node);
                    queue.add(next);
                }
            }
        }
        throw new IllegalStateException("no cycle through " + start);
    }

    /** The checkout this module sits in: the directory with the root pom.xml above llmload-core. */
    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("llmload-core"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no llmload checkout above " + here);
    }

    private static Map<String, Map<String, String>> readGraph(Path root) {
        Map<String, Map<String, String>> graph = new TreeMap<>();
        try {
            for (Path sources : sourceRoots(root)) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                            .sorted()
                            .toList()) {
                        addImports(file, graph);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    /** {@code src/main/java} of every module, benchmarks included. */
    private static List<Path> sourceRoots(Path root) throws IOException {
        try (Stream<Path> modules = Files.list(root)) {
            return modules.map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList();
        }
    }

    private static void addImports(Path file, Map<String, Map<String, String>> graph) throws IOException {
        String text = Files.readString(file);
        Matcher pkg = PACKAGE.matcher(text);
        if (!pkg.find()) {
            return;
        }
        String from = pkg.group(1);
        String className = from + "." + file.getFileName().toString().replace(".java", "");
        Map<String, String> edges = graph.computeIfAbsent(from, p -> new TreeMap<>());
        Matcher imports = IMPORT.matcher(text);
        while (imports.find()) {
            packageOf(imports.group(1))
                    .filter(to -> !to.equals(from))
                    .ifPresent(to -> edges.putIfAbsent(to, className + " imports " + imports.group(1)));
        }
    }

    /** The package of an imported name: its segments before the first that starts upper case. */
    private static Optional<String> packageOf(String imported) {
        String[] parts = imported.split("\\.");
        List<String> pkg = new ArrayList<>();
        for (String part : parts) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.add(part);
        }
        return pkg.isEmpty() ? Optional.empty() : Optional.of(String.join(".", pkg));
    }
}
