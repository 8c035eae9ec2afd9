#!/usr/bin/env python3
"""Quality report: types realistic search sessions through `suggest batch` and compares with an ideal prefix list.

Usage (normally through quality-report.sh, which builds `suggest` and installs the data packages):

    python3 Benchmarks/Scripts/quality-report.py --bin PATH/suggest [--n 2000] [--seed 1]
        [--dataset words|pypi|both] [--no-misspellings] [--misspellings-max K]
        [--config-extra JSON] [--provider-extra JSON] [--examples K]

Everything generated lives in Benchmarks/.data/ (git-ignored): the data files, the configurations and the report
(Benchmarks/.data/quality-report.md, also written to standard output). Python 3.11 standard library only, plus the
two data packages below (needed only while the data files are prepared, once).

Data sources and licences (benchmark data only: never committed, never shipped)
-------------------------------------------------------------------------------
- words-200k.tsv: wordfreq 3.1.1 (PyPI; code MIT, word-frequency data CC BY-SA 4.0, built from Wikipedia, subtitles,
  news, books, web text, Twitter and Reddit), English "large" list, the top 200,000 words of `top_n_list`, each as
  `text<TAB>weight` with weight = max(1, round(word_frequency(w, 'en', wordlist='large') * 1e9)). It holds accented
  variants and fragments ("th", "don") on purpose: real word lists do. Words starting with "#" (a comment line in
  the TSV format) would be dropped; wordfreq 3.1.1 has none in the top 200k.
- pypi-names.tsv: PyPI project names from /work/.library/env/packages/pypi.tsv (the workplace's list of PyPI
  packages, 886k lines: name, version, month, rank among the 15,000 most downloaded, summary); weight =
  round(1e6 / rank) for the ranked names, 1 for the others. Names are public facts from the PyPI index.
- misspellings.tsv: codespell 2.4.3 (PyPI; code GPL-2.0) `codespell_lib/data/dictionary.txt`, lines `wrong->right`,
  a derivative of English Wikipedia's "Lists of common misspellings", CC BY-SA 3.0. Kept: one correction, both
  lowercase ASCII letters only, len(wrong) >= 5, right in the 200k word list, wrong NOT in it (else the exact match
  rightly wins). Deterministic split: "held-out" when zlib.crc32(wrong) is odd (the headline: the fuzzy provider's
  constants were tuned on the whole codespell set, see README, so even this half is not fully independent),
  "tuning" otherwise.
- misspellings-natural.tsv (the second source): nlpaug 1.1.11 (PyPI, MIT) `nlpaug/res/word/spelling/spelling_en.txt`,
  misspellings people made (Belinkov and Bisk's natural noise), filtered the same way; made by
  Benchmarks/Scripts/typing_sessions.py (its docstring), which downloads the wheel without installing it. Nothing was
  tuned on it; only 3,260 of its 25,885 pairs are also in codespell's list.

Configurations (written next to the data, paths relative to them): for each dictionary D
`{"version":1,"limit":10,"providers":[{"type":"recent"},{"type":"prefix","dictionary":D},{"type":"fuzzy","dictionary":D}]}`
with `--config-extra` merged into the top level and `--provider-extra` into the prefix and fuzzy entries.

Sessions
--------
N targets are drawn by weight, with replacement, from each dictionary (random.Random(f"{dataset}:{seed}").choices).
One `suggest batch` process per dataset types them all, in order, as one person: `{"text":""}` (the empty field),
then every prefix target[:i] for i = 1..L (L = the target's length in characters), then `{"submit":target}` and
`{"reset":true}`. Recent searches therefore accumulate across targets, as for a real person (a target drawn twice is
a recent search the second time).

Matching: a suggestion is the target when their folded keys are equal. fold(s) = NFKD, combining marks dropped,
casefold, ß -> ss, every run of characters that are not letters or digits collapsed to one space, stripped.

The IDEAL list (computed here, no engine): for typed text p, every dictionary entry whose folded key starts with
fold(p), one per folded key (its highest weight), sorted by weight descending, then shorter key, then alphabetical;
the first 10. The empty field's ideal list is empty (an ideal prefix list knows no recent searches).

Metrics (each for the engine's list and for the ideal list; "difference" = engine - ideal, in points = x100)
--------------------------------------------------------------------------------------------------------------
- KSR@5, keystroke saving rate: for a target of length L, i* = the first i in 0..L at which the target is among the
  first 5 suggestions after typing i characters (i = 0: the empty field). cost = min(i* + 1, L) (choosing it costs a
  keystroke), or L when it never is. KSR@5 = 1 - sum(cost) / sum(L). 0 = no help, 1 = free.
- MRR@k (k = 2, 3): over the targets with L >= k, the mean of 1/rank of the target in the whole list (up to 10)
  after typing k characters; 0 when it is absent.
- recall@10 after 1 letter: share of targets in the list after typing their first character.
- short lists: share of the typed keystrokes (i >= 1) whose list had fewer than 10 suggestions while the ideal list
  had 10 (0 for the ideal by definition).
- duplicate lists (diagnostic): share of typed keystrokes whose list holds two suggestions with the same folded key
  (e.g. "Café" and "cafe"; "django-rest" and "django_rest").
- latency: the `micros` of every text line (empty field included): p50, p99, p99.9 (nearest rank) and max, with
  the three slowest texts.
- misspellings (word list, engine only; an ideal prefix list scores ~0 there): a separate `suggest batch` process
  with the same configuration and nothing ever submitted (so no recent searches), `{"reset":true}` between words.
  Each misspelling is typed letter by letter; recall@1 / recall@5 of `right` in the list after the whole misspelling
  ("full") and after the misspelling minus its last letter ("minus last letter"), for each half of codespell's list
  and for the second source.
- typing latency (unless --no-latency): Benchmarks/Scripts/typing-latency.py over the sessions of
  Benchmarks/Scripts/typing_sessions.py (names and words typed by weight, misspelt, and corrected with backspace, on
  both dictionaries): p50 / p90 / p99 / p99.9 / max, and the time of the slow keystrokes by provider and fuzzy step.

--examples K adds up to K examples (one per distinct typed text or pair) of each oddity seen, with its count: short
lists (with or without recent searches shown), two suggestions with one folded key, an exact fragment ranked first
while a longer target is typed, a recent search shown that does not start with the typed text, and the targets the
engine shows in its top 5 later than the ideal list does (largest gaps first).

Robustness: an answer `{"error":...}`, an answer with provider `errors`, or a missing answer is counted and
reported (a text line without an answer counts as an empty list), never a crash. A configuration the build refuses
(e.g. an unknown key given with --provider-extra) is reported with the tool's message and the dataset is skipped.
"""
from __future__ import annotations

import argparse
import bisect
import datetime
import heapq
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import time
import unicodedata
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import typing_sessions  # noqa: E402 (the shared TSV reader and the second misspelling source)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", ".data"))
PYPI_LIST = "/work/.library/env/packages/pypi.tsv"
LIMIT = 10
TOP = 5  # KSR@5

# --------------------------------------------------------------------------------------------------- folding

_NON_ALNUM = re.compile(r"[\W_]+")


def fold(s: str) -> str:
    """NFKD, combining marks dropped, casefold, ß -> ss, runs of non-letters/digits -> one space, stripped."""
    if s.isascii():
        s = s.lower()
    else:
        s = unicodedata.normalize("NFKD", s)
        s = "".join(c for c in s if not unicodedata.combining(c))
        s = s.casefold().replace("ß", "ss")
    return _NON_ALNUM.sub(" ", s).strip()


# --------------------------------------------------------------------------------------------------- data

def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def check_version(package: str, wanted: str) -> None:
    from importlib import metadata
    try:
        have = metadata.version(package)
    except metadata.PackageNotFoundError:
        sys.exit(f"error: {package} is not installed: pip install '{package}=={wanted}'")
    if have != wanted:
        sys.exit(f"error: {package} {have} is installed, the report needs {wanted}: pip install '{package}=={wanted}'")


def write_atomic(path: str, lines) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line)
    os.replace(tmp, path)


def prepare_words(path: str) -> None:
    if os.path.exists(path):
        return
    check_version("wordfreq", "3.1.1")
    import wordfreq
    log(f"preparing {path} (wordfreq 3.1.1, en, large, top 200,000) ...")
    words = wordfreq.top_n_list("en", 200_000, wordlist="large")
    out = []
    for w in words:
        if not w.strip() or "\t" in w or "\n" in w or w.startswith("#"):
            continue
        weight = max(1, round(wordfreq.word_frequency(w, "en", wordlist="large") * 1e9))
        out.append(f"{w}\t{weight}\n")
    write_atomic(path, out)
    log(f"  {len(out)} words")


def prepare_pypi(path: str) -> None:
    if os.path.exists(path):
        return
    log(f"preparing {path} from {PYPI_LIST} ...")
    out = []
    with open(PYPI_LIST, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = header.index("rank_among_15000_most_downloaded")
        for line in f:
            fields = line.rstrip("\n").split("\t")
            name = fields[0].strip()
            if not name or name.startswith("#"):
                continue
            rank = fields[col].strip() if len(fields) > col else ""
            weight = round(1e6 / int(rank)) if rank.isdigit() and int(rank) > 0 else 1
            out.append(f"{name}\t{weight}\n")
    write_atomic(path, out)
    log(f"  {len(out)} names")


def prepare_misspellings(path: str, words_path: str) -> None:
    if os.path.exists(path):
        return
    check_version("codespell", "2.4.3")
    import codespell_lib
    source = os.path.join(os.path.dirname(codespell_lib.__file__), "data", "dictionary.txt")
    log(f"preparing {path} from {source} ...")
    words = {text for text, _ in read_tsv(words_path)}
    lower = re.compile(r"[a-z]+\Z")
    out = []
    with open(source, encoding="utf-8") as f:
        for line in f:
            wrong, sep, right = line.rstrip("\n").partition("->")
            if not sep:
                continue
            wrong, right = wrong.strip(), right.strip()
            if "," in right or not lower.match(wrong) or not lower.match(right):
                continue
            if len(wrong) < 5 or right not in words or wrong in words:
                continue
            half = "held-out" if zlib.crc32(wrong.encode("utf-8")) & 1 else "tuning"
            out.append(f"{wrong}\t{right}\t{half}\n")
    write_atomic(path, out)
    log(f"  {len(out)} pairs")


def read_tsv(path: str) -> list[tuple[str, int]]:
    return typing_sessions.read_weighted(path)


# --------------------------------------------------------------------------------------------------- ideal

class Ideal:
    """Top-10 by weight (then shorter, then alphabetical) of the folded keys that start with a folded prefix."""

    def __init__(self, entries: list[tuple[str, int]]):
        best: dict[str, int] = {}
        for text, weight in entries:
            key = fold(text)
            if key and weight > best.get(key, -1):
                best[key] = weight
        self.keys = sorted(best)
        order = sorted(range(len(self.keys)), key=lambda i: (-best[self.keys[i]], len(self.keys[i]), self.keys[i]))
        self.rank = [0] * len(order)
        for r, i in enumerate(order):
            self.rank[i] = r
        self.by_rank = [self.keys[i] for i in order]
        self.cache: dict[str, list[str]] = {}

    def top(self, typed: str) -> list[str]:
        p = fold(typed)
        if not p:
            return []
        hit = self.cache.get(p)
        if hit is not None:
            return hit
        lo = bisect.bisect_left(self.keys, p)
        hi = bisect.bisect_left(self.keys, p + "\U0010ffff", lo)
        result = [self.by_rank[r] for r in heapq.nsmallest(LIMIT, self.rank[lo:hi])]
        if hi - lo > 256:
            self.cache[p] = result
        return result


# --------------------------------------------------------------------------------------------------- engine

class BatchRun:
    """One `suggest batch` process: writes every request from a thread, yields (request, answer or None).

    A watchdog kills the process when it has not answered for IDLE_TIMEOUT seconds (a hang is then reported as
    missing answers, not waited on forever)."""

    IDLE_TIMEOUT = 120.0

    def __init__(self, binary: str, config: str, requests: list[dict], stderr_path: str):
        self.requests = requests
        self.stderr_path = stderr_path
        self.proc = subprocess.Popen([binary, "batch", "--config", config], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=open(stderr_path, "wb"))
        self.last_answer = time.monotonic()
        self.timed_out = False
        self.writer = threading.Thread(target=self._write, daemon=True)
        self.writer.start()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while self.proc.poll() is None:
            time.sleep(1.0)
            if time.monotonic() - self.last_answer > self.IDLE_TIMEOUT and self.proc.poll() is None:
                self.timed_out = True
                self.proc.kill()

    def _write(self) -> None:
        try:
            chunk = []
            for req in self.requests:
                chunk.append(json.dumps(req, ensure_ascii=False))
                if len(chunk) >= 512:
                    self.proc.stdin.write(("\n".join(chunk) + "\n").encode("utf-8"))
                    chunk = []
            if chunk:
                self.proc.stdin.write(("\n".join(chunk) + "\n").encode("utf-8"))
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass  # the process ended early: reported by the reader

    def answers(self):
        stdout = self.proc.stdout
        for req in self.requests:
            line = stdout.readline()
            self.last_answer = time.monotonic()
            if not line:
                yield req, None
                continue
            try:
                yield req, json.loads(line)
            except json.JSONDecodeError:
                yield req, {"error": f"unparsable answer line: {line[:200]!r}"}
        rest = stdout.read()
        self.proc.wait()
        self.writer.join()
        self.extra_output = rest

    def stderr_text(self) -> str:
        try:
            with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
                text = f.read().strip()
        except OSError:
            text = ""
        if self.timed_out:
            text = f"killed after {self.IDLE_TIMEOUT:.0f} s without an answer. {text}"
        return text


class Problems:
    def __init__(self):
        self.error_answers = 0
        self.missing_answers = 0
        self.provider_errors = 0
        self.mismatched = 0
        self.answered = 0
        self.samples: list[str] = []

    def note(self, what: str) -> None:
        if len(self.samples) < 5:
            self.samples.append(what)

    def check(self, req: dict, ans) -> list[dict] | None:
        """Returns the suggestions of a text answer (possibly empty), None for another kind of answer."""
        if ans is not None:
            self.answered += 1
        if ans is None:
            self.missing_answers += 1
            self.note(f"no answer to {json.dumps(req, ensure_ascii=False)}")
            return [] if "text" in req else None
        if not isinstance(ans, dict) or "error" in ans:
            self.error_answers += 1
            self.note(f"{json.dumps(req, ensure_ascii=False)} -> {json.dumps(ans, ensure_ascii=False)[:300]}")
            return [] if "text" in req else None
        if ans.get("errors"):
            self.provider_errors += 1
            self.note(f"provider errors for {json.dumps(req, ensure_ascii=False)}: {json.dumps(ans['errors'])[:300]}")
        if "text" in req:
            if ans.get("text") != req["text"] or not isinstance(ans.get("suggestions"), list):
                self.mismatched += 1
                self.note(f"unexpected answer to {json.dumps(req, ensure_ascii=False)}: {json.dumps(ans)[:300]}")
                return []
            return ans["suggestions"]
        return None

    def total(self) -> int:
        return self.error_answers + self.missing_answers + self.provider_errors + self.mismatched

    def summary(self) -> str:
        return (f"{self.error_answers} error answers, {self.provider_errors} answers with provider errors, "
                f"{self.missing_answers} missing answers, {self.mismatched} unexpected answers")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))]


def latency_line(name: str, micros: list[float], slowest: list[tuple[float, str]]) -> str:
    m = sorted(micros)
    if not m:
        return f"- {name}: no timed keystrokes"
    worst = ", ".join(f"{text!r} {us / 1000:.1f} ms" for us, text in slowest)
    return (f"- {name}: {len(m):,} keystrokes, p50 {percentile(m, 0.5):.1f} µs, p99 {percentile(m, 0.99):.1f} µs, "
            f"p99.9 {percentile(m, 0.999):.1f} µs, max {m[-1]:.1f} µs (slowest: {worst})")


# --------------------------------------------------------------------------------------------------- sessions

class Scores:
    """Accumulates the per-target metrics for one list source (engine or ideal)."""

    def __init__(self):
        self.cost = 0
        self.length = 0
        self.rr = {2: [0.0, 0], 3: [0.0, 0]}
        self.r10_1 = [0, 0]
        self.short = 0
        self.dupes = 0
        self.typed = 0

    def add_target(self, target: str, lists: list[list[str]]) -> None:
        """lists[i] = the folded suggestion keys after typing i characters (i = 0..L)."""
        L = len(target)
        key = fold(target)
        cost = L
        for i, keys in enumerate(lists):
            if key in keys[:TOP]:
                cost = min(i + 1, L)
                break
        self.cost += cost
        self.length += L
        for k, acc in self.rr.items():
            if L >= k:
                keys = lists[k]
                acc[0] += 1.0 / (keys.index(key) + 1) if key in keys else 0.0
                acc[1] += 1
        if L >= 1:
            self.r10_1[0] += key in lists[1]
            self.r10_1[1] += 1

    def ksr(self) -> float:
        return 1.0 - self.cost / self.length if self.length else float("nan")

    def mrr(self, k: int) -> float:
        total, n = self.rr[k]
        return total / n if n else float("nan")

    def recall10(self) -> float:
        return self.r10_1[0] / self.r10_1[1] if self.r10_1[1] else float("nan")


class Examples:
    """Up to `limit` examples of each kind, one per distinct `key` (a typed text, a pair), with the kind's count."""

    def __init__(self, limit: int):
        self.limit = limit
        self.kinds: dict[str, list[str]] = {}
        self.keys: dict[str, set] = {}
        self.counts: dict[str, int] = {}

    def add(self, kind: str, key, text) -> None:
        if self.limit <= 0:
            return
        self.counts[kind] = self.counts.get(kind, 0) + 1
        bucket = self.kinds.setdefault(kind, [])
        seen = self.keys.setdefault(kind, set())
        if len(bucket) < self.limit and key not in seen:
            seen.add(key)
            bucket.append(text() if callable(text) else text)


def show(suggestions: list[dict], n: int = LIMIT) -> str:
    return ", ".join(f"{s.get('text')!r}" + ("ᴿ" if s.get("section") == "Recent" else "") for s in suggestions[:n])


REFIND_RATE = 0.4  # Teevan et al. 2007, "Information re-retrieval: repeat queries in Yahoo's logs": ~40 %


def draw_targets(name: str, entries: list[tuple[str, int]], n: int, seed: int, history: str) -> list[str]:
    """The person's searches: by weight; with `refind`, each is with probability REFIND_RATE one of their own
    earlier searches (each earlier search equally likely, so often-repeated ones more so), else drawn by weight."""
    rng = random.Random(f"{name}:{seed}")
    pool = [(t, w) for t, w in entries if fold(t)]
    if history != "refind":
        return rng.choices([t for t, _ in pool], weights=[w for _, w in pool], k=n)
    texts = [t for t, _ in pool]
    cumulative = list(__import__("itertools").accumulate(w for _, w in pool))
    targets: list[str] = []
    for _ in range(n):
        if targets and rng.random() < REFIND_RATE:
            targets.append(rng.choice(targets))
        else:
            targets.append(rng.choices(texts, cum_weights=cumulative, k=1)[0])
    return targets


def run_sessions(name: str, binary: str, config: str, entries: list[tuple[str, int]], ideal: Ideal,
                 n: int, seed: int, examples: Examples, history: str = "iid"):
    targets = draw_targets(name, entries, n, seed, history)
    label = f"{name} ({HISTORY_LABELS[history]})"
    requests: list[dict] = []
    for t in targets:
        requests.append({"text": ""})
        for i in range(1, len(t) + 1):
            requests.append({"text": t[:i]})
        # Without history nothing is submitted (no recent searches); the protocol still takes two lines.
        requests.append({"submit": t} if history != "none" else {"reset": True})
        requests.append({"reset": True})
    log(f"{name}: typing {n} targets ({len(requests):,} lines) through {binary} batch --config {config}")
    run = BatchRun(binary, config, requests, os.path.join(DATA, f"quality-{name}.stderr"))
    engine, best = Scores(), Scores()
    problems = Problems()
    micros: list[float] = []
    slowest: list[tuple[float, str]] = []
    gaps: list[tuple] = []
    answers = run.answers()
    started = time.monotonic()
    for t in targets:
        key = fold(t)
        eng_lists, ideal_lists = [], []
        for i in range(len(t) + 3):
            req, ans = next(answers)
            sugg = problems.check(req, ans)
            if sugg is None:
                continue
            if isinstance(ans, dict) and isinstance(ans.get("micros"), (int, float)):
                micros.append(float(ans["micros"]))
                slowest.append((float(ans["micros"]), req["text"]))
                if len(slowest) > 64:
                    slowest.sort(reverse=True)
                    del slowest[8:]
            keys = [fold(str(s.get("text", ""))) for s in sugg]
            ideal_keys = ideal.top(req["text"])
            eng_lists.append(keys)
            ideal_lists.append(ideal_keys)
            if req["text"]:
                engine.typed += 1
                typed = fold(req["text"])
                recents = [k for k, s in zip(keys, sugg) if s.get("section") == "Recent"]
                if len(keys) < LIMIT and len(ideal_keys) == LIMIT:
                    engine.short += 1
                    with_recents = "with" if recents else "without"
                    examples.add(f"{name}: short list while the ideal has 10, {with_recents} recent searches shown",
                                 req["text"], lambda: f"{req['text']!r} → {len(keys)}: {show(sugg)} | ideal: "
                                 f"{', '.join(ideal_keys)}")
                if len(set(keys)) < len(keys):
                    engine.dupes += 1
                    firsts: dict[str, str] = {}
                    for k, s in zip(keys, sugg):
                        if k in firsts:
                            pair = (firsts[k], str(s.get("text")))
                            examples.add(f"{name}: two suggestions with the same folded key", pair,
                                         lambda: f"{pair[0]!r} and {pair[1]!r} (typed {req['text']!r})")
                        else:
                            firsts[k] = str(s.get("text"))
                if keys and keys[0] == typed and typed != key and len(typed) < len(key):
                    examples.add(f"{name}: exact fragment ranked first while typing a longer target", req["text"],
                                 lambda: f"target {t!r}, typed {req['text']!r} → {show(sugg, 5)}")
                if typed and any(not k.startswith(typed) for k in recents):
                    examples.add(f"{name}: recent search shown that does not start with the typed text", req["text"],
                                 lambda: f"{req['text']!r} → {show(sugg, 5)}")
        if len(eng_lists) != len(t) + 1:  # the protocol went wrong: keep the lists aligned with i
            eng_lists = (eng_lists + [[]] * (len(t) + 1))[: len(t) + 1]
            ideal_lists = [ideal.top(t[:i]) for i in range(len(t) + 1)]
        engine.add_target(t, eng_lists)
        best.add_target(t, ideal_lists)
        e_at = next((i for i, k in enumerate(eng_lists) if key in k[:TOP]), len(t))
        i_at = next((i for i, k in enumerate(ideal_lists) if key in k[:TOP]), len(t))
        if e_at > i_at:
            gaps.append((e_at - i_at, t, i_at, e_at, eng_lists[i_at][:TOP], ideal_lists[i_at][:TOP]))
    for _ in answers:
        pass
    gaps.sort(key=lambda g: (-g[0], g[1]))
    kind = f"{name}: the engine needs more keystrokes than the ideal list to show the target in its top 5"
    for gap, t, i_at, e_at, eng, best_keys in gaps:
        examples.add(kind, t, lambda: f"{t!r}: ideal after {i_at} ({t[:i_at]!r}), engine after {e_at}; "
                     f"engine top 5 after {i_at}: {', '.join(eng)} | ideal: {', '.join(best_keys)}")
    if gaps:
        examples.counts[kind] = len(gaps)
    elapsed = time.monotonic() - started
    stderr = run.stderr_text()
    if run.proc.returncode != 0:
        problems.note(f"suggest batch exited with status {run.proc.returncode}: {stderr[:500]}")
    slowest.sort(reverse=True)
    log(f"{name}: done in {elapsed:.1f} s ({problems.summary()})")
    return {"name": label, "n": n, "targets": targets, "engine": engine, "ideal": best, "problems": problems,
            "micros": micros, "slowest": slowest[:3], "returncode": run.proc.returncode, "stderr": stderr,
            "elapsed": elapsed}


def run_misspellings(binary: str, config: str, pairs: list[tuple[str, str, str]]):
    requests: list[dict] = []
    for wrong, _, _ in pairs:
        for i in range(1, len(wrong) + 1):
            requests.append({"text": wrong[:i]})
        requests.append({"reset": True})
    log(f"misspellings: typing {len(pairs):,} misspellings ({len(requests):,} lines)")
    run = BatchRun(binary, config, requests, os.path.join(DATA, "quality-misspellings.stderr"))
    answers = run.answers()
    problems = Problems()
    micros: list[float] = []
    slowest: list[tuple[float, str]] = []
    halves = {h: {"n": 0, "full1": 0, "full5": 0, "cut1": 0, "cut5": 0} for h in dict.fromkeys(p[2] for p in pairs)}
    started = time.monotonic()
    for wrong, right, half in pairs:
        lists = {}
        for i in range(1, len(wrong) + 2):
            req, ans = next(answers)
            sugg = problems.check(req, ans)
            if sugg is None:
                continue
            if isinstance(ans.get("micros") if isinstance(ans, dict) else None, (int, float)):
                micros.append(float(ans["micros"]))
                slowest.append((float(ans["micros"]), req["text"]))
                if len(slowest) > 64:
                    slowest.sort(reverse=True)
                    del slowest[8:]
            lists[len(req["text"])] = [fold(str(s.get("text", ""))) for s in sugg]
        h = halves[half]
        h["n"] += 1
        full, cut = lists.get(len(wrong), []), lists.get(len(wrong) - 1, [])
        h["full1"] += right in full[:1]
        h["full5"] += right in full[:5]
        h["cut1"] += right in cut[:1]
        h["cut5"] += right in cut[:5]
    for _ in answers:
        pass
    elapsed = time.monotonic() - started
    stderr = run.stderr_text()
    if run.proc.returncode != 0:
        problems.note(f"suggest batch exited with status {run.proc.returncode}: {stderr[:500]}")
    log(f"misspellings: done in {elapsed:.1f} s ({problems.summary()})")
    slowest.sort(reverse=True)
    return {"halves": halves, "problems": problems, "micros": micros, "slowest": slowest[:3], "returncode": run.proc.returncode,
            "stderr": stderr, "elapsed": elapsed}


# --------------------------------------------------------------------------------------------------- report

def write_config(path: str, dictionary: str, config_extra: dict, provider_extra: dict,
                 fuzzy_extra: dict | None = None) -> None:
    providers = [{"type": "recent"},
                 {"type": "prefix", "dictionary": dictionary, **provider_extra},
                 {"type": "fuzzy", "dictionary": dictionary, **provider_extra, **(fuzzy_extra or {})}]
    config = {"version": 1, "limit": LIMIT, "providers": providers}
    config.update(config_extra)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=1)
        f.write("\n")


HISTORY_LABELS = {
    "none": "a new person: nothing submitted, no recent searches",
    "refind": f"{int(REFIND_RATE * 100)} % of searches repeat the person's own earlier ones, all submitted",
    "iid": "every search drawn by weight and submitted",
}


def dataset_table(result) -> list[str]:
    e, i = result["engine"], result["ideal"]
    rows = [("KSR@5", e.ksr(), i.ksr()),
            ("MRR@2", e.mrr(2), i.mrr(2)),
            ("MRR@3", e.mrr(3), i.mrr(3)),
            ("recall@10 after 1 letter", e.recall10(), i.recall10()),
            ("short lists (< 10 while the ideal has 10)", e.short / e.typed if e.typed else float("nan"), 0.0),
            ("lists with a folded key twice", e.dupes / e.typed if e.typed else float("nan"), 0.0)]
    lengths = [len(t) for t in result["targets"]]
    out = [f"### {result['name']}: {result['n']:,} targets ({len(set(result['targets'])):,} distinct, "
           f"mean length {sum(lengths) / max(1, len(lengths)):.2f} characters), {e.typed:,} typed keystrokes", "",
           "| metric | engine | ideal | difference (points) |", "|---|---|---|---|"]
    for label, ev, iv in rows:
        out.append(f"| {label} | {ev:.4f} | {iv:.4f} | {100 * (ev - iv):+.2f} |")
    out.append("")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the suggest binary")
    ap.add_argument("--n", type=int, default=2000, help="targets per dataset (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dataset", choices=("words", "pypi", "both"), default="both")
    ap.add_argument("--no-misspellings", action="store_true")
    ap.add_argument("--no-latency", action="store_true", help="skip the typing-latency sessions")
    ap.add_argument("--misspellings-max", type=int, default=0,
                    help="only the first K pairs of each half (default: all)")
    ap.add_argument("--config-extra", default="{}", help="JSON object merged into the configurations' top level")
    ap.add_argument("--provider-extra", default="{}", help="JSON object merged into the prefix and fuzzy entries")
    ap.add_argument("--fuzzy-extra", default="{}", help="JSON object merged into the fuzzy entry only")
    ap.add_argument("--examples", type=int, default=0, help="print up to K examples of each oddity seen")
    ap.add_argument("--history", default="none,refind",
                    help="comma-separated session models: none (nothing submitted), refind (40 %% of searches repeat "
                         "the person's own), iid (every search drawn by weight and submitted); default none,refind")
    ap.add_argument("--cmdline", help=argparse.SUPPRESS)  # the wrapper's own command line, for the header
    args = ap.parse_args()
    try:
        config_extra, provider_extra = json.loads(args.config_extra), json.loads(args.provider_extra)
        fuzzy_extra = json.loads(args.fuzzy_extra)
        assert isinstance(config_extra, dict) and isinstance(provider_extra, dict) and isinstance(fuzzy_extra, dict)
    except (json.JSONDecodeError, AssertionError):
        ap.error("--config-extra, --provider-extra and --fuzzy-extra take a JSON object")
    if not os.access(args.bin, os.X_OK):
        ap.error(f"--bin {args.bin}: not an executable file")
    histories = [h.strip() for h in args.history.split(",") if h.strip()]
    if not histories or any(h not in HISTORY_LABELS for h in histories):
        ap.error(f"--history takes a comma-separated list of {', '.join(HISTORY_LABELS)}")
    os.makedirs(DATA, exist_ok=True)
    wall = time.monotonic()
    cmdline = args.cmdline or " ".join(shlex.quote(a) for a in [sys.argv[0], *sys.argv[1:]])

    words_path = os.path.join(DATA, "words-200k.tsv")
    pypi_path = os.path.join(DATA, "pypi-names.tsv")
    miss_path = os.path.join(DATA, "misspellings.tsv")
    datasets = [d for d in ("words", "pypi") if args.dataset in (d, "both")]
    want_miss = not args.no_misspellings
    if "words" in datasets or want_miss:
        prepare_words(words_path)
    if "pypi" in datasets:
        prepare_pypi(pypi_path)
    natural_path = os.path.join(DATA, "misspellings-natural.tsv")
    if want_miss:
        prepare_misspellings(miss_path, words_path)
        typing_sessions.prepare_natural(natural_path, {text for text, _ in read_tsv(words_path)})

    files = {"words": words_path, "pypi": pypi_path}
    examples = Examples(args.examples)
    results, failures = [], []
    for name in datasets:
        config = os.path.join(DATA, f"quality-{name}.suggest.json")
        write_config(config, os.path.basename(files[name]), config_extra, provider_extra, fuzzy_extra)
        t0 = time.monotonic()
        entries = read_tsv(files[name])
        ideal = Ideal(entries)
        log(f"{name}: {len(entries):,} entries, {len(ideal.keys):,} folded keys, ideal index in "
            f"{time.monotonic() - t0:.1f} s")
        for history in histories:
            result = run_sessions(name, args.bin, config, entries, ideal, args.n, args.seed, examples, history)
            if result["returncode"] != 0:
                failures.append(
                    f"{name}: suggest batch failed (status {result['returncode']}): {result['stderr'][:1000]}")
                if not result["problems"].answered:
                    continue
            results.append(result)

    miss = None
    if want_miss:
        config = os.path.join(DATA, "quality-misspellings.suggest.json")
        write_config(config, os.path.basename(words_path), config_extra, provider_extra, fuzzy_extra)
        pairs = []
        with open(miss_path, encoding="utf-8") as f:
            for line in f:
                wrong, right, half = line.rstrip("\n").split("\t")
                pairs.append((wrong, right, f"codespell {half}"))
        with open(natural_path, encoding="utf-8") as f:
            for line in f:
                wrong, right, _ = line.rstrip("\n").split("\t")
                pairs.append((wrong, right, "natural (nlpaug)"))
        if args.misspellings_max > 0:
            kept = dict.fromkeys((p[2] for p in pairs), 0)
            sample = []
            for p in pairs:
                if kept[p[2]] < args.misspellings_max:
                    kept[p[2]] += 1
                    sample.append(p)
            pairs = sample
        miss = run_misspellings(args.bin, config, pairs)
        if miss["returncode"] != 0:
            failures.append(f"misspellings: suggest batch failed (status {miss['returncode']}): {miss['stderr'][:1000]}")
            if not miss["problems"].answered:
                miss = None

    # ------------------------------------------------------------------ the report
    try:
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        load = "?"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"## Quality report ({now})", "",
           f"{now} · N = {args.n:,} · seed {args.seed} · `{cmdline}` · uptime: {load}", ""]
    if config_extra or provider_extra or fuzzy_extra:
        out += [f"Configuration extras: top level {json.dumps(config_extra)}, prefix/fuzzy {json.dumps(provider_extra)}, "
                f"fuzzy {json.dumps(fuzzy_extra)}", ""]
    for f in failures:
        out += [f"**FAILED** {f}", ""]
    for r in results:
        out += dataset_table(r)
    if miss:
        out += ["### Misspellings (word list, engine only, no recent searches)", "",
                "| source | n | full R@1 | full R@5 | minus-last R@1 | minus-last R@5 |", "|---|---|---|---|---|---|"]
        for half in miss["halves"]:
            h = miss["halves"][half]
            n = max(1, h["n"])
            out.append(f"| {half} | {h['n']:,} | {h['full1'] / n:.4f} | {h['full5'] / n:.4f} | "
                       f"{h['cut1'] / n:.4f} | {h['cut5'] / n:.4f} |")
        out.append("")
    out.append("### Latency (`micros`, engine time per text line)")
    out.append("")
    for r in results:
        out.append(latency_line(r["name"], r["micros"], r["slowest"]))
    if miss:
        out.append(latency_line("misspellings", miss["micros"], miss["slowest"]))
    out.append("")
    if not args.no_latency:
        log("typing latency: sessions of typing_sessions.py through suggest batch --diagnostics ...")
        latency = subprocess.run(
            [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "typing-latency.py"),
             "--bin", args.bin, "--provider-extra", json.dumps(provider_extra)],
            capture_output=True, text=True)
        out += ["### Typing latency: names and words typed by weight, misspelt, and corrected with backspace", ""]
        if latency.returncode != 0:
            failures.append(f"typing latency: {latency.stderr.strip()[:1000]}")
            out += [f"**FAILED** {latency.stderr.strip()[:1000]}", ""]
        else:
            out += [latency.stdout.rstrip("\n"), ""]
    runs = [(r["name"], r["problems"]) for r in results] + ([("misspellings", miss["problems"])] if miss else [])
    if runs:
        out.append("Answers: " + "; ".join(f"{name}: {p.summary()}" for name, p in runs) + ".")
    for name, p in runs:
        for s in p.samples:
            out.append(f"- {name}: {s}")
    out.append("")
    if examples.kinds:
        out += ["### Examples", ""]
        for kind, items in examples.kinds.items():
            out.append(f"- {kind} ({examples.counts[kind]:,} in all):")
            out += [f"  - {x}" for x in items]
        out.append("")
    out.append(f"Run time: {time.monotonic() - wall:.0f} s.")
    report = "\n".join(out) + "\n"
    sys.stdout.write(report)
    with open(os.path.join(DATA, "quality-report.md"), "w", encoding="utf-8") as f:
        f.write(report)
    return 1 if failures or not (results or miss) else 0


if __name__ == "__main__":
    sys.exit(main())
