"""Windowing's printed reports, as C4.5 Release 8 prints them: each trial's table
of cycles, and the evaluation table with a row per trial."""
import copy

import numpy as np
from sklearn.utils.validation import check_is_fitted

_CYCLES_HEADER = (
    "Cycle   Tree    -----Cases----    -----------------Errors-----------------\n"
    "        size    window   other    window  rate   other  rate   total  rate\n"
    "-----   ----    ------  ------    ------  ----  ------  ----  ------  ----\n")


def cycle_table(trial):
    """A trial's cycles: each tree's size, the window and the other cases, and
    the errors in each with their rates."""
    lines = []
    for i, c in enumerate(trial.cycles, 1):
        n = c.window + c.other
        # Release 8 divides the other cases' errors by their count plus 0.001
        # (there may be none), the window's and the total by their count.
        lines.append(f"{i:3d}  {c.size:7d}  {c.window:8d}  {c.other:6d}  "
                     f"{c.window_errors:8d}{100.0 * c.window_errors / c.window:5.1f}%  "
                     f"{c.other_errors:6d}{100.0 * c.other_errors / (c.other + 1e-3):5.1f}%  "
                     f"{c.errors:6d}{100.0 * c.errors / n:5.1f}%")
    return _CYCLES_HEADER + "\n".join(lines) + "\n"


def trial_view(clf, trial):
    """clf with a trial's trees as its grown and final trees (for printing them)."""
    view = copy.copy(clf)
    view.__dict__["tree_"] = trial.pruned
    view.grown_tree_ = trial.grown      # the property's own setter (kept whole here)
    return view


def trials_evaluation_table(clf, X, y, title="training data"):
    """Release 8's evaluation block of a windowed fit: a row per trial (size and
    errors before and after pruning, the pruned tree's estimate), the best one
    marked ``<<``."""
    check_is_fitted(clf, "tree_")
    y = np.asarray(y, dtype=object)
    n = len(y)
    classes = clf.declared_classes_

    def block(tree):
        pred = classes.take(clf._sums(X, tree, classes_only=True))
        if pred.shape != y.shape:
            raise ValueError(f"X has {len(pred)} rows but y has shape {y.shape}")
        errors = int(np.sum(pred.astype(object) != y))
        return f"{tree.node_count:4d}  {errors:3d}({100.0 * errors / n if n else 0.0:4.1f}%)"

    rows = []
    for i, trial in enumerate(clf.trials_):
        t = trial.pruned
        estimate = 100.0 * t.errors[0] / t.weight[0] if t.weight[0] > 0 else 0.0
        mark = "   <<" if i == clf.best_trial_ else ""
        rows.append(f"{i:4d}\t{block(trial.grown)}   {block(t)}    ({estimate:4.1f}%){mark}")
    return (f"Evaluation on {title} ({n} items):\n\n"
            "Trial\t Before Pruning           After Pruning\n"
            "-----\t----------------   ---------------------------\n"
            "\tSize      Errors   Size      Errors   Estimate\n\n"
            + "\n".join(rows) + "\n")
