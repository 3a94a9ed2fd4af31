"""How long c45 keeps Python from running a signal handler (Ctrl-C's included).

Python runs signal handlers between bytecodes on the main thread; c45's compiled
loops look for signals themselves. A SIGPROF handler runs every 2 ms of CPU time
and notes the CPU time since its last run: the longest such gap is the longest
the work was deaf to Ctrl-C (CPU time, so that other processes' load counts
little; on a loaded machine a gap can still grow, each first touch of fresh
memory slower).

    python benchmarks/bench_signal_gaps.py ROWS {fit,fit_weighted,fit_float32,predict,predict_proba,apply,predict_proba_unused,rules_deep} [--list SECONDS] [--trace auto|True|False] [--classes K] [--pruning KIND]

One feature of ROWS rows (uniform in [0, 1000), a noisy sine as the class);
float32 and the predict modes give 5% of the values as NaN (the predict modes
fit on the first 300,000 rows, then predict all; predict_proba_unused's y is a
pandas Categorical with a category no row has, so predict_proba's columns are
picked out of the tree's). rules_deep: C45RulesClassifier's fit on a
tree as deep as it is wide (x = 0, 1, ..., ROWS - 1, the class x mod 2,
min_samples_leaf=1, mdl_correction=False: 247 levels for 5,000 rows, 767 for
18,000), whose condition dropping has a step per condition of every leaf's
path (40 million rows of pruning_log_'s trace for 5,000, kept with --trace
True; the default "auto" drops it past 2**22 rows), and the process's peak RSS
is printed too. --list prints every gap longer than SECONDS with the Python
lines it ended at. --classes K: the fit modes' y is K classes drawn at random
instead (every node then holds K class weights), on 4 features;
--pruning: the fit's pruning (pessimistic by default; none: pruning=None).
"""
import argparse
import resource
import signal
import time
import traceback

import numpy as np
import pandas as pd

from c45 import C45Classifier


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=int)
    ap.add_argument("mode", choices=["fit", "fit_weighted", "fit_float32", "predict",
                                     "predict_proba", "apply", "predict_proba_unused",
                                     "rules_deep"])
    ap.add_argument("--list", type=float, default=None, metavar="SECONDS")
    ap.add_argument("--trace", choices=["auto", "True", "False"], default="auto",
                    help="rules_deep's pruning_trace")
    ap.add_argument("--classes", type=int, default=None, metavar="K")
    ap.add_argument("--pruning", choices=["pessimistic", "cost_complexity", "reduced_error",
                                          "none"], default="pessimistic")
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    X = rng.random((a.rows, 1)) * 1000
    y = (np.sin(0.009 * X[:, 0]) + rng.random(a.rows) > 1) * 1
    if a.classes is not None:
        X = rng.random((a.rows, 4))
        y = rng.integers(0, a.classes, a.rows)
    w = rng.random(a.rows) + 0.5 if a.mode == "fit_weighted" else None
    if a.mode not in ("fit", "fit_weighted", "rules_deep"):
        X[rng.random(a.rows) < 0.05, 0] = np.nan
    if a.mode == "rules_deep":
        from c45 import C45RulesClassifier
        X = np.arange(a.rows, dtype=float)[:, None]
        y = np.arange(a.rows) % 2
        trace = {"True": True, "False": False}.get(a.trace, a.trace)
        clf = C45RulesClassifier(min_samples_leaf=1, mdl_correction=False,
                                 pruning_trace=trace)
        work = lambda: clf.fit(X, y)
    elif a.mode.startswith("fit"):
        clf = C45Classifier(precision="float32" if a.mode == "fit_float32" else "float64",
                            pruning=None if a.pruning == "none" else a.pruning,
                            **({"ccp_alpha": 1.0} if a.pruning == "cost_complexity" else {}))
        work = lambda: clf.fit(X, y, sample_weight=w)
    elif a.mode == "predict_proba_unused":
        y = pd.Categorical(np.array(["b", "a"])[y], categories=["a", "c", "b"])
        clf = C45Classifier().fit(X[:300000], y[:300000])
        work = lambda: clf.predict_proba(X)
    else:
        clf = C45Classifier().fit(X[:300000], y[:300000])
        work = lambda: getattr(clf, a.mode)(X)

    last = [time.process_time()]
    gaps = []

    def note(sig, frame):
        now = time.process_time()
        gap = now - last[0]
        if a.list is not None and gap > a.list and frame is not None:
            where = [f"{s.name}:{s.lineno}" for s in traceback.extract_stack(frame)[-3:]]
            gaps.append((round(gap, 3), round(now - t0, 2), where))
        worst[0] = max(worst[0], gap)
        last[0] = time.process_time()      # (the stack's extraction not counted)

    worst = [0.0]
    signal.signal(signal.SIGPROF, note)
    signal.setitimer(signal.ITIMER_PROF, 0.002, 0.002)
    t0 = time.process_time()
    work()
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    note(None, None)
    if a.list is not None:
        for g in gaps:
            print("  gap %.3f s at %.2f s: %s" % (g[0], g[1], " < ".join(g[2])))
    print("%s, %d rows: longest gap %.3f s of %.2f s CPU, peak RSS %.0f MB"
          % (a.mode, a.rows, worst[0], time.process_time() - t0,
             resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3))


if __name__ == "__main__":
    main()
