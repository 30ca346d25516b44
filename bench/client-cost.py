#!/usr/bin/env python3
"""What llmload's client costs against the fixed-latency simulator (docs/performance.md).

For each concurrency: starts `llmload sim --engine fixed` with a ground-truth log on SIM_CPU, runs
`llmload run` on CLIENT_CPU through the launcher (so its JVM options are the ones measured), reads
the client process's /proc/<pid>/stat and status while it runs, and prints one row: client CPU per
streamed token (user, system; net of what it spent before the load), peak RSS, CPU and wall before
the first request and before the load, the run's own loop-lag figures, and the per-gap inter-token and first-token differences
against the simulator's ground truth. With RATE set, each rate in it is run as an open loop instead
(Poisson arrivals, ROUNDS x 100 requests), and the row adds the send lag (actual − intended send)
in the first measured second beside the rest of the run. Called by bench/client-cost.sh, which
builds first.
"""
import json
import os
import statistics
import shlex
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLMLOAD = os.path.join(ROOT, "llmload")
TICKS = os.sysconf("SC_CLK_TCK")
# CLIENT=asyncio: measure bench/asyncio-client.py instead of llmload (closed loops only).
ASYNCIO = os.environ.get("CLIENT", "llmload") == "asyncio"
# TTY=1: the client runs on a pseudo-terminal (script(1)), where llmload draws its live view.
TTY = os.environ.get("TTY", "") == "1"


def env(name, default):
    return os.environ.get(name, default)


def taskset(cpus):
    return ["taskset", "-c", cpus] if cpus else []


def java_pid(pid):
    """The java process among pid's descendants (pid itself if none is, or not yet)."""
    todo = [pid]
    while todo:
        current = todo.pop(0)
        try:
            with open(f"/proc/{current}/comm") as f:
                if f.read().strip() == "java":
                    return current
            with open(f"/proc/{current}/task/{current}/children") as f:
                todo.extend(int(child) for child in f.read().split())
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return pid


def proc_sample(pid):
    """(user s, system s, peak RSS MiB) of a live process, or None once it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        hwm = 0
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
        # fields[0] is the state (field 3); utime and stime are fields 14 and 15
        return int(fields[11]) / TICKS, int(fields[12]) / TICKS, hwm
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return None


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    lo = int(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def by_id(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                node = json.loads(line)
                out[node["request_id"]] = node
    return out


def wait_healthy(port, proc):
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit(f"the simulator exited: see its log")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the simulator did not come up")


def send_lags(journal):
    """Send lags (ms) of the measured requests in the first second of their schedule, and after it."""
    measured = [r for r in journal.values() if not r.get("warmup") and r.get("sent_ms") is not None]
    if not measured:
        return [], []
    origin = min(r["intended_send_ms"] for r in measured)
    first, rest = [], []
    for r in measured:
        (first if r["intended_send_ms"] - origin < 1000 else rest).append(r["sent_ms"] - r["intended_send_ms"])
    return first, rest


def one(name, load, streams, out):
    """One run: `load` is the run's load flags, `streams` what RSS per stream divides by."""
    port = env("PORT", "18556")
    ttft, itl, tokens = env("TTFT_MS", "30"), env("ITL_MS", "40"), int(env("OUTPUT_TOKENS", "64"))
    run_dir = os.path.join(out, name)
    truth = os.path.join(out, f"{name}-ground-truth.jsonl")
    sim_log = open(os.path.join(out, f"{name}-sim.log"), "w")
    sim = subprocess.Popen(taskset(env("SIM_CPU", "0")) + [LLMLOAD, "sim", "--port", port, "--engine", "fixed",
                           "--ttft-ms", ttft, "--itl-ms", itl, "--prefill-ms-per-token", "0",
                           "--ground-truth", truth], stdout=sim_log, stderr=subprocess.STDOUT,
                           env=dict(os.environ, LLMLOAD_JAVA_OPTS=env("SIM_JAVA_OPTS", "")))
    try:
        wait_healthy(port, sim)
        log = open(os.path.join(out, f"{name}-client.log"), "w")
        started = time.monotonic()
        url = f"http://127.0.0.1:{port}"
        if ASYNCIO:
            # The yardstick: the same closed loop from a plain asyncio client (bench/asyncio-client.py).
            command = ["python3", os.path.join(ROOT, "bench", "asyncio-client.py"), url, load[1], load[3],
                       str(tokens), run_dir, name]
        else:
            command = [LLMLOAD, "run", "--url", url] + load + ["--input-tokens", env("INPUT_TOKENS", "64"), "--output-tokens", str(tokens),
                                                              "--output-dir", run_dir] + env("RUN_ARGS", "").split()
        if TTY:
            # On a pseudo-terminal of script(1), as on a person's: the live view is drawn.
            command = ["script", "-qfec", shlex.join(command), "/dev/null"]
        client = subprocess.Popen(taskset(env("CLIENT_CPU", "1")) + command, stdout=log, stderr=subprocess.STDOUT)
        # The pid is taskset's, which execs the launcher, which execs java (under script(1), java is
        # a descendant of it). The counters only grow; the largest reading is the last one before
        # the process was reaped.
        user = system = rss = 0.0
        while client.poll() is None:
            sample = proc_sample(java_pid(client.pid) if TTY else client.pid)
            if sample:
                user, system, rss = max(user, sample[0]), max(system, sample[1]), max(rss, sample[2])
            time.sleep(0.05)
        wall = time.monotonic() - started
        if client.returncode != 0:
            raise SystemExit(f"the client failed ({client.returncode}): see {log.name}")
    finally:
        sim.terminate()
        sim.wait()
    mine = by_id(os.path.join(run_dir, "requests.jsonl"))
    first_second = []
    gaps, first = against_truth(mine, by_id(truth), first_second)
    streamed = sum(r.get("output_tokens") or 0 for r in mine.values())
    errors = (f"matched={len(first)} gap_err_ms p50={percentile(gaps, 50):.3f} p99={percentile(gaps, 99):.3f} "
              f"max={max(gaps) if gaps else float('nan'):.2f} first_second_gap_err_ms "
              f"p99={percentile(first_second, 99):.3f} max={max(first_second, default=float('nan')):.2f} "
              f"first_token_offset_ms p50={percentile(first, 50):.2f} p99={percentile(first, 99):.2f}")
    if ASYNCIO:
        load_cpu = json.load(open(os.path.join(run_dir, "client.json")))
        print(f"{name:<7} asyncio requests={len(mine):<5} tokens={streamed:<7} "
              f"load_cpu_us_per_token={1e6 * (load_cpu['user_s'] + load_cpu['system_s']) / max(1, streamed):6.2f} "
              f"(user {1e6 * load_cpu['user_s'] / max(1, streamed):5.2f}, sys {1e6 * load_cpu['system_s'] / max(1, streamed):5.2f}) "
              f"cpu_s={user + system:5.2f} rss_max_mib={rss:6.0f} wall_s={wall:5.1f} | {errors}", flush=True)
        return
    report = json.load(open(os.path.join(run_dir, "report.json")))
    c = report["client"]
    measured = report["results"]["requests"]["succeeded"] * tokens
    before = c["cpu_before_load_s"] or 0.0
    # The CPU before the load is split between user and system as the whole run's is.
    net = max(1e-9, user + system - before)
    lag = c["loop_lag_ms"]
    lags = ""
    if "--request-rate" in load:
        first_second, rest = send_lags(mine)
        lags = (f" | send_lag_ms first second p50={percentile(first_second, 50):.2f} p99={percentile(first_second, 99):.2f} "
                f"max={max(first_second, default=float('nan')):.2f}, rest p50={percentile(rest, 50):.2f} "
                f"p99={percentile(rest, 99):.2f} max={max(rest, default=float('nan')):.2f}")
    print(f"{name:<7} requests={len(mine):<5} tokens={streamed:<7} "
          f"cpu_us_per_token={1e6 * net / streamed:6.2f} (user {1e6 * net * user / (user + system) / streamed:5.2f}, "
          f"sys {1e6 * net * system / (user + system) / streamed:5.2f}) "
          f"window_cpu_us_per_token={1e6 * (c['cpu_s'] or 0) / max(1, measured):6.2f} "
          f"rss_max_mib={rss:6.0f} rss_per_stream_kib={1024 * rss / streams:6.0f} "
          f"cpu_before_first_send_s={c.get('cpu_before_first_send_s') or float('nan'):5.2f} "
          f"wall_before_first_send_s={c.get('wall_before_first_send_s') or float('nan'):5.2f} "
          f"cpu_before_load_s={before:5.2f} wall_before_load_s={c['wall_before_load_s']:5.2f} wall_s={wall:5.1f} "
          f"loop_lag_p99_ms={lag['p99']:.2f} loop_lag_max_ms={lag['max']:.1f} gc_pauses={c['gc_pauses']} "
          f"saturated={c['saturated']} | {errors}{lags}", flush=True)


def against_truth(mine, theirs, first_second=None):
    """Per-gap |client gap - server gap| (ms) and first-token offsets (ms) of the measured requests
    that succeeded on both sides with the same number of token events; with a list given as
    first_second, the errors of the gaps that ended in the run's first second (by the client's
    clock) are added to it too."""
    gaps, first = [], []
    for rid, m in mine.items():
        t = theirs.get(rid)
        if not t or m.get("warmup") or m.get("outcome") != "success" or t.get("outcome") != "success":
            continue
        a, b = m.get("token_times_ms") or [], t.get("token_times_ms") or []
        if len(a) != len(b) or not a:
            continue
        first.append(a[0] - b[0])
        for i in range(1, len(a)):
            error = abs((a[i] - a[i - 1]) - (b[i] - b[i - 1]))
            gaps.append(error)
            if first_second is not None and m["sent_ms"] + a[i] < 1000:
                first_second.append(error)
    return gaps, first


def cpus(spec):
    """The CPUs of a taskset list such as "0" or "0-3,8"."""
    chosen = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        chosen.update(range(int(first), int(last or first) + 1))
    return chosen


def main():
    out = sys.argv[1]
    rounds = int(env("ROUNDS", "8"))
    if env("SIM_CPU", "0") and env("CLIENT_CPU", "1"):
        # This script's own /proc sampling (every 50 ms) stays off the client's CPU: seen there with
        # perf sched, it delayed the client's event loop now and then.
        os.sched_setaffinity(0, cpus(env("SIM_CPU", "0")))
    if env("RATE", "") and ASYNCIO:
        raise SystemExit("CLIENT=asyncio runs closed loops only: leave RATE unset")
    if env("RATE", ""):
        itl_s, tokens = float(env("ITL_MS", "40")) / 1000, int(env("OUTPUT_TOKENS", "64"))
        for rate in env("RATE", "").split():
            # Streams in flight at that rate: arrivals per second times a request's length (Little's law).
            streams = max(1, round(float(rate) * (float(env("TTFT_MS", "30")) / 1000 + tokens * itl_s)))
            one(f"r{rate}", ["--request-rate", rate, "--num-requests", str(rounds * 100)], streams, out)
        return
    for concurrency in env("CONCURRENCY", "64 512 2000").split():
        one(f"c{concurrency}", ["--concurrency", concurrency, "--num-requests", str(rounds * int(concurrency))],
            int(concurrency), out)


if __name__ == "__main__":
    main()
