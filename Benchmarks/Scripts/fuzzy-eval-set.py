#!/usr/bin/env python3
"""Builds the fuzzy provider's misspelling test set from codespell's dictionary.txt.

codespell (PyPI, GPL-2.0) ships `codespell_lib/data/dictionary.txt`, lines `misspelling->correction`, a derivative
work of English Wikipedia's "Lists of common misspellings", licensed CC BY-SA 3.0. Kept: one correction only,
both lowercase ASCII letters, the misspelling at least MIN_LENGTH letters (default 5: the truncated query keeps at
least 4, the length from which one typo is allowed), the correction a single-word entry of the corpus, and the
misspelling NOT an entry of the corpus (otherwise the exact match would rightly come first).

Usage: fuzzy-eval-set.py CORPUS.tsv OUT.tsv [MIN_LENGTH]   -> OUT.tsv: misspelling<TAB>correction
"""
import os
import sys

import codespell_lib

corpus, out = sys.argv[1], sys.argv[2]
min_length = int(sys.argv[3]) if len(sys.argv) > 3 else 5
words = set()
with open(corpus, encoding="utf-8") as f:
    for line in f:
        if line.startswith("#"):
            continue
        words.add(line.split("\t", 1)[0].lower())
path = os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt")
pairs = []
with open(path, encoding="utf-8") as f:
    for line in f:
        wrong, _, right = line.rstrip("\n").partition("->")
        right = right.strip()
        if "," in right or not wrong.isascii() or not right.isascii():
            continue
        if not (wrong.isalpha() and wrong.islower() and right.isalpha() and right.islower()):
            continue
        if len(wrong) < min_length or right not in words or wrong in words:
            continue
        pairs.append((wrong, right))
with open(out, "w", encoding="utf-8") as f:
    for wrong, right in pairs:
        f.write(f"{wrong}\t{right}\n")
print(f"{len(pairs)} misspellings (of {sum(1 for _ in open(path, encoding='utf-8'))} codespell lines) -> {out}",
      file=sys.stderr)
