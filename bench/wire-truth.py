#!/usr/bin/env python3
"""The wire's truth: llmload's and the simulator's timings against a packet capture of the same run.

Two commands:

  wire-truth.py run --streams N [--requests M] [--input-tokens I] [--output-tokens O] [--api A]
                    [--port P] [--out DIR] [--sim-args "..."] [--run-args "..."]
      starts `llmload sim` on 127.0.0.1 with a ground-truth log, `tcpdump` on the loopback
      interface for the simulator's port, then `llmload run` against it; stops the capture once
      its file has stopped growing, fails when the kernel dropped a packet, and prints the analysis
      below. Called by bench/wire-truth.sh; SIM_JAVA_OPTS in the environment is the simulator's
      LLMLOAD_JAVA_OPTS (the client keeps the caller's).

  wire-truth.py analyse --pcap F --port P [--journal requests.jsonl] [--truth ground-truth.jsonl] [--json OUT]
      the analysis alone, of a capture made with `tcpdump -i lo --time-stamp-precision=nano -w F`.

What the analysis does (Python 3 standard library only):

- reads the capture (pcap, micro- or nanosecond; Ethernet, Linux cooked or raw IP; IPv4 and IPv6),
  and reassembles each direction of every TCP connection to the port by sequence number, keeping
  for each byte the capture time of the first packet that carried it (a retransmission adds no
  bytes and so no times);
- cuts the client's bytes into HTTP requests (each request's time: the packet carrying its first
  byte) and reads their x-request-id; cuts the server's bytes into responses, undoes the chunked
  encoding and cuts a stream into its events (SSE: a blank line ends an event; NDJSON: a newline).
  An event's time is that of the packet carrying its LAST byte, the blank line included: that is
  when a client can first have the whole event, which is the moment llmload's decoder stamps;
- keeps the token-bearing events as llmload counts them: a non-empty delta content, reasoning or
  text of an OpenAI-style chunk, a non-special token text of TGI's, a non-empty message content or
  response of Ollama's;
- leaves out, and counts, the answers the capture holds only part of (no last chunk): their token
  events cannot be matched one to one;
- joins by x-request-id to the client's journal (requests.jsonl: TTFT and token times from the
  request's send) and to the simulator's ground-truth log (token times from its arrival).

No clock is estimated. Durations are compared with durations: the wire's TTFT is the first token
event's packet minus the request's first packet, the client's is its own send to its own read, the
simulator's is its own arrival to its own write, and the same for every gap between token events.
The simulator's arrival and token writes are also compared as instants with their packets, through
the one clock both have: the log's arrival_unix_us is CLOCK_REALTIME read together with the
monotonic arrival stamp, and the kernel stamps a captured packet with CLOCK_REALTIME.

The figures are split into the first second of the load (requests whose first packet came within a
second of the first measured request's) and the rest.
"""
import argparse
import bisect
import json
import os
import signal
import struct
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLMLOAD = os.path.join(ROOT, "llmload")


class WireError(Exception):
    """A capture this analysis cannot read; its message is the one line to print."""


# ---------------------------------------------------------------- capture

def packets(path):
    """Yields (capture time in ns since the epoch, IP packet bytes) of a pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise WireError(f"{path}: not a pcap file (too short)")
    magic = data[:4]
    formats = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\x4d\x3c\xb2\xa1": ("<", 1),
               b"\xa1\xb2\xc3\xd4": (">", 1000), b"\xa1\xb2\x3c\x4d": (">", 1)}
    if magic not in formats:
        raise WireError(f"{path}: not a pcap file (pcapng is not read: capture with tcpdump -w)")
    endian, frac_ns = formats[magic]
    linktype = struct.unpack(endian + "I", data[20:24])[0] & 0x0FFFFFFF
    header = struct.Struct(endian + "IIII")
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, orig = header.unpack_from(data, off)
        off += 16
        frame = data[off:off + incl]
        off += incl
        if incl != orig:
            raise WireError(f"{path}: a packet was captured truncated ({incl} of {orig} bytes): capture with -s 0")
        ip = link_payload(linktype, frame)
        if ip is not None:
            yield sec * 1_000_000_000 + frac * frac_ns, ip


def link_payload(linktype, frame):
    if linktype == 1:  # Ethernet (Linux's lo)
        kind, start = struct.unpack_from(">H", frame, 12)[0], 14
    elif linktype == 113:  # Linux cooked v1 (-i any)
        kind, start = struct.unpack_from(">H", frame, 14)[0], 16
    elif linktype == 276:  # Linux cooked v2
        kind, start = struct.unpack_from(">H", frame, 0)[0], 20
    elif linktype in (12, 101):  # raw IP
        kind, start = (0x0800 if frame[0] >> 4 == 4 else 0x86DD), 0
    elif linktype == 0:  # BSD loopback
        kind, start = (0x0800 if frame[4] >> 4 == 4 else 0x86DD), 4
    else:
        raise WireError(f"link type {linktype} is not read (capture on lo)")
    return frame[start:] if kind in (0x0800, 0x86DD) else None


def tcp_segments(ip):
    """(src, sport, dst, dport, seq, flags, payload) of a TCP packet, or None."""
    version = ip[0] >> 4
    if version == 4:
        ihl = (ip[0] & 0x0F) * 4
        if ip[9] != 6:
            return None
        total = struct.unpack_from(">H", ip, 2)[0]
        src, dst, tcp = ip[12:16], ip[16:20], ip[ihl:total]
    elif version == 6:
        if ip[6] != 6:
            return None
        length = struct.unpack_from(">H", ip, 4)[0]
        src, dst, tcp = ip[8:24], ip[24:40], ip[40:40 + length]
    else:
        return None
    sport, dport, seq = struct.unpack_from(">HHI", tcp, 0)
    doff = (tcp[12] >> 4) * 4
    return src, sport, dst, dport, seq, tcp[13], tcp[doff:]


class Direction:
    """One direction of one TCP connection: its bytes in order, and when each first came by."""

    def __init__(self):
        self.segments = []  # (seq, time, payload)
        self.syn_seq = None
        self.data = b""
        self.starts = []
        self.times = []
        self.hole = None

    def add(self, seq, flags, ns, payload):
        if flags & 0x02:
            self.syn_seq = seq
        if payload:
            self.segments.append((seq, ns, payload))

    def assemble(self):
        if not self.segments:
            return
        base = self.syn_seq + 1 if self.syn_seq is not None else min(s for s, _, _ in self.segments)
        ordered = sorted(((seq - base) & 0xFFFFFFFF, ns, p) for seq, ns, p in self.segments)
        out = bytearray()
        for rel, ns, payload in ordered:
            end = rel + len(payload)
            if end <= len(out):
                continue  # a retransmission: every byte already came, earlier
            if rel > len(out):
                self.hole = len(out)  # bytes the capture never saw: nothing after them is read
                break
            self.starts.append(len(out))
            self.times.append(ns)
            out += payload[len(out) - rel:]
        self.data = bytes(out)
        self.segments = None

    def time_at(self, offset):
        return self.times[bisect.bisect_right(self.starts, offset) - 1]


def connections(pcap, port):
    """{(client address, client port): (client->server Direction, server->client Direction)}."""
    conns = {}
    for ns, ip in packets(pcap):
        seg = tcp_segments(ip)
        if seg is None:
            continue
        src, sport, dst, dport, seq, flags, payload = seg
        if dport == port:
            pair, i = conns.setdefault((src, sport), (Direction(), Direction())), 0
        elif sport == port:
            pair, i = conns.setdefault((dst, dport), (Direction(), Direction())), 1
        else:
            continue
        pair[i].add(seq, flags, ns, payload)
    for pair in conns.values():
        pair[0].assemble()
        pair[1].assemble()
    return conns


# ---------------------------------------------------------------- HTTP

def head(data, pos):
    """(first line, {lower-case name: value}, offset after the blank line) or None if incomplete."""
    end = data.find(b"\r\n\r\n", pos)
    if end < 0:
        return None
    lines = data[pos:end].decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return lines[0], headers, end + 4


def requests_of(direction):
    out = []
    data, pos = direction.data, 0
    while pos < len(data):
        parsed = head(data, pos)
        if parsed is None:
            break
        line, headers, body = parsed
        end = body + int(headers.get("content-length", "0"))
        out.append({"id": headers.get("x-request-id"), "path": line.split(" ")[1] if " " in line else "",
                    "first_ns": direction.time_at(pos), "last_ns": direction.time_at(min(end, len(data)) - 1)})
        pos = end
    return out


def responses_of(direction):
    """Each response: its id, status, framing, and its body's events as (text, ns of its last byte)."""
    out = []
    data, pos = direction.data, 0
    while pos < len(data):
        parsed = head(data, pos)
        if parsed is None:
            break
        line, headers, pos = parsed
        status = int(line.split(" ")[1])
        body, raw = bytearray(), []  # raw: (body offset, data offset) where each run of body bytes starts
        complete = False
        if headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                eol = data.find(b"\r\n", pos)
                if eol < 0:
                    break
                size = int(data[pos:eol].split(b";")[0], 16)
                start = eol + 2
                if size == 0:
                    complete = data.find(b"\r\n\r\n", eol) == eol
                    pos = eol + 4
                    break
                if start + size + 2 > len(data):
                    break
                raw.append((len(body), start))
                body += data[start:start + size]
                pos = start + size + 2
        else:
            size = int(headers.get("content-length", "0"))
            raw.append((0, pos))
            body += data[pos:pos + size]
            complete = pos + size <= len(data)
            pos += size
        kind = headers.get("content-type", "")
        separator = b"\n\n" if "event-stream" in kind else b"\n" if "ndjson" in kind else None
        events = []
        if separator is None:
            if body:
                events.append((bytes(body), raw_time(direction, raw, len(body) - 1)))
        else:
            cut = 0
            while True:
                nl = body.find(separator, cut)
                if nl < 0:
                    break
                last = nl + len(separator) - 1
                events.append((bytes(body[cut:nl]), raw_time(direction, raw, last)))
                cut = last + 1
        out.append({"id": headers.get("x-request-id"), "status": status, "stream": separator is not None,
                    "ndjson": separator == b"\n", "events": events, "complete": complete})
        if not complete:
            break
    return out


def raw_time(direction, raw, body_offset):
    starts = [b for b, _ in raw]
    b, d = raw[bisect.bisect_right(starts, body_offset) - 1]
    return direction.time_at(d + body_offset - b)


def token_bearing(text, ndjson):
    """Whether an event carries a token, as llmload's dialects count them."""
    if not ndjson:
        data = "\n".join(line[5:].lstrip() if line.startswith("data:") else ""
                         for line in text.decode("utf-8", "replace").split("\n") if line.startswith("data:"))
    else:
        data = text.decode("utf-8", "replace")
    data = data.strip()
    if not data or data == "[DONE]":
        return False
    try:
        node = json.loads(data)
    except ValueError:
        return False
    if not isinstance(node, dict):
        return False
    choices = node.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        c = choices[0]
        delta = c.get("delta") if isinstance(c.get("delta"), dict) else {}
        return any(isinstance(v, str) and v for v in (delta.get("content"), delta.get("reasoning_content"),
                                                      delta.get("reasoning"), c.get("text")))
    token = node.get("token")
    if isinstance(token, dict):
        return bool(token.get("text")) and not token.get("special")
    message = node.get("message")
    if isinstance(message, dict):
        return bool(message.get("content"))
    return bool(node.get("response"))


def exchanges(pcap, port):
    """{x-request-id: exchange} of every request on the port with its response."""
    out, problems = {}, []
    for key, (up, down) in connections(pcap, port).items():
        for d, name in ((up, "client"), (down, "server")):
            if d.hole is not None:
                problems.append(f"a connection's {name} bytes have a hole at offset {d.hole} (packets missing)")
        reqs, resps = requests_of(up), responses_of(down)
        for req, resp in zip(reqs, resps):
            if req["id"] is None:
                continue
            if resp["id"] is not None and resp["id"] != req["id"]:
                problems.append(f"response {resp['id']} answers request {req['id']} on its connection")
                continue
            tokens = [ns for text, ns in resp["events"] if token_bearing(text, resp["ndjson"])] \
                if resp["stream"] else [ns for _, ns in resp["events"]]
            out[req["id"]] = {"request": req, "response": resp, "token_ns": tokens}
    return out, problems


# ---------------------------------------------------------------- figures

def percentile(values, p):
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    lo = int(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def summary(values):
    if not values:
        return None
    return {"n": len(values), "min": min(values), "p50": percentile(values, 50), "p99": percentile(values, 99),
            "max": max(values), "abs_p99": percentile([abs(v) for v in values], 99),
            "abs_max": max(abs(v) for v in values)}


def by_id(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                node = json.loads(line)
                out[node["request_id"]] = node
    return out


def analyse(pcap, port, journal=None, truth=None):
    wire, problems = exchanges(pcap, port)
    result = {"wire_requests": len(wire), "problems": problems}
    client = by_id(journal) if journal else {}
    sim = by_id(truth) if truth else {}
    # The load's requests: the journal's when there is one (not the test request before its clock).
    measured = [rid for rid in (client or wire) if rid in wire]
    if not measured:
        raise WireError("no request of the journal is in the capture (is the port right?)")
    origin = min(wire[rid]["request"]["first_ns"] for rid in measured)
    series = {}

    def add(name, first_second, value):
        series.setdefault(name, ([], []))[0 if first_second else 1].append(value)

    mismatched = {"client": 0, "sim": 0}
    partial = 0
    for rid in measured:
        w = wire[rid]
        if not w["response"]["complete"]:
            # The capture has only part of the answer: its token events cannot be matched one to one.
            partial += 1
            continue
        first = w["request"]["first_ns"] - origin < 1_000_000_000
        ticks = w["token_ns"]
        if not ticks:
            continue
        wire_ms = [(t - w["request"]["first_ns"]) / 1e6 for t in ticks]
        c = client.get(rid)
        if c is not None and c.get("outcome") == "success":
            mine = c.get("token_times_ms") or []
            if len(mine) != len(wire_ms):
                mismatched["client"] += 1
            else:
                add("client_ttft_minus_wire_ms", first, mine[0] - wire_ms[0])
                for i in range(1, len(mine)):
                    add("client_gap_minus_wire_ms", first, (mine[i] - mine[i - 1]) - (wire_ms[i] - wire_ms[i - 1]))
        s = sim.get(rid)
        if s is not None and s.get("outcome") == "success":
            theirs = s.get("token_times_ms") or []
            if len(theirs) != len(wire_ms):
                mismatched["sim"] += 1
                continue
            add("sim_ttft_minus_wire_ms", first, theirs[0] - wire_ms[0])
            for i in range(1, len(theirs)):
                add("sim_gap_minus_wire_ms", first, (theirs[i] - theirs[i - 1]) - (wire_ms[i] - wire_ms[i - 1]))
            if s.get("arrival_unix_us") is not None:
                arrival_ns = s["arrival_unix_us"] * 1000
                add("sim_arrival_minus_packet_ms", first, (arrival_ns - w["request"]["first_ns"]) / 1e6)
                for t_ms, tick in zip(theirs, ticks):
                    add("sim_write_minus_packet_ms", first, (arrival_ns + t_ms * 1e6 - tick) / 1e6)
    result["joined"] = {"client": sum(1 for r in measured if r in client), "sim": sum(1 for r in measured if r in sim)}
    result["token_count_mismatches"] = mismatched
    result["partial_answers"] = partial
    result["figures"] = {name: {"all": summary(a + b), "first_second": summary(a), "rest": summary(b)}
                         for name, (a, b) in series.items()}
    return result


LABELS = [
    ("client_ttft_minus_wire_ms", "client TTFT - wire TTFT"),
    ("client_gap_minus_wire_ms", "client gap - wire gap"),
    ("sim_ttft_minus_wire_ms", "sim TTFT - wire TTFT"),
    ("sim_gap_minus_wire_ms", "sim gap - wire gap"),
    ("sim_arrival_minus_packet_ms", "sim arrival - request's first packet"),
    ("sim_write_minus_packet_ms", "sim token write - its packet"),
]


def print_result(result):
    print(f"  requests in the capture: {result['wire_requests']}; joined to the journal: "
          f"{result['joined']['client']}, to the ground truth: {result['joined']['sim']}; token-count mismatches: "
          f"{result['token_count_mismatches']}; answers the capture has only part of (left out): "
          f"{result['partial_answers']}")
    for problem in result["problems"][:5]:
        print(f"  problem: {problem}")
    print(f"  {'ms (signed; |x| for abs)':<40} {'part':<13} {'n':>7} {'min':>9} {'p50':>9} {'p99':>9} {'max':>9} "
          f"{'|x| p99':>9} {'|x| max':>9}")
    for key, label in LABELS:
        figures = result["figures"].get(key)
        if figures is None:
            print(f"  {label:<40} n/a")
            continue
        for part in ("all", "first_second", "rest"):
            s = figures[part]
            if s is None:
                continue
            print(f"  {label:<40} {part:<13} {s['n']:>7} {s['min']:>9.3f} {s['p50']:>9.3f} {s['p99']:>9.3f} "
                  f"{s['max']:>9.3f} {s['abs_p99']:>9.3f} {s['abs_max']:>9.3f}")


# ---------------------------------------------------------------- run

def wait_healthy(port, proc, log):
    for _ in range(600):
        if proc.poll() is not None:
            raise WireError(f"the simulator exited: see {log}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise WireError("the simulator did not come up")


def start_capture(port, pcap, log_path):
    """tcpdump on lo for the port, nanosecond stamps, whole packets, a 256 MiB buffer; returns once it listens.

    Not in immediate mode: a wake-up of tcpdump's per packet costs the CPU the client and the
    simulator measure on (at 64 streams both were 4-5 ms later than the packets with it). The
    kernel hands packets over a block of its ring at a time, when the block fills or its timeout
    (tcpdump's 1 s) passes, and -U writes each as it is handed over: stop_capture waits for the last."""
    log = open(log_path, "w")
    proc = subprocess.Popen(["tcpdump", "-i", "lo", "-s", "0", "-B", "262144", "--time-stamp-precision=nano",
                             "-n", "-U", "-w", pcap, f"tcp port {port}"],
                            stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        time.sleep(0.05)
        if proc.poll() is not None:
            raise WireError(f"tcpdump could not capture: {open(log_path).read().strip()}")
        if "listening on" in open(log_path).read():
            return proc
    proc.kill()
    raise WireError("tcpdump did not start listening")


def stop_capture(proc, log_path, pcap):
    """Stops tcpdump once its file has stopped growing, and returns how many packets the kernel dropped.

    Stopped as soon as the client exits, tcpdump left the packets it had not yet read from the
    kernel's ring unwritten, and counted them nowhere: the run's last ~10 ms were missing from the
    file, and the answers that ended in them looked shorter than they were (a third of the
    answers at 64 streams). So it is stopped only after its file has not grown for longer than the
    ring's block timeout (1 s)."""
    size, still_since = -1, time.monotonic()
    deadline = still_since + 15
    while time.monotonic() < deadline:
        now_size = os.path.getsize(pcap) if os.path.exists(pcap) else 0
        if now_size != size:
            size, still_since = now_size, time.monotonic()
        elif time.monotonic() - still_since >= 1.5:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    text = open(log_path).read()
    dropped = None
    for line in text.splitlines():
        if "dropped by kernel" in line:
            dropped = int(line.split()[0])
    if dropped is None:
        raise WireError(f"tcpdump did not say how many packets it dropped: {text.strip()}")
    return dropped


def pinned(variable):
    """`taskset -c CPUS` where the environment names CPUs for a process (SIM_CPUS, CLIENT_CPUS), else nothing.

    With the simulator and the client each on cores of its own, the run shows what a host with
    cores to spare would, on a small one; tcpdump stays wherever the kernel puts it."""
    cpus = os.environ.get(variable, "")
    return ["taskset", "-c", cpus] if cpus else []


def run(args):
    out = args.out
    os.makedirs(out, exist_ok=True)
    name = f"c{args.streams}"
    truth = os.path.join(out, f"{name}-ground-truth.jsonl")
    pcap = os.path.join(out, f"{name}.pcap")
    run_dir = os.path.join(out, name)
    sim_log_path = os.path.join(out, f"{name}-sim.log")
    sim = subprocess.Popen(pinned("SIM_CPUS") + [LLMLOAD, "sim", "--host", "127.0.0.1", "--port", str(args.port), "--ground-truth", truth]
                           + args.sim_args.split(), stdout=open(sim_log_path, "w"), stderr=subprocess.STDOUT,
                           env=dict(os.environ, LLMLOAD_JAVA_OPTS=os.environ.get("SIM_JAVA_OPTS", "")))
    try:
        wait_healthy(args.port, sim, sim_log_path)
        capture_log = os.path.join(out, f"{name}-tcpdump.log")
        capture = start_capture(args.port, pcap, capture_log)
        requests = args.requests or 2 * args.streams
        client_log = os.path.join(out, f"{name}-client.log")
        command = pinned("CLIENT_CPUS") + [LLMLOAD, "run", "--url", f"http://127.0.0.1:{args.port}", "--api", args.api,
                   "--concurrency", str(args.streams), "--num-requests", str(requests),
                   "--input-tokens", str(args.input_tokens), "--output-tokens", str(args.output_tokens),
                   "--output-dir", run_dir] + args.run_args.split()
        load_before = open("/proc/loadavg").read().split()[:3]
        started = time.monotonic()
        status = subprocess.run(command, stdout=open(client_log, "w"), stderr=subprocess.STDOUT).returncode
        wall = time.monotonic() - started
        dropped = stop_capture(capture, capture_log, pcap)
    finally:
        sim.terminate()
        sim.wait()
    if status != 0:
        raise WireError(f"llmload run failed ({status}): see {client_log}")
    if dropped:
        raise WireError(f"the kernel dropped {dropped} packets of the capture: its figures would be wrong "
                        f"(a bigger buffer, fewer streams, or a quieter machine)")
    print(f"streams={args.streams} requests={requests} api={args.api} input={args.input_tokens} "
          f"output={args.output_tokens}: run {wall:.1f} s, load average before {' '.join(load_before)}, "
          f"after {' '.join(open('/proc/loadavg').read().split()[:3])}; packets dropped by kernel: 0; files in {out}")
    result = analyse(pcap, args.port, os.path.join(run_dir, "requests.jsonl"), truth)
    print_result(result)
    if not args.keep_pcap:
        os.remove(pcap)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("analyse")
    a.add_argument("--pcap", required=True)
    a.add_argument("--port", type=int, required=True)
    a.add_argument("--journal")
    a.add_argument("--truth")
    a.add_argument("--json", help="also write the figures to this file")
    r = sub.add_parser("run")
    r.add_argument("--streams", type=int, required=True)
    r.add_argument("--requests", type=int, help="default: twice the streams")
    r.add_argument("--input-tokens", type=int, default=256)
    r.add_argument("--output-tokens", type=int, default=64)
    r.add_argument("--api", default="tgi")
    r.add_argument("--port", type=int, default=18557)
    r.add_argument("--out", default="/tmp/wire-truth")
    r.add_argument("--sim-args", default="")
    r.add_argument("--run-args", default="")
    r.add_argument("--keep-pcap", action="store_true")
    args = parser.parse_args()
    try:
        if args.command == "analyse":
            result = analyse(args.pcap, args.port, args.journal, args.truth)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(result, f)
            print_result(result)
        else:
            run(args)
    except WireError as e:
        print(f"wire-truth: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
