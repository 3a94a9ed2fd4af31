"""The R8 corpus: 300 generated problems and everything C4.5 Release 8 printed for them.

The corpus (``r8-random/`` of the project's reference data) is kept compressed in
``tests/data/r8-random.tar.xz``: for each problem ``rNNNN`` its ``.names``, ``.data``
and ``.test`` files, R8's output for ``c4.5 -f rNNNN -u`` under five options
(``default``, ``m1`` = ``-m 1``, ``c10`` = ``-c 10``, ``s`` = ``-s``, ``g`` = ``-g``;
``p`` = ``-p``, soft thresholds, and ``ps`` = ``-p -s``),
R8's ``c4.5rules -f rNNNN -u`` output (``rules``) and with ``-c 10``, ``-F 10``,
``-r 1.5`` and ``-a`` (``rules-c10``, ``rules-F10``, ``rules-r15``, ``rules-a``), the
per-case classes and class sums of R8's default trees (``pred.csv``), ``index.json``
(sizes and errors of each) and ``extra.json`` (the rule options' rules and errors).

This module extracts the archive once per process and compares c45 with it:

* :func:`fit_output` runs ``c45 fit -f STEM -u --precision float32`` with an option
  in-process and returns its output; :func:`tree_report` keeps, of either program's
  output, the part that must be equal line for line (from ``Decision Tree:`` on: the
  grown and pruned trees, both evaluation tables and the confusion matrix);
* :func:`sums_differences` compares every case's class and class sums (train and
  test, grown and pruned tree) with ``pred.csv``, as float32;
* :func:`rules_text` makes either program's whole c4.5rules output comparable line
  for line (the options, the ruleset, the evaluations on the training and test
  data with the rules dropped, the confusion matrices); :func:`rules_report` keeps
  the part from ``Final rules`` on.

Run as a script it measures the whole corpus (``python tests/r8_corpus.py [-j N]
[problem ...]``) and prints every difference; the tests in ``test_r8_corpus.py``
assert the same checks.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import os
import re
import tarfile
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ARCHIVE = os.path.join(HERE, "data", "r8-random.tar.xz")
# R8's outputs of further options, each in an archive of its own, extracted into
# the same folder: windowing (``t3``, ``t3m1``, ``t1w``) and soft thresholds
# (``p`` = ``-p``, ``ps`` = ``-p -s``).
MORE_ARCHIVES = [os.path.join(HERE, "data", "r8-random-windowing.tar.xz"),
                 os.path.join(HERE, "data", "r8-random-soft.tar.xz")]
OPTIONS = {"default": [], "m1": ["-m", "1"], "c10": ["-c", "10"], "s": ["-s"],
           "g": ["-g"], "p": ["-p"], "ps": ["-p", "-s"]}
# The options whose figures are in index.json; the others' are in extra.json.
INDEX_OPTIONS = ("default", "m1", "c10", "s", "g")
# c4.5rules' options, each run by R8 on the default tree: the same flags in c45.
RULES_OPTIONS = {"rules": [], "rules-c10": ["-c", "10"], "rules-F10": ["-F", "10"],
                 "rules-r15": ["-r", "1.5"], "rules-a": ["-a"]}
# Windowing: c4.5 -t 3, -t 3 -m 1, and -t 1 -w W -i I with each problem's own W
# and I (read from the options R8 printed).
WINDOW_OPTIONS = {"t3": ["-t", "3"], "t3m1": ["-t", "3", "-m", "1"], "t1w": None}


@functools.lru_cache(maxsize=None)
def corpus_dir() -> str:
    """The extracted corpus (a temporary folder, removed at exit)."""
    tmp = tempfile.TemporaryDirectory(prefix="c45-r8-random-")
    _KEEP.append(tmp)
    for archive in [ARCHIVE] + MORE_ARCHIVES:
        with tarfile.open(archive, "r:xz") as tar:
            tar.extractall(tmp.name, filter="data")
    return os.path.join(tmp.name, "r8-random")


_KEEP: list = []


@functools.lru_cache(maxsize=None)
def index() -> dict:
    with open(os.path.join(corpus_dir(), "index.json"), encoding="utf-8") as fh:
        return json.load(fh)


@functools.lru_cache(maxsize=None)
def extra() -> dict:
    """The figures of R8's runs with the options index.json leaves out."""
    with open(os.path.join(corpus_dir(), "extra.json"), encoding="utf-8") as fh:
        return json.load(fh)


def problems() -> list:
    return sorted(index())


def stem(problem: str) -> str:
    return os.path.join(corpus_dir(), problem)


def figures(problem: str, option: str) -> dict:
    """R8's sizes and errors of a c4.5 option (index.json's or extra.json's)."""
    return (index() if option in INDEX_OPTIONS else extra())[problem][option]


def r8_text(problem: str, what: str) -> str:
    with open(f"{stem(problem)}.r8.{what}.txt", encoding="utf-8") as fh:
        return fh.read()


# (stem, encoding, parts read before by the same C45Files, part) -> (X, y). Each
# problem's files are read by six commands and by data(); parsing is a fifth of
# a command's time, so each (stem, part) is parsed once and the others get
# copies. A C45Files numbers "discrete N" values over its earlier reads, hence
# the key holds them.
_READS: dict = {}


@contextlib.contextmanager
def shared_reads():
    """Within: C45Files.read answers a read made before (same file, same earlier
    reads through its object) with a deep copy of what that read returned."""
    from c45.io import C45Files
    read = C45Files.read

    def shared(self, part="data", progress=None):
        history = self.__dict__.setdefault("_r8_corpus_parts", [])
        key = (self.stem, self.encoding, tuple(history), part)
        history.append(part)
        if key not in _READS:
            _READS[key] = read(self, part, progress)
        X, y = _READS[key]
        return X.copy(deep=True), y.copy()

    C45Files.read = shared
    try:
        yield
    finally:
        C45Files.read = read


def run_cli(argv):
    """(output, fitted model) of ``c45 ARGV`` run in this process (reading its
    files through shared_reads)."""
    from c45 import cli
    out = io.StringIO()
    fitted = []
    fit = cli._fit

    def keep(*args, **kwargs):
        fitted.append(fit(*args, **kwargs))
        return fitted[-1]

    cli._fit = keep
    try:
        with contextlib.redirect_stdout(out), shared_reads():
            status = cli.main(argv)
    finally:
        cli._fit = fit
    if status != 0:
        raise RuntimeError(f"c45 {' '.join(argv)} exited {status}")
    return out.getvalue(), (fitted[0] if fitted else None)


def fit_run(problem: str, option: str):
    return run_cli(["fit", "-f", stem(problem), "-u", "--precision", "float32", "-q",
                    *OPTIONS[option]])


def fit_output(problem: str, option: str) -> str:
    return fit_run(problem, option)[0]


def rules_run(problem: str, option: str = "rules"):
    return run_cli(["rules", "-f", stem(problem), "-u", "--precision", "float32", "-q",
                    *RULES_OPTIONS[option]])


def window_flags(problem: str, option: str) -> list:
    """The windowing flags of R8's run, in its order."""
    flags = WINDOW_OPTIONS[option]
    if flags is None:
        text = r8_text(problem, option)
        w = re.search(r"Initial window size of (\d+) items", text).group(1)
        i = re.search(r"Maximum window increment of (\d+) items", text).group(1)
        flags = ["-t", "1", "-w", w, "-i", i]
    return flags


def window_run(problem: str, option: str):
    return run_cli(["fit", "-f", stem(problem), "-u", "--precision", "float32", "-q",
                    *window_flags(problem, option)])


def window_text(text: str, problem: str) -> list:
    """Either program's whole c4.5 output with windowing as comparable lines:
    rules_text's, without blank lines, and without the words about R8's saved
    file (R8 writes the tree to a file and says so: ``Tree saved``, ``Best tree
    from trial 1 saved``; c45 fit says which trial is best and saves only with
    --save)."""
    out = []
    for line in rules_text(text, problem):
        if not line or line == "Tree saved":
            continue
        if line.startswith("Best tree from trial ") and line.endswith(" saved"):
            line = line[:-len(" saved")]
        out.append(line)
    return out


def rules_output(problem: str, option: str = "rules") -> str:
    return rules_run(problem, option)[0]


def tree_report(text: str) -> list:
    """Lines from ``Decision Tree:`` on, without blank lines and ``Tree saved``."""
    lines = [line.rstrip() for line in text.splitlines()]
    start = lines.index("Decision Tree:")
    return [line for line in lines[start:]
            if line.strip() and not line.startswith("Tree saved")]


def rules_report(text: str) -> list:
    """c4.5rules' report from ``Final rules from tree 0:`` on: the ruleset, the
    evaluations (with the rules dropped) and the confusion matrices, every line
    (blank ones included) without trailing whitespace."""
    lines = [line.rstrip() for line in text.splitlines()]
    start = lines.index("Final rules from tree 0:")
    while lines and not lines[-1]:
        lines.pop()
    return lines[start:]


def rules_text(text: str, problem: str) -> list:
    """Either program's whole c4.5rules output as lines without trailing whitespace,
    made comparable: the banner line (R8's, with the run's date, is removed from
    its files) and c45's own options line (``precision ...``) left out, the file
    stem named as R8's runs named it (``x``), trailing blank lines dropped."""
    where = stem(problem)
    out = []
    for line in text.splitlines():
        line = line.rstrip()
        if line.startswith("C4.5 [release 8]") or line.startswith("\tprecision "):
            continue
        out.append(line.replace(f"<{where}>", "<x>").replace(f" from {where}", " from x"))
    while out and not out[-1]:
        out.pop()
    return out


def first_difference(got: list, expected: list) -> str:
    if got == expected:
        return ""
    n = min(len(got), len(expected))
    i = next((k for k in range(n) if got[k] != expected[k]), n)
    return (f"line {i + 1} (R8 {len(expected)} lines, c45 {len(got)}): "
            f"R8 {expected[i] if i < len(expected) else '<end>'!r}, "
            f"c45 {got[i] if i < len(got) else '<end>'!r}")


@functools.lru_cache(maxsize=8)
def data(problem: str):
    """((X, y), (X_test, y_test)) of a problem, as the c45 command reads them."""
    from c45.io import C45Files
    with shared_reads():
        files = C45Files(stem(problem))
        return files.read("data"), files.read("test")


def sums_differences(problem: str, clf=None, limit: int = 5) -> list:
    """Cases whose class or float32 class sums differ from R8's ``pred.csv``, for
    clf (by default fitted with R8's default options, in float32)."""
    (X, y), (Xt, _) = data(problem)
    if clf is None:
        from c45 import C45Classifier
        clf = C45Classifier(precision="float32").fit(X, y)
    parts = {"train": X, "test": Xt}
    got = {}
    for part, rows in parts.items():
        for tree, name in (("final", "pruned"), ("grown", "unpruned")):
            sums = clf._sums(rows, clf._pick_tree(tree, clf.__dict__)).astype(np.float32)
            cls = clf.predict(rows, tree=tree)
            got[part, name] = (sums, cls)
    classes = [str(c) for c in clf.declared_classes_]
    out = []
    with open(f"{stem(problem)}.r8.pred.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            part, i = row["part"], int(row["row"])
            for name in ("pruned", "unpruned"):
                sums, cls = got[part, name]
                want = np.array([np.float32(row[f"{name}_sum[{c}]"]) for c in classes],
                                dtype=np.float32)
                if str(cls[i]) != row[name] or not np.array_equal(sums[i], want):
                    out.append(f"{part} row {i} {name}: R8 {row[name]} {want.tolist()}, "
                               f"c45 {cls[i]} {sums[i].tolist()}")
                    if len(out) >= limit:
                        return out
    return out


def check_problem(problem: str, checks=None) -> dict:
    """Every difference of one problem, by check (empty lists: all equal); checks:
    the names of those to run (default all)."""
    result = {}
    for option in OPTIONS:
        if checks and option not in checks:
            continue
        try:
            got = tree_report(fit_output(problem, option))
            diff = first_difference(got, tree_report(r8_text(problem, option)))
        except Exception as exc:  # noqa: BLE001 - reported, not hidden
            diff = f"{type(exc).__name__}: {exc}"
        result[option] = [diff] if diff else []
    for option in WINDOW_OPTIONS:
        if checks and option not in checks:
            continue
        try:
            got = window_text(window_run(problem, option)[0], problem)
            diff = first_difference(got, window_text(r8_text(problem, option), problem))
        except Exception as exc:  # noqa: BLE001
            diff = f"{type(exc).__name__}: {exc}"
        result[option] = [diff] if diff else []
    if not checks or "sums" in checks:
        try:
            result["sums"] = sums_differences(problem)
        except Exception as exc:  # noqa: BLE001
            result["sums"] = [f"{type(exc).__name__}: {exc}"]
    for option in RULES_OPTIONS:
        if checks and option not in checks:
            continue
        try:
            got = rules_text(rules_output(problem, option), problem)
            diff = first_difference(got, rules_text(r8_text(problem, option), problem))
        except Exception as exc:  # noqa: BLE001
            diff = f"{type(exc).__name__}: {exc}"
        result[option] = [diff] if diff else []
    return result


def _main(argv=None):
    import argparse
    from concurrent.futures import ProcessPoolExecutor
    p = argparse.ArgumentParser(description="compare c45 float32 with R8 on the corpus")
    p.add_argument("problems", nargs="*")
    p.add_argument("-j", type=int, default=os.cpu_count() or 1)
    p.add_argument("--check", action="append", metavar="NAME",
                   help="run only this check (repeatable): "
                        + ", ".join(list(OPTIONS) + ["sums"] + list(RULES_OPTIONS)
                                    + list(WINDOW_OPTIONS)))
    args = p.parse_args(argv)
    names = args.problems or problems()
    checks = args.check or (list(OPTIONS) + ["sums"] + list(RULES_OPTIONS)
                            + list(WINDOW_OPTIONS))
    with ProcessPoolExecutor(args.j) as pool:
        results = dict(zip(names, pool.map(functools.partial(check_problem, checks=checks),
                                           names, chunksize=4)))
    for name, res in results.items():
        for check in checks:
            for line in res[check]:
                print(f"{name} {check}: {line}")
    for check in checks:
        ok = sum(1 for r in results.values() if not r[check])
        print(f"{check}: {ok}/{len(results)} equal")


if __name__ == "__main__":
    _main()
