"""Two builds of c45 side by side: fit and predict times, and whether the trees agree.

For a change that must keep every tree bit-identical and fit and predict within a
few percent (a refactoring), this times ``C45Classifier(n_jobs=1)`` (default
parameters otherwise) of two source checkouts in one run, interleaved, and checks
that both grow the same trees. It never asserts on times: it is a measuring
tool, not a test.

    python benchmarks/bench_builds.py BEFORE_DIR AFTER_DIR                 # 5 rounds of every case
    python benchmarks/bench_builds.py BEFORE_DIR AFTER_DIR --quick --rounds 2   # rows / 20: a quick try
    python benchmarks/bench_builds.py BEFORE_DIR AFTER_DIR --cases 1M-c10 --rounds 7 --json out.json

Each DIR is a source checkout built in place (``python setup.py build_ext
--inplace``); nothing is built here.

Cases (``--cases``, comma-separated; default all)
-------------------------------------------------
``1M-c2``     1,000,000 x 10 continuous features, 2 classes (a C-contiguous float64 ndarray)
``1M-c10``    the same with 10 classes
``cat-100k``  100,000 rows, 10 continuous + 8 categorical features (20 levels), 2
              classes (a pandas DataFrame: float64 and Categorical columns)

The data are ``bench_vs_sklearn.make_data`` (seed 0; 5% of cells missing, 10% label
noise), prepared as ``bench_scaling.py`` prepares them for c45. ``--quick``
divides the rows by 20.

Measurements
------------
Every measurement is a fresh Python subprocess with ``PYTHONPATH=DIR`` (it checks
that ``c45.__file__`` lies under DIR) that makes the data, fits once and predicts
once on the training rows (the first predict after fit, so the per-tree set-up is
in it), timed in CPU seconds (``time.process_time``), and prints one JSON line
with the times and SHA-256 fingerprints of:

* ``grown`` and ``final``: the node arrays (``Tree._fields`` and ``n_values``:
  name, dtype, shape and bytes of each) of ``grown_tree_`` and ``tree_``;
* ``proba``: the bytes of ``predict_proba`` on the first 10,000 rows;
* ``json``: ``c45.to_json(model)`` without its ``c45_version`` and ``checksum``
  (the rest, canonically re-encoded), if the build has ``to_json``.

Rounds (``--rounds``, default 5) run every case on both builds, BEFORE then AFTER
in odd rounds and AFTER then BEFORE in even ones (ABBA), so that the machine's
drift falls on both alike. Per case the table gives each build's minimum fit and
predict CPU over the rounds, the ratio after/before of those minima ("min") and
the median of the per-round ratios ("med"), and IDENTICAL if every fingerprint
agrees between the builds (and across rounds), else DIFFERENT and which ones.
``--json FILE`` saves the environment, every measurement and the summary.
"""
import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

K, M = 1_000, 1_000_000
CASES = {"1M-c2": (M, 10, 0, 2), "1M-c10": (M, 10, 0, 10), "cat-100k": (100 * K, 10, 8, 2)}
QUICK_DIV = 20
PROBA_ROWS = 10_000
HASHES = ("grown", "final", "proba", "json")


# ---------------------------------------------------------------------------
# one measurement (runs in a child process, c45 from PYTHONPATH)
# ---------------------------------------------------------------------------
def tree_hash(tree):
    h = hashlib.sha256()
    for name in tuple(tree._fields) + ("n_values",):
        a = getattr(tree, name, None)
        if a is None:
            h.update(f"{name}:None;".encode())
            continue
        a = np.ascontiguousarray(a)
        h.update(f"{name}:{a.dtype.str}:{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def json_hash(model):
    import c45
    try:
        to_json = c45.to_json
    except AttributeError:
        return None
    doc = json.loads(to_json(model))
    doc.pop("c45_version", None)
    doc.pop("checksum", None)
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


def measure(job):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_vs_sklearn import make_data, to_c45_frame, to_sklearn_array

    import c45
    from c45 import C45Classifier
    where = os.path.realpath(c45.__file__)
    if not where.startswith(os.path.realpath(job["dir"]) + os.sep):
        raise SystemExit(f"c45 imported from {where}, not from {job['dir']}")

    n, cont, cat, classes = job["data"]
    xc, xk, y = make_data(n, cont, cat, classes, 0)
    X = to_c45_frame(xc, xk) if cat else to_sklearn_array(xc, xk)
    del xc, xk
    load = os.getloadavg()[0]

    model = C45Classifier(n_jobs=1)
    t0 = time.process_time()
    model.fit(X, y)
    t1 = time.process_time()
    model.predict(X)
    t2 = time.process_time()

    proba = np.ascontiguousarray(model.predict_proba(X[:PROBA_ROWS]))
    return {"fit_cpu_s": t1 - t0, "predict_cpu_s": t2 - t1, "load_before": load,
            "nodes": model.tree_.node_count, "grown_nodes": model.grown_tree_.node_count,
            "c45_file": where,
            "hashes": {"grown": tree_hash(model.grown_tree_), "final": tree_hash(model.tree_),
                       "proba": hashlib.sha256(proba.tobytes()).hexdigest(),
                       "json": json_hash(model)}}


def run_child(job):
    env = dict(os.environ, PYTHONPATH=job["dir"])
    cmd = [sys.executable, os.path.abspath(__file__), "--_child", json.dumps(job)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"measurement failed (exit {proc.returncode}): {job}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------
# the comparison
# ---------------------------------------------------------------------------
def git_describe(path):
    return subprocess.run(["git", "-C", path, "describe", "--always", "--dirty"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True).stdout.strip() or None


def summarize(runs):
    """runs: {build: [result per round]} -> the summary of one case."""
    out = {}
    for key in ("fit_cpu_s", "predict_cpu_s"):
        b = [r[key] for r in runs["before"]]
        a = [r[key] for r in runs["after"]]
        out[key] = {"before_min": min(b), "after_min": min(a),
                    "ratio_min": min(a) / min(b),
                    "ratio_median": statistics.median(y / x for x, y in zip(b, a))}
    seen = {build: [r["hashes"] for r in rs] for build, rs in runs.items()}
    differ = [h for h in HASHES
              if len({s[h] for rs in seen.values() for s in rs}) > 1]
    unstable = [f"{build} {h}" for build, rs in seen.items() for h in HASHES
                if len({s[h] for s in rs}) > 1]
    out["identical"] = not differ
    out["differ"] = differ
    out["unstable"] = unstable          # a build disagreeing with itself across rounds
    out["json_hash"] = seen["before"][0]["json"] is not None and seen["after"][0]["json"] is not None
    out["nodes"] = {build: rs[0]["nodes"] for build, rs in runs.items()}
    return out


def print_table(summary):
    hdr = (f"{'case':<9} {'nodes':>15}   {'fit CPU s before':>16} {'after':>8} {'min':>6} "
           f"{'med':>6}   {'predict CPU s before':>20} {'after':>8} {'min':>6} {'med':>6}   trees")
    print(hdr)
    print("-" * len(hdr))
    for case, s in summary.items():
        f, p = s["fit_cpu_s"], s["predict_cpu_s"]
        nb, na = s["nodes"]["before"], s["nodes"]["after"]
        nodes = str(nb) if nb == na else f"{nb}/{na}"
        verdict = "IDENTICAL" if s["identical"] else "DIFFERENT: " + ", ".join(s["differ"])
        if not s["json_hash"]:
            verdict += " (no to_json)"
        if s["unstable"]:
            verdict += "; varies across rounds: " + ", ".join(s["unstable"])
        print(f"{case:<9} {nodes:>15}   {f['before_min']:>16.3f} {f['after_min']:>8.3f} "
              f"{f['ratio_min']:>6.3f} {f['ratio_median']:>6.3f}   {p['before_min']:>20.3f} "
              f"{p['after_min']:>8.3f} {p['ratio_min']:>6.3f} {p['ratio_median']:>6.3f}   {verdict}")
    print("min: after/before of the minima over the rounds; med: median of the per-round ratios")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", nargs="?", metavar="BEFORE_DIR")
    p.add_argument("after", nargs="?", metavar="AFTER_DIR")
    p.add_argument("--cases", default=",".join(CASES),
                   help=f"comma-separated, of {', '.join(CASES)} (default: all)")
    p.add_argument("--rounds", type=int, default=5, help="rounds, ABBA (default 5)")
    p.add_argument("--quick", action="store_true", help=f"rows / {QUICK_DIV}")
    p.add_argument("--json", metavar="FILE", help="save environment, every run and the summary")
    p.add_argument("--_child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args._child:
        return args
    if not (args.before and args.after):
        p.error("BEFORE_DIR and AFTER_DIR are required")
    args.cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    bad = [c for c in args.cases if c not in CASES]
    if bad:
        p.error(f"unknown case(s) {', '.join(bad)}; known: {', '.join(CASES)}")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args._child:
        print(json.dumps(measure(json.loads(args._child))))
        return 0
    dirs = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    data = {c: list(CASES[c]) for c in args.cases}
    if args.quick:
        for d in data.values():
            d[0] //= QUICK_DIV
    env = {"date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
           "python": platform.python_version(), "numpy": np.__version__,
           "logical_cpus": os.cpu_count(),
           "builds": {b: {"dir": d, "git": git_describe(d)} for b, d in dirs.items()}}
    for b, info in env["builds"].items():
        print(f"{b:<6}  {info['dir']}  (git {info['git']})")
    print(f"cases: {', '.join(f'{c} {data[c][0]:,} rows' for c in args.cases)}; "
          f"{args.rounds} rounds (ABBA); load average {os.getloadavg()[0]:.2f}\n", flush=True)

    runs = {c: {"before": [], "after": []} for c in args.cases}
    for r in range(args.rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for case in args.cases:
            for build in order:
                res = run_child({"dir": dirs[build], "data": data[case]})
                res["round"] = r + 1
                runs[case][build].append(res)
                print(f"round {r + 1}/{args.rounds}  {case:<9} {build:<6}  fit {res['fit_cpu_s']:8.3f} s"
                      f"  predict {res['predict_cpu_s']:7.3f} s  nodes {res['nodes']:>7}"
                      f"  load {res['load_before']:.2f}", flush=True)
    print()
    summary = {c: summarize(runs[c]) for c in args.cases}
    print_table(summary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"environment": env, "cases": data, "rounds": args.rounds,
                       "quick": args.quick, "runs": runs, "summary": summary}, f, indent=1)
        print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
