package dev.llmload.cli;

import dev.llmload.http.ServerText;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code llmload} command line: subcommands, error handling and exit codes. */
@Command(
        name = "llmload",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Load tester and benchmark for LLM inference services (OpenAI-compatible APIs).")
public final class Main implements Runnable {

    /** Exit code for bad usage: an unknown flag, a bad value, a config that does not parse. */
    public static final int EXIT_USAGE = 2;
    /** Exit code for a run that could not start: unreachable server, bad dataset. */
    public static final int EXIT_CANNOT_START = 1;

    /**
     * The subcommands in the order {@code --help} lists them. Each one's model (its options read by
     * reflection, its classes loaded) costs start-up time, so a command line gets only those it can
     * reach: {@code llmload run ...} builds {@code run} alone, {@code llmload --version} none.
     */
    private static final List<String> SUBCOMMANDS =
            List.of("run", "sweep", "compare", "report", "merge", "sim", "fit", "whatif", "help");

    private static Object subcommand(String name) {
        return switch (name) {
            // Made here, not by addSubcommand, so that their model transformers add the run options.
            case "run" -> new CommandLine(new RunCommand());
            case "sweep" -> new CommandLine(new SweepCommand());
            case "compare" -> new CompareCommand();
            case "report" -> new ReportCommand();
            case "merge" -> new MergeCommand();
            case "sim" -> new SimCommand();
            case "fit" -> new FitCommand();
            case "whatif" -> new WhatIfCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException(name);
        };
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code, without exiting (for tests). */
    public static int execute(String... args) {
        return commandLineFor(args).execute(args);
    }

    /** The whole command line, every subcommand included. */
    static CommandLine commandLine() {
        return commandLine(SUBCOMMANDS);
    }

    /**
     * The command line with the subcommands {@code args} can reach: the one they name first, none for a lone
     * {@code --version}, and all of them otherwise ({@code help}, {@code --help}, a usage error
     * whose message suggests a subcommand).
     */
    static CommandLine commandLineFor(String... args) {
        if (args.length > 0 && SUBCOMMANDS.contains(args[0]) && !args[0].equals("help")) {
            return commandLine(List.of(args[0]));
        }
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return commandLine(List.of());
        }
        return commandLine();
    }

    private static CommandLine commandLine(List<String> subcommands) {
        CommandLine commandLine = new CommandLine(new Main());
        for (String name : subcommands) {
            commandLine.addSubcommand(name, subcommand(name));
        }
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            CommandLine failed = exception.getCommandLine();
            List<String> lines = exception instanceof CommandLine.UnmatchedArgumentException unmatched
                    ? PeerSpellings.explain(unmatched)
                    : List.of(exception.getMessage());
            for (int i = 0; i < lines.size(); i++) {
                failed.getErr()
                        .println("llmload: " + lines.get(i)
                                + (i < lines.size() - 1
                                        ? ""
                                        : " (see '" + failed.getCommandSpec().qualifiedName() + " --help')"));
            }
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((exception, failed, parseResult) -> {
            if (exception instanceof UsageException || exception instanceof dev.llmload.config.ConfigException) {
                failed.getErr().println("llmload: " + exception.getMessage());
                return EXIT_USAGE;
            }
            if (exception instanceof dev.llmload.run.RunException) {
                // Such messages may quote a server: never an escape sequence on the terminal.
                failed.getErr().println("llmload: " + ServerText.clean(exception.getMessage()));
                return EXIT_CANNOT_START;
            }
            if (exception instanceof java.io.IOException io) {
                // A file that could not be read or written where no step named it (a full disk): still one line.
                failed.getErr()
                        .println("llmload: "
                                + ServerText.clean(
                                        io.getMessage() == null
                                                ? io.getClass().getSimpleName()
                                                : io.getClass().getSimpleName() + ": " + io.getMessage()));
                return EXIT_CANNOT_START;
            }
            throw exception;
        });
        return commandLine;
    }
}
