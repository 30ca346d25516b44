/**
 * The inference engines whose metrics llmload reads (vLLM, SGLang, TGI, TensorRT-LLM, Triton,
 * llama.cpp) and how each one's metric names map to engine-independent signals. Immutable tables
 * and pure mapping; any thread.
 */
package dev.llmload.telemetry.engine;
