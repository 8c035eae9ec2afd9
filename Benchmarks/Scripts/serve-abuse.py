#!/usr/bin/env python3
"""`suggest serve` under abuse, as an operator would measure it: five runs of the release server on loopback, each
reported as one line with its figure and PASS/FAIL against its target.

1. abuse: the server under `ulimit -n 1024` (soft and hard, set before exec; so --max-connections is its default, 922)
   gets at once --idle idle sockets (2,000, from 127.0.0.3), --slowloris sockets sending a request head a byte a
   second (1,000, from 127.0.0.4), malformed requests in a loop (a space in the target, a raw 0xFF in the target,
   Transfer-Encoding with Content-Length, a 1 MB header line; from 127.0.0.5) and --heavy connections (32, from
   127.0.0.1) sending random 8-20-letter queries as fast as they are answered. An idle or slowloris socket that is
   answered or closed connects again a second later, so the attack lasts the whole run. Meanwhile a light client (its
   own process, address 127.0.0.2, user `light` through --insecure-user-parameter) types PyPI names, a keystroke
   every 100 ms on a kept-alive connection opened before the attack. Targets: the light client's p99 < 50 ms; every
   malformed request answered 4xx within the header timeout (a 503 at the connection cap is counted apart). The rate
   limit is the default (50/s, bursts of 100) unless --abuse-rate-limit says otherwise.
2. users: --users distinct users (100,000; `user=` on each keystroke, --keys-per-user keystrokes each, --max-users at
   its default 10,000 so they are evicted) against 1,000 users typing the same keystrokes: keystrokes/s within 20 %.
   --rate-limit 0 (all from one address), --connections keep-alive connections.
3. sigterm: 10,000 users each with a keystroke and a submit (--users-folder in a temporary folder), then SIGTERM: the
   process exits within 10 s with status 0.
4. flood: one WebSocket sends 20,000 keystroke messages (random 8-20 letters) without reading, then closes: the
   server's CPU time (utime+stime from /proc/PID/stat) stops growing within 1 s of the close (one tick of the
   sampling's resolution allowed: the idle server's own CPU over --idle-seconds before the flood is shown beside),
   and the keystrokes it computes (the fuzzy provider's count in GET /metrics) stop: at most 2 after the close (the
   one under way and the latest waiting), none from 3 s to 4 s after. --rate-limit 0 (the worst case: nothing paces
   the keystrokes).
5. rss: 36,000 WebSockets opened and closed in batches of --batch (each: handshake, one keystroke, its answer, close
   handshake), --rate-limit 0: the server's RSS at the start, its peak, and after a settle of --settle seconds
   (default 65: a closed WebSocket's cancelled ping timer frees its memory at its deadline, up to 30 s later, and the
   server's sweep, every 30 s, gives freed memory back to the system); target end within 10 % or 5 MB of the start,
   which is measured --start-settle seconds (default 35) after the server's first answer: after its first sweep, which
   returns what the start-up freed (measured 2 s after, the start held 200 MB of a settled 100 MB).
   With --rounds N the WebSockets are opened and closed N times on the same server, each round's end printed (memory
   the allocator keeps stays level from round to round; a leak grows); the target is then on the last round's end.

The server's configuration is recent + prefix + fuzzy over the 886k PyPI names (Benchmarks/.data/pypi-names.tsv,
never committed; --names another path), as Benchmarks/Scripts/serve-load.py uses. All clients run on the same machine
as the server (the light client in its own process), so they take CPU from it.

Usage: python3 Benchmarks/Scripts/serve-abuse.py [--bin .build-server-rel/release/suggest] [--names FILE]
           [--only abuse,users,sigterm,flood,rss] [--seconds 40] [--abuse-rate-limit 50] ...
Exit status 1 when any target fails.
"""
import argparse
import asyncio
import base64
import glob
import json
import os
import random
import resource
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LETTERS = "abcdefghijklmnopqrstuvwxyz"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))]


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14 and 15)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def open_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def read_names(path, count=None, seed=1):
    """The names of a names file (NAME<TAB>WEIGHT lines), or `count` of them drawn at random (the file is sorted)."""
    names = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            name = line.split("\t", 1)[0].strip()
            if name:
                names.append(name)
    if count and count < len(names):
        names = random.Random(seed).sample(names, count)
    return names


def random_query(rng):
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(8, 20)))


RESULTS = []  # (name, figure, target, passed)


def report(name, figure, target, passed):
    RESULTS.append((name, figure, target, passed))
    verdict = "PASS" if passed else "FAIL"
    print(f"[{verdict}] {name}: {figure} (target: {target})", flush=True)


def note(text):
    print(f"       {text}", flush=True)


# ---------------------------------------------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, args, extra, nofile=None, label="server"):
        self.args = args
        work = args.work
        os.makedirs(work, exist_ok=True)
        names = os.path.join(work, "names.tsv")
        if not os.path.exists(names):
            os.symlink(os.path.abspath(args.names), names)
        config = os.path.join(work, "abuse.suggest.json")
        with open(config, "w") as f:
            json.dump({"version": 1, "limit": 10, "providers": [
                {"type": "recent"},
                {"type": "prefix", "dictionary": "names.tsv", "index": "names.prefix.idx"},
                {"type": "fuzzy", "dictionary": "names.tsv"}]}, f)
        self.log_path = os.path.join(work, f"{label}.log")
        self.log = open(self.log_path, "w")

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        started = time.perf_counter()
        environment = dict(os.environ)
        environment.update(entry.split("=", 1) for entry in args.server_env)
        self.process = subprocess.Popen(
            [args.bin, "serve", "--config", config, "--port", "0", "--log-level", "warning"] + extra,
            stdout=subprocess.PIPE, stderr=self.log, text=True, preexec_fn=limit, env=environment)
        line = self.process.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            self.process.kill()
            sys.exit(f"server did not start: {line!r}; see {self.log_path}")
        self.port = int(line.rsplit(":", 1)[1])
        self.pid = self.process.pid
        print(f"  {label}: ready in {time.perf_counter() - started:.1f} s on port {self.port} "
              f"({' '.join(extra)}{' ulimit -n ' + str(nofile) if nofile else ''}); load average {loadavg()}",
              flush=True)

    def stop(self, timeout=60):
        """SIGTERM; returns (seconds to exit, exit status)."""
        if self.process.poll() is not None:
            return 0.0, self.process.returncode
        sent = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
            return float("inf"), status
        self.log.close()
        return time.perf_counter() - sent, status


# ---------------------------------------------------------------------------------------------------------------
# HTTP and WebSocket over plain sockets


async def connect(port, source, timeout=10):
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout)


async def read_response(reader):
    """(status, body) of one HTTP/1.1 answer; raises on EOF."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    body = await reader.readexactly(length) if length else b""
    return int(status_line.split()[1]), body


async def http(reader, writer, method, target, body=None):
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + (body or b""))
    return await read_response(reader)


def ws_frame(payload, opcode=0x1):
    """One masked client frame (FIN set)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


async def ws_read_frame(reader):
    """(opcode, payload) of one server frame (unmasked)."""
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", await reader.readexactly(8))[0]
    if b1 & 0x80:
        await reader.readexactly(4)
    return b0 & 0x0F, await reader.readexactly(n)


async def ws_open(port, source, target="/ws"):
    reader, writer = await connect(port, source)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    status_line = await reader.readline()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    if not status_line.startswith(b"HTTP/1.1 101"):
        writer.close()
        raise ConnectionError(f"upgrade refused: {status_line!r}")
    return reader, writer


# ---------------------------------------------------------------------------------------------------------------
# 1. abuse


def light_client_main(argv):
    """The light client, in its own process: a keystroke every 100 ms; prints JSON [[sent, latency, status], ...]."""
    port, source, seconds, names_path, seed = int(argv[0]), argv[1], float(argv[2]), argv[3], int(argv[4])
    names = read_names(names_path, 20000)
    rng = random.Random(seed)
    samples, reconnects = [], 0
    sock = None

    def open_socket():
        s = socket.socket()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.bind((source, 0))
        s.settimeout(15)
        s.connect(("127.0.0.1", port))
        return s, s.makefile("rb")

    start = time.monotonic()
    tick = 0
    name, i = rng.choice(names), 0
    while time.monotonic() - start < seconds:
        due = start + tick * 0.1
        tick += 1
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        i += 1
        if i > len(name):
            name, i = rng.choice(names), 1
        q = urllib.parse.quote(name[:i], safe="")
        request = f"GET /suggest?q={q}&session=light&user=light HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        sent_wall = time.time()
        t0 = time.perf_counter()
        status = 0
        try:
            if sock is None:
                sock, rfile = open_socket()
            sock.sendall(request)
            line = rfile.readline()
            if not line:
                raise ConnectionError("closed")
            status = int(line.split()[1])
            length, close = 0, False
            while True:
                header = rfile.readline()
                if header in (b"\r\n", b""):
                    break
                key, _, value = header.partition(b":")
                key = key.strip().lower()
                if key == b"content-length":
                    length = int(value)
                elif key == b"connection" and value.strip().lower() == b"close":
                    close = True
            rfile.read(length)
            if close:
                sock.close()
                sock = None
                reconnects += 1
        except (OSError, ValueError, IndexError) as error:
            status = f"error: {type(error).__name__}"
            if sock is not None:
                sock.close()
            sock = None
            reconnects += 1
        samples.append([sent_wall, time.perf_counter() - t0, status])
    print(json.dumps({"samples": samples, "reconnects": reconnects}))


class Tally:
    def __init__(self):
        self.outcomes = {}
        self.held = []  # seconds a socket was held before the server answered or closed it

    def add(self, outcome, held=None):
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if held is not None:
            self.held.append(held)

    def describe(self):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items(), key=lambda kv: -kv[1]))
        if self.held:
            h = sorted(self.held)
            parts += f"; held before that: median {statistics.median(h):.1f} s, max {h[-1]:.1f} s"
        return parts


def outcome_of(data):
    if not data:
        return "closed without an answer"
    if data.startswith(b"HTTP/1.1 "):
        return f"answered {data[9:12].decode(errors='replace')}"
    return "answered something else"


async def idle_socket(port, stop, tally):
    while not stop.is_set():
        started = time.monotonic()
        try:
            reader, writer = await connect(port, "127.0.0.3")
        except (OSError, asyncio.TimeoutError) as error:
            tally.add(f"connect failed ({type(error).__name__})")
            await asyncio.sleep(1)
            continue
        read = asyncio.ensure_future(reader.read(4096))
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait([read, stopped], return_when=asyncio.FIRST_COMPLETED)
        if read.done():
            try:
                data = read.result()
                tally.add(outcome_of(data), time.monotonic() - started)
            except OSError as error:
                tally.add(f"reset ({type(error).__name__})", time.monotonic() - started)
        else:
            read.cancel()
            tally.add("still held at the end")
        stopped.cancel()
        writer.close()
        if not stop.is_set():
            await asyncio.sleep(1)


async def slowloris_socket(port, stop, tally, rng):
    head = f"GET /suggest?q=slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".encode() + b"a" * 10000
    while not stop.is_set():
        started = time.monotonic()
        try:
            reader, writer = await connect(port, "127.0.0.4")
        except (OSError, asyncio.TimeoutError) as error:
            tally.add(f"connect failed ({type(error).__name__})")
            await asyncio.sleep(1)
            continue

        async def drip():
            await asyncio.sleep(rng.random())
            for byte in head:
                writer.write(bytes([byte]))
                await asyncio.sleep(1)

        sender = asyncio.ensure_future(drip())
        read = asyncio.ensure_future(reader.read(4096))
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait([read, stopped], return_when=asyncio.FIRST_COMPLETED)
        sender.cancel()
        if read.done():
            try:
                tally.add(outcome_of(read.result()), time.monotonic() - started)
            except OSError as error:
                tally.add(f"reset ({type(error).__name__})", time.monotonic() - started)
        else:
            read.cancel()
            tally.add("still held at the end")
        stopped.cancel()
        writer.close()
        if not stop.is_set():
            await asyncio.sleep(1)


MALFORMED = [
    ("space in the target", b"GET /suggest?q=a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    ("0xFF in the target", b"GET /suggest?q=\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    ("TE and CL", b"POST /submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"),
    ("1 MB header line", b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * (1 << 20) + b"\r\n\r\n"),
]


async def malformed_loop(port, stop, results, index, pause):
    k = index
    while not stop.is_set():
        kind, payload = MALFORMED[k % len(MALFORMED)]
        k += 1
        try:
            reader, writer = await connect(port, "127.0.0.5")
        except (OSError, asyncio.TimeoutError) as error:
            results.append((kind, f"connect failed ({type(error).__name__})", None))
            await asyncio.sleep(pause)
            continue
        started = time.perf_counter()
        writer.write(payload)
        try:
            line = await asyncio.wait_for(reader.readline(), 30)
            elapsed = time.perf_counter() - started
            outcome = f"{line[9:12].decode(errors='replace')}" if line.startswith(b"HTTP/1.1 ") else (
                "closed without an answer" if not line else "answered something else")
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
            elapsed = time.perf_counter() - started
            outcome = f"no answer ({type(error).__name__})"
        results.append((kind, outcome, elapsed))
        writer.close()
        await asyncio.sleep(pause)


async def heavy_connection(port, stop, tally, rng, index):
    reader = writer = None
    while not stop.is_set():
        try:
            if writer is None:
                reader, writer = await connect(port, "127.0.0.1")
            status, _ = await http(reader, writer, "GET", f"/suggest?q={random_query(rng)}&session=heavy{index}")
            tally.add(str(status))
            if status == 503:
                writer.close()
                writer = None
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError) as error:
            tally.add(f"connection lost ({type(error).__name__})")
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.1)
    if writer is not None:
        writer.close()


async def abuse_attack(server, args, light_started):
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    idle, slow, heavy = Tally(), Tally(), Tally()
    malformed = []
    fds = []

    async def sample_fds():
        while not stop.is_set():
            fds.append(open_fds(server.pid))
            await asyncio.sleep(0.5)

    # The light client alone first (its connection up, a baseline), then the attack: the heavy connections half a
    # second before the rest, so that they hold connections of their own.
    await asyncio.sleep(max(0.0, light_started + 1 + args.baseline - time.monotonic()))
    heavy_tasks = [asyncio.ensure_future(heavy_connection(server.port, stop, heavy, random.Random(args.seed + i), i))
                   for i in range(args.heavy)]
    await asyncio.sleep(0.5)
    attack_start = time.time()
    tasks = heavy_tasks + [asyncio.ensure_future(sample_fds())]
    tasks += [asyncio.ensure_future(idle_socket(server.port, stop, idle)) for _ in range(args.idle)]
    tasks += [asyncio.ensure_future(slowloris_socket(server.port, stop, slow, random.Random(args.seed * 7 + i)))
              for i in range(args.slowloris)]
    tasks += [asyncio.ensure_future(malformed_loop(server.port, stop, malformed, i, 0.02)) for i in range(4)]
    await asyncio.sleep(args.seconds)
    attack_end = time.time()
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return attack_start, attack_end, idle, slow, heavy, malformed, fds


def run_abuse(args):
    print(f"1. abuse ({args.seconds:.0f} s): load average {loadavg()}", flush=True)
    extra = ["--insecure-user-parameter"]
    if args.abuse_rate_limit is not None:
        extra += ["--rate-limit", str(args.abuse_rate_limit)]
    server = Server(args, extra, nofile=1024, label="abuse")
    header_timeout = 10.0
    light = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--light-client", str(server.port),
                              "127.0.0.2", str(args.baseline + args.seconds + 3), args.names, str(args.seed)],
                             stdout=subprocess.PIPE, text=True)
    light_started = time.monotonic()
    cpu_before = cpu_seconds(server.pid)
    attack_start, attack_end, idle, slow, heavy, malformed, fds = asyncio.run(abuse_attack(server, args, light_started))
    cpu_during = cpu_seconds(server.pid) - cpu_before
    out, _ = light.communicate(timeout=120)
    light_result = json.loads(out)
    # Health after the attack, from a fresh connection.
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            health = s.recv(4096).split(b"\r\n", 1)[0].decode()
    except OSError as error:
        health = f"no answer ({error})"
    seconds, status = server.stop()
    during = [s for s in light_result["samples"] if attack_start <= s[0] < attack_end]
    alone = sorted(s[1] for s in light_result["samples"] if s[0] < attack_start and s[2] == 200)
    ok = sorted(s[1] for s in during if s[2] == 200)
    failed = [s for s in during if s[2] != 200]
    p99 = percentile(ok, 99)
    note(f"light client alone before the attack ({len(alone)} keystrokes): p50 {percentile(alone, 50) * 1000:.1f} ms, "
         f"p99 {percentile(alone, 99) * 1000:.1f} ms")
    note(f"load average at the end {loadavg()}; server CPU {cpu_during:.1f} s in the run; server open files: "
         f"peak {max(fds) if fds else -1} (sampled every 0.5 s); after the attack GET /health: {health}; "
         f"SIGTERM: exit {status} in {seconds:.2f} s")
    report("abuse: light client p99 (127.0.0.2, a keystroke every 100 ms, during the attack)",
           f"p99 {p99 * 1000:.1f} ms, p50 {percentile(ok, 50) * 1000:.1f} ms, max {ok[-1] * 1000 if ok else float('nan'):.1f} ms "
           f"over {len(ok)} answered keystrokes; {len(failed)} not 200 "
           f"({', '.join(sorted(set(str(s[2]) for s in failed))) or 'none'}); reconnects {light_result['reconnects']}",
           "p99 < 50 ms, every keystroke 200", bool(ok) and p99 < 0.050 and not failed)
    by_kind = {}
    for kind, outcome, elapsed in malformed:
        by_kind.setdefault(kind, []).append((outcome, elapsed))
    passed_fourxx, slowest, lines = True, 0.0, []
    for kind, items in by_kind.items():
        counts = {}
        for outcome, elapsed in items:
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome.startswith("4") and elapsed is not None:
                slowest = max(slowest, elapsed)
                if elapsed > header_timeout:
                    passed_fourxx = False
            elif outcome != "503":
                passed_fourxx = False
        lines.append(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    answered_4xx = sum(1 for _, o, _ in malformed if o.startswith("4"))
    refused_503 = sum(1 for _, o, _ in malformed if o == "503")
    report("abuse: malformed requests",
           f"{len(malformed)} sent; {answered_4xx} answered 4xx, slowest {slowest * 1000:.1f} ms; {refused_503} "
           f"refused 503 at the connection cap; {len(malformed) - answered_4xx - refused_503} otherwise",
           "every one admitted answered 4xx within the header timeout (10 s); 503 at the cap counted apart",
           passed_fourxx and answered_4xx > 0)
    for line in lines:
        note(line)
    note(f"idle sockets ({args.idle}, reconnecting 1 s after each answer or close): {idle.describe()}")
    note(f"slowloris sockets ({args.slowloris}, a byte a second): {slow.describe()}")
    note(f"heavy connections ({args.heavy}, 127.0.0.1, anonymous): {heavy.describe()}")
    if status != 0:
        report("abuse: SIGTERM after the attack", f"exit status {status}", "0", False)


# ---------------------------------------------------------------------------------------------------------------
# 2. users


async def typing_run(port, plan, connections):
    """Sends every (user, text) of plan over `connections` kept-alive connections; returns (seconds, errors)."""
    position = [0]
    errors = [0]

    async def worker():
        reader, writer = await connect(port, "127.0.0.1")
        while position[0] < len(plan):
            user, text = plan[position[0]]
            position[0] += 1
            q = urllib.parse.quote(text, safe="")
            status, _ = await http(reader, writer, "GET", f"/suggest?q={q}&session={user}&user={user}")
            if status != 200:
                errors[0] += 1
        writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return time.perf_counter() - started, errors[0]


def run_users(args):
    print(f"2. users: load average {loadavg()}", flush=True)
    names = read_names(args.names, 200000)
    rng = random.Random(args.seed)
    picked = [rng.choice(names) for _ in range(args.users)]
    figures = {}
    for distinct in (1000, args.users):
        plan = []
        for k, name in enumerate(picked):
            user = f"u{k % distinct}"
            for i in range(1, args.keys_per_user + 1):
                plan.append((user, name[:i] if i <= len(name) else name + LETTERS[i % 26]))
        server = Server(args, ["--insecure-user-parameter", "--rate-limit", "0"], label=f"users-{distinct}")
        cpu0, client0 = cpu_seconds(server.pid), time.process_time()
        seconds, errors = asyncio.run(typing_run(server.port, plan, args.connections))
        cpu, client = cpu_seconds(server.pid) - cpu0, time.process_time() - client0
        rss = rss_mb(server.pid)
        exit_seconds, status = server.stop()
        figures[distinct] = len(plan) / seconds
        note(f"{distinct} users: {len(plan)} keystrokes in {seconds:.1f} s = {len(plan) / seconds:.0f}/s; server CPU "
             f"{cpu / len(plan) * 1e6:.0f} µs a keystroke ({cpu / seconds:.2f} cores), the client's "
             f"{client / len(plan) * 1e6:.0f} µs ({client / seconds:.2f} cores); {errors} not 200; RSS at the end {rss:.0f} MB; "
             f"SIGTERM: exit {status} in {exit_seconds:.2f} s; load average {loadavg()}")
    ratio = figures[args.users] / figures[1000]
    report(f"users: {args.users} distinct users against 1,000 (--max-users 10000, the default)",
           f"{figures[args.users]:.0f} against {figures[1000]:.0f} keystrokes/s ({(ratio - 1) * 100:+.1f} %)",
           "within 20 %", abs(ratio - 1) <= 0.20)


# ---------------------------------------------------------------------------------------------------------------
# 3. sigterm


async def submit_run(port, names, count, connections):
    position = [0]
    errors = [0]

    async def worker():
        reader, writer = await connect(port, "127.0.0.1")
        while position[0] < count:
            k = position[0]
            position[0] += 1
            user, name = f"u{k}", names[k % len(names)]
            q = urllib.parse.quote(name[:3], safe="")
            status, _ = await http(reader, writer, "GET", f"/suggest?q={q}&session={user}&user={user}")
            status2, _ = await http(reader, writer, "POST", f"/submit?session={user}&user={user}",
                                    json.dumps({"text": name}).encode())
            if status != 200 or status2 != 200:
                errors[0] += 1
        writer.close()

    await asyncio.gather(*(worker() for _ in range(connections)))
    return errors[0]


def run_sigterm(args):
    print(f"3. sigterm: load average {loadavg()}", flush=True)
    names = read_names(args.names, 50000)
    with tempfile.TemporaryDirectory(prefix="serve-abuse-users-") as folder:
        server = Server(args, ["--insecure-user-parameter", "--rate-limit", "0", "--users-folder", folder],
                        label="sigterm")
        started = time.perf_counter()
        errors = asyncio.run(submit_run(server.port, names, args.held_users, args.connections))
        fill = time.perf_counter() - started
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            health = b""
            while chunk := s.recv(4096):
                health += chunk
        health = health.split(b"\r\n\r\n", 1)[-1].decode()
        files_before = len(glob.glob(os.path.join(folder, "**", "*.json"), recursive=True))
        seconds, status = server.stop(timeout=120)
        files = len(glob.glob(os.path.join(folder, "**", "*.json"), recursive=True))
    note(f"{args.held_users} users, a keystroke and a submit each, in {fill:.1f} s ({errors} not 200); /health before "
         f"the signal: {health}; recents files: {files_before} before the signal, {files} after the exit")
    report(f"sigterm: SIGTERM with {args.held_users} users held (--users-folder)",
           f"exited in {seconds:.2f} s, status {status}", "within 10 s, status 0", seconds <= 10 and status == 0)


# ---------------------------------------------------------------------------------------------------------------
# 4. flood


async def computed_keystrokes(port):
    """How many keystrokes the fuzzy provider has answered (`suggest_provider_duration_count` from /metrics)."""
    reader, writer = await connect(port, "127.0.0.1")
    try:
        status, body = await http(reader, writer, "GET", "/metrics")
    finally:
        writer.close()
    if status != 200:
        raise SystemExit(f"GET /metrics answered {status}")
    total = 0
    for line in body.decode().splitlines():
        if line.startswith("suggest_provider_duration_count") and 'provider="fuzzy"' in line:
            total += int(float(line.rsplit(" ", 1)[1]))
    return total


async def cpu_growth(pid, seconds):
    """The server's CPU seconds over `seconds`, sampled every 20 ms: (growth, [(at, cpu)])."""
    start = time.perf_counter()
    first = cpu_seconds(pid)
    samples = []
    while time.perf_counter() - start < seconds:
        await asyncio.sleep(0.02)
        samples.append((time.perf_counter() - start, cpu_seconds(pid)))
    return samples[-1][1] - first, samples


async def flood_run(server, args):
    rng = random.Random(args.seed)
    reader, writer = await ws_open(server.port, "127.0.0.1")
    # What the server spends with nothing to do, over as long as the after-close window below (its timers: the
    # WebSocket's ping, the sweep every 30 s).
    await asyncio.sleep(1)
    idle, _ = await cpu_growth(server.pid, args.idle_seconds)
    frames = b"".join(ws_frame(json.dumps({"text": random_query(rng)}).encode()) for _ in range(args.flood))
    cpu_start = cpu_seconds(server.pid)
    started = time.perf_counter()
    writer.write(frames)
    try:
        await asyncio.wait_for(writer.drain(), 60)
        drained = True
    except asyncio.TimeoutError:
        drained = False
    sent = time.perf_counter() - started
    # The server reads the messages and works on them for a moment (latest wins: one keystroke at a time, the newest
    # waiting one replacing the others); answers pile up unread.
    cpu_written = cpu_seconds(server.pid)
    await asyncio.sleep(args.flood_for)
    # Closes without reading the answers (the unread answers make it a reset).
    writer.transport.abort()
    closed = time.perf_counter()
    cpu_close = cpu_seconds(server.pid)
    at_close = await computed_keystrokes(server.port)
    samples = []
    while time.perf_counter() - closed < 3:
        await asyncio.sleep(0.02)
        samples.append((time.perf_counter() - closed, cpu_seconds(server.pid)))
    # Read after the CPU samples, so that the scrape costs nothing inside them. At most the keystroke under way at
    # the close is finished after it (latest wins).
    computed = await computed_keystrokes(server.port)
    await asyncio.sleep(1)
    computed_later = await computed_keystrokes(server.port)
    return drained, sent, cpu_start, cpu_written, cpu_close, samples, idle, at_close, computed, computed_later


def run_flood(args):
    print(f"4. flood: load average {loadavg()}", flush=True)
    server = Server(args, ["--rate-limit", "0", "--metrics"], label="flood")
    drained, sent, cpu_start, cpu_written, cpu_close, samples, idle, at_close, computed, computed_later = asyncio.run(
        flood_run(server, args))
    at = lambda t: next((c for s, c in samples if s >= t), samples[-1][1])
    last_growth = 0.0
    previous = cpu_close
    for s, c in samples:
        if c > previous:
            last_growth = s
        previous = c
    after1 = samples[-1][1] - at(1.0)
    seconds, status = server.stop()
    note(f"{args.flood} messages written in {sent:.2f} s ({'all' if drained else 'not all'} taken by the server); "
         f"closed {args.flood_for:.1f} s later; server CPU from the first message to the close "
         f"{cpu_close - cpu_start:.2f} s ({cpu_close - cpu_written:.2f} s of it after the last was written); in the first second after the close "
         f"{at(1.0) - cpu_close:.2f} s; from 1 s to 3 s after it {after1:.2f} s; idle before the flood "
         f"{idle:.2f} CPU s in {args.idle_seconds:.0f} s; keystrokes computed: {at_close} at the close, "
         f"{computed} 3 s after it, {computed_later} 4 s after it; SIGTERM: exit {status}")
    # The flood's work is the keystrokes computed: at most the one under way and the one waiting (latest wins) after
    # the close, none later. The CPU must stop growing within 1 s of it, but for one tick (the sampling's resolution):
    # an idle server's own timers (the WebSocket ping, the sweep) take one now and then, as the idle figure shows.
    report(f"flood: CPU after a WebSocket flood of {args.flood} keystrokes closes",
           f"last CPU tick {last_growth * 1000:.0f} ms after the close (sampled every 20 ms, ticks of "
           f"{1000 / CLK_TCK:.0f} ms); {after1:.2f} CPU s from 1 s to 3 s after (idle: {idle:.2f} CPU s in "
           f"{args.idle_seconds:.0f} s); {computed - at_close} keystrokes computed after the close, "
           f"{computed_later - computed} from 3 s to 4 s after",
           "stops growing within 1 s",
           computed - at_close <= 2 and computed_later == computed
           and (last_growth <= 1.0 or after1 <= 1.0 / CLK_TCK + 1e-9))


# ---------------------------------------------------------------------------------------------------------------
# 5. rss


async def ws_once(port, source, text):
    reader, writer = await ws_open(port, source)
    writer.write(ws_frame(json.dumps({"text": text}).encode()))
    while True:
        opcode, _ = await ws_read_frame(reader)
        if opcode == 0x1:
            break
    writer.write(ws_frame(struct.pack("!H", 1000), opcode=0x8))
    try:
        while True:
            opcode, _ = await asyncio.wait_for(ws_read_frame(reader), 10)
            if opcode == 0x8:
                break
    except (asyncio.IncompleteReadError, OSError, asyncio.TimeoutError):
        pass
    writer.close()


async def rss_run(server, args, names):
    peak = [0.0]
    done = asyncio.Event()

    async def sampler():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(server.pid))
            await asyncio.sleep(0.2)

    await ws_once(server.port, "127.0.0.10", "py")
    # The start after the server's first sweep (every 30 s), which gives the memory freed at start-up (the index
    # build's working arrays) back to the system, as the end is measured after the sweeps that follow the last batch.
    await asyncio.sleep(args.start_settle)
    start = rss_mb(server.pid)
    sampling = asyncio.ensure_future(sampler())
    rng = random.Random(args.seed)
    failures, opened, progression = 0, 0, []
    started = time.perf_counter()
    while opened < args.websockets:
        batch = min(args.batch, args.websockets - opened)
        results = await asyncio.gather(*(
            ws_once(server.port, f"127.0.0.{10 + (opened + i) % 8}", rng.choice(names)[:rng.randint(1, 6)])
            for i in range(batch)), return_exceptions=True)
        failures += sum(1 for r in results if isinstance(r, BaseException))
        opened += batch
        if opened % 6000 < batch:
            progression.append((opened, rss_mb(server.pid)))
    elapsed = time.perf_counter() - started
    after_last = rss_mb(server.pid)
    await asyncio.sleep(args.settle)
    done.set()
    await sampling
    end = rss_mb(server.pid)
    return start, peak[0], after_last, end, failures, elapsed, progression


def run_rss(args):
    print(f"5. rss: load average {loadavg()}", flush=True)
    names = read_names(args.names, 20000)
    server = Server(args, ["--rate-limit", "0"], label="rss")
    start, peak, after_last, end, failures, elapsed, progression = asyncio.run(rss_run(server, args, names))
    # More rounds on the same server: memory that the allocator keeps stays level from round to round, a leak grows.
    if args.rounds > 1:
        note(f"round 1: peak {peak:.1f} MB, end {end:.1f} MB after {args.settle:.0f} s ({end - start:+.1f} MB on the start)")
    for number in range(2, args.rounds + 1):
        _, round_peak, _, round_end, round_failures, _, _ = asyncio.run(rss_run(server, args, names))
        failures += round_failures
        note(f"round {number}: {args.websockets} more WebSockets: peak {round_peak:.1f} MB, end {round_end:.1f} MB "
             f"after {args.settle:.0f} s ({round_end - end:+.1f} MB on the round before)")
        end = round_end
    seconds, status = server.stop()
    note(f"{args.websockets} WebSockets in batches of {args.batch} in {elapsed:.1f} s ({failures} failed); RSS right "
         f"after the last batch {after_last:.1f} MB; SIGTERM: exit {status}; load average {loadavg()}")
    note("RSS after each 6,000: " + ", ".join(f"{n}: {mb:.0f} MB" for n, mb in progression))
    rounds = f" {args.rounds} times" if args.rounds > 1 else ""
    report(f"rss: {args.websockets} WebSockets opened and closed{rounds}",
           f"start {start:.1f} MB, peak {peak:.1f} MB, end {end:.1f} MB after {args.settle:.0f} s "
           f"({end - start:+.1f} MB, {(end / start - 1) * 100:+.1f} %)",
           "end within 10 % or 5 MB of the start", failures == 0 and end - start <= max(0.10 * start, 5.0))


# ---------------------------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--light-client":
        light_client_main(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build-server-rel/release/suggest"))
    ap.add_argument("--names", default=os.path.join(ROOT, "Benchmarks/.data/pypi-names.tsv"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "serve-abuse"),
                    help="the configuration, the prefix index (kept between runs) and the servers' logs")
    ap.add_argument("--only", default="abuse,users,sigterm,flood,rss")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=40, help="abuse: length of the attack")
    ap.add_argument("--baseline", type=float, default=10, help="abuse: seconds of the light client alone first")
    ap.add_argument("--idle", type=int, default=2000)
    ap.add_argument("--slowloris", type=int, default=1000)
    ap.add_argument("--heavy", type=int, default=32)
    ap.add_argument("--abuse-rate-limit", type=float, help="abuse: the server's --rate-limit (default: its own, 50)")
    ap.add_argument("--users", type=int, default=100_000)
    ap.add_argument("--keys-per-user", type=int, default=3)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--held-users", type=int, default=10_000)
    ap.add_argument("--flood", type=int, default=20_000)
    ap.add_argument("--flood-for", type=float, default=0.5,
                    help="flood: seconds between the last message written and the close")
    ap.add_argument("--websockets", type=int, default=36_000)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=1,
                    help="rss: open and close --websockets this many times on one server (the target is on the last)")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the server (e.g. MALLOC_ARENA_MAX=2); repeatable")
    ap.add_argument("--settle", type=float, default=65)
    ap.add_argument("--start-settle", type=float, default=35,
                    help="rss: seconds between the server's first answer and the start's RSS (default 35: a sweep)")
    ap.add_argument("--idle-seconds", type=float, default=30,
                    help="flood: how long the server's idle CPU is measured before the flood (default 30: a sweep)")
    args = ap.parse_args()
    if not os.path.exists(args.names):
        sys.exit(f"no names at {args.names} (see Benchmarks/Scripts/serve-load.py; or --names FILE)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"serve-abuse: {args.bin}; {os.cpu_count()} cores; load average {loadavg()}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    runs = {"abuse": run_abuse, "users": run_users, "sigterm": run_sigterm, "flood": run_flood, "rss": run_rss}
    for name in args.only.split(","):
        runs[name.strip()](args)
    print(f"load average at the end {loadavg()}")
    failed = [r for r in RESULTS if not r[3]]
    print(f"{len(RESULTS) - len(failed)} of {len(RESULTS)} targets met")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
