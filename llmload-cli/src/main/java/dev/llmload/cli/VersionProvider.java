package dev.llmload.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** The version baked into the jar at build time. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    public static String version() {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/llmload-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"llmload " + version(), "Java " + System.getProperty("java.runtime.version")};
    }
}
