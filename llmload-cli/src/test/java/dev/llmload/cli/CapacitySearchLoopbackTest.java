package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.HostLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capacity search by rate that short points cannot fool, against the batching simulator on
 * loopback (docs/sweep-and-compare.md, "A capacity you can repeat"). Offered twice what it can
 * serve, a short point's queue barely grows and its percentiles look fine; the point is failed as
 * saturated all the same, and the capacity found holds on a 1,000-request run, while 1.2
 * times it does not.
 */
@Tag("loopback")
@Tag("timing")
@Tag("long")
class CapacitySearchLoopbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Sixteen seats, twice as fast as modelled: somewhat under 200 requests per second of 64 + 8 tokens. */
    private static final String SIM = "speedup: 2\nbatching:\n  maxNumSeqs: 16\n";

    private static final String SLO = "p99_ttft:400";
    private static final int POINT_REQUESTS = 100;
    /** The runs that check the answer: 1,000 requests, as long as its re-run. */
    private static final int LONG_RUN = 10 * POINT_REQUESTS;

    @TempDir
    Path dir;

    @Test
    void theCapacityHoldsOnALongerRunAndTwentyPercentMoreDoesNot() throws Exception {
        Path sim = Files.writeString(dir.resolve("sim.yaml"), SIM);
        Path sweep = dir.resolve("search");
        CapturedRun search = CapturedRun.of(
                "sweep",
                "--find-capacity",
                "--by",
                "rate",
                "--slo",
                SLO,
                "--start",
                "128",
                "--max-points",
                "14",
                "--num-requests",
                String.valueOf(POINT_REQUESTS),
                "--input-tokens",
                "64",
                "--output-tokens",
                "8",
                "--sim-config",
                sim.toString(),
                "--output-dir",
                sweep.toString());
        assertThat(search.exitCode()).as(search.err()).isZero();
        JsonNode report = JSON.readTree(sweep.resolve("sweep.json").toFile());
        JsonNode capacity = report.get("capacity");
        assertThat(capacity.get("capacity").isNull()).as(search.out()).isFalse();
        double found = capacity.get("capacity").asDouble();

        double served = 0;
        boolean anySaturated = false;
        for (JsonNode point : report.get("points")) {
            served = Math.max(served, point.get("request_throughput").asDouble());
            if (point.get("saturated").asBoolean()) {
                anySaturated = true;
                // Whatever its percentiles: a saturated point fails, and says why.
                assertThat(point.get("meets_slo").asBoolean()).isFalse();
                assertThat(point.get("violations").get(0).asText()).startsWith("saturation: achieved");
            }
        }
        assertThat(anySaturated)
                .as("the search went past the server's capacity: %s", search.out())
                .isTrue();
        assertThat(found)
                .as("never more than the server served at any point: %s", search.out())
                .isLessThanOrEqualTo(1.1 * served);
        assertThat(capacity.get("limiting_metric").asText()).isIn("saturation", "p99_ttft");
        // The simulator serves in real time on this machine's cores: where they are shared with much
        // else its capacity drifts from run to run, and the search may spend --max-points before its
        // re-runs agree. Only a confirmed capacity is held to the longer runs.
        assumeTrue(
                capacity.get("confirmed").asBoolean(),
                () -> "the search did not converge on this machine (" + HostLoad.describe() + "): "
                        + capacity.get("reason").asText());

        JsonNode at = longRun(sim, found, "at");
        assertThat(at.at("/saturation/saturated").asBoolean())
                .as("%s at %s: %s", at.get("saturation"), found, search.out())
                .isFalse();
        assertThat(at.at("/results/ttft_ms/p99").asDouble()).as(search.out()).isLessThanOrEqualTo(400);

        JsonNode above = longRun(sim, 1.2 * found, "above");
        boolean missed = above.at("/saturation/saturated").asBoolean()
                || above.at("/results/ttft_ms/p99").asDouble() > 400;
        assertThat(missed)
                .as(
                        "%s, p99 TTFT %s at %s: %s",
                        above.get("saturation"), above.at("/results/ttft_ms/p99"), 1.2 * found, search.out())
                .isTrue();
    }

    private JsonNode longRun(Path sim, double rate, String name) throws Exception {
        Path run = dir.resolve(name);
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--request-rate",
                String.format(Locale.ROOT, "%.3f", rate),
                "--num-requests",
                String.valueOf(LONG_RUN),
                "--input-tokens",
                "64",
                "--output-tokens",
                "8",
                "--sim-config",
                sim.toString(),
                "--output-dir",
                run.toString());
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
        return JSON.readTree(run.resolve("report.json").toFile());
    }
}
