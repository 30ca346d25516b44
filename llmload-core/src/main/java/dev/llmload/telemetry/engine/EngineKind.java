package dev.llmload.telemetry.engine;

import java.util.Locale;
import java.util.Optional;

/** The inference servers whose metrics llmload reads, by their {@code --server-kind} name. */
public enum EngineKind {
    VLLM("vllm"),
    SGLANG("sglang"),
    TGI("tgi"),
    /** trtllm-serve, TensorRT-LLM's own OpenAI server ({@code /prometheus/metrics}). */
    TRTLLM("trtllm"),
    /** Triton Inference Server with the TensorRT-LLM backend (metrics port 8002). */
    TRITON("triton"),
    LLAMACPP("llamacpp");

    private final String cliName;

    EngineKind(String cliName) {
        this.cliName = cliName;
    }

    /** The name used by {@code --server-kind} and in reports. */
    public String cliName() {
        return cliName;
    }

    /** The kind named by {@code --server-kind}, case-insensitively; empty for an unknown name. */
    public static Optional<EngineKind> byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (EngineKind kind : values()) {
            if (kind.cliName.equals(wanted)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
