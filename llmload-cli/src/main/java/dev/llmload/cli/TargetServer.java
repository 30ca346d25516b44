package dev.llmload.cli;

import dev.llmload.config.Target;
import dev.llmload.run.RunException;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * The server a command loads: the {@code --url} given, or the built-in simulator, started on a
 * free loopback port for the command and stopped when it closes. Used by every command that sends
 * load, so the simulator starts and says so in one way.
 */
final class TargetServer implements AutoCloseable {

    private final String url;
    private final SimServer simulator;

    private TargetServer(String url, SimServer simulator) {
        this.url = url;
        this.simulator = simulator;
    }

    /**
     * @param url       the server given; null to start the simulator with {@code simConfig}
     * @param simConfig YAML settings of the simulator, or null for its defaults
     * @param hint      whether to tell how to benchmark a real server instead
     */
    static TargetServer open(Target.ServerUrl url, Path simConfig, PrintWriter out, boolean hint) throws RunException {
        if (url != null) {
            return new TargetServer(url.text(), null);
        }
        SimServer simulator;
        try {
            SimConfig config = SimConfig.load(simConfig, Map.of());
            SimServer.warmUpOverLoopback();
            simulator = SimServer.start(config);
        } catch (RuntimeException e) {
            throw new RunException("cannot start the built-in simulator: " + e.getMessage(), e);
        }
        String address = "http://127.0.0.1:" + simulator.port();
        out.println("Target: the built-in llmload simulator at " + address + " (no GPU involved).");
        if (hint) {
            out.println("        To benchmark a real server: llmload run --url http://HOST:PORT --model NAME");
        }
        out.flush();
        return new TargetServer(address, simulator);
    }

    /** The address to send to. */
    String url() {
        return url;
    }

    @Override
    public void close() {
        if (simulator != null) {
            simulator.close();
        }
    }
}
