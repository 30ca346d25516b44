package dev.llmload.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;

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

    /** {@code first}'s arguments, then {@code more}: a command's own and a workload shared by a test's commands. */
    static CapturedRun of(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return of(all);
    }
}
