package dev.llmload.testsupport;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A program outside the JDK that a test needs (Chromium, promtool). Missing on a developer's
 * machine, the test is skipped with the reason; missing under {@code CI=true} (set by CI
 * services and by {@code .ci/run}), it fails, so a CI run cannot pass without the checks.
 */
public final class RequiredTool {

    private RequiredTool() {}

    /** Whether this run is a CI run, where every tool must be present. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Returns when the tool is present; otherwise skips the test, or fails it under CI.
     *
     * @param missing the reason, with how to install the tool
     */
    public static void require(boolean present, String missing) {
        if (present) {
            return;
        }
        if (inCi()) {
            fail(missing + " (CI=true: the tests that need it must run)");
        }
        assumeTrue(false, missing);
    }
}
