package dev.llmload.sim.server;

import com.knuddels.jtokkit.api.Encoding;
import dev.llmload.sim.engine.Engine;
import dev.llmload.sim.fault.FaultPlanner;
import dev.llmload.sim.metrics.SimMetrics;
import dev.llmload.sim.truth.GroundTruthLog;

/** What every connection's handler shares; each part documents its own thread safety. */
record SimServices(
        SimConfig config,
        Engine engine,
        SimMetrics metrics,
        FaultPlanner faults,
        GroundTruthLog groundTruth,
        Encoding tokenizer,
        long startedUnixSeconds) {}
