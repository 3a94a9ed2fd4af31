"""Model file I/O against json itself: to_json / from_json time and peak RSS
delta as ratios to json.dumps / json.loads on the same document, each measured
in a fresh process.

    python benchmarks/bench_model_io.py [n_rows]      (default 500000: ~500k nodes)
"""
import json
import os
import subprocess
import sys
import tempfile

MEASURE = r"""
import json, resource, sys, time
path, what = sys.argv[1], sys.argv[2]
from c45 import from_json, to_json     # imported before the clock starts
text = open(path).read()
if what in ("to_json", "dumps"):
    clf = from_json(text)
    doc = json.loads(text) if what == "dumps" else None
del text
def status(field):               # MB, from /proc/self/status
    with open("/proc/self/status") as f:
        line = next(l for l in f if l.startswith(field))
    return int(line.split()[1]) / 1024
if what in ("from_json", "loads"):
    text = open(path).read()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")                 # the peak (VmHWM) starts again from here
before = status("VmRSS")
t = time.perf_counter()
if what == "loads":
    out = json.loads(text)
elif what == "from_json":
    out = from_json(text)
elif what == "dumps":
    out = json.dumps(doc, ensure_ascii=False, allow_nan=False)
else:
    out = to_json(clf)
t = time.perf_counter() - t
print(t, status("VmHWM") - before)
"""


def run(path, what):
    out = subprocess.run([sys.executable, "-c", MEASURE, path, what], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main():
    import numpy as np
    from c45 import C45Classifier, to_json
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
    rng = np.random.default_rng(0)
    X = rng.random((n, 4))
    y = rng.integers(0, 3, n)       # noise: a leaf for nearly every few rows
    X[rng.random((n, 4)) < 0.05] = np.nan
    clf = C45Classifier(min_samples_leaf=1, pruning=None, mdl_correction=False).fit(X, y)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.json")
        with open(path, "w") as f:
            f.write(to_json(clf))
        size = os.path.getsize(path) / 2**20
        print(f"model: {clf.grown_tree_.node_count} nodes, file {size:.1f} MB")
        print(f"{'':10s} {'c45 s':>8s} {'json s':>8s} {'ratio':>6s} {'c45 MB':>8s} "
              f"{'json MB':>8s} {'ratio':>6s}")
        for ours, theirs in (("from_json", "loads"), ("to_json", "dumps")):
            (t1, m1), (t0, m0) = run(path, ours), run(path, theirs)
            print(f"{ours:10s} {t1:8.2f} {t0:8.2f} {t1 / t0:6.2f} {m1:8.0f} {m0:8.0f} "
                  f"{m1 / max(m0, 1):6.2f}")


if __name__ == "__main__":
    main()
