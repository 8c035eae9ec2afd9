#!/usr/bin/env python3
"""Load on `suggest serve` (issue 14 item 5): concurrent typing clients against an in-memory server on loopback.

Starts `suggest serve --port 0` on the 886k PyPI names (Benchmarks/.data/pypi-names.tsv, prepared from the
workplace's list as Benchmarks/Scripts/quality-report.sh does; never committed) with recent, prefix and fuzzy
providers, then runs --clients clients at once. Each client is one person: it draws a project name by weight (the
names' download-rank weights), types it letter by letter (one `GET /suggest?q=PREFIX&session=S&user=U` per
keystroke, waiting for each answer, keep-alive connection), then submits it (`POST /submit`) and starts again.
Stops after --seconds or --max-requests, whichever comes first, then stops the server with SIGTERM (which must exit
with status 0). Reports keystrokes per second and the latency per keystroke (p50, p90, p99, max) as the client saw
it, and the server's own median `micros`.

The clients run in this one Python process (asyncio) on the same machine as the server: on a small machine they take
CPU from it, so the figures are a floor for the server, not a ceiling.

Usage: python3 Benchmarks/Scripts/serve-load.py [--bin .build/release/suggest] [--clients 64] [--seconds 20]
           [--max-requests 500000] [--users 1000] [--seed 1]
"""
import argparse
import asyncio
import bisect
import importlib.util
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "Benchmarks", ".data")


def prepare_names() -> str:
    path = os.path.join(DATA, "pypi-names.tsv")
    if not os.path.exists(path):
        os.makedirs(DATA, exist_ok=True)
        spec = importlib.util.spec_from_file_location("quality_report", os.path.join(ROOT, "Benchmarks/Scripts/quality-report.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.prepare_pypi(path)
    return path


def read_names(path: str):
    names, cumulative, total = [], [], 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            name, _, weight = line.rstrip("\n").partition("\t")
            total += int(weight or 1)
            names.append(name)
            cumulative.append(total)
    return names, cumulative, total


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))]


class Client:
    def __init__(self, port, index, users, rng, names, cumulative, total):
        self.port, self.index, self.rng = port, index, rng
        self.user = f"u{index % users}"
        self.names, self.cumulative, self.total = names, cumulative, total
        self.latencies, self.micros, self.errors, self.submits = [], [], 0, 0

    async def request(self, method, target, body=b""):
        head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n\r\n"
        self.writer.write(head.encode() + body)
        status_line = await self.reader.readline()
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return int(status_line.split()[1]), payload

    async def run(self, deadline, budget):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        session = f"c{self.index}"
        while time.monotonic() < deadline and budget[0] > 0:
            name = self.names[bisect.bisect_left(self.cumulative, self.rng.randrange(self.total) + 1)]
            for i in range(1, len(name) + 1):
                if time.monotonic() >= deadline or budget[0] <= 0:
                    break
                budget[0] -= 1
                query = urllib.parse.quote(name[:i], safe="")
                start = time.perf_counter()
                status, payload = await self.request("GET", f"/suggest?q={query}&session={session}&user={self.user}")
                self.latencies.append(time.perf_counter() - start)
                if status != 200:
                    self.errors += 1
                else:
                    self.micros.append(json.loads(payload)["micros"])
            else:
                status, _ = await self.request(
                    "POST", f"/submit?session={session}&user={self.user}", json.dumps({"text": name}).encode()
                )
                self.submits += 1
                if status != 200:
                    self.errors += 1
        self.writer.close()


async def load(port, args, names, cumulative, total):
    deadline = time.monotonic() + args.seconds
    budget = [args.max_requests]
    clients = [
        Client(port, i, args.users, random.Random(args.seed * 1000 + i), names, cumulative, total)
        for i in range(args.clients)
    ]
    start = time.perf_counter()
    await asyncio.gather(*(c.run(deadline, budget) for c in clients))
    return clients, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/suggest"))
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--max-requests", type=int, default=500_000)
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (1 <= args.clients <= 1024 and 0 < args.seconds <= 600):
        sys.exit("--clients 1...1024 and --seconds up to 600")

    names, cumulative, total = read_names(prepare_names())
    config = os.path.join(DATA, "serve-load.suggest.json")
    with open(config, "w") as f:
        json.dump({"version": 1, "limit": 10, "providers": [
            {"type": "recent"}, {"type": "prefix", "dictionary": "pypi-names.tsv"},
            {"type": "fuzzy", "dictionary": "pypi-names.tsv"}]}, f)
    started = time.perf_counter()
    server = subprocess.Popen(
        [args.bin, "serve", "--config", config, "--port", "0", "--log-level", "warning",
         "--max-users", str(max(args.users, 1))],
        stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            sys.exit(f"server did not start: {line!r}")
        port = int(line.rsplit(":", 1)[1])
        print(f"server ready in {time.perf_counter() - started:.1f} s (886k names loaded and indexed)", file=sys.stderr)
        clients, elapsed = asyncio.run(load(port, args, names, cumulative, total))
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=60)
    latencies = sorted(x for c in clients for x in c.latencies)
    micros = sorted(x for c in clients for x in c.micros)
    errors = sum(c.errors for c in clients)
    submits = sum(c.submits for c in clients)
    ms = lambda x: f"{x * 1000:.2f} ms"
    print(f"clients {args.clients}, users {args.users}, {elapsed:.1f} s: {len(latencies)} keystrokes, {submits} submits, "
          f"{errors} errors; server exit status after SIGTERM {status}")
    print(f"keystrokes/s {len(latencies) / elapsed:.0f}")
    print(f"latency per keystroke: p50 {ms(percentile(latencies, 50))}, p90 {ms(percentile(latencies, 90))}, "
          f"p99 {ms(percentile(latencies, 99))}, max {ms(latencies[-1] if latencies else float('nan'))}")
    print(f"engine micros per keystroke (server side): p50 {percentile(micros, 50):.0f}, p99 {percentile(micros, 99):.0f}")
    if errors or status != 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
