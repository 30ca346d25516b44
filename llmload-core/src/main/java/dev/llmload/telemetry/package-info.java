/**
 * Server and GPU telemetry during a run: the collector that scrapes the server's Prometheus
 * metrics, dcgm-exporters and nvidia-smi apart from the load, and what it recorded.
 *
 * <p>Threads: {@code llmload-telemetry} owns the collector's state; its event loop
 * ({@code llmload-telemetry-io-1}) and {@code llmload-nvidia-smi} only timestamp what arrives and
 * hand it to the owner. Never the load's event loops.
 */
package dev.llmload.telemetry;
