"""Threads in c45: concurrent fits and n_jobs.

(a) Two fits in two Python threads against the same two fits one after the other.
    The Cython core releases the GIL while it grows and prunes a tree, so two fits
    can run on two cores; the Python-side preparation (encoding, sort tables) holds
    the GIL part of the time.
(b) ``n_jobs=1`` against ``n_jobs=2``: for fit (float64 mode evaluates the
    features of a node on several threads when cases x features >= 200,000, so
    only the top levels of the tree) and for predict (rows in parallel).

(busy) ``--only busy``: every public call of C45Classifier and C45RulesClassifier
    (and scikit-learn's tree) alone, then beside a Python thread that never gives
    the GIL up by itself: busy / alone.
(releases) ``--only releases``: how many times one call of each gives the GIL up
    (each release can cost a switch interval beside a busy thread), counted by a
    PyEval_SaveThread wrapper built with ``cc`` and preloaded (LD_PRELOAD, Linux).

It measures wall time (``time.perf_counter``) and CPU time of the process
(``time.process_time``, all threads), the minimum over ``--repeat`` runs, and
checks that every mode gives the same trees and predictions (it exits with an
error if not). It never asserts on times: it is a measuring tool, not a test.
The machine's load average is printed before and after each section: other
processes competing for the cores make the speedups meaningless, so read them
together (``--wait-load L`` waits for the 1-minute load to drop below L first).

    python benchmarks/bench_threads.py                  # n=1,000,000 x 10 continuous
    python benchmarks/bench_threads.py --n 100000       # scaled down (a few seconds)
    python benchmarks/bench_threads.py --markdown --json threads.json

Data: ``--n`` rows of ``--features`` standard normal features (no missing values),
two classes from a noisy nonlinear rule (a sine, a product, a threshold on a sum,
a linear part; 10% of the labels flipped); numpy-seeded, so deterministic.
Model: ``C45Classifier()`` (float64, pessimistic pruning).
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import threading
import time

import numpy as np

from bench_vs_sklearn import cpu_model       # this directory


def make_data(n, features, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, features))
    f = lambda j: X[:, j % features]         # noqa: E731
    score = (np.sin(2 * f(0)) + f(1) * f(2) + (f(3) + f(4) + f(5) > 0.5)
             + 0.3 * f(6) - 0.2 * f(7))
    y = (score > np.median(score)).astype(np.int64)
    flip = rng.random(n) < 0.10
    y[flip] = 1 - y[flip]
    return X, y


def import_c45(tries=10):
    """Import c45, retrying briefly (another process may be rebuilding it)."""
    for i in range(tries):
        try:
            import c45
            return c45
        except ImportError:
            if i == tries - 1:
                raise
            time.sleep(2)


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def best(runs):
    """Minimum wall time of the runs, with that run's CPU time."""
    wall, cpu = min(runs)
    return {"wall": wall, "cpu": cpu, "all_wall": [r[0] for r in runs]}


def load():
    return [round(x, 2) for x in os.getloadavg()]


def same_trees(a, b):
    from c45._tree import Tree
    for t, u in ((a.tree_, b.tree_), (a.grown_tree_, b.grown_tree_)):
        for f in Tree._fields:
            if getattr(t, f).tobytes() != getattr(u, f).tobytes():
                return False
    return True


def two_threads(fn):
    """Run fn(0) and fn(1) in two threads released together; (results, wall, cpu)."""
    barrier = threading.Barrier(3)
    out, errors = [None, None], []

    def work(i):
        try:
            barrier.wait()
            out[i] = fn(i)
        except BaseException as exc:           # noqa: BLE001 - re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    w, c = time.perf_counter(), time.process_time()
    barrier.wait()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    if errors:
        raise errors[0]
    return out, wall, cpu


def section_concurrent_fits(C45Classifier, X, y, repeat):
    serial_runs, thread_runs = [], []
    ref = None
    for _ in range(repeat):
        models, wall, cpu = timed(lambda: [C45Classifier().fit(X, y) for _ in range(2)])
        serial_runs.append((wall, cpu))
        if ref is None:
            ref = models[0]
        models, wall, cpu = two_threads(lambda i: C45Classifier().fit(X, y))
        thread_runs.append((wall, cpu))
        if not all(same_trees(m, ref) for m in models):
            sys.exit("error: a fit in a thread gave another tree than the serial fit")
    s, t = best(serial_runs), best(thread_runs)
    return {"serial": s, "threads": t, "speedup": s["wall"] / t["wall"],
            "nodes": ref.tree_.node_count, "depth": ref.get_depth()}


def section_n_jobs(C45Classifier, X, y, repeat):
    fits = {1: [], 2: []}
    preds = {1: [], 2: []}
    models, probas = {}, {}
    for _ in range(repeat):
        for nj in (1, 2):
            m, wall, cpu = timed(lambda: C45Classifier(n_jobs=nj).fit(X, y))
            fits[nj].append((wall, cpu))
            models.setdefault(nj, m)
    for _ in range(repeat):
        for nj in (1, 2):
            p, wall, cpu = timed(lambda: models[nj].predict_proba(X))
            preds[nj].append((wall, cpu))
            probas.setdefault(nj, p)
    if not same_trees(models[1], models[2]):
        sys.exit("error: n_jobs=2 grew another tree than n_jobs=1")
    if probas[1].tobytes() != probas[2].tobytes():
        sys.exit("error: n_jobs=2 predicted other probabilities than n_jobs=1")
    out = {"fit": {nj: best(fits[nj]) for nj in (1, 2)},
           "predict": {nj: best(preds[nj]) for nj in (1, 2)}}
    out["fit_speedup"] = out["fit"][1]["wall"] / out["fit"][2]["wall"]
    out["predict_speedup"] = out["predict"][1]["wall"] / out["predict"][2]["wall"]
    return out


def environment(c45):
    here = os.path.dirname(os.path.abspath(c45.__file__))
    try:
        commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "c45": getattr(c45, "__version__", "?"),
        "c45_path": here,
        "c45_commit": commit,
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
    }


def wait_for_load(limit, max_wait):
    t0 = time.time()
    while os.getloadavg()[0] >= limit and time.time() - t0 < max_wait:
        print(f"  load {os.getloadavg()[0]:.2f} >= {limit}: waiting ...", flush=True)
        time.sleep(30)
    return time.time() - t0


def fmt(r):
    return f"{r['wall']:.3f} | {r['cpu']:.3f}"


def report(res, markdown):
    a, b = res["concurrent_fits"], res["n_jobs"]
    rows = [
        ("(a) 2 fits, one after the other", fmt(a["serial"]), "1.00"),
        ("(a) 2 fits, two threads at once", fmt(a["threads"]), f"{a['speedup']:.2f}"),
        ("(b) fit, n_jobs=1", fmt(b["fit"][1]), "1.00"),
        ("(b) fit, n_jobs=2", fmt(b["fit"][2]), f"{b['fit_speedup']:.2f}"),
        ("(b) predict_proba, n_jobs=1", fmt(b["predict"][1]), "1.00"),
        ("(b) predict_proba, n_jobs=2", fmt(b["predict"][2]), f"{b['predict_speedup']:.2f}"),
    ]
    if markdown:
        print("| run | wall s | CPU s | speedup (wall) |")
        print("|---|---:|---:|---:|")
        for r in rows:
            print(f"| {r[0]} | {r[1]} | {r[2]} |")
    else:
        for r in rows:
            wall, cpu = r[1].split(" | ")
            print(f"{r[0]:<34} wall {wall:>8} s   CPU {cpu:>8} s   speedup {r[2]}")


def busy_calls(c45, X, y):
    """Every public call of C45Classifier and C45RulesClassifier (the rules on the
    first fifth of the rows), and scikit-learn's tree: name -> call. Fitting the
    models they use takes a few fits."""
    import pickle
    from sklearn.tree import DecisionTreeClassifier
    from c45 import C45Classifier, C45RulesClassifier
    from c45.rules import export_rules
    rng = np.random.default_rng(1)
    Xn = X.copy()
    Xn[rng.random(X.shape) < 0.05] = np.nan
    Xr, yr = X[:len(X) // 5], y[:len(y) // 5]
    grown = C45Classifier(pruning=None).fit(Xn, y)
    fitted = C45Classifier().fit(Xn, y)
    kept = C45Classifier(keep_training_data=True).fit(X, y)
    soft = C45Classifier(soft_thresholds=True).fit(X, y)
    rules = C45RulesClassifier().fit(Xr, yr)
    model = c45.to_json(kept)
    blob = pickle.dumps(kept)
    sk = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2).fit(X, y)
    return {
        "c45 fit": lambda: C45Classifier().fit(X, y),
        "c45 fit, n_jobs=2": lambda: C45Classifier(n_jobs=2).fit(X, y),
        "c45 fit, 5% unknown": lambda: C45Classifier().fit(Xn, y),
        "c45 fit, float32": lambda: C45Classifier(precision="float32").fit(X, y),
        "c45 fit, pruning=None": lambda: C45Classifier(pruning=None).fit(X, y),
        "c45 fit, soft_thresholds": lambda: C45Classifier(soft_thresholds=True).fit(X, y),
        "c45 fit, reduced_error": lambda: C45Classifier(
            pruning="reduced_error", random_state=0).fit(X, y),
        "c45 fit, cost_complexity": lambda: C45Classifier(
            pruning="cost_complexity", ccp_alpha=1.0).fit(X, y),
        "c45 fit, trials=3": lambda: C45Classifier(trials=3).fit(X, y),
        "c45 prune": lambda: grown.prune(Xn, y, pruning="pessimistic"),
        "c45 prune, kept data": lambda: kept.prune(pruning="pessimistic"),
        "c45 prune, cost_complexity": lambda: kept.prune(pruning="cost_complexity",
                                                         ccp_alpha=1.0),
        "c45 cost_complexity_pruning_path": lambda: kept.cost_complexity_pruning_path(X, y),
        "c45 predict": lambda: kept.predict(X),
        "c45 predict_proba": lambda: kept.predict_proba(X),
        "c45 predict_proba, 5% unknown": lambda: fitted.predict_proba(Xn),
        "c45 predict_proba, soft_thresholds": lambda: soft.predict_proba(X),
        "c45 predict_log_proba": lambda: kept.predict_log_proba(X),
        "c45 apply": lambda: kept.apply(X),
        "c45 decision_path": lambda: kept.decision_path(X),
        "c45 score": lambda: kept.score(X, y),
        "c45 export_text": lambda: c45.export_text(kept),
        "c45 to_json": lambda: c45.to_json(kept),
        "c45 from_json": lambda: c45.from_json(model),
        "c45 pickle.loads": lambda: pickle.loads(blob),
        "rules fit (n/5 rows)": lambda: C45RulesClassifier().fit(Xr, yr),
        "rules predict": lambda: rules.predict(X),
        "rules predict_proba": lambda: rules.predict_proba(X),
        "rules apply": lambda: rules.apply(X),
        "rules score": lambda: rules.score(X, y),
        "rules export_rules": lambda: export_rules(rules, evaluation=True),
        "scikit-learn fit": lambda: DecisionTreeClassifier(
            criterion="entropy", min_samples_leaf=2).fit(X, y),
        "scikit-learn predict_proba": lambda: sk.predict_proba(X),
    }


def run_queue_wait():
    """Seconds the calling thread has waited on a run queue for a core (Linux
    /proc/thread-self/schedstat), or None."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) * 1e-9
    except (OSError, ValueError, IndexError):
        return None


def timed_less_waits(fn):
    """(wall, wall less the calling thread's run-queue waits or None) of fn()."""
    r, w = run_queue_wait(), time.perf_counter()
    fn()
    wall = time.perf_counter() - w
    return wall, (None if r is None else wall - (run_queue_wait() - r))


def section_busy_thread(c45, X, y, repeat, only=None):
    """(busy) Each call alone, then beside a Python thread that never releases the
    GIL by itself (Python's default 5 ms switch interval), for c45 and for
    scikit-learn's tree: the ratio busy / alone, minimum wall time of `repeat`
    runs each. Every release of the GIL can cost a switch interval there.
    Also (Linux) the same less the calling thread's waits for a core (the
    median of the runs): where
    other processes load the cores, those waits are theirs, not the GIL's
    (the busy thread then takes half of what cores the process gets, and every
    call approaches 2x in wall time)."""
    work = busy_calls(c45, X, y)
    if only:
        work = {k: f for k, f in work.items() if any(o in k for o in only)}
    for f in work.values():
        f()                                     # warm: first-call imports, caches

    def measure():
        runs = {k: [timed_less_waits(f) for _ in range(repeat)] for k, f in work.items()}
        wall = {k: min(r[0] for r in v) for k, v in runs.items()}
        # the median: the waits' accounting is coarse, a call of a few ms can
        # even come out below zero
        less = {k: (float(np.median([r[1] for r in v])) if v[0][1] is not None else None)
                for k, v in runs.items()}
        return wall, less
    alone, alone_less = measure()
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            for _ in range(10000):
                pass
    t = threading.Thread(target=spin, daemon=True)
    t.start()
    try:
        busy, busy_less = measure()
    finally:
        stop.set()
        t.join()
    print("(busy) beside a busy Python thread: wall time busy / alone; and less the "
          "caller's waits for a core")
    for k in work:
        line = (f"  {k:<34} alone {alone[k]:7.3f} s   busy {busy[k]:7.3f} s   "
                f"{busy[k] / alone[k]:5.2f}x")
        if alone_less[k] is not None:
            line += (f"   less waits: alone {alone_less[k]:7.3f} s   busy "
                     f"{busy_less[k]:7.3f} s   {busy_less[k] / max(alone_less[k], 1e-9):5.2f}x")
        print(line, flush=True)
    return {"alone": alone, "busy": busy, "alone_less_waits": alone_less,
            "busy_less_waits": busy_less}


# The counter of GIL releases: PyEval_SaveThread wrapped by a library that
# LD_PRELOAD puts in front of Python's (numpy's and c45's compiled calls reach
# it; Python's own calls inside libpython may not).
_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
unsigned long long c45_gil_releases = 0;
void *PyEval_SaveThread(void) {
    static void *(*real)(void) = 0;
    if (!real) real = (void *(*)(void)) dlsym(RTLD_NEXT, "PyEval_SaveThread");
    c45_gil_releases++;
    return real();
}
"""


def count_releases(argv):
    """Run this script again with the counting shim preloaded (built with cc)."""
    import tempfile
    folder = tempfile.mkdtemp(prefix="c45-gil-")
    src, lib = os.path.join(folder, "shim.c"), os.path.join(folder, "shim.so")
    with open(src, "w") as f:
        f.write(_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", lib, src, "-ldl"], check=True)
    env = dict(os.environ, LD_PRELOAD=lib, C45_COUNT_RELEASES="1")
    return subprocess.run([sys.executable, os.path.abspath(__file__)] + argv, env=env).returncode


def section_releases(c45, X, y, only=None):
    """(releases) GIL releases of one call each (after a first, warming call)."""
    import ctypes
    counter = ctypes.c_ulonglong.in_dll(ctypes.CDLL(None), "c45_gil_releases")
    work = busy_calls(c45, X, y)
    if only:
        work = {k: f for k, f in work.items() if any(o in k for o in only)}
    out = {}
    print("(releases) GIL releases of one call")
    for k, f in work.items():
        f()
        before = counter.value
        f()
        out[k] = counter.value - before
        print(f"  {k:<34} {out[k]:7d}", flush=True)
    return out


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1_000_000, help="rows (1,000,000)")
    p.add_argument("--features", type=int, default=10, help="continuous features (10)")
    p.add_argument("--repeat", type=int, default=2, help="runs per measurement; min (2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", choices=["a", "b", "busy", "releases"],
                   help="run one section only")
    p.add_argument("--calls", nargs="+", metavar="TEXT",
                   help="busy, releases: only the calls whose names hold one of these")
    p.add_argument("--wait-load", metavar="L", type=float,
                   help="first wait until the 1-minute load average is below L")
    p.add_argument("--max-wait", type=float, default=1200, help="seconds (1200)")
    p.add_argument("--markdown", action="store_true", help="print a markdown table")
    p.add_argument("--json", metavar="FILE", help="save environment and figures")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.only == "releases" and not os.environ.get("C45_COUNT_RELEASES"):
        sys.exit(count_releases(sys.argv[1:] if argv is None else argv))
    c45 = import_c45()
    from c45 import C45Classifier
    waited = wait_for_load(args.wait_load, args.max_wait) if args.wait_load else 0.0
    env = environment(c45)
    print(f"c45 {env['c45']} ({env['c45_commit']}) from {env['c45_path']}")
    print(f"{env['date_utc']}; {env['cpu']}; nproc {env['nproc']}; "
          f"Python {env['python']}, numpy {env['numpy']}")
    X, y = make_data(args.n, args.features, args.seed)
    print(f"data: {args.n:,} x {args.features} continuous, 2 classes; repeat {args.repeat}\n")
    res = {"argv": sys.argv, "environment": env, "waited_s": waited,
           "n": args.n, "features": args.features, "repeat": args.repeat, "load": {}}
    res["load"]["start"] = load()
    print(f"load average at start: {res['load']['start']}", flush=True)
    if args.only in (None, "a"):
        res["concurrent_fits"] = section_concurrent_fits(C45Classifier, X, y, args.repeat)
        res["load"]["after_a"] = load()
        print(f"load average after (a): {res['load']['after_a']}", flush=True)
    if args.only in (None, "b"):
        res["n_jobs"] = section_n_jobs(C45Classifier, X, y, args.repeat)
        res["load"]["after_b"] = load()
        print(f"load average after (b): {res['load']['after_b']}", flush=True)
    if args.only == "busy":
        res["busy_thread"] = section_busy_thread(c45, X, y, args.repeat, args.calls)
        res["load"]["after_busy"] = load()
        print(f"load average after (busy): {res['load']['after_busy']}", flush=True)
    if args.only == "releases":
        res["releases"] = section_releases(c45, X, y, args.calls)
    print()
    if args.only is None:
        print(f"tree: {res['concurrent_fits']['nodes']} nodes, depth "
              f"{res['concurrent_fits']['depth']}; every mode gave identical trees and "
              f"probabilities\n")
        report(res, args.markdown)
    else:
        print(json.dumps({k: v for k, v in res.items()
                          if k in ("concurrent_fits", "n_jobs", "busy_thread", "releases")},
                         indent=1, default=str))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2, default=str)


if __name__ == "__main__":
    main()
