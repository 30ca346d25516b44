package dev.llmload.run;

import dev.llmload.config.Data;
import dev.llmload.config.Load;
import dev.llmload.config.Sessions;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.session.AgenticSessions;
import dev.llmload.workload.session.SessionPlan;
import dev.llmload.workload.session.SessionSource;
import dev.llmload.workload.session.SessionSupply;
import dev.llmload.workload.session.TraceSessions;
import dev.llmload.workload.source.JsonlSource;
import dev.llmload.workload.source.OutputLengths;
import dev.llmload.workload.source.RequestSource;
import dev.llmload.workload.source.ShareGptSource;
import dev.llmload.workload.source.SharedPrefixes;
import dev.llmload.workload.source.SyntheticSource;
import dev.llmload.workload.source.TraceSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;

/**
 * Builds the run's request source from a {@link Data}. Files are checked whole (a streaming
 * pass) before any load is sent, so bad data stops the run with its file and line.
 */
final class Workloads {

    private Workloads() {}

    /** @throws DatasetException for bad data; IllegalArgumentException for a bad length or prefix spec */
    public static RequestSource open(Data data, Load load, Tokenizer tokenizer, long seed) {
        LengthDistribution output = data.outputTokens().distribution();
        if (load instanceof Load.Trace trace) {
            return new TraceSource(trace.file(), SyntheticPrompts.of(tokenizer), TraceSource.DEFAULT_BLOCK_SIZE, seed);
        }
        if (data.dataset() != null) {
            OutputLengths lengths = OutputLengths.datasetOr(output);
            return isShareGpt(data)
                    ? ShareGptSource.open(data.dataset(), tokenizer, lengths, seed)
                    : JsonlSource.open(data.dataset(), tokenizer, lengths, seed);
        }
        SharedPrefixes prefixes = data.sharedPrefix() == null ? null : sharedPrefixes(data.sharedPrefix());
        return new SyntheticSource(
                SyntheticPrompts.of(tokenizer), data.inputTokens().distribution(), output, prefixes, seed);
    }

    /**
     * The sessions of a {@code --sessions} run or of a session trace, or null when there are none.
     *
     * @throws DatasetException for a bad session trace
     */
    public static SessionSupply openSessions(Sessions sessions, Data data, Load load, Tokenizer tokenizer, long seed) {
        if (sessions == null) {
            return load instanceof Load.Trace trace && isSessionTrace(trace)
                    ? new TraceSessions(
                            trace.file(),
                            trace.format() == null ? TraceSessions.FORMAT : trace.format(),
                            SyntheticPrompts.of(tokenizer),
                            data.outputTokens().distribution(),
                            seed,
                            trace.speed())
                    : null;
        }
        SessionPlan plan = new SessionPlan(
                sessions.turns().distribution(),
                data.inputTokens().distribution(),
                data.outputTokens().distribution(),
                sessions.thinkTimeMs() == null ? null : sessions.thinkTimeMs().distribution(),
                sessions.maxSessions() == null ? Integer.MAX_VALUE : sessions.maxSessions());
        Sessions.Agent agent = sessions.agent();
        if (agent != null) {
            return new AgenticSessions(
                    plan,
                    agent.systemPromptTokens(),
                    agent.subagentProbability(),
                    agent.subagentFanout() == null
                            ? null
                            : agent.subagentFanout().distribution(),
                    SyntheticPrompts.of(tokenizer),
                    seed);
        }
        return new SessionSource(plan, SyntheticPrompts.of(tokenizer), seed);
    }

    /** {@code COUNT:TOKENS[:uniform|:zipf:S]}. */
    static SharedPrefixes sharedPrefixes(String spec) {
        String[] parts = spec.split(":", 3);
        if (parts.length < 2) {
            throw new IllegalArgumentException(
                    "--shared-prefix '" + spec + "': expected COUNT:TOKENS[:uniform|:zipf:S]");
        }
        try {
            return new SharedPrefixes(
                    Integer.parseInt(parts[0].trim()),
                    Integer.parseInt(parts[1].trim()),
                    SharedPrefixes.Assignment.parse(parts.length == 3 ? parts[2] : "uniform"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--shared-prefix '" + spec + "': COUNT and TOKENS must be whole numbers");
        }
    }

    private static boolean isShareGpt(Data data) {
        if (data.datasetFormat() != null) {
            return switch (data.datasetFormat().toLowerCase(Locale.ROOT)) {
                case "sharegpt" -> true;
                case "jsonl" -> false;
                default ->
                    throw new IllegalArgumentException(
                            "--dataset-format must be jsonl or sharegpt, not '" + data.datasetFormat() + "'");
            };
        }
        // A ShareGPT dump is one JSON array; a JSONL file starts with an object.
        try (Reader reader = Files.newBufferedReader(data.dataset(), StandardCharsets.UTF_8)) {
            int c;
            while ((c = reader.read()) != -1 && (Character.isWhitespace(c) || c == '\uFEFF')) {
                // skip
            }
            return c == '[';
        } catch (IOException e) {
            throw DatasetException.in(data.dataset(), "cannot read: " + e.getMessage());
        }
    }

    /**
     * Whether a trace is read as sessions: as {@code --trace-format} says, else by its first entry.
     * AIPerf's {@code mooncake_trace} records are sessions when any names a {@code session_id},
     * else independent requests read as Mooncake's.
     */
    static boolean isSessionTrace(Load.Trace trace) {
        if (trace.format() == null) {
            return TraceSessions.detect(trace.file());
        }
        return switch (trace.format()) {
            case TraceSessions.FORMAT, TraceSessions.AIPERF_MULTI_TURN -> true;
            case TraceSessions.AIPERF_MOONCAKE -> TraceSessions.hasSessionIds(trace.file());
            default -> false;
        };
    }

    /** The send offsets a trace asks for, or null when the data is not a trace. */
    public static long[] traceOffsets(RequestSource source) {
        return source instanceof TraceSource trace ? trace.sendOffsetsNanos() : null;
    }
}
