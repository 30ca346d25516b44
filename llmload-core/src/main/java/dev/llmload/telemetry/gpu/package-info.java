/**
 * GPU readings from nvidia-smi and dcgm-exporter, and the hardware they reveal. Parsing is pure;
 * {@code NvidiaSmiPoller} runs the process on its own reader thread ({@code llmload-nvidia-smi}).
 */
package dev.llmload.telemetry.gpu;
