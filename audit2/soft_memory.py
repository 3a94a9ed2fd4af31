"""Soft thresholds' memory (issue 25 "memory explosions" class).

Each case in its own process: fit on n x 4 random data (a deep tree: labels
noisy), hard and soft, and prints the peak RSS increase over the data alone.
Expected: the soft fit's peak close to the hard fit's (its bounds need the
rows reaching one node at a time, not every node's rows held together).
Usage: python audit2/soft_memory.py [n_rows]
"""
import subprocess, sys

CHILD = r'''
import resource, sys, numpy as np
from c45 import C45Classifier
n, soft = int(sys.argv[1]), sys.argv[2] == "soft"
rng = np.random.default_rng(0)
X = rng.random((n, 4)); y = ((np.sin(9 * X[:, 0]) + X[:, 1] + 0.6 * rng.random(n)) > 1.3) * 1
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
clf = C45Classifier(soft_thresholds=soft).fit(X, y)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{'soft' if soft else 'hard'}: {clf.tree_.node_count} nodes, depth "
      f"{clf.get_depth()}, peak +{(peak - base) / 1024:.0f} MB (X: {X.nbytes / 2**20:.0f} MB)")
'''
n = sys.argv[1] if len(sys.argv) > 1 else "1000000"
for mode in ("hard", "soft"):
    subprocess.run([sys.executable, "-c", CHILD, n, mode], check=False)
