package dev.llmload.cli;

/**
 * The runnable jar's Main-Class: on a Java older than 21 it says in one line which Java llmload
 * needs, where the JVM would otherwise fail on {@link Main}'s class-file version with a stack
 * trace; on 21 or newer it hands over to {@link Main} at once. Compiled for Java 8 (its own
 * compiler execution in llmload-cli/pom.xml), so that every Java since 8 can run this check; the JVM
 * resolves {@code Main} only when the call is reached, so an older one never loads it.
 */
public final class JavaVersionCheck {

    /** The oldest Java that runs llmload (the release its code is compiled for). */
    static final int NEEDED = 21;

    private JavaVersionCheck() {}

    public static void main(String[] args) {
        String version = System.getProperty("java.specification.version", "");
        if (major(version) < NEEDED) {
            System.err.println("llmload: needs Java " + NEEDED + " or newer, and this java is " + version + " ("
                    + System.getProperty("java.home") + "); run the jar with the java of a JDK or JRE " + NEEDED
                    + " or newer, or through the repository's ./llmload, which finds one");
            System.exit(Main.EXIT_CANNOT_START);
        }
        Main.main(args);
    }

    /** The feature release: 17 of "17", 8 of "1.8"; 0 when unreadable. */
    static int major(String version) {
        String feature = version.startsWith("1.") ? version.substring(2) : version;
        int end = 0;
        while (end < feature.length() && Character.isDigit(feature.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(feature.substring(0, end));
    }
}
