package dev.llmload.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * The one line an unknown option gets: for a flag of vLLM, AIPerf or GuideLLM that llmload spells
 * another way, that spelling; for any other, picocli's nearest options. The table holds only flags
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
        peer("AIPerf's", "--request-count", "--num-requests");
        peer("AIPerf's", "--synthetic-input-tokens-mean", "--input-tokens");
        peer("AIPerf's", "--isl", "--input-tokens");
        peer("AIPerf's", "--output-tokens-mean", "--output-tokens");
        peer("AIPerf's", "--osl", "--output-tokens");
        peer("AIPerf's", "--benchmark-duration", "--duration");
        peer("AIPerf's", "--benchmark-grace-period", "--grace");
        peer("AIPerf's", "--warmup-request-count", "--warmup");
        peer("AIPerf's", "--endpoint-type", "--api");
        peer("AIPerf's", "--streaming", "--no-stream (streaming is the default)");
        peer("AIPerf's", "--artifact-dir", "--output-dir");
        peer("AIPerf's", "--input-file", "--dataset");
        peer("AIPerf's", "--arrival-pattern", "--arrival");
        peer("AIPerf's", "--arrival-smoothness", "--burstiness");
        peer("AIPerf's", "--num-sessions", "--sessions");
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
        peer("GuideLLM's", "--data", "--dataset or --input-tokens/--output-tokens");
        peer("GuideLLM's", "--output-path", "--output-dir");
        peer("GuideLLM's", "--outputs", "--export");
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
        return spelling == null ? null : "llmload spells " + spelling.peers() + " " + flag + " as " + spelling.llmload();
    }

    /** Levenshtein distance: the fewest single-character edits from {@code a} to {@code b}. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** The line for an unknown option: what llmload calls it, or the nearest options, or just its name. */
    static String explain(CommandLine.UnmatchedArgumentException exception) {
        String flag = null;
        for (String argument : exception.getUnmatched()) {
            if (argument.startsWith("-")) {
                int equals = argument.indexOf('=');
                flag = equals < 0 ? argument : argument.substring(0, equals);
                break;
            }
        }
        if (flag == null) {
            return exception.getMessage();
        }
        String spelling = spelling(flag);
        if (spelling != null) {
            return "unknown option " + flag + ": " + spelling;
        }
        // picocli's suggestions are the similar names in the order declared: the nearest first, and
        // only those as near as it (within one edit), so that a typo gets its one fix.
        String typed = flag;
        List<String> similar = exception.getSuggestions().stream().distinct()
                .sorted(Comparator.comparingInt((String name) -> distance(typed, name))).toList();
        List<String> near = new ArrayList<>();
        for (String suggestion : similar) {
            if (near.size() < 3 && distance(typed, suggestion) <= distance(typed, similar.getFirst()) + 1) {
                near.add(suggestion);
            }
        }
        return near.isEmpty() ? "unknown option " + flag
                : "unknown option " + flag + "; did you mean " + String.join(" or ", near) + "?";
    }
}
