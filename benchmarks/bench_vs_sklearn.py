"""Time c45's C45Classifier against scikit-learn's DecisionTreeClassifier.

Both models are fitted on the same deterministic synthetic data in one run, and
the script prints a table and the c45/sklearn ratios. It never asserts on times:
it is a measuring tool, not a test.

    python benchmarks/bench_vs_sklearn.py                  # n=100,000, 6 cont + 4 cat, 2 classes
    python benchmarks/bench_vs_sklearn.py --quick          # n=20,000, repeat=1: well under a minute
    python benchmarks/bench_vs_sklearn.py --classes 10 --json results.json

Models
------
sklearn        DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0)
c45            C45Classifier(min_samples_leaf=2)                       (float64, pessimistic pruning)
c45-f32        C45Classifier(min_samples_leaf=2, precision="float32")
c45-unpruned   C45Classifier(min_samples_leaf=2, pruning=None)         (only with --unpruned)

Data
----
``make_data`` draws (numpy, seeded) ``n`` rows of ``cont`` continuous features and
``cat`` categorical features with 20 levels each. The label comes from a noisy
nonlinear rule (sines of two features, a pairwise product, a threshold on the
sum of three features, a weak linear part, per-level effects of every
categorical feature, a category-dependent slope of the last continuous feature
and a category x category term; the score is cut at its quantiles into
``classes`` equally frequent classes), then 10% of the labels are replaced by a
different, uniformly drawn class. After labelling, 5%
of the cells of every feature are made missing, independently.

* c45 gets a pandas DataFrame: float64 columns with NaN for the continuous
  features and pandas Categorical columns (categories "L00".."L19", NaN =
  missing) for the categorical ones, which it splits multiway.
* scikit-learn gets a float64 ndarray: the same continuous columns (NaN kept;
  scikit-learn >= 1.3 handles NaN natively with splitter="best") and the
  categorical features as *ordinal integer codes* 0..19, which it splits with
  binary thresholds like any number. Missing codes are NaN by default
  (``--sk-cat-missing nan``: scikit-learn learns per split which side missing
  values go to) or the code -1 (``--sk-cat-missing -1``: missing becomes an
  ordinary value below every level).

Measurements (per model)
------------------------
* fit CPU seconds (``time.process_time``, all threads of the process) and fit
  wall seconds (``time.perf_counter``); the minimum over ``--repeat`` fits each.
* predict wall seconds on the training rows (minimum over ``--repeat``).
* node count (``tree_.node_count``), depth (``get_depth()``), training accuracy.
* peak RSS delta of one fit: on Linux, the peak resident set size (``VmHWM`` in
  /proc/self/status, reset by writing "5" to /proc/self/clear_refs just before
  the fit) minus the resident size before the fit. This counts C-level
  ``malloc`` of both libraries, which ``tracemalloc`` would not see. Without
  /proc it falls back to ``resource.getrusage(...).ru_maxrss`` growth, which
  is only a lower bound (0 if the fit did not raise the process's lifetime peak).

Each model is measured in its own fresh Python subprocess (so one model's heap
does not lend memory to the next and the RSS figures are clean) that regenerates
the same data from the seed; ``--inprocess`` measures everything in this process.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

try:
    import resource
except ImportError:            # Windows
    resource = None

N_LEVELS = 20
MISSING_RATE = 0.05
LABEL_NOISE = 0.10

MODELS = ("sklearn", "c45", "c45-f32", "c45-unpruned")


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------
def make_data(n=100_000, cont=6, cat=4, classes=2, seed=0):
    """Return (x_cont, x_cat, y) as numpy arrays.

    x_cont: float64 (n, cont), NaN = missing.
    x_cat: float64 (n, cat) holding level codes 0..19, NaN = missing.
    y: int64 (n,), labels 0..classes-1.
    """
    if cont + cat == 0:
        raise ValueError("need at least one feature")
    if classes < 2:
        raise ValueError("need at least two classes")
    rng = np.random.default_rng(seed)
    xc = rng.standard_normal((n, cont))
    xk = rng.integers(0, N_LEVELS, size=(n, cat))

    score = np.zeros(n)
    if cont:
        x = lambda j: xc[:, j % cont]                          # noqa: E731
        score += np.sin(2.5 * x(0)) + np.sin(2.5 * x(1))      # wiggly 1-d effects
        score += 0.8 * x(2) * x(3)                             # product
        score += 1.5 * (xc[:, :3].sum(axis=1) > 1.0)           # threshold on a sum
        if cont > 4:
            score += xc[:, 4:] @ rng.uniform(-0.4, 0.4, size=cont - 4)  # weak linear part
    for k in range(cat):
        # per-level effects: a strong one for the first categorical feature, weak ones after
        score += (0.8 if k == 0 else 0.3) * rng.normal(0.0, 1.0, size=N_LEVELS)[xk[:, k]]
    if cat and cont:
        # interaction: the slope of the last continuous feature depends on a category
        score += rng.normal(0.0, 1.0, size=N_LEVELS)[xk[:, 1 % cat]] * xc[:, cont - 1]
    if cat >= 2:
        # category x category interaction
        score += 0.5 * (((xk[:, 0] + xk[:, 1]) % 3) == 0)

    cuts = np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1])
    y = np.searchsorted(cuts, score).astype(np.int64)
    noisy = rng.random(n) < LABEL_NOISE
    # replace with a different class, uniformly
    y[noisy] = (y[noisy] + rng.integers(1, classes, size=int(noisy.sum()))) % classes

    xc = xc.copy()
    xc[rng.random(xc.shape) < MISSING_RATE] = np.nan
    xk = xk.astype(np.float64)
    xk[rng.random(xk.shape) < MISSING_RATE] = np.nan
    return xc, xk, y


def to_c45_frame(xc, xk):
    import pandas as pd

    levels = [f"L{i:02d}" for i in range(N_LEVELS)]
    cols = {}
    for j in range(xc.shape[1]):
        cols[f"x{j}"] = xc[:, j]
    for k in range(xk.shape[1]):
        codes = np.where(np.isnan(xk[:, k]), -1, xk[:, k]).astype(np.int64)
        cols[f"c{k}"] = pd.Categorical.from_codes(codes, categories=levels)
    return pd.DataFrame(cols)


def to_sklearn_array(xc, xk, cat_missing="nan"):
    xk = xk.copy()
    if cat_missing == "-1":
        xk[np.isnan(xk)] = -1.0
    return np.ascontiguousarray(np.hstack([xc, xk]))


# ---------------------------------------------------------------------------
# memory
# ---------------------------------------------------------------------------
def _proc_status_kb(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _maxrss_kb():
    if resource is None:
        return 0
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r // 1024 if sys.platform == "darwin" else r   # bytes on macOS, KiB elsewhere


class PeakRSS:
    """Peak RSS growth (MiB) over a with-block; see the module docstring."""

    def __enter__(self):
        self.method = None
        rss = _proc_status_kb("VmRSS")
        if rss is not None and _reset_peak():
            self.method = "VmHWM"
            self.before = rss
        else:
            self.method = "ru_maxrss" if resource is not None else "unavailable"
            self.before = _maxrss_kb()
        return self

    def __exit__(self, *exc):
        after = _proc_status_kb("VmHWM") if self.method == "VmHWM" else _maxrss_kb()
        self.mib = max(0, after - self.before) / 1024.0
        return False


# ---------------------------------------------------------------------------
# measuring one model
# ---------------------------------------------------------------------------
def make_model(name):
    if name == "sklearn":
        from sklearn.tree import DecisionTreeClassifier

        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                      random_state=0)
    from c45 import C45Classifier

    if name == "c45":
        return C45Classifier(min_samples_leaf=2)
    if name == "c45-f32":
        return C45Classifier(min_samples_leaf=2, precision="float32")
    if name == "c45-unpruned":
        return C45Classifier(min_samples_leaf=2, pruning=None)
    raise ValueError(name)


def measure(name, args):
    import gc

    t0 = time.perf_counter()
    xc, xk, y = make_data(args.n, args.cont, args.cat, args.classes, args.seed)
    if name == "sklearn":
        X = to_sklearn_array(xc, xk, args.sk_cat_missing)
    else:
        X = to_c45_frame(xc, xk)
    data_s = time.perf_counter() - t0

    fit_cpu, fit_wall, pred_wall, rss = [], [], [], []
    model = None
    for _ in range(args.repeat):
        model = None
        gc.collect()
        model = make_model(name)
        with PeakRSS() as mem:
            c0, w0 = time.process_time(), time.perf_counter()
            model.fit(X, y)
            w1, c1 = time.perf_counter(), time.process_time()
        fit_cpu.append(c1 - c0)
        fit_wall.append(w1 - w0)
        rss.append(mem.mib)
        w0 = time.perf_counter()
        pred = model.predict(X)
        pred_wall.append(time.perf_counter() - w0)

    return {
        "model": name,
        "params": {k: v for k, v in model.get_params().items()},
        "fit_cpu_s": min(fit_cpu),
        "fit_wall_s": min(fit_wall),
        "predict_wall_s": min(pred_wall),
        "fit_cpu_s_all": fit_cpu,
        "fit_wall_s_all": fit_wall,
        "predict_wall_s_all": pred_wall,
        "node_count": int(model.tree_.node_count),
        "depth": int(model.get_depth()),
        "train_accuracy": float(np.mean(pred == y)),
        # first fit: later fits of the same process reuse heap freed by the earlier ones
        "peak_rss_delta_mib": rss[0],
        "peak_rss_method": mem.method,
        "data_prep_s": data_s,
    }


def _worker_cmd(name, args):
    cmd = [sys.executable, os.path.abspath(__file__), "--_worker", name,
           "--n", str(args.n), "--cont", str(args.cont), "--cat", str(args.cat),
           "--classes", str(args.classes), "--repeat", str(args.repeat),
           "--seed", str(args.seed), "--sk-cat-missing", args.sk_cat_missing]
    return cmd


def run_model(name, args):
    if args.inprocess:
        return measure(name, args)
    out = subprocess.run(_worker_cmd(name, args), stdout=subprocess.PIPE, check=True,
                         text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------
# reporting
# ---------------------------------------------------------------------------
def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment():
    import pandas
    import sklearn

    c45_path = c45_git = None
    try:
        import c45
        c45_version = c45.__version__
        c45_path = os.path.dirname(os.path.dirname(os.path.abspath(c45.__file__)))
        c45_git = subprocess.run(["git", "-C", c45_path, "describe", "--always", "--dirty"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True).stdout.strip() or None
    except Exception as e:          # noqa: BLE001 - reported, not fatal
        c45_version = f"unavailable ({e})"
    return {
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pandas.__version__,
        "scikit-learn": sklearn.__version__,
        "c45": c45_version,
        "c45_path": c45_path,
        "c45_git": c45_git,
        "cpu": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "platform": platform.platform(),
    }


def print_table(results):
    hdr = (f"{'model':<13} {'fit CPU s':>10} {'fit wall s':>10} {'predict s':>10} "
           f"{'nodes':>8} {'depth':>6} {'train acc':>9} {'peak RSS +MiB':>13}")
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        print(f"{r['model']:<13} {r['fit_cpu_s']:>10.3f} {r['fit_wall_s']:>10.3f} "
              f"{r['predict_wall_s']:>10.4f} {r['node_count']:>8d} {r['depth']:>6d} "
              f"{r['train_accuracy']:>9.4f} {r['peak_rss_delta_mib']:>13.1f}")


def ratios(results):
    by = {r["model"]: r for r in results}
    sk = by.get("sklearn")
    out = {}
    if sk is None:
        return out
    for name, r in by.items():
        if name == "sklearn":
            continue
        out[name] = {
            "fit_cpu": r["fit_cpu_s"] / sk["fit_cpu_s"] if sk["fit_cpu_s"] else float("nan"),
            "fit_wall": r["fit_wall_s"] / sk["fit_wall_s"] if sk["fit_wall_s"] else float("nan"),
            "predict": (r["predict_wall_s"] / sk["predict_wall_s"]
                        if sk["predict_wall_s"] else float("nan")),
        }
    return out


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=None, help="rows (default 100000; 20000 with --quick)")
    p.add_argument("--cont", type=int, default=6, help="continuous features (default 6)")
    p.add_argument("--cat", type=int, default=4,
                   help=f"categorical features, {N_LEVELS} levels each (default 4)")
    p.add_argument("--classes", type=int, default=2, help="number of classes (default 2; e.g. 10)")
    p.add_argument("--repeat", type=int, default=None,
                   help="fits per model, the minimum time is kept (default 3; 1 with --quick)")
    p.add_argument("--quick", action="store_true",
                   help="small run (n=20000, repeat=1) that takes well under a minute")
    p.add_argument("--seed", type=int, default=0, help="data seed (default 0)")
    p.add_argument("--sk-cat-missing", choices=("nan", "-1"), default="nan",
                   help="how scikit-learn sees a missing categorical code (default nan)")
    p.add_argument("--unpruned", action="store_true",
                   help="also time C45Classifier(pruning=None)")
    p.add_argument("--no-f32", action="store_true", help='skip precision="float32"')
    p.add_argument("--inprocess", action="store_true",
                   help="measure all models in this process instead of one subprocess each")
    p.add_argument("--json", metavar="FILE", help="save config, environment and results")
    p.add_argument("--_worker", choices=MODELS, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.n is None:
        args.n = 20_000 if args.quick else 100_000
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    if args.repeat < 1:
        p.error("--repeat must be >= 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args._worker:
        print(json.dumps(measure(args._worker, args)))
        return 0

    names = ["sklearn", "c45"]
    if not args.no_f32:
        names.append("c45-f32")
    if args.unpruned:
        names.append("c45-unpruned")

    env = environment()
    config = {k: getattr(args, k) for k in ("n", "cont", "cat", "classes", "repeat",
                                             "seed", "sk_cat_missing", "inprocess")}
    config["n_levels"] = N_LEVELS
    config["missing_rate"] = MISSING_RATE
    config["label_noise"] = LABEL_NOISE
    print(f"data: n={args.n}, {args.cont} continuous + {args.cat} categorical "
          f"({N_LEVELS} levels), {args.classes} classes, {MISSING_RATE:.0%} missing, "
          f"{LABEL_NOISE:.0%} label noise, seed {args.seed}; "
          f"sklearn categorical missing = {args.sk_cat_missing}")
    print(f"env: {env['cpu']} ({env['logical_cpus']} logical CPUs), Python {env['python']}, "
          f"numpy {env['numpy']}, pandas {env['pandas']}, scikit-learn {env['scikit-learn']}, "
          f"c45 {env['c45']}"
          + (f" ({env['c45_path']}, git {env['c45_git']})" if env["c45_path"] else ""))
    print(f"times: minimum of {args.repeat} fit(s); predict on the {args.n} training rows; "
          f"{'one process' if args.inprocess else 'one subprocess per model'}")
    print()

    results = []
    for name in names:
        r = run_model(name, args)
        results.append(r)
        print(f"  {name}: fit CPU {r['fit_cpu_s']:.3f} s", flush=True)
    print()
    print_table(results)
    print(f"(peak RSS: growth during the first fit, via {results[0]['peak_rss_method']})")

    rat = ratios(results)
    print()
    print("ratios vs sklearn (>1 means c45 is slower)")
    for name, q in rat.items():
        print(f"  {name:<13} fit CPU x{q['fit_cpu']:.2f}   fit wall x{q['fit_wall']:.2f}   "
              f"predict x{q['predict']:.2f}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"config": config, "environment": env, "results": results,
                       "ratios": rat}, f, indent=2)
        print(f"\nsaved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
