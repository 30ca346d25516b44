#!/usr/bin/env python3
"""What one stream in flight and one token event cost the client in heap (docs/performance.md).

Starts `llmload sim --engine fixed` with a slow token rate (ITL_MS, default 500 ms) and answers long
enough that no request ends during the measurement, then `llmload run --concurrency N` with N
requests for each N in SMALL and LARGE. At T1 and T2 seconds after the first request was sent it
takes a class histogram of the client's live objects (`jcmd PID GC.class_histogram`, which collects
first), so:

- heap per stream in flight = (live(LARGE, T1) - live(SMALL, T1)) / (LARGE - SMALL): everything a
  request holds while it streams (its prepared body, connection, decoder, token times so far);
- heap per token event = (live(LARGE, T2) - live(LARGE, T1)) / (LARGE x events per stream between
  T1 and T2), with the events counted from the simulator's ground truth afterwards.

Prints both, RSS at T2, and the classes that grew most per stream. Called by bench/stream-memory.sh,
which builds first.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("client_cost", os.path.join(HERE, "client-cost.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

JCMD = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "jcmd")


def histogram(pid):
    """{class: bytes} of live objects, and their total."""
    text = subprocess.run([JCMD, str(pid), "GC.class_histogram"], capture_output=True, text=True,
                          check=True).stdout
    classes = {}
    total = 0
    for line in text.splitlines():
        m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if m:
            classes[m.group(3)] = int(m.group(2))
        m = re.match(r"Total\s+(\d+)\s+(\d+)", line)
        if m:
            total = int(m.group(2))
    return classes, total


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def first_send_after(run_dir, deadline):
    """Waits for run.json (written when the load starts) and returns when it appeared."""
    path = os.path.join(run_dir, "run.json")
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return time.monotonic()
        time.sleep(0.05)
    raise SystemExit(f"the run did not start: no {path}")


def measure(concurrency, out, t1, t2):
    port = cc.env("PORT", "18557")
    itl = cc.env("ITL_MS", "500")
    tokens = int(cc.env("OUTPUT_TOKENS", "400"))
    run_dir = os.path.join(out, f"c{concurrency}")
    truth = os.path.join(out, f"c{concurrency}-ground-truth.jsonl")
    sim = subprocess.Popen(cc.taskset(cc.env("SIM_CPU", "0")) + [
        cc.LLMLOAD, "sim", "--port", port, "--engine", "fixed", "--ttft-ms", "20", "--itl-ms", itl,
        "--prefill-ms-per-token", "0", "--ground-truth", truth],
        stdout=open(os.path.join(out, f"c{concurrency}-sim.log"), "w"), stderr=subprocess.STDOUT)
    client = None
    try:
        cc.wait_healthy(port, sim)
        client = subprocess.Popen(cc.taskset(cc.env("CLIENT_CPU", "1")) + [
            cc.LLMLOAD, "run", "--url", f"http://127.0.0.1:{port}", "--concurrency", str(concurrency),
            "--num-requests", str(concurrency), "--input-tokens", "64", "--output-tokens", str(tokens),
            "--server-metrics", "off", "--grace", "1s", "--output-dir", run_dir],
            stdout=open(os.path.join(out, f"c{concurrency}-client.log"), "w"), stderr=subprocess.STDOUT)
        start = first_send_after(run_dir, time.monotonic() + 120)
        samples = {}
        for label, at in (("t1", t1), ("t2", t2)):
            time.sleep(max(0.0, start + at - time.monotonic()))
            if client.poll() is not None:
                raise SystemExit(f"the run ended before {at} s: lower ITL_MS x OUTPUT_TOKENS is too short")
            classes, total = histogram(client.pid)
            samples[label] = (time.monotonic() - start, classes, total, rss_mib(client.pid))
        return samples
    finally:
        if client is not None and client.poll() is None:
            client.terminate()
            client.wait()
        sim.terminate()
        sim.wait()


def main():
    out = sys.argv[1]
    small, large = int(cc.env("SMALL", "10")), int(cc.env("LARGE", "1000"))
    t1, t2 = float(cc.env("T1", "15")), float(cc.env("T2", "35"))
    itl_s = float(cc.env("ITL_MS", "500")) / 1000
    low = measure(small, out, t1, t2)
    high = measure(large, out, t1, t2)
    per_stream = (high["t1"][2] - low["t1"][2]) / (large - small)
    # Events each stream received between the two histograms, from the elapsed time and the ITL
    # (every stream is past its first token by T1, and the simulator writes one token per ITL).
    events = (high["t2"][0] - high["t1"][0]) / itl_s
    per_event = (high["t2"][2] - high["t1"][2]) / (large * events)
    print(f"streams {small} and {large}, histograms at {t1:.0f} s and {t2:.0f} s after the load started, "
          f"one token every {itl_s * 1000:.0f} ms")
    print(f"live heap: {low['t1'][2] / 2**20:.1f} MiB with {small} streams, {high['t1'][2] / 2**20:.1f} MiB "
          f"with {large} at T1, {high['t2'][2] / 2**20:.1f} MiB at T2; RSS at T2 {high['t2'][3]:.0f} MiB")
    print(f"heap per stream in flight: {per_stream:.0f} bytes ({per_stream / 1024:.2f} KiB)")
    print(f"heap per token event: {per_event:.1f} bytes ({events:.1f} events per stream between T1 and T2)")
    grew = {c: high["t1"][1].get(c, 0) - low["t1"][1].get(c, 0) for c in high["t1"][1]}
    print("largest per-stream classes (bytes per stream):")
    for name, delta in sorted(grew.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {delta / (large - small):8.0f}  {name}")
    grew = {c: high["t2"][1].get(c, 0) - high["t1"][1].get(c, 0) for c in high["t2"][1]}
    print("largest per-event classes (bytes per token event):")
    for name, delta in sorted(grew.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {delta / (large * events):8.1f}  {name}")


if __name__ == "__main__":
    main()
