"""Windowing (trials) beside a busy Python thread, and its cost against a plain
fit (issue 25.1 class). The issue's 100k x 4 data; best of 2 wall times each.
Expected: busy within 2x of alone, as the plain fit.
Usage: python audit2/windowing_busy_thread.py [n_rows]
"""
import sys, threading, time
import numpy as np
from c45 import C45Classifier

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
rng = np.random.default_rng(0)
X = rng.random((n, 4)); y = (np.sin(9 * X[:, 0]) + X[:, 1] > 1) * 1
OPS = {"plain fit": lambda: C45Classifier().fit(X, y),
       "trials=1": lambda: C45Classifier(trials=1).fit(X, y),
       "trials=1 float32": lambda: C45Classifier(trials=1, precision="float32").fit(X, y)}

def best(f):
    out = []
    for _ in range(2):
        t = time.perf_counter(); f(); out.append(time.perf_counter() - t)
    return min(out)

alone = {k: best(f) for k, f in OPS.items()}
stop = False
def spin():
    while not stop:
        pass
threading.Thread(target=spin, daemon=True).start()
busy = {k: best(f) for k, f in OPS.items()}
stop = True
for k in OPS:
    print(f"{k}: alone {alone[k]:.2f} s, busy {busy[k]:.2f} s, ratio {busy[k] / alone[k]:.1f}x")
