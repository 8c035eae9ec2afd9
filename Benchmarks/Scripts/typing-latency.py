#!/usr/bin/env python3
"""Per-keystroke latency of typing sessions through `suggest batch`, and where the slow keystrokes spent their time.

Usage: python3 Benchmarks/Scripts/typing-latency.py --bin PATH/suggest [--sessions GLOB] [--slow MICROS]
           [--provider-extra JSON] [--fuzzy-extra JSON] [--runs K] [--keystroke-min] [--against PATH/suggest]
           [--against-fuzzy-extra JSON] [--save-slow DIR] [--examples K] [--plain]
  Sessions: the files Benchmarks/Scripts/typing_sessions.py writes (Benchmarks/.data/sessions/*.jsonl; made first
  when missing). Each file is typed by one `suggest batch --diagnostics` process with the configuration
  `{"version":1,"limit":10,"providers":[{"type":"recent"},{"type":"prefix","dictionary":D},
  {"type":"fuzzy","dictionary":D,"profile":true}]}` (D: the file's dictionary; `--provider-extra` is merged into
  the prefix and fuzzy entries, `--fuzzy-extra` into the fuzzy entry only), so that recent searches fill up as the sessions submit.

For each workload: keystrokes, p50 / p90 / p99 / p99.9 / max of the engine's `micros` (nearest rank), their sum
(with `--keystroke-min`, of each keystroke's fastest run: steadier than a percentile from one comparison to the next),
the share of keystrokes over `--slow` (default 500 µs), and for those slow keystrokes the time by provider and, inside the fuzzy
provider, by step (the provider's `profile` note: the typo walk, the tiers, wrong first letters, abbreviations,
whole words), with trie nodes walked; the work of every keystroke by step (trie nodes walked or keys scanned, and
how many steps did over 4,000: a count that does not depend on the machine's noise); then the slowest texts. With `--runs K` each file is typed K times and the
run with the median p99 is reported (the machine's noise shows in the spread, printed too).

`--keystroke-min` (with `--runs K`): each keystroke's fastest of the K runs instead (its answer and profile from
that run): on a machine whose speed drifts from one run to the next, what the code costs without the interruptions.
`--against OTHER`: a second binary typing every file too, its runs alternating with `--bin`'s (each build first in
every other round), reported on the next line (`(against)` after the name): a before/after comparison in which both
builds see the same drift. Both builds
get the same configuration, so both must accept `--diagnostics` and `"profile"` unless `--plain` is given; with
`--against-fuzzy-extra JSON` (merged into the fuzzy entry after `--fuzzy-extra`) the second line is a configuration
rather than a build (`--against` then defaults to `--bin`).
`--save-slow DIR`: writes DIR/NAME.jsonl for each file, its sessions (the lines up to each `reset`) that hold a
keystroke over `--slow` in `--bin`'s first run: a smaller file of the costly sessions, for `--runs 8` comparisons.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(SCRIPTS), ".data")
STEP = re.compile(r"([a-z-]+) ([0-9.]+) µs(?: ([0-9]+) (nodes|keys))?")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = max(0, min(len(sorted_values) - 1, -(-int(q * len(sorted_values) * 1000) // 1000) - 1))
    return sorted_values[index]


def configuration(dictionary: str, extra: dict, fuzzy_extra: dict, profile: bool) -> str:
    prefix = {"type": "prefix", "dictionary": dictionary, **extra}
    fuzzy = {"type": "fuzzy", "dictionary": dictionary, **({"profile": True} if profile else {}), **extra,
             **fuzzy_extra}
    config = {"version": 1, "limit": 10, "providers": [{"type": "recent"}, prefix, fuzzy]}
    handle, path = tempfile.mkstemp(suffix=".suggest.json", dir=DATA)
    with os.fdopen(handle, "w") as f:
        json.dump(config, f)
    return path


def run(binary: str, config: str, sessions: str, plain: bool) -> list[dict]:
    """Every keystroke's answer: text, micros, providers' micros, the fuzzy steps."""
    with open(sessions, "rb") as stdin:
        done = subprocess.run([binary, "batch", *([] if plain else ["--diagnostics"]), "--config", config], stdin=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        sys.exit(f"typing-latency: suggest batch failed on {sessions}: {done.stderr.decode(errors='replace')}")
    keystrokes = []
    for number, line in enumerate(done.stdout.splitlines()):
        answer = json.loads(line)
        if "micros" not in answer:
            continue
        steps = {}
        for note in answer.get("notes", []):
            if ": steps: " in note:
                for name, micros, work, _ in STEP.findall(note):
                    steps[name] = (float(micros), int(work or 0))
        providers = answer.get("timings", {})
        keystrokes.append({"text": answer["text"], "micros": answer["micros"], "providers": providers,
                           "steps": steps, "line": number})
    return keystrokes


def save_slow(sessions: str, keystrokes: list[dict], slow: float, directory: str) -> int:
    """Writes the sessions of `sessions` (its lines up to each `reset`) that hold a keystroke over `slow` to
    `directory`, under the same name; returns how many."""
    slow_lines = {k["line"] for k in keystrokes if k["micros"] > slow}
    kept, current, has_slow = [], [], False
    with open(sessions, encoding="utf-8") as f:
        for number, line in enumerate(f):
            current.append(line if line.endswith("\n") else line + "\n")
            has_slow = has_slow or number in slow_lines
            if '"reset"' in line:
                if has_slow:
                    kept.append("".join(current))
                current, has_slow = [], False
    if has_slow:
        kept.append("".join(current))
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, os.path.basename(sessions)), "w", encoding="utf-8") as f:
        f.write("".join(kept))
    return len(kept)


def report(name: str, keystrokes: list[dict], slow: float, examples: int, spread: list[float]) -> list[str]:
    values = sorted(k["micros"] for k in keystrokes)
    slow_ones = [k for k in keystrokes if k["micros"] > slow]
    line = (f"| {name} | {len(values):,} | {percentile(values, 0.5):.0f} | {percentile(values, 0.9):.0f} | "
            f"{percentile(values, 0.99):.0f} | {percentile(values, 0.999):.0f} | {values[-1]:.0f} | "
            f"{sum(values) / 1000:,.1f} | {len(slow_ones) / max(1, len(values)):.2%} |")
    if len(spread) > 1:
        line += " " + " / ".join(f"{p:.0f}" for p in spread) + " |"
    out = [line, f"- **{name}**"]
    if slow_ones:
        total = sum(k["micros"] for k in slow_ones)
        by_provider: dict[str, float] = {}
        by_step: dict[str, list[float]] = {}
        for k in slow_ones:
            for provider, micros in k["providers"].items():
                by_provider[provider] = by_provider.get(provider, 0) + micros
            for step, (micros, work) in k["steps"].items():
                entry = by_step.setdefault(step, [0.0, 0])
                entry[0] += micros
                entry[1] += work
        parts = [f"{p} {v / total:.0%}" for p, v in sorted(by_provider.items(), key=lambda x: -x[1])]
        steps = [f"{s} {v[0] / total:.0%}" + (f" ({v[1] / len(slow_ones):,.0f} per keystroke)" if v[1] else "")
                 for s, v in sorted(by_step.items(), key=lambda x: -x[1][0])]
        out.append(f"  - over {slow:.0f} µs: {len(slow_ones)} keystrokes; time by provider: {', '.join(parts)}; "
                   f"fuzzy steps: {', '.join(steps)}")
    # The profile's work over every keystroke: trie nodes walked or keys scanned per step, and how many of the
    # steps did over 4,000 (the walks and scans that make the tail).
    work: dict[str, list[int]] = {}
    for k in keystrokes:
        for step, (_, amount) in k["steps"].items():
            entry = work.setdefault(step, [0, 0])
            entry[0] += amount
            entry[1] += 1 if amount > 4000 else 0
    if any(v[0] for v in work.values()):
        out.append("  - work over all keystrokes (over 4,000 in brackets): " + ", ".join(
            f"{s} {v[0]:,} ({v[1]})" for s, v in sorted(work.items()) if v[0]))
    slowest = sorted(keystrokes, key=lambda k: -k["micros"])[:examples]
    if slowest:
        out.append("  - slowest: " + ", ".join(f"`{k['text']}` {k['micros']:.0f} µs" for k in slowest))
    return out


def fastest_each(runs: list[list[dict]]) -> list[dict]:
    """Each keystroke's record from the run in which it was fastest (the runs type the same lines)."""
    if len({len(r) for r in runs}) != 1:
        sys.exit("typing-latency: the runs of one file answered different numbers of keystrokes")
    return [min(records, key=lambda k: k["micros"]) for records in zip(*runs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--sessions", default=os.path.join(DATA, "sessions", "*.jsonl"))
    parser.add_argument("--slow", type=float, default=500)
    parser.add_argument("--provider-extra", default="{}")
    parser.add_argument("--fuzzy-extra", default="{}")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keystroke-min", action="store_true",
                        help="with --runs K: each keystroke's fastest run, instead of the run with the median p99")
    parser.add_argument("--against", help="a second suggest binary, typed alternately with --bin")
    parser.add_argument("--against-fuzzy-extra", help="JSON merged into the second line's fuzzy entry")
    parser.add_argument("--save-slow", metavar="DIR",
                        help="write each file's sessions that hold a keystroke over --slow to DIR")
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--plain", action="store_true",
                        help="no --diagnostics and no profile (for a build that has neither): latency only")
    args = parser.parse_args()
    files = sorted(glob.glob(args.sessions))
    if not files:
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "typing_sessions.py")], check=True,
                       stdout=subprocess.DEVNULL)
        files = sorted(glob.glob(args.sessions))
    extra = json.loads(args.provider_extra)
    fuzzy_extra = json.loads(args.fuzzy_extra)
    # Each line of the table: a label, a binary and the fuzzy entry's extras.
    lines_typed = [("", args.bin, fuzzy_extra)]
    if args.against or args.against_fuzzy_extra:
        against_extra = {**fuzzy_extra, **json.loads(args.against_fuzzy_extra or "{}")}
        lines_typed.append((" (against)", args.against or args.bin, against_extra))
    configs = {
        (dataset, label): configuration(os.path.join(DATA, dictionary), extra, fuzzy, not args.plain)
        for label, _, fuzzy in lines_typed
        for dataset, dictionary in (("words", "words-200k.tsv"), ("pypi", "pypi-names.tsv"))
    }
    header = "| workload | keystrokes | p50 µs | p90 µs | p99 µs | p99.9 µs | max µs | total ms | over slow |"
    if args.runs > 1:
        header += " p99 of each run |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    details = []
    try:
        for path in files:
            name = os.path.basename(path).removesuffix(".jsonl")
            dataset = name.split("-", 1)[0]
            # The builds' runs alternate, each going first in every other round (A B, B A, A B, ...), so that a
            # drift of the machine's speed, or an advantage of the first or second place in a round, falls on both.
            runs: dict[str, list[list[dict]]] = {label: [] for label, _, _ in lines_typed}
            for number in range(args.runs):
                for label, binary, _ in (lines_typed if number % 2 == 0 else lines_typed[::-1]):
                    runs[label].append(run(binary, configs[(dataset, label)], path, args.plain))
            if args.save_slow:
                saved = save_slow(path, runs[""][0], args.slow, args.save_slow)
                print(f"typing-latency: {saved} sessions of {name} saved to {args.save_slow}", file=sys.stderr)
            for label, _, _ in lines_typed:
                typed = runs[label]
                p99s = [percentile(sorted(k["micros"] for k in r), 0.99) for r in typed]
                if args.keystroke_min and len(typed) > 1:
                    chosen = fastest_each(typed)
                else:
                    chosen = typed[sorted(range(len(typed)), key=lambda i: p99s[i])[len(typed) // 2]]
                lines = report(name + label, chosen, args.slow, args.examples, p99s)
                print(lines[0], flush=True)
                details += lines[1:]
        print()
        print("\n".join(details))
    finally:
        for path in configs.values():
            os.unlink(path)


if __name__ == "__main__":
    main()
