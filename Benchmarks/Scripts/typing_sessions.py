#!/usr/bin/env python3
"""Typing sessions with real misspellings, as `suggest batch` input: one file per workload, every keystroke a line.

Usage: python3 Benchmarks/Scripts/typing_sessions.py [--n 1000] [--seed 1]
  Writes Benchmarks/.data/sessions/DATASET-KIND.jsonl (and the misspelling lists it needs) and prints their names.
  Needs Benchmarks/.data/words-200k.tsv, pypi-names.tsv and misspellings.tsv (made by quality-report.sh).
  The second misspelling list comes from nlpaug 1.1.11's wheel (PyPI), read as a zip without installing it.

Both the quality report's latency section (Benchmarks/Scripts/typing-latency.py) and the TypingSessions benchmark read
these files, so that the two measure the same keystrokes.

Misspelling sources (benchmark data only: never committed, never shipped)
--------------------------------------------------------------------------
- codespell: Benchmarks/.data/misspellings.tsv (codespell 2.4.3's list, a derivative of English Wikipedia's "Lists
  of common misspellings", CC BY-SA 3.0; prepared and filtered by quality-report.py).
- natural: Benchmarks/.data/misspellings-natural.tsv, from nlpaug 1.1.11 (MIT) `nlpaug/res/word/spelling/
  spelling_en.txt`, lines `right wrong1 wrong2 ...`, which nlpaug takes from Belinkov and Bisk's natural noise
  (misspellings people made, collected from corpora of corrected text: "Synthetic and Natural Noise Both Break
  Neural Machine Translation", ICLR 2018). Kept with the same filter as codespell's: both lowercase ASCII letters
  only, len(wrong) >= 5, right in the 200k word list, wrong NOT in it; one right per wrong (the first line's).
  Only 3,260 of its 25,885 pairs are also in codespell's list.

Workloads, for each dictionary (words: the 200k English words; pypi: the 886k PyPI names)
-----------------------------------------------------------------------------------------
- DATASET-typed: N targets drawn by weight (with replacement), typed letter by letter, submitted, reset.
- DATASET-misspelled-SOURCE: N misspellings typed letter by letter (every prefix a keystroke), then the correct
  target submitted (the person picked the correction) and a reset. For words, pairs are drawn by the weight of the
  right word. For PyPI, names are drawn by weight among the names with a word (a part between `-`, `_` and `.`) that
  the source misspells, and that word is replaced by one of its misspellings ("requests-oauthlib" ->
  "reqeusts-oauthlib").
- DATASET-backspace-SOURCE: the same misspelt targets, but the person notices: they type the misspelling up to 1-3
  letters past its first wrong letter (as far as it goes), backspace to just before the wrong letter (one keystroke
  per deleted letter), then type the rest of the right target; submit, reset.
Every keystroke is one `{"text": ...}` line; sessions are separated by `{"submit": ...}` and `{"reset": true}`.
"""
from __future__ import annotations

import argparse
import bisect
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import zipfile

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(SCRIPTS), ".data")
SESSIONS = os.path.join(DATA, "sessions")
NLPAUG = "nlpaug==1.1.11"
NLPAUG_FILE = "nlpaug/res/word/spelling/spelling_en.txt"
SOURCES = ("codespell", "natural")
LOWER = re.compile(r"[a-z]+\Z")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def read_weighted(path: str) -> list[tuple[str, int]]:
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            text, _, rest = line.rstrip("\n").partition("\t")
            weight = rest.split("\t", 1)[0]
            entries.append((text, int(weight) if weight else 1))
    return entries


def prepare_natural(path: str, words: set[str]) -> None:
    """Writes `wrong<TAB>right<TAB>held-out` lines from nlpaug's wheel (downloaded, not installed)."""
    if os.path.exists(path):
        return
    log(f"preparing {path} from {NLPAUG} ({NLPAUG_FILE}) ...")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", folder, NLPAUG],
                       check=True, stdout=sys.stderr)
        wheels = glob.glob(os.path.join(folder, "nlpaug-1.1.11-*.whl"))
        if not wheels:
            sys.exit(f"typing_sessions: no nlpaug 1.1.11 wheel in {folder}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            text = wheel.read(NLPAUG_FILE).decode("utf-8")
    out = []
    seen: set[str] = set()
    for line in text.splitlines():  # the file's lines end with CR LF
        fields = line.split(" ")
        right = fields[0]
        for wrong in fields[1:]:
            if wrong in seen or not LOWER.match(wrong) or not LOWER.match(right):
                continue
            if len(wrong) < 5 or right not in words or wrong in words:
                continue
            seen.add(wrong)
            out.append(f"{wrong}\t{right}\theld-out\n")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(out)
    os.replace(tmp, path)
    log(f"  {len(out)} pairs")


def read_pairs(path: str) -> list[tuple[str, str]]:
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2:
                pairs.append((fields[0], fields[1]))
    return pairs


class Drawer:
    """Draws items by weight, with replacement, reproducibly."""

    def __init__(self, items: list, weights: list[float], rng: random.Random):
        self.items = items
        self.cumulative = []
        total = 0.0
        for w in weights:
            total += max(w, 0)
            self.cumulative.append(total)
        self.total = total
        self.rng = rng

    def draw(self):
        x = self.rng.random() * self.total
        return self.items[min(len(self.items) - 1, bisect.bisect_right(self.cumulative, x))]


def typed_lines(text: str, submit: str) -> list[str]:
    lines = [json.dumps({"text": text[:i]}, ensure_ascii=False) for i in range(1, len(text) + 1)]
    return lines + [json.dumps({"submit": submit}, ensure_ascii=False), '{"reset":true}']


def backspace_lines(wrong: str, right: str, rng: random.Random) -> list[str]:
    """Types `wrong` a little past its first difference from `right`, deletes back to it, then types `right`."""
    first = 0
    while first < min(len(wrong), len(right)) and wrong[first] == right[first]:
        first += 1
    stop = min(len(wrong), first + rng.randint(1, 3))
    lines = [json.dumps({"text": wrong[:i]}, ensure_ascii=False) for i in range(1, stop + 1)]
    lines += [json.dumps({"text": wrong[:i]}, ensure_ascii=False) for i in range(stop - 1, first - 1, -1)]
    lines += [json.dumps({"text": right[:i]}, ensure_ascii=False) for i in range(first + 1, len(right) + 1)]
    return lines + [json.dumps({"submit": right}, ensure_ascii=False), '{"reset":true}']


SPLIT = re.compile(r"([-_.])")


def misspelt_targets(dataset: str, entries, pairs, n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(typed, meant) pairs: misspellings of words drawn by weight, or PyPI names with one word misspelt."""
    by_right: dict[str, list[str]] = {}
    for wrong, right in pairs:
        by_right.setdefault(right, []).append(wrong)
    weights = dict(entries)
    if dataset == "words":
        rights = [r for r in by_right if r in weights]
        drawer = Drawer(rights, [weights[r] for r in rights], rng)
        out = []
        for _ in range(n):
            right = drawer.draw()
            out.append((rng.choice(by_right[right]), right))
        return out
    names = []
    name_weights = []
    for name, weight in entries:
        parts = SPLIT.split(name)
        if any(p.lower() in by_right for p in parts[::2]):
            names.append(name)
            name_weights.append(weight)
    drawer = Drawer(names, name_weights, rng)
    out = []
    for _ in range(n):
        name = drawer.draw()
        parts = SPLIT.split(name)
        words = [i for i in range(0, len(parts), 2) if parts[i].lower() in by_right]
        i = rng.choice(words)
        parts[i] = rng.choice(by_right[parts[i].lower()])
        out.append(("".join(parts), name))
    return out


def write(path: str, lines: list[str]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--n", type=int, default=1000, help="sessions per workload (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(SESSIONS, exist_ok=True)
    dictionaries = {"words": os.path.join(DATA, "words-200k.tsv"), "pypi": os.path.join(DATA, "pypi-names.tsv")}
    for path in list(dictionaries.values()) + [os.path.join(DATA, "misspellings.tsv")]:
        if not os.path.exists(path):
            sys.exit(f"typing_sessions: {path} is missing: run `bash Benchmarks/Scripts/quality-report.sh` first")
    words = read_weighted(dictionaries["words"])
    natural = os.path.join(DATA, "misspellings-natural.tsv")
    prepare_natural(natural, {w for w, _ in words})
    sources = {"codespell": read_pairs(os.path.join(DATA, "misspellings.tsv")), "natural": read_pairs(natural)}
    for dataset, path in dictionaries.items():
        entries = words if dataset == "words" else read_weighted(path)
        rng = random.Random(f"{dataset}:typed:{args.seed}")
        drawer = Drawer([t for t, _ in entries], [w for _, w in entries], rng)
        lines = []
        for _ in range(args.n):
            target = drawer.draw()
            lines += typed_lines(target, target)
        out = os.path.join(SESSIONS, f"{dataset}-typed.jsonl")
        write(out, lines)
        print(out)
        for source, pairs in sources.items():
            rng = random.Random(f"{dataset}:{source}:{args.seed}")
            targets = misspelt_targets(dataset, entries, pairs, args.n, rng)
            misspelled = []
            backspaced = []
            for wrong, right in targets:
                misspelled += typed_lines(wrong, right)
                backspaced += backspace_lines(wrong, right, rng)
            for kind, lines in (("misspelled", misspelled), ("backspace", backspaced)):
                out = os.path.join(SESSIONS, f"{dataset}-{kind}-{source}.jsonl")
                write(out, lines)
                print(out)


if __name__ == "__main__":
    main()
