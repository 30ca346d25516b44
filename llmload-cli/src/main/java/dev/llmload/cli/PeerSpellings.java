package dev.llmload.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine;

/**
 * What unknown arguments get, one line each and all at once: for a flag of vLLM, AIPerf or
 * GuideLLM that llmload spells another way, that spelling; for any other, the nearest options; for
 * another tool's command ({@code profile}, {@code bench}), llmload's. The table holds only flags
 * llmload does not accept as typed; docs/coming-from.md lists them, and its test holds the two together.
 */
final class PeerSpellings {

    /** A flag of other tools and llmload's way to say it. */
    private record Spelling(String peers, String llmload) {}

    private static final Map<String, Spelling> TABLE = new LinkedHashMap<>();

    static {
        vllm("--host", "--url");
        vllm("--port", "--url");
        vllm("--input-len", "--input-tokens");
        vllm("--output-len", "--output-tokens");
        vllm("--sharegpt-output-len", "--output-tokens");
        vllm("--ramp-up-strategy", "--ramp");
        vllm("--ramp-up-start-rps", "--ramp");
        vllm("--ramp-up-end-rps", "--ramp");
        vllm("--result-filename", "--output-dir");
        peer("AIPerf's", "-m", "--model");
        peer("AIPerf's", "-u", "--url");
        peer("AIPerf's", "--request-count", "--num-requests");
        peer("AIPerf's", "--synthetic-input-tokens-mean", "--input-tokens");
        peer("AIPerf's", "--synthetic-input-tokens-stddev", "--input-tokens normal:MEAN:STD");
        peer("AIPerf's", "--isl", "--input-tokens");
        peer("AIPerf's", "--output-tokens-mean", "--output-tokens");
        peer("AIPerf's", "--output-tokens-stddev", "--output-tokens normal:MEAN:STD");
        peer("AIPerf's", "--osl", "--output-tokens");
        peer("AIPerf's", "--osl-stddev", "--output-tokens normal:MEAN:STD");
        peer("AIPerf's", "--benchmark-duration", "--duration");
        peer("AIPerf's", "--benchmark-grace-period", "--grace");
        peer("AIPerf's", "--warmup-request-count", "--warmup");
        peer("AIPerf's", "--warmup-duration", "--warmup");
        peer("AIPerf's", "--endpoint-type", "--api");
        peer("AIPerf's", "--streaming", "--no-stream (streaming is the default)");
        peer("AIPerf's", "--artifact-dir", "--output-dir");
        peer("AIPerf's", "--input-file", "--dataset");
        peer("AIPerf's", "--custom-dataset-type", "--trace-format");
        peer("AIPerf's", "--arrival-pattern", "--arrival");
        peer("AIPerf's", "--request-rate-mode", "--arrival");
        peer("AIPerf's", "--arrival-smoothness", "--burstiness");
        peer("AIPerf's", "--conversation-num", "--num-sessions");
        peer("AIPerf's", "--session-turns-mean", "--sessions");
        peer("AIPerf's", "--session-turn-delay-mean", "--think-time");
        peer("AIPerf's", "--request-timeout-seconds", "--request-timeout");
        peer("AIPerf's", "--num-prefix-prompts", "--shared-prefix");
        peer("AIPerf's", "--prefix-prompt-length", "--shared-prefix");
        peer("AIPerf's", "-H", "--header");
        peer("AIPerf's", "--extra-inputs", "--extra-body");
        peer("AIPerf's", "--api-key", "--api-key-file (or LLMLOAD_API_KEY)");
        peer("AIPerf's and GuideLLM's", "--random-seed", "--seed");
        peer("GuideLLM's", "--target", "--url");
        peer("GuideLLM's", "--rate-type", "--request-rate or --concurrency");
        peer("GuideLLM's", "--profile", "--request-rate or --concurrency");
        peer("GuideLLM's", "--rate", "--request-rate or --concurrency");
        peer("GuideLLM's", "--max-requests", "--num-requests");
        peer("GuideLLM's", "--max-seconds", "--duration");
        peer("GuideLLM's", "--constraint", "--num-requests or --duration");
        peer("GuideLLM's", "--data", "--dataset or --input-tokens/--output-tokens");
        peer("GuideLLM's", "--output-path", "--output-dir");
        peer("GuideLLM's", "--outputs", "--export");
        peer("GuideLLM's", "--output", "--output-dir");
        peer("GuideLLM's", "--processor", "--tokenizer");
        peer("GuideLLM's", "--warmup-percent", "--warmup");
    }

    private PeerSpellings() {}

    private static void vllm(String flag, String llmload) {
        peer("vLLM's", flag, llmload);
    }

    private static void peer(String peers, String flag, String llmload) {
        TABLE.put(flag, new Spelling(peers, llmload));
    }

    /** Every flag of another tool the table knows. */
    static Set<String> flags() {
        return Collections.unmodifiableSet(TABLE.keySet());
    }

    /** llmload's way to say a flag of another tool, or null when the table does not know it. */
    static String spelling(String flag) {
        Spelling spelling = TABLE.get(flag);
        return spelling == null
                ? null
                : "llmload spells " + spelling.peers() + " " + flag + " as " + spelling.llmload();
    }

    /**
     * The fewest edits from {@code a} to {@code b}, each one character inserted, deleted or
     * replaced, or two neighbours swapped (optimal string alignment): {@code rnu} is one from {@code run}.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * The commands of other tools that a user may type after {@code llmload}, with what they are
     * and llmload's command for it.
     */
    private static final Map<String, String> COMMANDS = Map.of(
            "profile",
                    "AIPerf's and GenAI-Perf's 'profile' is 'llmload run' (one load point) or 'llmload sweep' (several)",
            "bench", "vLLM's 'vllm bench serve' is 'llmload run', which takes its flags as typed",
            "benchmark",
                    "GuideLLM's 'guidellm benchmark' is 'llmload run' (one load point) or 'llmload sweep' "
                            + "(--rate-type sweep)",
            "analyze", "GenAI-Perf's 'analyze' is 'llmload sweep'");

    /**
     * One line for each unknown argument of a command line, in the order typed, so that a command
     * line from another tool is put right in one go: an unknown option gets llmload's spelling or
     * the nearest names (the words after it are taken as its values); a stray word gets its own
     * line; a word where a command belongs is an unknown command, and the rest is not judged.
     */
    static List<String> explain(CommandLine.UnmatchedArgumentException exception) {
        CommandLine.Model.CommandSpec command = exception.getCommandLine().getCommandSpec();
        List<String> unmatched = exception.getUnmatched();
        if (unmatched.isEmpty()) {
            return List.of(exception.getMessage());
        }
        if (command.parent() == null && !isOption(unmatched.getFirst())) {
            return List.of(unknownCommand(unmatched.getFirst(), command));
        }
        List<String> lines = new ArrayList<>();
        boolean valueOfUnknown = false;
        for (String argument : unmatched) {
            if (isOption(argument)) {
                int equals = argument.indexOf('=');
                lines.add(unknownOption(equals < 0 ? argument : argument.substring(0, equals), command));
                valueOfUnknown = equals < 0;
            } else if (!valueOfUnknown) {
                lines.add("unexpected argument '" + argument + "'");
            }
        }
        return lines;
    }

    /** An option, not a value: {@code -1} and {@code -0.5} are numbers. */
    private static boolean isOption(String argument) {
        return argument.length() > 1
                && argument.startsWith("-")
                && !Character.isDigit(argument.charAt(1))
                && argument.charAt(1) != '.';
    }

    private static String unknownCommand(String word, CommandLine.Model.CommandSpec root) {
        String peer = COMMANDS.get(word);
        if (peer != null) {
            return "unknown command '" + word + "': " + peer;
        }
        List<String> near = nearest(word, root.subcommands().keySet());
        return "unknown command '" + word + "'"
                + (near.isEmpty()
                        ? "; the commands are "
                                + String.join(", ", root.subcommands().keySet())
                        : "; did you mean " + quoted(near) + "?");
    }

    /** The line for an unknown option: what llmload calls it, or the nearest options, or just its name. */
    private static String unknownOption(String flag, CommandLine.Model.CommandSpec command) {
        String spelling = spelling(flag);
        if (spelling != null) {
            return "unknown option " + flag + ": " + spelling;
        }
        if (command.parent() == null) {
            // Before any command: the user meant a command's option.
            for (CommandLine sub : command.subcommands().values()) {
                if (sub.getCommandSpec().findOption(flag) != null) {
                    return "unknown option " + flag + ": options follow the command, as in 'llmload "
                            + sub.getCommandName() + " " + flag + "'";
                }
            }
        }
        List<String> names = new ArrayList<>();
        for (CommandLine.Model.OptionSpec option : command.options()) {
            names.addAll(List.of(option.names()));
        }
        List<String> near = nearest(flag, names);
        return near.isEmpty()
                ? "unknown option " + flag
                : "unknown option " + flag + "; did you mean " + String.join(" or ", near) + "?";
    }

    /**
     * The names nearest to what was typed, nearest first: those within a quarter of its letters
     * (at least one edit) of it, ignoring case, dashes and underscores, and no farther than one
     * edit beyond the nearest, so that a typo gets its one fix; at most three.
     */
    static List<String> nearest(String typed, Collection<String> names) {
        String bare = ConfigFile.normalise(typed);
        int limit = Math.max(1, bare.length() / 4);
        Map<String, Integer> within = new LinkedHashMap<>();
        for (String name : names) {
            int d = distance(bare, ConfigFile.normalise(name));
            if (d <= limit) {
                within.putIfAbsent(name, d);
            }
        }
        if (within.isEmpty()) {
            return List.of();
        }
        int best = Collections.min(within.values());
        return within.entrySet().stream()
                .filter(e -> e.getValue() <= best + 1)
                .sorted(Map.Entry.comparingByValue())
                .limit(3)
                .map(Map.Entry::getKey)
                .toList();
    }

    private static String quoted(List<String> names) {
        return names.stream().map(name -> "'" + name + "'").collect(Collectors.joining(" or "));
    }
}
