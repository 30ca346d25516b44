#!/usr/bin/env python3
"""Scrapes the simulator's /metrics once a second over ONE keep-alive connection opened before the
load starts, until DRIVER_PID exits; writes `seconds generation_tokens running waiting step_lag_s
sim_cpu_s` lines, the last being the CPU time the simulator's process has used (from /proc).
(A connection opened during a 5000-stream load waits long for the busy event loop to accept it.)

usage: scrape-metrics.py PORT DRIVER_PID SIM_PID OUT"""
import http.client, os, sys, time

port, pid, sim_pid, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ticks = os.sysconf("SC_CLK_TCK")

def cpu_seconds(p):
    with open("/proc/%d/stat" % p) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
start = time.monotonic()

def value(text, name):
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + "{") or line.startswith(name + " "))

with open(out, "w") as f:
    while True:
        try:
            os.kill(pid, 0)
        except OSError:
            break
        t = time.monotonic() - start
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
        f.write("%.3f\t%.0f\t%.0f\t%.0f\t%.6f\t%.2f\n" % (t, value(text, "vllm:generation_tokens_total"),
                value(text, "vllm:num_requests_running"), value(text, "vllm:num_requests_waiting"),
                value(text, "llmload_sim_step_lag_seconds"), cpu_seconds(sim_pid)))
        f.flush()
        time.sleep(max(0.0, 1 - (time.monotonic() - start - t)))
