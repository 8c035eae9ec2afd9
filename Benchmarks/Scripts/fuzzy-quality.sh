#!/usr/bin/env bash
# Recall of the fuzzy provider on real misspellings, on the 1M-entry corpus.
#   - test set: codespell's dictionary.txt (CC BY-SA 3.0, from Wikipedia's "Lists of common misspellings"),
#     filtered by Scripts/fuzzy-eval-set.py;
#   - for each misspelling, the whole misspelling and the misspelling minus its last character are queried cold
#     (a new typing session each) through the engine with the fuzzy provider alone, top 5;
#   - recall@k: the intended word is among the first k suggestions (case-insensitive).
# Usage: bash Benchmarks/Scripts/fuzzy-quality.sh   (installs codespell from PyPI if missing; builds FuzzyEval)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus="$here/.data/corpus-1m.tsv"
[ -s "$corpus" ] || { echo "$corpus is missing: run bash Benchmarks/Scripts/make-corpus.sh first" >&2; exit 1; }
python3 -c "import codespell_lib" 2>/dev/null || pip install -q "codespell==2.4.3"
scratch="${SCRATCH_PATH:-$here/.build}"
(cd "$here" && swift build -c release --scratch-path "$scratch" --product FuzzyEval >&2)
bin="$(cd "$here" && swift build -c release --scratch-path "$scratch" --show-bin-path)/FuzzyEval"
work="$here/.data/fuzzy-quality"
mkdir -p "$work"
for min in 5 4; do
  python3 "$here/Scripts/fuzzy-eval-set.py" "$corpus" "$work/set-$min.tsv" "$min"
done
# Exactly 4 letters: reported apart (the truncated query has 3 letters, where no typo is allowed).
awk -F'\t' 'length($1) == 4' "$work/set-4.tsv" > "$work/set-only4.tsv"
for set in set-5 set-only4; do
  cut -f1 "$work/$set.tsv" > "$work/$set.whole.txt"
  cut -f1 "$work/$set.tsv" | sed 's/.$//' > "$work/$set.truncated.txt"
  for kind in whole truncated; do
    "$bin" "$corpus" "$work/$set.$kind.txt" > "$work/$set.$kind.out"
  done
done
python3 - "$work" <<'PY'
import statistics, sys
work = sys.argv[1]
def evaluate(name, kind):
    rights = [line.rstrip("\n").split("\t")[1] for line in open(f"{work}/{name}.tsv", encoding="utf-8")]
    outs = [line.rstrip("\n").split("\t") for line in open(f"{work}/{name}.{kind}.out", encoding="utf-8")]
    assert len(rights) == len(outs), (len(rights), len(outs))
    r1 = r5 = 0
    micros = []
    for right, out in zip(rights, outs):
        titles = [t.lower() for t in out[2:]]
        micros.append(float(out[1]))
        r1 += titles[:1] == [right]
        r5 += right in titles[:5]
    n = len(rights)
    micros.sort()
    p = lambda q: micros[min(len(micros) - 1, int(q * len(micros)))]
    print(f"| {name} | {kind} | {n} | {r1 / n:.3f} | {r5 / n:.3f} | {p(0.5) / 1000:.2f} | {p(0.99) / 1000:.2f} |")
print("| set | query | n | recall@1 | recall@5 | p50 ms | p99 ms |")
print("|---|---|---|---|---|---|---|")
for name in ("set-5", "set-only4"):
    for kind in ("whole", "truncated"):
        evaluate(name, kind)
PY
