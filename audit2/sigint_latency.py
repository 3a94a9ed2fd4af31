"""Ctrl-C latency in the new code's long steps (issue 25.4/25.5 class).

Usage: python audit2/sigint_latency.py CASE [delay_s]
Runs CASE in a child; once the child says it starts the long call, waits
delay_s (default 0.5), sends SIGINT, and prints how long the child took to
raise KeyboardInterrupt. Expected: under 100 ms.
Cases: soft_bounds_long (soft thresholds' bounds on 10M rows: numpy sorts of
the whole column), windowing_long (trials=1 on 3M rows), soft_predict_long.
"""
import signal, subprocess, sys, time

SETUP = r'''
import sys, time, numpy as np
from c45 import C45Classifier
case = sys.argv[1]
rng = np.random.default_rng(0)
if case == "soft_bounds_long":
    n = 10_000_000
    X = rng.random((n, 1)); y = (X[:, 0] > 0.5).astype(np.int8)
    clf = C45Classifier(keep_training_data=True).fit(X, y)
    data, _ = clf._train
    call = lambda: clf._soften.__func__(clf.set_params(soft_thresholds=True), clf.tree_, data)
elif case == "windowing_long":
    n = 3_000_000
    X = rng.random((n, 2)); y = (X[:, 0] + 0.1 * rng.random(n) > 0.5).astype(np.int8)
    call = lambda: C45Classifier(trials=1).fit(X, y)
elif case == "soft_predict_long":
    n = 20000
    X = rng.random((n, 4)); y = (X[:, 0] + 0.3 * rng.random(n) > 0.6).astype(int)
    clf = C45Classifier(soft_thresholds=True).fit(X, y)
    Xt = rng.random((8_000_000, 4))
    call = lambda: clf.predict_proba(Xt)
else:
    raise SystemExit("unknown case")
print("START", flush=True)
t0 = time.perf_counter()
try:
    call()
    print("FINISHED without interrupt in %.2f s" % (time.perf_counter() - t0), flush=True)
except KeyboardInterrupt:
    print("KI at %.6f" % time.time(), flush=True)
'''


def main(case, delay=0.5, limit=300):
    p = subprocess.Popen([sys.executable, "-c", SETUP, case], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if line.strip() != "START":
        print(case, "setup failed:", line, p.stderr.read()[-800:]); return
    time.sleep(delay)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill(); print(f"{case}: no exit {limit} s after SIGINT"); return
    if "KI at" in out:
        ki = float(out.split("KI at")[1].split()[0])
        print(f"{case} (delay {delay}): KeyboardInterrupt {1000 * (ki - sent):.0f} ms after SIGINT")
    else:
        print(f"{case}: rc={p.returncode} out={out.strip()[-120:]!r} err={err.strip()[-300:]!r}")


if __name__ == "__main__":
    main(sys.argv[1], *(float(a) for a in sys.argv[2:]))
