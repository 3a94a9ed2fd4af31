"""Soft thresholds beside a busy Python thread (issue 25.1 class: a call that hands
the GIL over many times).

Fits C45Classifier(soft_thresholds=True) on 100k x 4 (the issue's data), alone and
beside a spinning Python thread, and the same fit without soft thresholds; prints
CPU and wall times and busy/alone ratios. Expected: within 2x of the time alone
(as the hard fit is). Usage: python audit2/soft_busy_thread.py [n_rows]
"""
import sys, threading, time
import numpy as np
from c45 import C45Classifier

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
rng = np.random.default_rng(0)
X = rng.random((n, 4)); y = (np.sin(9 * X[:, 0]) + X[:, 1] > 1) * 1

def timed(f):
    t0 = time.perf_counter(); c0 = time.process_time(); f()
    return time.perf_counter() - t0, time.process_time() - c0

OPS = {"hard fit": lambda: C45Classifier().fit(X, y),
       "soft fit": lambda: C45Classifier(soft_thresholds=True).fit(X, y)}
alone = {k: timed(f)[0] for k, f in OPS.items()}
stop = False
def spin():
    while not stop:
        pass
th = threading.Thread(target=spin, daemon=True); th.start()
busy = {k: timed(f)[0] for k, f in OPS.items()}
stop = True
for k in OPS:
    print(f"{k}: alone {alone[k]:.2f} s, busy {busy[k]:.2f} s, ratio {busy[k]/alone[k]:.1f}x")
