"""Model file I/O against json itself: to_json / from_json CPU time and peak RSS
delta as ratios to json.dumps / json.loads on the same document, each measured
in a fresh process.

    python benchmarks/bench_model_io.py [n_rows] [--repeat N]

n_rows: default 500000 (~360k nodes). Each of the four measurements runs N times
(default 3), each in its own process; the least CPU time and the least peak are
kept (other load on the machine only adds to them).
"""
import argparse
import os
import subprocess
import sys
import tempfile

MEASURE = r"""
import json, sys, time
path, what = sys.argv[1], sys.argv[2]
from c45 import from_json, to_json     # imported before the clock starts
import c45._classifier                  # (from_json imports it when first called)
text = open(path, encoding="utf-8").read()
if what in ("to_json", "dumps"):
    clf = from_json(text)
    doc = json.loads(text) if what == "dumps" else None
del text
def status(field):               # MB, from /proc/self/status
    with open("/proc/self/status") as f:
        line = next(l for l in f if l.startswith(field))
    return int(line.split()[1]) / 1024
if what in ("from_json", "loads"):
    text = open(path, encoding="utf-8").read()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")                 # the peak (VmHWM) starts again from here
before = status("VmRSS")
t = time.process_time()
if what == "loads":
    out = json.loads(text)
elif what == "from_json":
    out = from_json(text)
elif what == "dumps":
    out = json.dumps(doc, ensure_ascii=False, allow_nan=False)
else:
    out = to_json(clf)
t = time.process_time() - t
print(t, status("VmHWM") - before)
"""


def run(path, what):
    out = subprocess.run([sys.executable, "-c", MEASURE, path, what], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main():
    import numpy as np
    import c45
    from c45 import C45Classifier, to_json
    ap = argparse.ArgumentParser()
    ap.add_argument("n_rows", type=int, nargs="?", default=500_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = args.n_rows
    rng = np.random.default_rng(0)
    X = rng.random((n, 4))
    y = rng.integers(0, 3, n)       # noise: a leaf for nearly every few rows
    X[rng.random((n, 4)) < 0.05] = np.nan
    clf = C45Classifier(min_samples_leaf=1, pruning=None, mdl_correction=False).fit(X, y)
    arrays = sum(getattr(t, f).nbytes for t in (clf.tree_, clf.grown_tree_)
                 for f in t._fields) / 2**20
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_json(clf))
        size = os.path.getsize(path) / 2**20
        print(f"c45 {c45.__file__}")
        print(f"model: {clf.grown_tree_.node_count} nodes, file {size:.1f} MB, "
              f"the trees' arrays {arrays:.1f} MB; best of {args.repeat} runs")
        print(f"{'':10s} {'c45 CPU s':>9s} {'json CPU s':>10s} {'ratio':>6s} "
              f"{'c45 MB':>7s} {'json MB':>8s} {'ratio':>6s} {'c45 - json - arrays MB':>23s}")
        for ours, theirs in (("from_json", "loads"), ("to_json", "dumps")):
            best = {ours: [np.inf, np.inf], theirs: [np.inf, np.inf]}
            for _ in range(args.repeat):
                for what in (ours, theirs):
                    t, m = run(path, what)
                    best[what] = [min(best[what][0], t), min(best[what][1], m)]
            (t1, m1), (t0, m0) = best[ours], best[theirs]
            over = f"{m1 - m0 - arrays:+23.0f}" if ours == "from_json" else ""
            print(f"{ours:10s} {t1:9.2f} {t0:10.2f} {t1 / t0:6.2f} {m1:7.0f} {m0:8.0f} "
                  f"{m1 / max(m0, 1):6.2f} {over}")


if __name__ == "__main__":
    main()
