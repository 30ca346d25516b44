package dev.llmload.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process {@code llmload} command with its exit code and what it printed, for tests. */
record CapturedRun(int exitCode, String out, String err) {

    static CapturedRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = Main.commandLineFor(args);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new CapturedRun(code, out.toString(), err.toString());
    }
}
