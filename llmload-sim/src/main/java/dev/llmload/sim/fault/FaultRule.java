package dev.llmload.sim.fault;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Inject {@code fault} (text form of {@link Fault}) into a share {@code rate} (0 to 1) of requests.
 * Written {@code SPEC@RATE} on the command line, e.g. {@code http-429@0.05}.
 */
public record FaultRule(String fault, double rate) {

    public FaultRule {
        Fault.parse(fault);
        if (rate < 0 || rate > 1) {
            throw new IllegalArgumentException("fault rate must be within [0, 1]: " + rate);
        }
    }

    public Fault parsed() {
        return Fault.parse(fault);
    }

    @JsonValue
    @Override
    public String toString() {
        return fault + "@" + rate;
    }

    /** Parses {@code SPEC@RATE}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static FaultRule parse(String text) {
        int at = text.lastIndexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("bad fault rule '" + text + "'; expected SPEC@RATE, e.g. http-429@0.05");
        }
        return new FaultRule(text.substring(0, at), Double.parseDouble(text.substring(at + 1)));
    }
}
