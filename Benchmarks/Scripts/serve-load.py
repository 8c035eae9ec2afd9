#!/usr/bin/env python3
"""Load on `suggest serve`: concurrent typing clients against an in-memory server on loopback.

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

PostgreSQL-backed (--postgres URL): the same names in a table (imported with `suggest import --postgres`, or by
this script with --import), and a configuration of `recent` plus the `postgres` provider (deadline --deadline-ms,
pool --pg-connections) instead of the in-memory `prefix` and `fuzzy`. --config FILE runs any configuration instead.

Fault run (--fault-at S --fault-for D, PostgreSQL-backed): S seconds into the load, `PG_CTL pause` stops the database
(keeping its data; --pg-ctl, default `bash .ci/postgres.sh`), D seconds later `PG_CTL resume` starts it again. Every
answer is checked (HTTP 200, JSON with the typed text, a suggestions list, a generation; a database error only as a
provider error in `errors`), and the report splits the keystrokes into before / outage / after the restart and gives
the recovery time: from the moment the database accepted connections again to the first keystroke sent after it
that the database answered, and to the last keystroke that still reported it failed.

Any answer that is not well-formed, any status but 200, or a server that does not exit 0 after SIGTERM makes the
script exit 1.

Usage: python3 Benchmarks/Scripts/serve-load.py [--bin .build-server/release/suggest] [--clients 64] [--seconds 20]
           [--max-requests 500000] [--users 1000] [--seed 1] [--think-ms 0] [--timeline]
           [--postgres URL [--table pypi] [--import] [--deadline-ms 150] [--pg-connections 4] [--pg-queued N]
            [--fault-at S --fault-for D [--pg-ctl "bash .ci/postgres.sh"]]] [--config FILE]
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


class Keystroke:
    """One answered keystroke: when it was sent (seconds since the load started), how long it took, what came back."""
    __slots__ = ("sent", "latency", "status", "malformed", "provider_failed", "provider_busy", "provider_answered",
                 "micros")

    def __init__(self, sent, latency, status, malformed, failed, provider_answered, micros):
        self.sent, self.latency, self.status, self.malformed = sent, latency, status, malformed
        # failed: None, "busy" (the provider's admission: it did not wait) or "down" (any other error).
        self.provider_failed, self.provider_busy = failed == "down", failed == "busy"
        self.provider_answered, self.micros = provider_answered, micros


def check_answer(payload, typed, provider):
    """Returns (problem or None, provider failure (None, "busy" or "down"), provider answered?, micros) for one
    `GET /suggest` answer."""
    try:
        answer = json.loads(payload)
    except ValueError as error:
        return f"not JSON: {error}", None, False, None
    if not isinstance(answer, dict):
        return "not a JSON object", None, False, None
    if answer.get("text") != typed:
        return f"text {answer.get('text')!r}, typed {typed!r}", None, False, None
    suggestions = answer.get("suggestions")
    if not isinstance(suggestions, list) or not isinstance(answer.get("generation"), int):
        return "no suggestions list or no generation", None, False, None
    for s in suggestions:
        if not (isinstance(s, dict) and isinstance(s.get("text"), str) and isinstance(s.get("provider"), str)
                and isinstance(s.get("score"), (int, float))):
            return f"bad suggestion {s!r}", None, False, None
    errors = answer.get("errors", [])
    if not isinstance(errors, list) or not all(isinstance(e, str) for e in errors):
        return "bad errors list", None, False, None
    mine = [e for e in errors if provider is not None and e.startswith(provider + ":")]
    failed = None if not mine else "busy" if all(": database busy: " in e for e in mine) else "down"
    answered = provider is not None and any(
        s["provider"] == provider or provider in s.get("providers", ()) for s in suggestions)
    return None, failed, answered, answer.get("micros")


class Client:
    def __init__(self, port, index, users, rng, names, cumulative, total, provider, origin):
        self.port, self.index, self.rng = port, index, rng
        self.user = f"u{index % users}"
        self.names, self.cumulative, self.total = names, cumulative, total
        self.provider, self.origin = provider, origin
        self.think = 0.0
        self.keystrokes, self.errors, self.submits, self.problems = [], 0, 0, []

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
                typed = name[:i]
                query = urllib.parse.quote(typed, safe="")
                start = time.perf_counter()
                status, payload = await self.request("GET", f"/suggest?q={query}&session={session}&user={self.user}")
                latency = time.perf_counter() - start
                problem, failed, answered, micros = (
                    check_answer(payload, typed, self.provider) if status == 200 else (f"status {status}", None, False, None))
                if problem:
                    self.errors += 1
                    if len(self.problems) < 5:
                        self.problems.append(f"{typed!r}: {problem}: {payload[:200]!r}")
                self.keystrokes.append(Keystroke(start - self.origin, latency, status, problem is not None,
                                                 failed, answered, micros))
                if self.think:
                    await asyncio.sleep(self.think)
            else:
                status, _ = await self.request(
                    "POST", f"/submit?session={session}&user={self.user}", json.dumps({"text": name}).encode()
                )
                self.submits += 1
                if status != 200:
                    self.errors += 1
        self.writer.close()


async def run_command(command):
    """Runs a shell command off the event loop; returns its exit status."""
    process = await asyncio.create_subprocess_shell(command, cwd=ROOT)
    status = await process.wait()
    return status


async def fault(args, origin, events):
    """Stops the database --fault-at seconds in and starts it again --fault-for seconds later, noting the times."""

    async def step(action, sent, done):
        events[sent] = time.perf_counter() - origin
        status = await run_command(f"{args.pg_ctl} {action}")
        events[done] = time.perf_counter() - origin
        if status != 0:
            events["failure"] = f"{args.pg_ctl} {action}: exit status {status}"
        return status == 0

    await asyncio.sleep(args.fault_at)
    if await step("pause", "pause_sent", "paused"):
        await asyncio.sleep(args.fault_for)
        await step("resume", "resume_sent", "resumed")


async def load(port, args, names, cumulative, total, provider):
    deadline = time.monotonic() + args.seconds
    budget = [args.max_requests]
    origin = time.perf_counter()
    clients = [
        Client(port, i, args.users, random.Random(args.seed * 1000 + i), names, cumulative, total, provider, origin)
        for i in range(args.clients)
    ]
    for c in clients:
        c.think = args.think_ms / 1000
    events = {}
    tasks = [c.run(deadline, budget) for c in clients]
    if args.fault_at is not None:
        tasks.append(fault(args, origin, events))
    await asyncio.gather(*tasks)
    return clients, time.perf_counter() - origin, events


def ms(x):
    return f"{x * 1000:.2f} ms"


def summary(label, keystrokes, seconds, provider):
    latencies = sorted(k.latency for k in keystrokes)
    micros = sorted(k.micros for k in keystrokes if k.micros is not None)
    line = (f"{label}: {len(latencies)} keystrokes in {seconds:.1f} s, {len(latencies) / max(seconds, 1e-9):.0f}/s; "
            f"p50 {ms(percentile(latencies, 50))}, p90 {ms(percentile(latencies, 90))}, "
            f"p99 {ms(percentile(latencies, 99))}, max {ms(latencies[-1] if latencies else float('nan'))}; "
            f"engine micros p50 {percentile(micros, 50):.0f}, p99 {percentile(micros, 99):.0f}")
    if provider and keystrokes:
        failed = sum(k.provider_failed for k in keystrokes)
        busy = sum(k.provider_busy for k in keystrokes)
        answered = sum(k.provider_answered for k in keystrokes)
        n = len(keystrokes)
        line += (f"; {provider} answered {100 * answered / n:.1f} %, busy (did not wait) {100 * busy / n:.1f} %, "
                 f"failed {100 * failed / n:.1f} %, neither (no match or missed its deadline) "
                 f"{100 * (n - answered - busy - failed) / n:.1f} %")
    print(line)


def write_config(args):
    if args.config:
        return os.path.abspath(args.config), None
    config = os.path.join(DATA, "serve-load.suggest.json")
    if args.postgres:
        providers = [{"type": "recent"}, {"type": "postgres", "url": args.postgres, "table": args.table,
                                           "deadlineMilliseconds": args.deadline_ms,
                                           "maximumConnections": args.pg_connections}]
        if args.pg_queued is not None:
            providers[1]["maximumQueued"] = args.pg_queued
        provider = "postgres"
    else:
        providers = [{"type": "recent"}, {"type": "prefix", "dictionary": "pypi-names.tsv"},
                     {"type": "fuzzy", "dictionary": "pypi-names.tsv"}]
        provider = None
    with open(config, "w") as f:
        json.dump({"version": 1, "limit": 10, "providers": providers}, f)
    return config, provider


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build-server/release/suggest"))
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--max-requests", type=int, default=500_000)
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", help="run this configuration instead of the generated one")
    ap.add_argument("--postgres", metavar="URL", help="the postgres provider on this database instead of prefix+fuzzy")
    ap.add_argument("--table", default="pypi")
    ap.add_argument("--import", dest="import_names", action="store_true",
                    help="first import the names into --table (suggest import --postgres … --replace)")
    ap.add_argument("--deadline-ms", type=int, default=150)
    ap.add_argument("--pg-connections", type=int, default=4)
    ap.add_argument("--pg-queued", type=int, help="the provider's maximumQueued (default: its own)")
    ap.add_argument("--think-ms", type=float, default=0,
                    help="each client's pause between an answer and its next keystroke (0: type as fast as answered)")
    ap.add_argument("--fault-at", type=float, help="seconds into the load when the database is stopped")
    ap.add_argument("--fault-for", type=float, default=5, help="seconds the database stays down")
    ap.add_argument("--pg-ctl", default="bash .ci/postgres.sh", help="a command taking pause / resume")
    ap.add_argument("--timeline", action="store_true", help="print one line per second of the run")
    args = ap.parse_args()
    if not (1 <= args.clients <= 1024 and 0 < args.seconds <= 600):
        sys.exit("--clients 1...1024 and --seconds up to 600")
    if args.fault_at is not None and not args.postgres:
        sys.exit("--fault-at needs --postgres")
    if args.fault_at is not None and not (0 < args.fault_at and args.fault_at + args.fault_for < args.seconds):
        sys.exit("--fault-at S --fault-for D: 0 < S and S + D < --seconds")

    names_path = prepare_names()
    names, cumulative, total = read_names(names_path)
    if args.import_names:
        if not args.postgres:
            sys.exit("--import needs --postgres")
        subprocess.run([args.bin, "import", "--postgres", args.postgres, names_path, "--table", args.table,
                        "--replace"], check=True)
    config, provider = write_config(args)
    started = time.perf_counter()
    server = subprocess.Popen(
        [args.bin, "serve", "--config", config, "--port", "0", "--log-level", "warning",
         "--max-users", str(max(args.users, 1)), "--rate-limit", "0"],  # every simulated user is on 127.0.0.1
        stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            sys.exit(f"server did not start: {line!r}")
        port = int(line.rsplit(":", 1)[1])
        print(f"server ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        clients, elapsed, events = asyncio.run(load(port, args, names, cumulative, total, provider))
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=60)
    keystrokes = sorted((k for c in clients for k in c.keystrokes), key=lambda k: k.sent)
    errors = sum(c.errors for c in clients)
    submits = sum(c.submits for c in clients)
    print(f"clients {args.clients} (pause {args.think_ms:.0f} ms between keystrokes), users {args.users}, {elapsed:.1f} s: {len(keystrokes)} keystrokes, {submits} submits, "
          f"{errors} errors (malformed answers or statuses other than 200); "
          f"server exit status after SIGTERM {status}")
    for problem in [p for c in clients for p in c.problems][:10]:
        print(f"  problem: {problem}")
    summary("all", keystrokes, elapsed, provider)
    if args.timeline:
        for second in range(int(elapsed) + 1):
            bucket = [k for k in keystrokes if second <= k.sent < second + 1]
            if bucket:
                latencies = sorted(k.latency for k in bucket)
                line = f"  {second:3d} s: {len(bucket):6d} keystrokes, p50 {ms(percentile(latencies, 50))}, max {ms(latencies[-1])}"
                if provider:
                    line += (f", {provider} answered {sum(k.provider_answered for k in bucket):5d}, "
                             f"busy {sum(k.provider_busy for k in bucket):5d}, "
                             f"failed {sum(k.provider_failed for k in bucket):5d}")
                print(line)
    failure = events.get("failure")
    if args.fault_at is not None and not failure:
        paused, resumed = events["paused"], events["resumed"]
        print(f"fault: `{args.pg_ctl} pause` sent at {events['pause_sent']:.2f} s, database down at {paused:.2f} s; "
              f"`resume` sent at {events['resume_sent']:.2f} s, accepting connections at {resumed:.2f} s")
        before = [k for k in keystrokes if k.sent < events["pause_sent"]]
        outage = [k for k in keystrokes if events["pause_sent"] <= k.sent < resumed]
        after = [k for k in keystrokes if k.sent >= resumed]
        summary("before", before, events["pause_sent"], provider)
        summary("outage", outage, resumed - events["pause_sent"], provider)
        summary("after", after, elapsed - resumed, provider)
        first_failed = next((k for k in outage if k.provider_failed), None)
        if first_failed:
            print(f"first keystroke reporting {provider} failed: sent {first_failed.sent - paused:+.3f} s after the "
                  f"database was down")
        first_back = next((k for k in after if k.provider_answered), None)
        last_failed = max((k for k in after if k.provider_failed), key=lambda k: k.sent + k.latency, default=None)
        if first_back:
            print(f"recovery: first keystroke answered by {provider} was sent {first_back.sent - resumed:.3f} s "
                  f"after the database accepted connections again")
        else:
            print(f"recovery: {provider} never answered again")
            failure = "no recovery"
        if last_failed:
            print(f"last keystroke reporting {provider} failed: sent {last_failed.sent - resumed:.3f} s after it")
        else:
            print(f"no keystroke sent after the restart reported {provider} failed")
    if failure:
        print(f"fault run failed: {failure}")
    if errors or status != 0 or failure:
        sys.exit(1)


if __name__ == "__main__":
    main()
