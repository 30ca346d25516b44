package dev.llmload.telemetry;

import dev.llmload.telemetry.prometheus.Histogram;
import dev.llmload.telemetry.prometheus.Scrape;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What llmload's own simulator ({@code llmload sim}) reports of its own delays, next to the
 * vLLM-compatible signals it exposes (docs/simulator.md). A run against the simulator measures the
 * client only while the simulator keeps up; these say whether it did.
 *
 * @param stepLagSeconds  gauge: how late the simulated engine's last step ended
 * @param tokenWriteDelay histogram, seconds: from the engine emitting a token to its event's write
 *                        to the socket
 */
public record SimulatorSignals(Double stepLagSeconds, Histogram tokenWriteDelay) {

    static final String STEP_LAG = "llmload_sim_step_lag_seconds";
    static final String TOKEN_WRITE_DELAY = "llmload_sim_token_write_delay_seconds";
    /** The families {@link #read} takes values from. */
    static final Set<String> FAMILIES = Set.of(STEP_LAG, TOKEN_WRITE_DELAY);

    /** The simulator's signals in {@code scrape}; {@code null} when it is not the simulator's. */
    public static SimulatorSignals read(Scrape scrape) {
        if (!scrape.has(STEP_LAG) && !scrape.has(TOKEN_WRITE_DELAY)) {
            return null;
        }
        OptionalDouble lag = scrape.sum(STEP_LAG);
        return new SimulatorSignals(
                lag.isPresent() ? lag.getAsDouble() : null,
                scrape.histogram(TOKEN_WRITE_DELAY).orElse(null));
    }
}
