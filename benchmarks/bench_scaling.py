"""Scaling of c45's C45Classifier against scikit-learn's tree.

Fits c45 and scikit-learn's ``DecisionTreeClassifier(criterion="entropy",
min_samples_leaf=2)`` side by side in one run on deterministic synthetic data at
n = 10k .. 1M rows and d = 10 .. 50 features, each model in a fresh subprocess
(so its peak RSS is its own), and prints a table and the derived figures:
c45/scikit-learn ratios, fitted growth exponents, n_jobs speedups, the
float32 ratio, pessimistic pruning's share of fit time and peak extra memory in
multiples of X's float64 bytes. It never asserts on times: it is a measuring
tool, not a test.

    python benchmarks/bench_scaling.py                    # every configuration (about an hour on 2 cores)
    python benchmarks/bench_scaling.py --quick            # the same list at n/50: a minute or two
    python benchmarks/bench_scaling.py --only growth      # one configuration (see --list)
    python benchmarks/bench_scaling.py --only 1M-d10-c2,threads --json out.json

Configurations (``--list``; the default runs all of them, each (data, model) pair once)
---------------------------------------------------------------------------------------
``{1M,100k}-d{10,50}-c{2,10}``  continuous features only: sklearn and c45
``cat-1M``, ``cat-100k``        10 continuous + 8 categorical features (20 levels), 2 classes
``threads``                     c45 n_jobs=1 vs n_jobs=2 at 1M (d=10, 50; 2, 10 classes);
                                ``threads-d10`` and ``threads-d50`` are its two halves
``float32``                     c45 precision="float32" vs float64 (1M and 100k, d=10, 2 classes)
``growth``                      sklearn and c45 at n = 10k, 100k, 1M (d=10, 2 classes)
``pruning``                     c45 pruning=None vs the default at 1M x 10, 2 classes

Every c45 float64 worker also times ``clf.prune(pruning="pessimistic")`` on its
fitted model (which re-prunes from the stored grown tree, exactly the pruning
step of fit), and times predict with n_jobs=1 and n_jobs=2.

Data
----
``bench_vs_sklearn.make_data`` (seeded numpy): continuous features ~ N(0, 1),
categorical features uniform over 20 levels, a label from a nonlinear score
(sines, a product, a threshold on a sum, a weak linear part, per-level and
interaction effects of the categories) cut into equally frequent classes, 10%
label noise, then 5% of every feature's cells missing (NaN).

* Continuous-only data: both libraries get the same C-contiguous float64
  ndarray (NaN = missing; scikit-learn >= 1.3 handles NaN natively).
* Categorical data: c45 gets a pandas DataFrame (float64 columns and pandas
  Categorical columns, split multiway); scikit-learn gets a float64 ndarray with
  the categories as ordinal codes 0..19 and NaN for missing codes.

Measurements (per model, in its own subprocess that regenerates the data)
------------------------------------------------------------------------
* fit CPU (``time.process_time``: all threads of the process) and fit wall
  (``time.perf_counter``); the minimum over the repeats (``--repeat``; default
  5 fits at n <= 10k, 3 at 100k, 1 at 1M).
* predict: wall time of ``predict`` on the n training rows, as rows/s (minimum
  over max(repeat, 3) calls); for c45 at n_jobs=1 and n_jobs=2 (c45 includes
  encoding the input).
* peak RSS: ``VmHWM`` from /proc/self/status after the first fit, the peak
  having been reset (``/proc/self/clear_refs`` <- 5) just before it; "extra" is
  that peak minus the resident size just before the fit (the data are already
  resident), also in multiples of X's float64 bytes (n x d x 8); "retained" is
  the resident growth that stays after the fit (c45 keeps its encoded training
  data for ``prune()``); "tree" is the bytes of the fitted tree arrays (c45: the
  grown and the pruned tree).
* nodes (``tree_.node_count``), depth (``get_depth()``), mean leaf depth
  weighted by the training weight reaching each leaf; for c45 also the node
  count of the grown tree (``grown_tree_``).

Derived figures: the c45/sklearn ratios of fit CPU and predict rows/s per data
set; the growth exponent b of fit CPU ~ a n^b, a least-squares line through
(log n, log fit CPU) over the growth sizes (n log n has a local exponent of
1 + 1/ln n, about 1.07-1.09 over 10k..1M); speedup = fit wall n_jobs=1 / fit
wall n_jobs=2; float32 ratio = fit CPU float32 / float64; pruning share =
prune() CPU / fit CPU (and 1 - fit CPU pruning=None / fit CPU default).

scikit-learn at 1M x 50 takes minutes. ``--sklearn-cache FILE`` stores every
scikit-learn measurement (keyed by data, seed and scikit-learn version) and
``--skip-sklearn-over CELLS`` reuses the cached one for data of more than CELLS
cells (n x d) instead of measuring again; the default measures everything.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_vs_sklearn import (PeakRSS, _proc_status_kb, environment,  # noqa: E402
                              make_data, to_c45_frame, to_sklearn_array)

K, M = 1_000, 1_000_000
MODELS = ("sklearn", "c45", "c45-nj2", "c45-f32", "c45-unpruned")
QUICK_DIV = 50


# ---------------------------------------------------------------------------
# configurations
# ---------------------------------------------------------------------------
def _label(n):
    return f"{n // M}M" if n % M == 0 else f"{n // K}k" if n % K == 0 else str(n)


def configurations():
    """name -> list of (data, models); data = (n, cont, cat, classes)."""
    cfg = {}
    for n in (M, 100 * K):
        for d in (10, 50):
            for c in (2, 10):
                cfg[f"{_label(n)}-d{d}-c{c}"] = [((n, d, 0, c), ["sklearn", "c45"])]
    cfg["cat-1M"] = [((M, 10, 8, 2), ["sklearn", "c45"])]
    cfg["cat-100k"] = [((100 * K, 10, 8, 2), ["sklearn", "c45"])]
    for d in (10, 50):
        cfg[f"threads-d{d}"] = [((M, d, 0, c), ["c45", "c45-nj2"]) for c in (2, 10)]
    cfg["threads"] = cfg["threads-d10"] + cfg["threads-d50"]
    cfg["float32"] = [((n, 10, 0, 2), ["c45", "c45-f32"]) for n in (M, 100 * K)]
    cfg["growth"] = [((n, 10, 0, 2), ["sklearn", "c45"]) for n in (10 * K, 100 * K, M)]
    cfg["pruning"] = [((M, 10, 0, 2), ["c45", "c45-unpruned"])]
    return cfg


GROWTH = [(n, 10, 0, 2) for n in (10 * K, 100 * K, M)]


def data_name(data):
    n, cont, cat, classes = data
    s = f"n={_label(n)} d={cont}"
    if cat:
        s += f"+{cat}cat"
    return s + f" c={classes}"


def scale(data, quick):
    if not quick:
        return data
    n, cont, cat, classes = data
    return (max(1000, n // QUICK_DIV), cont, cat, classes)


def default_repeat(n):
    return 5 if n <= 10 * K else 3 if n <= 100 * K else 1


# ---------------------------------------------------------------------------
# measuring one model (runs in a worker subprocess)
# ---------------------------------------------------------------------------
def _import_c45(tries=10):
    for i in range(tries):
        try:
            import c45                      # noqa: F401 - others may be rebuilding it
            from c45 import C45Classifier
            return C45Classifier
        except ImportError:
            if i == tries - 1:
                raise
            time.sleep(3)


def make_model(name):
    if name == "sklearn":
        from sklearn.tree import DecisionTreeClassifier

        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0)
    C45Classifier = _import_c45()
    kw = {"min_samples_leaf": 2, "n_jobs": 1}
    if name == "c45-nj2":
        kw["n_jobs"] = 2
    elif name == "c45-f32":
        kw["precision"] = "float32"
    elif name == "c45-unpruned":
        kw["pruning"] = None
    elif name != "c45":
        raise ValueError(name)
    return C45Classifier(**kw)


def _mean_leaf_depth(model, sklearn):
    t = model.tree_
    if sklearn:
        left, right = t.children_left, t.children_right
        weight = t.weighted_n_node_samples
        depth = np.zeros(t.node_count, dtype=np.int64)
        stack = [0]
        while stack:
            i = stack.pop()
            if left[i] >= 0:
                depth[left[i]] = depth[right[i]] = depth[i] + 1
                stack += [left[i], right[i]]
        leaf = left < 0
    else:
        depth = np.zeros(t.node_count, dtype=np.int64)
        for i in range(t.node_count):               # parents come before children
            k = t.n_children[i]
            if k:
                s = t.first_child[i]
                depth[s:s + k] = depth[i] + 1
        leaf = t.kind == 0
        weight = t.weight
    w = weight[leaf]
    return float((depth[leaf] * w).sum() / w.sum()) if w.sum() > 0 else 0.0


def _tree_bytes(model, sklearn):
    if sklearn:
        t = model.tree_
        # nodes: 7 fields of 8 bytes (+ missing_go_to_left, padded), value: node_count x classes
        return int(t.node_count * 64 + t.value.nbytes)
    total = 0
    for tree in (model.tree_, model.grown_tree_):
        total += sum(getattr(tree, f).nbytes for f in tree._fields)
    return int(total)


def measure(job):
    import gc

    n, cont, cat, classes = job["data"]
    name = job["model"]
    sk = name == "sklearn"
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    xc, xk, y = make_data(n, cont, cat, classes, job["seed"])
    if sk or cat == 0:
        X = to_sklearn_array(xc, xk)
    else:
        X = to_c45_frame(xc, xk)
    del xc, xk
    gc.collect()
    data_s = time.perf_counter() - t0
    x_bytes = n * (cont + cat) * 8

    fit_cpu, fit_wall = [], []
    model = mem = None
    retained_kb = None
    for i in range(job["repeat"]):
        model = None
        gc.collect()
        model = make_model(name)
        before = _proc_status_kb("VmRSS")
        with PeakRSS() as m:
            c0, w0 = time.process_time(), time.perf_counter()
            model.fit(X, y)
            w1, c1 = time.perf_counter(), time.process_time()
        if i == 0:
            mem = m
            after = _proc_status_kb("VmRSS")
            peak_kb = _proc_status_kb("VmHWM")
            retained_kb = (after - before) if (after is not None and before is not None) else None
        fit_cpu.append(c1 - c0)
        fit_wall.append(w1 - w0)

    out = {
        "model": name, "data": list(job["data"]), "seed": job["seed"],
        "repeat": job["repeat"], "load_before": load0, "data_prep_s": data_s,
        "params": {k: (v if isinstance(v, (int, float, str, bool, type(None))) else repr(v))
                   for k, v in model.get_params().items()},
        "fit_cpu_s": min(fit_cpu), "fit_wall_s": min(fit_wall),
        "fit_cpu_s_all": fit_cpu, "fit_wall_s_all": fit_wall,
        "x_float64_bytes": x_bytes,
        "peak_rss_mib": (peak_kb / 1024.0) if peak_kb is not None else None,
        "extra_rss_mib": mem.mib, "peak_rss_method": mem.method,
        "extra_x": mem.mib * 2**20 / x_bytes,
        "retained_rss_mib": None if retained_kb is None else retained_kb / 1024.0,
        "tree_bytes": _tree_bytes(model, sk),
        "node_count": int(model.tree_.node_count),
        "depth": int(model.get_depth()),
        "mean_leaf_depth": _mean_leaf_depth(model, sk),
    }
    if not sk:
        out["grown_node_count"] = int(model.grown_tree_.node_count)
        out["grown_depth"] = int(model.grown_tree_.max_depth)

    n_pred = max(job["repeat"], 3)
    jobs_list = [1, 2] if not sk else [1]
    for nj in jobs_list:
        if not sk:
            model.set_params(n_jobs=nj)
        walls = []
        for _ in range(n_pred):
            w0 = time.perf_counter()
            pred = model.predict(X)
            walls.append(time.perf_counter() - w0)
        out[f"predict_s_nj{nj}"] = min(walls)
        out[f"predict_rows_s_nj{nj}"] = n / min(walls)
    out["train_accuracy"] = float(np.mean(pred == y))

    if name == "c45":
        # re-prune from the stored grown tree, given the training data again (their
        # encoding and digest check included)
        model.set_params(n_jobs=1)
        cpu, wall = [], []
        for _ in range(max(job["repeat"], 3)):
            c0, w0 = time.process_time(), time.perf_counter()
            model.prune(X, y, pruning="pessimistic")
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
        out["prune_cpu_s"] = min(cpu)
        out["prune_wall_s"] = min(wall)
        out["prune_node_count"] = int(model.tree_.node_count)
    return out


# ---------------------------------------------------------------------------
# running jobs
# ---------------------------------------------------------------------------
def job_key(job):
    return (tuple(job["data"]), job["model"])


def sklearn_cache_key(job, sk_version):
    n, cont, cat, classes = job["data"]
    return f"n={n},cont={cont},cat={cat},classes={classes},seed={job['seed']},sklearn={sk_version}"


def run_worker(job):
    cmd = [sys.executable, os.path.abspath(__file__), "--_worker", json.dumps(job)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"worker failed ({proc.returncode}) for {job}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def wait_for_load(limit, max_wait):
    t0 = time.time()
    seen = os.getloadavg()[0]
    while seen >= limit and time.time() - t0 < max_wait:
        print(f"  load {seen:.2f} >= {limit}: waiting ...", flush=True)
        time.sleep(30)
        seen = os.getloadavg()[0]
    return seen, time.time() - t0


# ---------------------------------------------------------------------------
# derived figures
# ---------------------------------------------------------------------------
def slope(ns, ts):
    """Least-squares exponent b of t ~ a n^b."""
    if len(ns) < 2:
        return float("nan")
    x, y = np.log(np.asarray(ns, float)), np.log(np.asarray(ts, float))
    return float(np.polyfit(x, y, 1)[0])


def derive(results, growth_data):
    by = {(tuple(r["data"]), r["model"]): r for r in results}
    datas = []
    for r in results:
        if tuple(r["data"]) not in datas:
            datas.append(tuple(r["data"]))
    d = {"ratios": {}, "growth": {}, "threads": {}, "float32": {}, "pruning": {}, "memory": {}}
    for data in datas:
        sk, c = by.get((data, "sklearn")), by.get((data, "c45"))
        name = data_name(data)
        if sk and c:
            d["ratios"][name] = {
                "fit_cpu": c["fit_cpu_s"] / sk["fit_cpu_s"],
                "fit_wall": c["fit_wall_s"] / sk["fit_wall_s"],
                "predict_throughput": c["predict_rows_s_nj1"] / sk["predict_rows_s_nj1"],
                "extra_rss": c["extra_rss_mib"] / sk["extra_rss_mib"] if sk["extra_rss_mib"] else None,
            }
        if c:
            e = {"predict_speedup_nj2": c["predict_s_nj1"] / c["predict_s_nj2"]}
            nj2 = by.get((data, "c45-nj2"))
            if nj2:
                e.update(fit_wall_nj1=c["fit_wall_s"], fit_wall_nj2=nj2["fit_wall_s"],
                         fit_speedup_nj2=c["fit_wall_s"] / nj2["fit_wall_s"],
                         fit_cpu_nj2=nj2["fit_cpu_s"])
            d["threads"][name] = e
            f32 = by.get((data, "c45-f32"))
            if f32:
                d["float32"][name] = {"fit_cpu_f64": c["fit_cpu_s"], "fit_cpu_f32": f32["fit_cpu_s"],
                                      "ratio": f32["fit_cpu_s"] / c["fit_cpu_s"],
                                      "same_nodes": f32["node_count"] == c["node_count"]}
            p = {"fit_cpu": c["fit_cpu_s"], "prune_cpu": c.get("prune_cpu_s"),
                 "share_prune": (c["prune_cpu_s"] / c["fit_cpu_s"]) if "prune_cpu_s" in c else None}
            un = by.get((data, "c45-unpruned"))
            if un:
                p.update(fit_cpu_unpruned=un["fit_cpu_s"],
                         share_fit_difference=1.0 - un["fit_cpu_s"] / c["fit_cpu_s"])
            d["pruning"][name] = p
        for m in ("sklearn", "c45"):
            r = by.get((data, m))
            if r:
                d["memory"].setdefault(name, {})[m] = {
                    "extra_mib": r["extra_rss_mib"], "extra_x": r["extra_x"],
                    "tree_mib": r["tree_bytes"] / 2**20,
                    "extra_minus_tree_x": (r["extra_rss_mib"] * 2**20 - r["tree_bytes"])
                    / r["x_float64_bytes"],
                    "retained_mib": r["retained_rss_mib"]}
    for m in ("sklearn", "c45"):
        pts = [(data[0], by[(data, m)]["fit_cpu_s"]) for data in growth_data if (data, m) in by]
        if len(pts) >= 2:
            ns, ts = zip(*pts)
            g = {"n": list(ns), "fit_cpu_s": list(ts), "exponent": slope(ns, ts)}
            g["local"] = [slope(ns[i:i + 2], ts[i:i + 2]) for i in range(len(ns) - 1)]
            d["growth"][m] = g
    return d


# ---------------------------------------------------------------------------
# printing
# ---------------------------------------------------------------------------
def _f(x, fmt):
    return "-" if x is None else format(x, fmt)


def print_table(results, md=False):
    cols = ["data", "model", "fit CPU s", "fit wall s", "pred rows/s", "pred rows/s nj2",
            "peak RSS MiB", "extra MiB", "extra/X", "nodes", "grown nodes", "depth",
            "mean depth", "train acc"]
    rows = []
    for r in results:
        rows.append([
            data_name(r["data"]), r["model"] + (" (cached)" if r.get("cached") else ""),
            _f(r["fit_cpu_s"], ".2f"), _f(r["fit_wall_s"], ".2f"),
            _f(r["predict_rows_s_nj1"] / 1e6, ".2f") + "M",
            (_f(r["predict_rows_s_nj2"] / 1e6, ".2f") + "M") if "predict_rows_s_nj2" in r else "-",
            _f(r["peak_rss_mib"], ".0f"), _f(r["extra_rss_mib"], ".0f"), _f(r["extra_x"], ".2f"),
            str(r["node_count"]), str(r.get("grown_node_count", "-")), str(r["depth"]),
            _f(r["mean_leaf_depth"], ".1f"), _f(r["train_accuracy"], ".3f")])
    if md:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join(["---"] * 2 + ["---:"] * (len(cols) - 2)) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    w = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w[i]) if i < 2 else c.rjust(w[i]) for i, c in enumerate(cols)))
    print("  ".join("-" * x for x in w))
    for row in rows:
        print("  ".join(v.ljust(w[i]) if i < 2 else v.rjust(w[i]) for i, v in enumerate(row)))


def print_derived(d, quick=False):
    print("\nc45 / sklearn (fit: < 1 means c45 is faster; predict throughput: > 1 means c45 is faster)")
    for name, q in d["ratios"].items():
        print(f"  {name:<22} fit CPU x{q['fit_cpu']:.3f}   fit wall x{q['fit_wall']:.3f}   "
              f"predict rows/s x{q['predict_throughput']:.2f}   extra RSS x{_f(q['extra_rss'], '.2f')}")
    if d["growth"]:
        print("\ngrowth of fit CPU (exponent b of t ~ n^b, least squares over the sizes; "
              "n log n is about 1.08)")
        for m, g in d["growth"].items():
            pts = ", ".join(f"{_label(n) if not quick else n}: {t:.3f} s"
                            for n, t in zip(g["n"], g["fit_cpu_s"]))
            loc = ", ".join(f"{x:.2f}" for x in g["local"])
            print(f"  {m:<8} b = {g['exponent']:.3f}  (per decade: {loc})  [{pts}]")
    sp = {k: v for k, v in d["threads"].items() if "fit_speedup_nj2" in v}
    print("\nn_jobs=2 speedups (c45: wall n_jobs=1 / wall n_jobs=2)")
    for name, v in sp.items():
        print(f"  {name:<22} fit x{v['fit_speedup_nj2']:.2f}  ({v['fit_wall_nj1']:.2f} s -> "
              f"{v['fit_wall_nj2']:.2f} s wall, {v['fit_cpu_nj2']:.2f} s CPU)   "
              f"predict x{v['predict_speedup_nj2']:.2f}")
    for name, v in d["threads"].items():
        if name not in sp:
            print(f"  {name:<22} predict x{v['predict_speedup_nj2']:.2f}")
    if d["float32"]:
        print("\nprecision='float32' / float64 fit CPU")
        for name, v in d["float32"].items():
            print(f"  {name:<22} x{v['ratio']:.2f}  ({v['fit_cpu_f64']:.2f} s -> {v['fit_cpu_f32']:.2f} s)")
    print("\npessimistic pruning's share of c45 fit CPU (prune() re-prunes the stored grown tree)")
    for name, v in d["pruning"].items():
        s = f"  {name:<22} prune {_f(v['prune_cpu'], '.3f')} s of fit {v['fit_cpu']:.3f} s = " \
            f"{100 * v['share_prune']:.1f}%"
        if "share_fit_difference" in v:
            s += (f";  fit pruning=None {v['fit_cpu_unpruned']:.3f} s -> "
                  f"{100 * v['share_fit_difference']:.1f}% of fit")
        print(s)
    print("\npeak extra RSS during fit, in multiples of X as float64 (n x d x 8 bytes); "
          "'-tree' subtracts the fitted tree's arrays")
    for name, v in d["memory"].items():
        s = f"  {name:<22}"
        for m, q in v.items():
            s += (f" {m} {q['extra_x']:.2f}x ({q['extra_mib']:.0f} MiB, -tree "
                  f"{q['extra_minus_tree_x']:.2f}x, retained {_f(q['retained_mib'], '.0f')} MiB)  ")
        print(s)


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help=f"the same configurations at n/{QUICK_DIV} (at least 1000 rows): about a minute")
    p.add_argument("--only", metavar="NAME[,NAME]", action="append",
                   help="run only these configurations (repeatable; see --list)")
    p.add_argument("--list", action="store_true", help="list the configurations and exit")
    p.add_argument("--repeat", type=int, default=None,
                   help="fits per model (default: 5 at n <= 10k, 3 at 100k, 1 at 1M)")
    p.add_argument("--seed", type=int, default=0, help="data seed (default 0)")
    p.add_argument("--json", metavar="FILE", help="save config, environment, results, figures")
    p.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    p.add_argument("--sklearn-cache", metavar="FILE",
                   help="JSON file of scikit-learn results: read with --skip-sklearn-over, "
                        "every scikit-learn measurement is written to it")
    p.add_argument("--skip-sklearn-over", metavar="CELLS", type=float, default=None,
                   help="reuse the cached scikit-learn result for data of more than CELLS "
                        "cells (n x d), if the cache has it")
    p.add_argument("--wait-load", metavar="L", type=float, default=None,
                   help="before starting, wait until the 1-minute load average is below L")
    p.add_argument("--max-wait", type=float, default=1200, help="seconds to wait at most (1200)")
    p.add_argument("--_worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.skip_sklearn_over is not None and not args.sklearn_cache:
        p.error("--skip-sklearn-over needs --sklearn-cache FILE")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args._worker:
        print(json.dumps(measure(json.loads(args._worker))))
        return 0
    cfg = configurations()
    if args.list:
        for name, items in cfg.items():
            print(f"{name:<12} " + "; ".join(f"{data_name(d)}: {', '.join(ms)}" for d, ms in items))
        return 0
    names = list(cfg)
    if args.only:
        names = [s.strip() for o in args.only for s in o.split(",") if s.strip()]
        bad = [s for s in names if s not in cfg]
        if bad:
            print(f"unknown configuration(s) {bad}; known: {', '.join(cfg)}", file=sys.stderr)
            return 2

    # the (data, model) jobs, each once, in a stable order: data by size, sklearn first
    jobs, seen = [], set()
    for name in names:
        for data, models in cfg[name]:
            for m in models:
                data_s = scale(data, args.quick)
                if (data_s, m) not in seen:
                    seen.add((data_s, m))
                    jobs.append({"data": list(data_s), "model": m, "seed": args.seed,
                                 "repeat": args.repeat or default_repeat(
                                     data_s[0] * (QUICK_DIV if args.quick else 1))})
    order = {d: i for i, d in enumerate(dict.fromkeys(tuple(j["data"]) for j in jobs))}
    jobs.sort(key=lambda j: (order[tuple(j["data"])], MODELS.index(j["model"])))

    env = environment()
    print(f"configurations: {', '.join(names)}{' (quick: n/%d)' % QUICK_DIV if args.quick else ''}")
    print(f"env: {env['cpu']} ({env['logical_cpus']} logical CPUs), Python {env['python']}, "
          f"numpy {env['numpy']}, scikit-learn {env['scikit-learn']}, c45 {env['c45']}"
          + (f" ({env['c45_path']}, git {env['c45_git']})" if env["c45_path"] else ""))
    load_wait = None
    if args.wait_load is not None:
        seen_load, waited = wait_for_load(args.wait_load, args.max_wait)
        load_wait = {"limit": args.wait_load, "load": seen_load, "waited_s": waited}
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{len(jobs)} model fits, one subprocess each\n", flush=True)

    cache = {}
    if args.sklearn_cache and os.path.exists(args.sklearn_cache):
        with open(args.sklearn_cache) as f:
            cache = json.load(f)
    results = []
    t_start = time.time()
    for job in jobs:
        n, cont, cat, _ = job["data"]
        key = sklearn_cache_key(job, env["scikit-learn"])
        if (job["model"] == "sklearn" and args.skip_sklearn_over is not None
                and n * (cont + cat) > args.skip_sklearn_over and key in cache):
            r = dict(cache[key], cached=True)
            print(f"  {data_name(job['data']):<22} sklearn       (cached) fit CPU {r['fit_cpu_s']:.2f} s",
                  flush=True)
        else:
            r = run_worker(job)
            if job["model"] == "sklearn" and args.sklearn_cache:
                cache[key] = r
                with open(args.sklearn_cache, "w") as f:
                    json.dump(cache, f, indent=1)
            print(f"  {data_name(job['data']):<22} {job['model']:<13} fit CPU {r['fit_cpu_s']:8.2f} s"
                  f"  wall {r['fit_wall_s']:8.2f} s  (load before {r['load_before']:.2f}, "
                  f"{time.time() - t_start:.0f} s elapsed)", flush=True)
        results.append(r)

    growth = [scale(g, args.quick) for g in GROWTH]
    d = derive(results, growth)
    print()
    print_table(results)
    if args.markdown:
        print()
        print_table(results, md=True)
    print_derived(d, args.quick)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"total {time.time() - t_start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"argv": sys.argv, "configurations": names, "quick": args.quick,
                       "environment": env, "load_wait": load_wait, "results": results,
                       "derived": d}, f, indent=2)
        print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
