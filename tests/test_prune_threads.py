"""Pessimistic pruning on two threads against one (float64). A descent over many
cases sets its subtrees aside as tasks for the threads: where a node's list is
grouped in place (two branches, or any order: whole weights and no unknown
value) a task's list is a part of the descent's own, read there when nothing
groups that part again before the tasks run; otherwise it is a copy (merged
with the cases of unknown outcome, or given back in row order after). Every
path must give the one-thread trees bit for bit."""
import pickle

import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier


def problem(seed, unknown, weights, discrete):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3_000, 9_000))
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=[f"x{i}" for i in range(4)])
    X["x3"] = X["x3"].round(0)                       # ties
    if discrete:
        X["c"] = pd.Categorical(rng.choice(list("abcde"), n))
    if unknown:
        for col in X.columns[:3]:
            X.loc[rng.random(n) < unknown, col] = None
    s = np.sin(2 * X["x0"].fillna(0)) + X["x1"].fillna(0) * X["x2"].fillna(0)
    if discrete:
        s = s + (X["c"] == "a") - (X["c"] == "d")
    k = int(rng.choice([2, 3, 7]))
    y = np.searchsorted(np.quantile(s, np.arange(1, k) / k), s + rng.normal(size=n))
    w = {"none": None, "whole": rng.integers(1, 4, n).astype(float),
         "fractional": rng.choice([0.5, 1.0, 1.5, 0.3], n)}[weights]
    return X, y, w


@pytest.mark.parametrize("discrete", [False, True])
@pytest.mark.parametrize("weights", ["none", "whole", "fractional"])
@pytest.mark.parametrize("unknown", [0.0, 0.05])
def test_two_threads_prune_as_one(small_regions, unknown, weights, discrete):
    for seed in range(3):
        X, y, w = problem(seed + 10 * discrete, unknown, weights, discrete)
        for raising in (True, False):
            models = [C45Classifier(n_jobs=j, min_samples_leaf=1 + seed,
                                    subtree_raising=raising).fit(X, y, sample_weight=w)
                      for j in (1, 2)]
            one, two = ([pickle.dumps(m.grown_tree_), pickle.dumps(m.tree_)] for m in models)
            assert one[0] == two[0], ("grown", seed, raising)
            assert one[1] == two[1], ("pruned", seed, raising)
