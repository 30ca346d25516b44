package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * When start-up's garbage is collected before the clock: only when it fills more than half of the
 * heap's soft limit, the launcher's 256 MiB or the maximum heap where no soft limit is set.
 */
class HotPathsGarbageTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void collectsOnlyWhenMoreThanHalfTheLimitIsInUse() {
        // The launcher's soft limit, and what start-up left in it on a 2-vCPU host (docs/performance.md).
        assertThat(HotPaths.worthCollecting(175 * MIB, 256 * MIB)).isTrue();
        assertThat(HotPaths.worthCollecting(128 * MIB + 1, 256 * MIB)).isTrue();
        assertThat(HotPaths.worthCollecting(128 * MIB, 256 * MIB)).isFalse();
        assertThat(HotPaths.worthCollecting(56 * MIB, 256 * MIB)).isFalse();
        // A heap whose limit the JVM does not say is never collected on a guess.
        assertThat(HotPaths.worthCollecting(175 * MIB, -1)).isFalse();
    }

    @Test
    void withoutAnExplicitSoftLimitTheJvmsOwnIsUsed() {
        // The tests' JVM sets no -XX:SoftMaxHeapSize; ZGC then takes 90% of the maximum heap as its own.
        assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
                .noneMatch(argument -> argument.startsWith("-XX:SoftMaxHeapSize"));
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        assertThat(HotPaths.softLimitBytes(max)).isBetween(max / 2, max);
        assertThat(HotPaths.softLimitBytes(-1)).isPositive();
    }
}
