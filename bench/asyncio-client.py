#!/usr/bin/env python3
"""A minimal streaming client on Python's asyncio, standard library only: the yardstick
bench/client-cost.sh measures the host with (CLIENT=asyncio), so that llmload's timing error is
read against what a plain event-loop client gets on the same host, in the same minutes.

It is what the common Python benchmark clients do at their core, without their extra work: a
closed loop of CONCURRENCY keep-alive connections, each sending one streamed chat completion after
another to the simulator, reading the chunked body as it arrives and stamping every read with
time.monotonic() before looking at it; each content event of a read takes that read's stamp.

    bench/asyncio-client.py URL CONCURRENCY REQUESTS OUTPUT_TOKENS OUT_DIR ID_PREFIX

Writes OUT_DIR/requests.jsonl, one line per request in llmload's journal fields that
bench/client-cost.py reads (request_id, outcome, sent_ms, token_times_ms from the send), and
OUT_DIR/client.json (CPU seconds of the load, user and system, and the wall time).
"""
import asyncio
import json
import os
import resource
import sys
import time
from urllib.parse import urlsplit

PROMPT = " ".join(["word"] * 60)


async def one_connection(host, port, path, ids, output_tokens, records, t0):
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while ids:
            request_id = ids.pop()
            body = json.dumps({"model": "llmload-sim", "stream": True, "max_tokens": output_tokens,
                               "ignore_eos": True, "messages": [{"role": "user", "content": PROMPT}]}).encode()
            head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                    f"x-request-id: {request_id}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
            sent = time.monotonic()
            writer.write(head + body)
            await writer.drain()
            times, ok = await read_stream(reader, sent)
            records.append({"request_id": request_id, "outcome": "success" if ok else "failure",
                            "warmup": False, "sent_ms": round((sent - t0) * 1000, 3),
                            "token_times_ms": times, "output_tokens": len(times)})
    finally:
        writer.close()


async def read_stream(reader, sent):
    """Token times (ms from the send) of one chunked SSE response, and whether it ended with [DONE]."""
    status = await reader.readline()
    chunked = False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
            chunked = True
    if not status.startswith(b"HTTP/1.1 200") or not chunked:
        raise SystemExit(f"unexpected response: {status!r}")
    times, pending, buffered, done = [], b"", b"", False
    while not done:
        data = await reader.read(65536)
        stamp = time.monotonic()
        if not data:
            return times, False
        buffered += data
        # Chunk framing: size line, data, CRLF; a zero size ends the body.
        while True:
            end = buffered.find(b"\r\n")
            if end < 0:
                break
            size = int(buffered[:end].split(b";")[0], 16)
            if len(buffered) < end + 2 + size + 2:
                break
            pending += buffered[end + 2:end + 2 + size]
            buffered = buffered[end + 2 + size + 2:]
            if size == 0:
                done = True
                break
        while b"\n\n" in pending:
            event, pending = pending.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if not line.startswith(b"data:"):
                    continue
                payload = line[5:].strip()
                if payload == b"[DONE]":
                    continue
                for choice in json.loads(payload).get("choices") or []:
                    if (choice.get("delta") or {}).get("content"):
                        times.append(round((stamp - sent) * 1000, 3))
    return times, True


async def main():
    url, concurrency, requests, output_tokens, out, prefix = sys.argv[1:7]
    parts = urlsplit(url)
    ids = [f"{prefix}-{i}" for i in reversed(range(int(requests)))]
    records = []
    before, t0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    await asyncio.gather(*(one_connection(parts.hostname, parts.port, "/v1/chat/completions", ids,
                                          int(output_tokens), records, t0) for _ in range(int(concurrency))))
    after, wall = resource.getrusage(resource.RUSAGE_SELF), time.monotonic() - t0
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "requests.jsonl"), "w") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
    with open(os.path.join(out, "client.json"), "w") as f:
        json.dump({"user_s": after.ru_utime - before.ru_utime, "system_s": after.ru_stime - before.ru_stime,
                   "wall_s": wall}, f)


if __name__ == "__main__":
    asyncio.run(main())
