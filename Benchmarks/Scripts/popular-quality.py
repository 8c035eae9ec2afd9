#!/usr/bin/env python3
"""Popular searches from a cold start: how close does learning from everyone's searches bring a dictionary that
knows nothing about popularity to the ideal list?

Usage:

    python3 Benchmarks/Scripts/popular-quality.py --bin PATH/suggest [--submits 20000] [--users 1000]
        [--n 2000] [--seed 1] [--min-users 5] [--capacity 10000]

Needs Benchmarks/.data/words-200k.tsv (made by `bash Benchmarks/Scripts/quality-report.sh`; its sources and
licence: quality-report.py's docstring). Python 3.11 standard library only; reuses quality-report.py's folding,
ideal list, `suggest batch` runner and metrics. Everything generated lives in Benchmarks/.data/ (git-ignored).

The scenario
------------
1. The cold dictionary: the 200k words with every weight 1 (words-200k-cold.tsv): the prefix provider can only
   order completions by its tiebreaks (shorter, then alphabetical).
2. The log: `--submits` searches, each a word drawn by its TRUE weight (random.Random(f"popular-log:{seed}")) made by
   one of `--users` people drawn uniformly. `suggest popular record --config popular-record.suggest.json` counts it
   into popular-cold.json (every search had results; minUsers and capacity from --min-users and --capacity, the
   provider's defaults 5 and 10,000; half-life 14 days).
3. The engine: `{"version":1,"limit":10,"providers":[{"type":"popular","store":"popular-cold.json","minUsers":M},
   {"type":"prefix","dictionary":"words-200k-cold.tsv"}]}`; the baseline is the same without the popular provider.
4. The sessions: `--n` targets drawn by true weight with another generator (random.Random(f"popular-eval:{seed}")),
   each typed letter by letter through `suggest batch` (`{"text":""}`, then every prefix, then `{"reset":true}`;
   nothing submitted), as quality-report.py does.

Metrics: KSR@5 as in quality-report.py (a target of length L costs min(i* + 1, L) keystrokes where i* is the first
i at which it is among the first 5 suggestions, L when it never is). The headline counts only typed text (i >= 1):
the ideal list is empty on an empty field, and the popular provider's "Popular" section there would otherwise earn
it keystrokes the ideal list cannot. The figure with the empty field counted is printed too.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("quality_report", os.path.join(HERE, "quality-report.py"))
qr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qr)

DATA = qr.DATA
WORDS = os.path.join(DATA, "words-200k.tsv")


def evaluate(binary: str, config: str, targets: list[str], ideal: "qr.Ideal", name: str):
    """Types every target through `suggest batch --config config`; returns (engine typed-only, engine with the
    empty field, ideal) Scores and the problems seen."""
    requests: list[dict] = []
    for t in targets:
        requests.append({"text": ""})
        for i in range(1, len(t) + 1):
            requests.append({"text": t[:i]})
        requests.append({"reset": True})
    run = qr.BatchRun(binary, config, requests, os.path.join(DATA, f"popular-{name}.stderr"))
    typed, with_empty, best = qr.Scores(), qr.Scores(), qr.Scores()
    problems = qr.Problems()
    answers = run.answers()
    for t in targets:
        lists, ideal_lists = [], []
        for _ in range(len(t) + 2):
            req, ans = next(answers)
            sugg = problems.check(req, ans)
            if sugg is None:
                continue
            lists.append([qr.fold(str(s.get("text", ""))) for s in sugg])
            ideal_lists.append(ideal.top(req["text"]))
        if len(lists) != len(t) + 1:
            lists = (lists + [[]] * (len(t) + 1))[: len(t) + 1]
            ideal_lists = [ideal.top(t[:i]) for i in range(len(t) + 1)]
        with_empty.add_target(t, lists)
        typed.add_target(t, [[]] + lists[1:])
        best.add_target(t, ideal_lists)
    for _ in answers:
        pass
    if run.proc.returncode != 0:
        problems.note(f"suggest batch exited with status {run.proc.returncode}: {run.stderr_text()[:500]}")
    return typed, with_empty, best, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the suggest binary")
    ap.add_argument("--submits", type=int, default=20_000)
    ap.add_argument("--users", type=int, default=1_000)
    ap.add_argument("--n", type=int, default=2000, help="targets typed (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-users", type=int, default=5)
    ap.add_argument("--capacity", type=int, default=10_000)
    args = ap.parse_args()
    if not os.path.exists(WORDS):
        print(f"{WORDS} is missing: run `bash Benchmarks/Scripts/quality-report.sh` once", file=sys.stderr)
        return 1
    entries = [(t, w) for t, w in qr.read_tsv(WORDS) if qr.fold(t)]
    texts = [t for t, _ in entries]
    weights = [w for _, w in entries]

    cold = os.path.join(DATA, "words-200k-cold.tsv")
    qr.write_atomic(cold, (f"{t}\t1\n" for t in texts))

    rng = random.Random(f"popular-log:{args.seed}")
    log_lines = [f"user{rng.randrange(args.users)}\t{w}\n" for w in rng.choices(texts, weights=weights, k=args.submits)]
    log_path = os.path.join(DATA, "popular-log.tsv")
    qr.write_atomic(log_path, log_lines)
    store = os.path.join(DATA, "popular-cold.json")
    if os.path.exists(store):
        os.remove(store)
    record_config = os.path.join(DATA, "popular-record.suggest.json")
    qr.write_atomic(record_config, [json.dumps({"version": 1, "providers": [
        {"type": "popular", "store": "popular-cold.json", "minUsers": args.min_users, "capacity": args.capacity}]})
        + "\n"])
    started = time.monotonic()
    with open(log_path, "rb") as log_in:
        recorded = subprocess.run([args.bin, "popular", "record", "--config", record_config], stdin=log_in,
                                  capture_output=True, text=True)
    if recorded.returncode != 0:
        print(f"suggest popular record failed: {recorded.stderr}", file=sys.stderr)
        return 1
    record_seconds = time.monotonic() - started
    qr.log(f"recorded {args.submits} searches by {args.users} people in {record_seconds:.1f} s: "
           f"{recorded.stderr.strip()}")

    configs = {}
    for name, providers in {
        "cold": [{"type": "prefix", "dictionary": "words-200k-cold.tsv"}],
        "popular": [{"type": "popular", "store": "popular-cold.json", "minUsers": args.min_users,
                     "capacity": args.capacity},
                    {"type": "prefix", "dictionary": "words-200k-cold.tsv"}],
    }.items():
        path = os.path.join(DATA, f"popular-{name}.suggest.json")
        qr.write_atomic(path, [json.dumps({"version": 1, "limit": qr.LIMIT, "providers": providers}) + "\n"])
        configs[name] = path

    ideal = qr.Ideal(entries)
    eval_rng = random.Random(f"popular-eval:{args.seed}")
    targets = eval_rng.choices(texts, weights=weights, k=args.n)
    results = {}
    for name, config in configs.items():
        qr.log(f"{name}: typing {args.n} targets through {args.bin} batch --config {config}")
        results[name] = evaluate(args.bin, config, targets, ideal, name)

    def pts(x: float) -> str:
        return f"{x * 100:.2f}"

    ideal_ksr = results["popular"][2].ksr()
    today = datetime.date.today().isoformat()
    out = [
        f"# Popular searches from a cold dictionary ({today})",
        "",
        f"`python3 Benchmarks/Scripts/popular-quality.py --bin PATH/suggest --submits {args.submits} "
        f"--users {args.users} --n {args.n} --seed {args.seed} --min-users {args.min_users} "
        f"--capacity {args.capacity}`",
        "",
        f"Log: {recorded.stderr.strip()} ({record_seconds:.1f} s).",
        "",
        "| list | KSR@5, typed text (points) | difference to ideal | KSR@5 with the empty field |",
        "|---|---|---|---|",
    ]
    for label, key in (("cold dictionary alone", "cold"), ("cold dictionary + popular", "popular")):
        typed, with_empty, _, problems = results[key]
        out.append(f"| {label} | {pts(typed.ksr())} | {pts(typed.ksr() - ideal_ksr)} | {pts(with_empty.ksr())} |")
        if problems.error_answers + problems.provider_errors + problems.missing_answers + problems.mismatched:
            out.append(f"|   problems ({label}) | {problems.summary()} | | |")
    out.append(f"| ideal (true weights) | {pts(ideal_ksr)} | 0.00 | {pts(ideal_ksr)} |")
    report = "\n".join(out) + "\n"
    qr.write_atomic(os.path.join(DATA, "popular-quality.md"), [report])
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
