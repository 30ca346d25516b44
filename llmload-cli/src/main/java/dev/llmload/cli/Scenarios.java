package dev.llmload.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The presets of {@code --scenario}, one per row of the seed's "how to read them" table. Each is
 * a set of option defaults (flags and config files still win) and the metrics the console
 * summary leads with. docs/cli.md lists them.
 */
enum Scenarios {
    CHAT(
            "chat",
            "TTFT, ITL and p90/p99 latency: first token fast, streaming steady",
            Map.of(
                    "input-tokens",
                    "lognormal:600:300",
                    "output-tokens",
                    "lognormal:250:120",
                    "request-rate",
                    "4",
                    "arrival",
                    "poisson",
                    "num-requests",
                    "300")),
    BATCH(
            "batch",
            "output token throughput, E2E latency and success rate: total throughput and completion time",
            Map.of("input-tokens", "512", "output-tokens", "1024", "concurrency", "64", "num-requests", "256")),
    LONG_DOC(
            "long-doc",
            "ISL, TTFT, KV cache and GPU memory: long inputs raise prefill and memory pressure",
            Map.of(
                    "input-tokens",
                    "uniform:4000:6000",
                    "output-tokens",
                    "256",
                    "concurrency",
                    "4",
                    "num-requests",
                    "40")),
    ONLINE(
            "online",
            "request throughput, p99 latency, error rate and queue time: whether queueing or timeouts begin",
            Map.of(
                    "input-tokens",
                    "uniform:256:768",
                    "output-tokens",
                    "128",
                    "request-rate",
                    "10",
                    "arrival",
                    "poisson",
                    "duration",
                    "60s")),
    CAPACITY(
            "capacity",
            "request rate, error rate, p99 latency and GPU utilisation: where latency deteriorates",
            Map.of(
                    "input-tokens",
                    "512",
                    "output-tokens",
                    "128",
                    "arrival",
                    "ramp",
                    "ramp",
                    "1:40:120s",
                    "duration",
                    "120s")),
    AGENTIC(
            "agentic",
            "session duration, time in the server against tool waits, and TTFT as the context grows: "
                    + "how long an agent task takes and how much of it is the server",
            Map.of(
                    "sessions",
                    "uniform:5:25",
                    "think-time",
                    "lognormal:1500:2000",
                    "input-tokens",
                    "lognormal:600:800",
                    "output-tokens",
                    "lognormal:200:150",
                    "system-prompt-tokens",
                    "6000",
                    "subagent-probability",
                    "0.1",
                    "subagent-fanout",
                    "uniform:1:3",
                    "max-sessions",
                    "8",
                    "num-requests",
                    "400"));

    private final String cliName;
    private final String leadsWith;
    private final Map<String, String> defaults;

    Scenarios(String cliName, String leadsWith, Map<String, String> defaults) {
        this.cliName = cliName;
        this.leadsWith = leadsWith;
        this.defaults = new LinkedHashMap<>(defaults);
    }

    String cliName() {
        return cliName;
    }

    /** What the user of this scenario should look at first. */
    String leadsWith() {
        return leadsWith;
    }

    /** Option defaults by long option name without dashes: keys of {@link RunOptions#keys()}. */
    Map<String, String> defaults() {
        return defaults;
    }

    static Scenarios byName(String name) {
        for (Scenarios scenario : values()) {
            if (scenario.cliName.equals(name)) {
                return scenario;
            }
        }
        throw new UsageException(
                "unknown --scenario '" + name + "' (expected chat, batch, long-doc, online, capacity or agentic)");
    }
}
