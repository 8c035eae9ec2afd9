#!/usr/bin/env bash
# Builds the benchmark corpus from public data (nothing random):
#   - Debian's wamerican-insane and wbritish-insane word lists (SCOWL, permissive license; see
#     /usr/share/doc/wamerican-insane/copyright), and
#   - symspellpy's English unigram and bigram frequency lists (MIT; counts from Google Books Ngram data),
#   - wordfreq's German, French and Spanish "large" word lists with their frequencies (wordfreq 3.1.1; data
#     CC BY-SA 4.0, used here only to benchmark, never shipped), to reach one million with accented text,
# into Benchmarks/.data/corpus-1m.tsv: `text<TAB>weight`, one million unique entries. Words and bigrams that
# have a frequency get it; the rest get weight 1.
# Usage: bash Benchmarks/Scripts/make-corpus.sh   (installs the packages it needs; needs root for apt)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$here/.data"
out="$here/.data/corpus-1m.tsv"
if [ -s "$out" ]; then echo "$out exists"; exit 0; fi
if [ ! -f /usr/share/dict/american-english-insane ] || [ ! -f /usr/share/dict/british-english-insane ]; then
  apt-get update -qq && apt-get install -y -qq wamerican-insane wbritish-insane
fi
python3 -c "import symspellpy" 2>/dev/null || pip install -q "symspellpy==6.10.1"
python3 -c "import wordfreq" 2>/dev/null || pip install -q "wordfreq==3.1.1"
python3 - "$out" <<'PY'
import os, sys, symspellpy
out = sys.argv[1]
base = os.path.dirname(symspellpy.__file__)
weights = {}
def read_freq(name, columns):
    with open(os.path.join(base, name), encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) < columns + 1:
                continue
            text = " ".join(parts[:columns])
            weights[text] = max(weights.get(text, 0), int(parts[columns]))
read_freq("frequency_dictionary_en_82_765.txt", 1)
read_freq("frequency_bigramdictionary_en_243_342.txt", 2)
entries = dict(weights)
for path in ("/usr/share/dict/american-english-insane", "/usr/share/dict/british-english-insane"):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.rstrip("\n")
            if w and "\t" not in w and w not in entries:
                entries[w] = weights.get(w.lower(), 1)
# Fill up to one million with German, French and Spanish words; weight = frequency per billion words.
import wordfreq
for lang in ("de", "fr", "es"):
    for w in wordfreq.top_n_list(lang, 400000, wordlist="large"):
        if len(entries) >= 1_000_000:
            break
        if w and "\t" not in w and w not in entries:
            entries[w] = max(1, int(wordfreq.word_frequency(w, lang, wordlist="large") * 1e9))
# Keep one million: every weighted entry first, then the word-list entries in sorted order.
ordered = sorted(entries.items(), key=lambda kv: (-kv[1], kv[0]))[:1_000_000]
with open(out, "w", encoding="utf-8") as f:
    f.write("# swift-suggest benchmark corpus: SCOWL word lists (Debian wamerican/wbritish-insane) + symspellpy frequencies (MIT)\n")
    for text, weight in ordered:
        f.write(f"{text}\t{weight}\n")
print(f"wrote {len(ordered)} entries to {out}")
PY
