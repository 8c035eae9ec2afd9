#!/usr/bin/env bash
# Side by side on the same corpus (Benchmarks/.data/corpus-1m.tsv) and the same queries: swift-suggest's fuzzy
# provider (Benchmarks/Sources/FuzzyEval, through the engine, cold: a new typing session per query), fzf --filter
# (Debian package fzf), rapidfuzz process.extract (PyPI) and symspellpy lookup (PyPI).
# Queries: N misspellings (default 100, a fixed random sample) from codespell's dictionary.txt (CC BY-SA 3.0, from
# Wikipedia's "Lists of common misspellings"; see Scripts/fuzzy-eval-set.py), whole and minus their last character.
# Reports per tool: setup time, latency per query (p50, p99) and recall@1 / recall@5 of the intended word.
# Usage: bash Benchmarks/Scripts/fuzzy-compare.sh [N]   (installs what it needs; apt needs root)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n="${1:-100}"
corpus="$here/.data/corpus-1m.tsv"
[ -s "$corpus" ] || { echo "$corpus is missing: run bash Benchmarks/Scripts/make-corpus.sh first" >&2; exit 1; }
command -v fzf >/dev/null || { apt-get update -qq && apt-get install -y -qq fzf; }
python3 -c "import rapidfuzz" 2>/dev/null || pip install -q "rapidfuzz==3.14.6"
python3 -c "import symspellpy" 2>/dev/null || pip install -q "symspellpy==6.10.1"
python3 -c "import codespell_lib" 2>/dev/null || pip install -q "codespell==2.4.3"
scratch="${SCRATCH_PATH:-$here/.build}"
(cd "$here" && swift build -c release --scratch-path "$scratch" --product FuzzyEval >&2)
bin="$(cd "$here" && swift build -c release --scratch-path "$scratch" --show-bin-path)/FuzzyEval"
work="$here/.data/fuzzy-compare"
mkdir -p "$work"
python3 "$here/Scripts/fuzzy-eval-set.py" "$corpus" "$work/set.tsv" 5
python3 - "$work" "$n" <<'PY'
import random, sys
work, n = sys.argv[1], int(sys.argv[2])
pairs = open(f"{work}/set.tsv", encoding="utf-8").read().splitlines()
random.seed(20261122)
sample = random.sample(pairs, min(n, len(pairs)))
open(f"{work}/sample.tsv", "w", encoding="utf-8").write("\n".join(sample) + "\n")
open(f"{work}/whole.txt", "w", encoding="utf-8").write("\n".join(p.split("\t")[0] for p in sample) + "\n")
open(f"{work}/truncated.txt", "w", encoding="utf-8").write("\n".join(p.split("\t")[0][:-1] for p in sample) + "\n")
PY
cut -f1 "$corpus" | grep -v '^#' > "$work/texts.txt"
start=$(date +%s.%N)
"$bin" "$corpus" "$work/whole.txt" > "$work/ours.whole.out" 2> "$work/ours.setup.txt"
"$bin" "$corpus" "$work/truncated.txt" > "$work/ours.truncated.out" 2>> "$work/ours.setup.txt"
python3 - "$work" <<'PY'
import os, subprocess, sys, time
work = sys.argv[1]
fzf_version = subprocess.run(["fzf", "--version"], capture_output=True, text=True).stdout.split()[0]
import rapidfuzz, symspellpy
from rapidfuzz import fuzz, process, utils
from symspellpy import SymSpell, Verbosity

sample = [line.split("\t") for line in open(f"{work}/sample.tsv", encoding="utf-8").read().splitlines()]
rights = [r for _, r in sample]
queries = {k: open(f"{work}/{k}.txt", encoding="utf-8").read().splitlines() for k in ("whole", "truncated")}
texts = open(f"{work}/texts.txt", encoding="utf-8").read().splitlines()
weights = []
for line in open(f"{work}/../corpus-1m.tsv", encoding="utf-8"):
    if line.startswith("#"):
        continue
    text, _, weight = line.rstrip("\n").partition("\t")
    weights.append((text, int(float(weight or 1))))
results = {}  # tool -> kind -> (latencies ms, top5 lists)

def ours(kind):
    lat, tops = [], []
    for line in open(f"{work}/ours.{kind}.out", encoding="utf-8"):
        parts = line.rstrip("\n").split("\t")
        lat.append(float(parts[1]) / 1000)
        tops.append(parts[2:7])
    return lat, tops

setup = {"swift-suggest fuzzy": open(f"{work}/ours.setup.txt").read().strip().splitlines()[0]}
results["swift-suggest fuzzy"] = {k: ours(k) for k in queries}

def run_fzf(kind):
    lat, tops = [], []
    for q in queries[kind]:
        t = time.perf_counter()
        with open(f"{work}/texts.txt", "rb") as f:
            out = subprocess.run(["fzf", "--filter", q], stdin=f, capture_output=True).stdout.decode("utf-8", "replace")
        lat.append((time.perf_counter() - t) * 1000)
        tops.append(out.splitlines()[:5])
    return lat, tops
setup[f"fzf {fzf_version} --filter"] = "none (reads the 1M lines on every query)"
results[f"fzf {fzf_version} --filter"] = {k: run_fzf(k) for k in queries}

def run_rapidfuzz(kind):
    lat, tops = [], []
    for q in queries[kind]:
        t = time.perf_counter()
        found = process.extract(q, texts, scorer=fuzz.WRatio, processor=utils.default_process, limit=5)
        lat.append((time.perf_counter() - t) * 1000)
        tops.append([m[0] for m in found])
    return lat, tops
setup[f"rapidfuzz {rapidfuzz.__version__} process.extract (WRatio)"] = "none (list in memory)"
results[f"rapidfuzz {rapidfuzz.__version__} process.extract (WRatio)"] = {k: run_rapidfuzz(k) for k in queries}

t = time.perf_counter()
sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
for text, weight in weights:
    sym.create_dictionary_entry(text.lower(), max(1, weight))
sym_setup = time.perf_counter() - t
def run_symspell(kind):
    lat, tops = [], []
    for q in queries[kind]:
        t = time.perf_counter()
        found = sym.lookup(q, Verbosity.ALL, max_edit_distance=2, include_unknown=False)
        found.sort(key=lambda s: (s.distance, -s.count))
        lat.append((time.perf_counter() - t) * 1000)
        tops.append([s.term for s in found[:5]])
    return lat, tops
name = f"symspellpy {symspellpy.__version__ if hasattr(symspellpy, '__version__') else '6.10.1'} lookup (ALL, d≤2)"
setup[name] = f"{sym_setup:.0f} s to build"
results[name] = {k: run_symspell(k) for k in queries}

def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]
print(f"n = {len(rights)} misspellings; corpus {len(texts)} entries")
print("| tool | setup | whole p50 ms | whole p99 ms | whole R@1 | whole R@5 | truncated p50 ms | truncated p99 ms | truncated R@1 | truncated R@5 |")
print("|---|---|---|---|---|---|---|---|---|---|")
for tool, kinds in results.items():
    row = [tool, setup[tool]]
    for kind in ("whole", "truncated"):
        lat, tops = kinds[kind]
        tops = [[t.lower() for t in top] for top in tops]
        r1 = sum(top[:1] == [r] for r, top in zip(rights, tops)) / len(rights)
        r5 = sum(r in top[:5] for r, top in zip(rights, tops)) / len(rights)
        row += [f"{pct(lat, 0.5):.2f}", f"{pct(lat, 0.99):.2f}", f"{r1:.2f}", f"{r5:.2f}"]
    print("| " + " | ".join(row) + " |")
PY
