package dev.llmload.sim.fault;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Decides which fault, if any, a request gets: the one its header forces, else at most one of the
 * configured rules, drawn from a seeded random source (rules are tried in order, each with its own
 * rate, so the same seed and arrival order give the same faults).
 *
 * <p>Threading: called from every event loop; {@link #choose} holds this object's monitor for the
 * few draws it makes.
 */
public final class FaultPlanner {

    private final List<Fault> faults;
    private final double[] rates;
    private final SplittableRandom random;

    public FaultPlanner(List<FaultRule> rules, long seed) {
        this.faults = rules.stream().map(FaultRule::parsed).toList();
        this.rates = rules.stream().mapToDouble(FaultRule::rate).toArray();
        this.random = new SplittableRandom(seed);
    }

    /**
     * @param header the {@code x-llmload-sim-fault} header value, or null
     * @throws IllegalArgumentException when the header does not parse
     */
    public Optional<Fault> choose(String header) {
        if (header != null && !header.isBlank()) {
            return Optional.of(Fault.parse(header));
        }
        if (faults.isEmpty()) {
            return Optional.empty();
        }
        synchronized (this) {
            for (int i = 0; i < faults.size(); i++) {
                if (random.nextDouble() < rates[i]) {
                    return Optional.of(faults.get(i));
                }
            }
        }
        return Optional.empty();
    }
}
