package dev.llmload.config;

import dev.llmload.metrics.Slo;

/** Per-request limits for goodput as written ({@code ttft:500,tpot:50}) and as read. */
public record SloLimits(String text, Slo slo) {

    public SloLimits {
        if (text == null || slo == null) {
            throw new ConfigException("--slo: limits are required");
        }
    }

    /** null stays null. */
    public static SloLimits parse(String text) {
        return text == null ? null : new SloLimits(text, ConfigException.parsing("--slo", () -> Slo.parse(text)));
    }
}
