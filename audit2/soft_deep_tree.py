"""Soft thresholds on a deep tree: time quadratic in the tree's depth, and many
GIL handoffs beside a busy Python thread (issue 25.1 and 25.11 classes).

The issue's deep-tree data (n rows, a chain of n - 1 tests). Fits with and
without soft_thresholds=True, alone and then beside a spinning Python thread;
prints CPU seconds. Seen (n=1000): hard 0.04 s, soft 16.5 s (quadratic: 250 rows
1.05 s, 500 rows 4.0 s); each continuous test's bounds classify its rows again
through its whole subtree, with a few numpy calls per node visited.
Expected: the bounds' cost a small multiple of the fit's, linear in the nodes
visited by the rows, and within 2x beside a busy thread.
Usage: python audit2/soft_deep_tree.py [n] [busy]
"""
import sys, threading, time
import numpy as np
from c45 import C45Classifier

n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
X = np.arange(n, dtype=float)[:, None]
w = 25 * np.exp(12 * (1 - np.arange(n) / n)); y = np.arange(n) % 2
if len(sys.argv) > 2 and sys.argv[2] == "busy":
    threading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True).start()
for soft in (False, True):
    t, c = time.perf_counter(), time.process_time()
    clf = C45Classifier(soft_thresholds=soft, min_samples_leaf=1,
                        mdl_correction=False).fit(X, y, sample_weight=w)
    print(f"n={n} soft={soft}: {clf.tree_.node_count} nodes, depth {clf.get_depth()}, "
          f"wall {time.perf_counter() - t:.2f} s, cpu {time.process_time() - c:.2f} s",
          flush=True)
