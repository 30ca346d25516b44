package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The closed loop's delay after connection failures in a row: 50 ms, doubling, at most 2 s. */
class ConnectBackoffTest {

    @Test
    void startsAtFiftyMillisecondsAndDoublesToTwoSeconds() {
        long[] expectedMs = {50, 100, 200, 400, 800, 1600, 2000, 2000};
        for (int failures = 1; failures <= expectedMs.length; failures++) {
            assertThat(TimeUnit.NANOSECONDS.toMillis(Dispatcher.backoffNanos(failures)))
                    .as("after %d failures in a row", failures)
                    .isEqualTo(expectedMs[failures - 1]);
        }
        assertThat(Dispatcher.backoffNanos(Integer.MAX_VALUE)).isEqualTo(Dispatcher.BACKOFF_MAX_NANOS);
    }
}
