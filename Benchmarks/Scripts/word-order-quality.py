#!/usr/bin/env python3
"""Recall when people type the words of a name in another order, or only the first letters of each word.

Usage: python3 Benchmarks/Scripts/word-order-quality.py --bin PATH/suggest [--n 2000] [--seed 1] [--letters 3]
           [--provider-extra JSON] [--fuzzy-alone] [--at 5]
  Data: Benchmarks/.data/pypi-names.tsv and Benchmarks/.data/words-200k.tsv (made by quality-report.sh).

For each list, N targets are drawn by weight (with a fixed seed) among the entries of two or more words (words: split
at separators, as the index does; the word list has almost none, so it is reported for what it has). Two sessions per
target, each typed letter by letter through one `suggest batch` process with recent + prefix + fuzzy (limit 10, the
quality report's configuration; with `--fuzzy-alone`, the fuzzy provider alone; nothing is submitted):
  - out of order: the target's words in another order (a fixed random permutation that is not the identity), joined
    by spaces: `django-rest-framework` → `framework django rest`;
  - first letters: the first `--letters` letters of each word, in order, joined by spaces: `dja res fra`;
  - out of order, one typo: the out-of-order text with one typo in its longest word of 4 letters or more (targets
    without one are left out), never in the first letter: a letter left out, doubled, replaced by another, or two
    neighbours swapped, drawn with a second random stream (seed + 1), so the other sessions stay the same:
    `framwork django rest`;
  - in order, an inner word left out, one typo: targets of three words or more, in order, one word that is neither
    the first nor the last left out and one typo (as above) in the longest word left, drawn with a third random
    stream (seed + 2): `djnago framework`.
recall@5: the share of targets that are among the first five suggestions (with `--at K`, the first K: 10 for the
whole list; compared folded: case and separators do not count) at some keystroke before the session's last one,
and at its last one.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import re
import subprocess
import tempfile

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(SCRIPTS), ".data")
SEPARATORS = re.compile(r"[\s\-_./:,;]+")


def fold(text: str) -> str:
    return " ".join(w for w in SEPARATORS.split(text.lower()) if w)


def load(path: str) -> tuple[list[str], list[float]]:
    names, weights = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and len(fold(parts[0]).split()) >= 2:
                names.append(parts[0])
                weights.append(float(parts[1]))
    return names, weights


def draw(names: list[str], weights: list[float], n: int, rng: random.Random) -> list[str]:
    cumulative, total = [], 0.0
    for w in weights:
        total += w
        cumulative.append(total)
    return [names[bisect.bisect_left(cumulative, rng.random() * total)] for _ in range(n)]


def misspell(word: str, rng: random.Random) -> str:
    """One typo anywhere but the first letter: a letter left out, doubled, replaced, or two neighbours swapped."""
    i = rng.randrange(1, len(word))
    kind = rng.choice(("leave out", "double", "replace", "swap"))
    if kind == "leave out":
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    if kind == "replace":
        letter = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[i]])
        return word[:i] + letter + word[i + 1:]
    if i == len(word) - 1:
        i -= 1
    if i < 1 or word[i] == word[i + 1]:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def sessions(targets: list[str], letters: int, rng: random.Random, seed: int) -> dict[str, list[tuple[str, str]]]:
    """For each kind, (target, typed text) pairs."""
    out_of_order, first_letters, misspelt, skipped = [], [], [], []
    typos = random.Random(seed + 1)
    skips = random.Random(seed + 2)
    for target in targets:
        words = fold(target).split()
        order = list(range(len(words)))
        while order == sorted(order):
            rng.shuffle(order)
        shuffled = [words[i] for i in order]
        out_of_order.append((target, " ".join(shuffled)))
        first_letters.append((target, " ".join(w[:letters] for w in words)))
        longest = max(range(len(shuffled)), key=lambda k: len(shuffled[k]))
        if len(shuffled[longest]) >= 4 and shuffled[longest].isascii():
            typed = list(shuffled)
            typed[longest] = misspell(typed[longest], typos)
            misspelt.append((target, " ".join(typed)))
        if len(words) >= 3:
            kept = list(words)
            del kept[skips.randrange(1, len(words) - 1)]
            longest = max(range(len(kept)), key=lambda k: len(kept[k]))
            if len(kept[longest]) >= 4 and kept[longest].isascii():
                kept[longest] = misspell(kept[longest], skips)
                skipped.append((target, " ".join(kept)))
    return {"out of order": out_of_order, "first letters": first_letters, "out of order, one typo": misspelt,
            "in order, an inner word left out, one typo": skipped}


def run(binary: str, dictionary: str, extra: dict, pairs: list[tuple[str, str]],
        fuzzy_alone: bool = False, at: int = 5) -> tuple[float, float, int]:
    fuzzy = {"type": "fuzzy", "dictionary": dictionary, **extra}
    providers = [fuzzy] if fuzzy_alone else [
        {"type": "recent"}, {"type": "prefix", "dictionary": dictionary, **extra}, fuzzy]
    config = {"version": 1, "limit": 10, "providers": providers}
    handle, path = tempfile.mkstemp(suffix=".suggest.json", dir=DATA)
    with os.fdopen(handle, "w") as f:
        json.dump(config, f)
    lines, owners = [], []
    for k, (_, typed) in enumerate(pairs):
        for i in range(1, len(typed) + 1):
            if typed[i - 1] == " ":
                continue
            lines.append(json.dumps({"text": typed[:i]}))
            owners.append((k, i == len(typed)))
        lines.append('{"reset":true}')
        owners.append(None)
    try:
        done = subprocess.run([binary, "batch", "--config", path], input="\n".join(lines).encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    finally:
        os.unlink(path)
    before, at_end = set(), set()
    keystrokes = 0
    for owner, line in zip(owners, done.stdout.decode().splitlines()):
        if owner is None:
            continue
        keystrokes += 1
        k, last = owner
        answer = json.loads(line)
        shown = [fold(s.get("title", s.get("text", ""))) for s in answer.get("suggestions", [])[:at]]
        if fold(pairs[k][0]) in shown:
            (at_end if last else before).add(k)
    n = len(pairs)
    return len(before) / n, len(before | at_end) / n, keystrokes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--letters", type=int, default=3)
    parser.add_argument("--provider-extra", default="{}")
    parser.add_argument("--fuzzy-alone", action="store_true", help="the fuzzy provider alone")
    parser.add_argument("--at", type=int, default=5, help="recall among the first AT suggestions (default 5)")
    args = parser.parse_args()
    extra = json.loads(args.provider_extra)
    at = args.at
    print(f"| list | sessions | targets | keystrokes | recall@{at} before the last letter | recall@{at} by the last letter |")
    print("|---|---|---|---|---|---|")
    for label, file in (("PyPI names", "pypi-names.tsv"), ("English words", "words-200k.tsv")):
        path = os.path.join(DATA, file)
        names, weights = load(path)
        if not names:
            print(f"| {label} | — | no entry of two or more words | | | |")
            continue
        rng = random.Random(args.seed)
        targets = draw(names, weights, args.n, rng)
        for kind, pairs in sessions(targets, args.letters, rng, args.seed).items():
            before, by_end, keystrokes = run(args.bin, path, extra, pairs, args.fuzzy_alone, at)
            print(f"| {label} | {kind} | {len(pairs):,} | {keystrokes:,} | {before:.3f} | {by_end:.3f} |")


if __name__ == "__main__":
    main()
