package dev.llmload.cli;

import dev.llmload.cli.twin.TwinFit;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.twin.RunLoader;
import dev.llmload.twin.fit.RunInput;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code llmload fit}: an engine profile for the simulator, estimated from finished runs against
 * a server, and a report of how well the runs pinned it down.
 */
@Command(
        name = "fit",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Fit a simulator engine profile to finished runs: step time as a function of batch, context and prefill,",
            "the most running sequences and the KV cache size, each with its uncertainty. Writes the profile (YAML, read",
            "by 'llmload sim --profile' and 'llmload whatif --profile') and a fit report. See docs/simulator.md."
        })
public final class FitCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(
            paramLabel = "RUN_OR_SWEEP",
            arity = "1..*",
            description = "Run directories, or a sweep's directory (its runs); streamed runs of several tokens each.")
    List<Path> inputs = new ArrayList<>();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            defaultValue = "profile.yaml",
            description = "the profile to write (default ${DEFAULT-VALUE}); the report goes beside it as NAME-fit.txt")
    Path output;

    @Option(
            names = "--max-num-batched-tokens",
            paramLabel = "N",
            description = {
                "the server's token budget per engine step (vLLM --max-num-batched-tokens): prompts longer than what a",
                "step has left are prefilled in chunks over several steps (default: the simulator's, 8192)"
            })
    Integer maxNumBatchedTokens;

    @Option(
            names = "--seed",
            defaultValue = "0",
            description = "seed of the bootstrap that gives the uncertainties (default ${DEFAULT-VALUE})")
    long seed;

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Override
    public Integer call() throws IOException {
        List<RunInput> runs;
        try {
            runs = RunLoader.load(inputs);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        TwinFit fit;
        try {
            int budget = maxNumBatchedTokens == null
                    ? BatchingEngineConfig.defaults().maxNumBatchedTokens()
                    : maxNumBatchedTokens;
            fit = TwinFit.fit(runs, budget, seed);
        } catch (IllegalArgumentException e) {
            throw new UsageException("cannot fit: " + e.getMessage());
        }
        Path absolute = output.toAbsolutePath();
        Files.writeString(absolute, fit.profileYaml());
        Path report = reportPath(absolute);
        String text = fit.report();
        Files.writeString(report, text);
        out().print(text);
        out().println();
        out().println("Profile: " + output + "   Report: " + report);
        return 0;
    }

    /** {@code profile.yaml} → {@code profile-fit.txt}, beside it. */
    static Path reportPath(Path profile) {
        String name = profile.getFileName().toString().replaceFirst("\\.(ya?ml|json)$", "");
        return profile.resolveSibling(name + "-fit.txt");
    }
}
