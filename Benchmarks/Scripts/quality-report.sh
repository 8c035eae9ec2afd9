#!/usr/bin/env bash
# Quality report: types realistic search sessions (targets drawn by weight from a 200k English word list and from
# 886k PyPI names, plus codespell's misspellings) through `suggest batch` and compares with an ideal prefix list.
# All the work, the metrics and the data licences: Benchmarks/Scripts/quality-report.py (its docstring).
#
# Usage: bash Benchmarks/Scripts/quality-report.sh [--n 2000] [--seed 1] [--dataset words|pypi|both]
#          [--no-misspellings] [--misspellings-max K] [--config-extra JSON] [--provider-extra JSON]
#          [--examples K] [--bin PATH]
#   Builds `suggest` in release (scratch path: $SCRATCH_PATH, or the package's .build) unless --bin is given,
#   installs wordfreq 3.1.1 and codespell 2.4.3 from PyPI when the data files are still to be prepared, and writes
#   the report to standard output and Benchmarks/.data/quality-report.md (data and configurations: Benchmarks/.data/).
set -euo pipefail
scripts=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$scripts/../.." && pwd)
data="$root/Benchmarks/.data"
mkdir -p "$data"

original="$*"
bin=""
prev=""
for arg in "$@"; do
  [ "$prev" = "--bin" ] && bin=$arg
  case $arg in --bin=*) bin=${arg#--bin=} ;; esac
  prev=$arg
done

if [ -z "$bin" ]; then
  make -s -C "$root" setup >&2   # libpcre2-dev and pkg-config, when missing
  scratch="${SCRATCH_PATH:-$root/.build}"
  (cd "$root" && swift build -c release --scratch-path "$scratch" --product suggest >&2)
  bin="$(cd "$root" && swift build -c release --scratch-path "$scratch" --show-bin-path)/suggest"
  set -- --bin "$bin" "$@"
fi

# The data packages, pinned; only needed until the data files exist.
need_pip=()
if [ ! -s "$data/words-200k.tsv" ] || [ ! -s "$data/misspellings.tsv" ]; then
  python3 -c 'import sys; from importlib.metadata import version; sys.exit(version("wordfreq") != "3.1.1")' 2>/dev/null \
    || need_pip+=("wordfreq==3.1.1")
fi
if [ ! -s "$data/misspellings.tsv" ]; then
  python3 -c 'import sys; from importlib.metadata import version; sys.exit(version("codespell") != "2.4.3")' 2>/dev/null \
    || need_pip+=("codespell==2.4.3")
fi
if [ ${#need_pip[@]} -gt 0 ]; then
  python3 -m pip install -q "${need_pip[@]}" >&2
fi

exec nice -n 5 python3 "$scripts/quality-report.py" --cmdline "bash Benchmarks/Scripts/quality-report.sh${original:+ $original}" "$@"
