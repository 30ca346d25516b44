#!/usr/bin/env python3
"""Scrapes the simulator's /metrics once a second over ONE keep-alive connection opened before the
load starts, until DRIVER_PID exits; writes `seconds generation_tokens running waiting step_lag_s
sim_cpu_s sim_user_s sim_system_s softirq_s` lines: the CPU time the simulator's process has used
(user + system, then each), and the softirq time of SIM_CPU, where on loopback the kernel also
delivers what the simulator sends (all from /proc).
At the end prints the simulator's token write delay (llmload_sim_token_write_delay_seconds) over
the scrapes from WARMUP seconds on, as the bucket bounds its p50, p99 and max fall under.
(A connection opened while the simulator is still taking up a 5000-stream load waits long to be
accepted, hence the connection opened first.)

usage: scrape-metrics.py PORT DRIVER_PID SIM_PID OUT WARMUP SIM_CPU"""
import http.client, os, re, sys, time

port, pid, sim_pid, out, warmup = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
sim_cpu = "cpu%d " % int(sys.argv[6])
ticks = os.sysconf("SC_CLK_TCK")
DELAY = "llmload_sim_token_write_delay_seconds_bucket"

def cpu_seconds(p):
    """(user, system) seconds of process p."""
    with open("/proc/%d/stat" % p) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / ticks, int(fields[12]) / ticks  # utime, stime

def softirq_seconds():
    with open("/proc/stat") as stat:
        line = next(l for l in stat if l.startswith(sim_cpu))
    return int(line.split()[7]) / ticks

def value(text, name):
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + "{") or line.startswith(name + " "))

def delay_buckets(text):
    """{upper bound: cumulative count} of the write-delay histogram."""
    buckets = {}
    for line in text.splitlines():
        if line.startswith(DELAY + "{"):
            le = re.search(r'le="([^"]+)"', line).group(1)
            buckets[float(le)] = float(line.rsplit(" ", 1)[1])
    return buckets

def bound_under(buckets, share):
    total = buckets[float("inf")]
    for le in sorted(buckets):
        if buckets[le] >= share * total:
            return le

conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
start = time.monotonic()
first = last = None
with open(out, "w") as f:
    while True:
        try:
            os.kill(pid, 0)
        except OSError:
            break
        t = time.monotonic() - start
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
        user, system = cpu_seconds(sim_pid)
        f.write("%.3f\t%.0f\t%.0f\t%.0f\t%.6f\t%.2f\t%.2f\t%.2f\t%.2f\n" % (t, value(text, "vllm:generation_tokens_total"),
                value(text, "vllm:num_requests_running"), value(text, "vllm:num_requests_waiting"),
                value(text, "llmload_sim_step_lag_seconds"), user + system, user, system, softirq_seconds()))
        f.flush()
        if t >= warmup:
            last = delay_buckets(text)
            first = first or last
        time.sleep(max(0.0, 1 - (time.monotonic() - start - t)))

if first and last:
    window = {le: last[le] - first[le] for le in last}
    if window[float("inf")] > 0:
        fmt = lambda le: "inf" if le == float("inf") else "%g" % (le * 1000)
        print("WRITE_DELAY flushes=%.0f p50_under_ms=%s p99_under_ms=%s max_under_ms=%s" % (
            window[float("inf")], fmt(bound_under(window, 0.5)), fmt(bound_under(window, 0.99)),
            fmt(bound_under(window, 1.0))))
