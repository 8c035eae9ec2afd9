#!/usr/bin/env python3
"""The cost of `suggest batch`'s own work per line (reading, JSON parsing, answering, writing), outside the engine.

Runs `suggest batch` on 100,000 lines and reports (wall time - start-up time - sum of the answers' `micros`) / lines,
the minimum and median over --runs runs. The start-up time is that of the same command on empty input. Two inputs:
  reset: 100,000 `{"reset":true}` lines (the fixture configuration Tests/SuggestCLITests/Fixtures/fruits.suggest.json);
  text:  100,000 `text` lines, words typed letter by letter, `{"reset":true}` between words (a prefix provider on
         Benchmarks/.data/words-200k.tsv, made by Benchmarks/Scripts/quality-report.sh: 10 suggestions per answer).
Answers go to a file. Several binaries (comma-separated --bin) run in turn, round by round, so that they share the
machine's load.

Usage: python3 Benchmarks/Scripts/batch-io.py --bin .build/release/suggest[,OTHER] [--runs 5] [--input reset,text]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINES = 100_000


def make_inputs(folder: str, words_path: str) -> dict:
    reset = os.path.join(folder, "reset.jsonl")
    with open(reset, "w") as f:
        f.write('{"reset":true}\n' * LINES)
    inputs = {"reset": (reset, os.path.join(ROOT, "Tests/SuggestCLITests/Fixtures/fruits.suggest.json"))}
    if os.path.exists(words_path):
        with open(words_path, encoding="utf-8") as f:
            words = [line.split("\t", 1)[0] for _, line in zip(range(5000), f)]
        rng = random.Random(7)
        lines = []
        while len(lines) < LINES:
            word = rng.choice(words)
            lines += [json.dumps({"text": word[:i]}, ensure_ascii=False) for i in range(1, len(word) + 1)]
            lines.append('{"reset":true}')
        text = os.path.join(folder, "text.jsonl")
        with open(text, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:LINES]) + "\n")
        config = os.path.join(folder, "words-prefix.suggest.json")
        with open(config, "w") as f:
            json.dump({"version": 1, "limit": 10, "providers": [{"type": "prefix", "dictionary": words_path}]}, f)
        inputs["text"] = (text, config)
    else:
        print(f"{words_path} is missing (bash Benchmarks/Scripts/quality-report.sh makes it): no text input",
              file=sys.stderr)
    return inputs


def run(binary: str, config: str, path: str, out: str) -> float:
    with open(path, "rb") as stdin, open(out, "wb") as stdout:
        start = time.perf_counter()
        subprocess.run([binary, "batch", "--config", config], stdin=stdin, stdout=stdout, check=True)
        return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="comma-separated suggest binaries")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--input", default="reset,text")
    args = ap.parse_args()
    binaries = args.bin.split(",")
    with tempfile.TemporaryDirectory() as folder:
        inputs = make_inputs(folder, os.path.join(ROOT, "Benchmarks/.data/words-200k.tsv"))
        empty = os.path.join(folder, "empty.jsonl")
        open(empty, "w").close()
        out = os.path.join(folder, "out.jsonl")
        for name in args.input.split(","):
            if name not in inputs:
                continue
            path, config = inputs[name]
            results = {b: [] for b in binaries}
            for _ in range(args.runs):
                for binary in binaries:
                    startup = run(binary, config, empty, out)
                    wall = run(binary, config, path, out)
                    with open(out, "rb") as f:
                        answers = [json.loads(line) for line in f]
                    assert len(answers) == LINES, f"{len(answers)} answers"
                    micros = sum(a.get("micros", 0) for a in answers)
                    results[binary].append(((wall - startup) * 1e6 - micros) / LINES)
            for binary, values in results.items():
                print(f"{name}: {binary}: µs per line outside the engine: min {min(values):.2f}, "
                      f"median {statistics.median(values):.2f} ({args.runs} runs of {LINES:,} lines)")
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
