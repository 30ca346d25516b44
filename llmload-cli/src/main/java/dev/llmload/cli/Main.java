package dev.llmload.cli;

import dev.llmload.http.ServerText;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code llmload} command line: subcommands, error handling and exit codes. */
@Command(name = "llmload", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Load tester and benchmark for LLM inference services (OpenAI-compatible APIs).",
        subcommands = {RunCommand.class, SweepCommand.class, CompareCommand.class, ReportCommand.class, MergeCommand.class,
                SimCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    /** Exit code for bad usage: an unknown flag, a bad value, a config that does not parse. */
    public static final int EXIT_USAGE = 2;
    /** Exit code for a run that could not start: unreachable server, bad dataset. */
    public static final int EXIT_CANNOT_START = 1;

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
        return commandLine().execute(args);
    }

    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setParameterExceptionHandler((exception, arguments) -> {
            CommandLine failed = exception.getCommandLine();
            failed.getErr().println("llmload: " + exception.getMessage() + " (see '"
                    + failed.getCommandSpec().qualifiedName() + " --help')");
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
            throw exception;
        });
        return commandLine;
    }
}
