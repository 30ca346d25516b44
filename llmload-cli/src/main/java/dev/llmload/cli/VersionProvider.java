package dev.llmload.cli;

import dev.llmload.LlmLoad;
import picocli.CommandLine;

/** The version baked into the jar at build time. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    public static String version() {
        return LlmLoad.version();
    }

    @Override
    public String[] getVersion() {
        return new String[] {"llmload " + version(), "Java " + System.getProperty("java.runtime.version")};
    }
}
