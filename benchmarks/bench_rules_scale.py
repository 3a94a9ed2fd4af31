"""C45RulesClassifier's fit at scale: peak memory and CPU beside the tree's own fit.

c4.5rules makes a candidate rule per leaf, and a noisy data set has leaves in
proportion to its cases: what the rules hold per rule and case (their covers in
the subset selection) or per condition and step (the trace of condition
dropping, ``pruning_log_``) grows with the square of the data. Each fit runs in a
fresh process of its own, which reads its RSS before the fit and its peak
(VmHWM) after; "peak" is that difference in MB and in multiples of X's bytes.
The tree's fit (``C45Classifier()``, pruned as default) on the same data is the
yardstick of CPU.

Data: X standard normal (seeded), s = sin(2 x0) + x1 x2 + 0.8 N(0, 1), the
classes equal-frequency bins of s (noisy: many leaves, many rules).

    python benchmarks/bench_rules_scale.py                        # 20k and 50k rows, 10 classes
    python benchmarks/bench_rules_scale.py --rows 20000 --classes 2
"""
import argparse
import json
import subprocess
import sys
import time

import numpy as np


def data(rows, features, classes):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(rows, features))
    s = np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.8 * rng.normal(size=rows)
    y = np.searchsorted(np.quantile(s, np.linspace(0, 1, classes + 1)[1:-1]), s)
    return X, y


def vm(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def child(model, rows, features, classes):
    import c45
    X, y = data(rows, features, classes)
    clf = c45.C45RulesClassifier() if model == "rules" else c45.C45Classifier()
    before = vm("VmRSS")
    with open("/proc/self/clear_refs", "w") as fh:     # the peak from here
        fh.write("5")
    t = time.process_time()
    clf.fit(X, y)
    cpu = time.process_time() - t
    out = dict(cpu=cpu, peak=vm("VmHWM") - before, x_bytes=X.nbytes)
    if model == "rules":
        out.update(rules=len(clf.rules_), candidates=len(clf.candidate_rules_))
    print(json.dumps(out))


def run(model, rows, features, classes):
    got = subprocess.run([sys.executable, __file__, "--child", model, "--rows", str(rows),
                          "--features", str(features), "--classes", str(classes)],
                         capture_output=True, text=True, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[20000, 50000])
    ap.add_argument("--features", type=int, default=10)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--child", choices=["rules", "tree"])
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.rows[0], a.features, a.classes)
    print("| rows x features, classes | candidate rules (final) | rules fit CPU s "
          "(x the tree's) | rules peak MB (x X) | tree peak MB (x X) |")
    print("|---|---|---|---|---|")
    for rows in a.rows:
        tree = run("tree", rows, a.features, a.classes)
        rules = run("rules", rows, a.features, a.classes)
        x = rules["x_bytes"]
        print(f"| {rows:,} x {a.features}, {a.classes} | {rules['candidates']:,} "
              f"({rules['rules']}) | {rules['cpu']:.2f} ({rules['cpu'] / tree['cpu']:.0f}x) | "
              f"{rules['peak'] / 1e6:.0f} ({rules['peak'] / x:.1f}x) | "
              f"{tree['peak'] / 1e6:.0f} ({tree['peak'] / x:.1f}x) |", flush=True)


if __name__ == "__main__":
    main()
