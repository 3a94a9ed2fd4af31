"""Windowing: C4.5 Release 8's ``-t`` (trials), ``-w`` (initial window) and
``-i`` (window increment).

A trial grows trees on a growing subset of the cases, the window: it starts with
a sample of the cases spread over the classes, and after each tree the cases the
tree misclassifies outside the window join it. The trial keeps the tree of
fewest total errors and prunes it on all the cases; of the trials, the pruned
tree of smallest pessimistic estimate wins. Release 8 never seeds its random
generator, so the trials are the same on every run: glibc's ``random()`` from its
default state, continued from one trial to the next.
"""
from dataclasses import dataclass, field

import numpy as np

from c45 import _tree
from c45._bulk import (move_misclassified, pickled_copy, pull_targets, shuffle_cases,
                       take_columns, take_rows)
from c45._grown import same_trees
from c45._encode import distinct_values, rank_tables, values_in_row_order
from c45._glibc_random import GlibcRandom
from c45._pruning import subset_cleanup
from c45._split import code_rows


@dataclass
class Cycle:
    """One tree of a trial: its size, the window and the errors in and out of it."""
    size: int
    window: int
    other: int
    window_errors: int
    other_errors: int

    @property
    def errors(self):
        return self.window_errors + self.other_errors


@dataclass
class Trial:
    """A trial's cycles, the tree it kept (grown on its window) and that tree
    pruned on all the cases."""
    cycles: list = field(default_factory=list)
    grown: object = None
    pruned: object = None


_CYCLE_FIELDS = ("size", "window", "other", "window_errors", "other_errors")


def check_trials(trials, best, final, grown):
    """A loaded model's windowing trials (trials_ and best_trial_, whose types
    and trees _state.checked_trials has checked) as run() makes them: each
    trial's cycles whole numbers in range, its window growing over the same
    cases until no other case is misclassified, its kept tree that of its
    cycle of fewest errors (the first on a tie); the best trial the first of
    smallest pruned estimate, whose trees are the model's final and grown
    trees. ValueError naming the field otherwise (its cycle table divided by a
    window of 0, printed a text size, and best_trial_ named trees the model
    did not have)."""
    where = "c45: the pickled model's trials_"
    n = None
    for i, trial in enumerate(trials):
        if not trial.cycles:
            raise ValueError(f"{where}[{i}] has no cycles")
        for j, c in enumerate(trial.cycles):
            at = f"{where}[{i}].cycles[{j}]"
            for name in _CYCLE_FIELDS:
                v = getattr(c, name)
                if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)) \
                        or v < (1 if name in ("size", "window") else 0):
                    raise ValueError(f"{at}.{name} is {v!r:.40}; expected a whole number "
                                     f"of at least {1 if name in ('size', 'window') else 0}")
            last = j == len(trial.cycles) - 1
            if c.window_errors > c.window or c.other_errors > c.other or \
                    (c.other_errors == 0) != last:
                raise ValueError(f"{at} counts {c.window_errors} errors of {c.window} "
                                 f"cases in the window and {c.other_errors} of {c.other} "
                                 f"others; expected at most as many errors as cases, and "
                                 f"other errors in every cycle but the last")
            if n is None:
                n = c.window + c.other
            if c.window + c.other != n or (j and c.window <= trial.cycles[j - 1].window):
                raise ValueError(f"{at}: window {c.window} and other cases {c.other} are "
                                 f"not {n} cases in all, in a window that grows")
        errors = [c.errors for c in trial.cycles]
        kept = trial.cycles[errors.index(min(errors))]
        if trial.grown.node_count != kept.size:
            raise ValueError(f"{where}[{i}].grown has {trial.grown.node_count} nodes, but "
                             f"its cycle of fewest errors grew {kept.size}")
    first = min(range(len(trials)), key=lambda t: (trials[t].pruned.errors[0], t))
    # (soft thresholds' bounds aside: fit adds them to the best trial's pruned
    # tree, as tree_)
    if best != first or not same_trees(trials[best].pruned, final, bounds=False) or \
            not same_trees(trials[best].grown, grown):
        raise ValueError(f"c45: the pickled model's best_trial_ is {best}, but trial "
                         f"{first} has the smallest estimate, and the best trial's trees "
                         f"are tree_ and grown_tree_")


def window_sizes(n, window=None, increment=None):
    """The initial window and the largest increment, Release 8's defaults for
    those not given: ``max(2 sqrt(N), N/5)`` cases and a fifth of the window
    (at least 1). The window holds at most all the cases."""
    if window is None:
        window = int(max(2.0 * np.sqrt(n), n // 5))
    window = min(int(window), n)
    if increment is None:
        increment = max(window // 5, 1)
    return window, int(increment)


def class_targets(y, n_classes, window):
    """How many cases of each class the first window holds: the classes from the
    rarest to the commonest (the first class on a tie), each taking its
    frequency or an equal share of the room left, whichever is smaller."""
    freq = code_rows(np.asarray(y, dtype=np.int32), n_classes)[1]   # (np.bincount's
    # passes give the GIL up: a switch interval each beside a busy Python thread)
    target = np.zeros(n_classes, dtype=np.int64)
    left = window
    order = sorted(range(n_classes), key=lambda c: (freq[c], c))
    for i, c in enumerate(order):
        target[c] = min(freq[c], left // (n_classes - i))
        left -= target[c]
    return target


class Windowing:
    """The trials of one fit, on the encoded training data of all N cases
    (`data`, a TrainingData, and `schema`, the fit's) and their continuous values
    as read (`values`, feature-major, NaN unknown: float64's data holds ranks
    instead)."""

    def __init__(self, schema, data, values, options, confidence, subtree_raising,
                 n_jobs=1):
        self.schema, self.data, self.options = schema, data, options
        self.confidence, self.subtree_raising = confidence, subtree_raising
        self.n_jobs = n_jobs
        self.values = values
        self.codes = np.asarray(data.codes)
        self.y = np.asarray(data.y)
        self.weight = np.asarray(data.init_weight)
        if data.f32:
            self.distinct, self.distinct_start = data.distinct, data.distinct_start
        else:
            self.distinct, self.distinct_start = distinct_values(schema, values)

    def _columns(self, rows):
        """The values and codes of rows, in their order."""
        return take_columns(self.values, rows), take_columns(self.codes, rows)

    def window_data(self, rows):
        """The TrainingData of the window `rows` (in that order): its cases, with
        the whole data's N for the many-valued test and its values for the
        stored cuts."""
        d = self.data
        values, codes = self._columns(rows)
        if d.f32:
            layout = dict(cont=values)
        else:
            rank, sorted_value, n_known, far = rank_tables(self.schema, values, self.n_jobs)
            layout = dict(cont=None, rank=rank, sorted_value=sorted_value, n_known=n_known,
                          far=far)
        return _tree.TrainingData(
            codes=codes, col=d.col, n_values=d.n_values,
            y=take_rows(self.y, rows), n_classes=d.n_classes,
            init_weight=take_rows(self.weight, rows), f32=d.f32,
            count_mode=d.count_mode, total_weight=d.total_weight, multival=d.multival,
            distinct=self.distinct, distinct_start=self.distinct_start, **layout)

    def classify(self, tree, rows):
        """Each case's class index by the tree (C4.5's classification, §9)."""
        # (the walkers read float64: a float32 fit's values widened as taken)
        values, codes = take_columns(self.values, rows, True), take_columns(self.codes, rows)
        return _tree.predict_sums(tree, values, codes, self.data.col, self.data.n_values,
                                  self.data.f32, False, self.n_jobs, False, True)

    def run(self, trials, window=None, increment=None):
        """The trials (a list of Trial) and the index of the best one."""
        n = self.data.n_cases
        window, increment = window_sizes(n, window, increment)
        target = class_targets(self.y, self.data.n_classes, window)
        rng = GlibcRandom(1)            # Release 8 never seeds random()
        # float64's pruning reads the cases in row order (made once: numpy's
        # arange and copies give the GIL up)
        self.rows = np.arange(n, dtype=np.int32)
        items = pickled_copy(self.rows)
        out = []
        for _ in range(trials):
            shuffle_cases(items, rng)
            pull_targets(items, self.y, target)
            out.append(self._trial(items, window, increment))
        # The pruned tree of smallest estimate; the earlier trial on a tie.
        best = min(range(len(out)), key=lambda t: (out[t].pruned.errors[0], t))
        return out, best

    def _trial(self, items, window, increment):
        """One trial on the case order `items` (updated in place as Release 8's
        case array moves)."""
        n = len(items)
        trial = Trial()
        best = None
        while True:
            grown, _, order = _tree.build_tree(self.window_data(items[:window]),
                                               self.options, -1.0, True, self.n_jobs)
            if self.data.f32:
                items[:window] = items[:window][order]     # growing reorders the window
            # The window's errors are the grown tree's own count (its leaves'
            # errors summed, fractional with unknown values), rounded.
            window_errors = int(np.floor(grown.errors[0] + 0.5))
            # The misclassified cases outside the window move just after it.
            # (only they are classified: the window's errors are counted above)
            other_errors = 0 if window == n else move_misclassified(
                items, self.classify(grown, items[window:]), self.y, window)
            cycle = Cycle(grown.node_count, window, n - window, window_errors, other_errors)
            trial.cycles.append(cycle)
            if best is None or cycle.errors < best:
                best, trial.grown = cycle.errors, grown
            if other_errors == 0:
                break
            window = min(window + max(min(other_errors, increment), other_errors // 2), n)
        # The kept tree pruned on all the cases; pruning reorders float32's case
        # array too, and the next trial shuffles the cases as it leaves them.
        _tree.check_prunable(trial.grown)
        trial.pruned, order = _tree.prune_tree(
            self.data, self.options, trial.grown,
            items if self.data.f32 else self.rows,
            self.confidence, self.subtree_raising, self.n_jobs, with_order=True)
        if self.data.f32:
            items[:] = order
        return trial


def values_of(schema, data):
    """float64's continuous values back from its rank tables (NaN unknown)."""
    rank = np.asarray(data.rank)
    if rank.size == 0:
        return np.zeros((0, data.n_cases))
    return values_in_row_order(data.sorted_value, rank)


# Windowing counts cases: it refuses case weights, sample_weight's (at fit) and
# class_weight's (a parameter: check_parameters, which loading runs too).
ONE_VOTE = ("trials (windowing) counts cases as Release 8 does, one case one vote: it "
            "takes no sample_weight or class_weight (repeat rows instead, or leave "
            "trials=None)")


def check_weights(sample_weight):
    if sample_weight is not None:
        raise ValueError(ONE_VOTE)


def check_parameters(est):
    """The parameters windowing cannot work with (the command refuses them before
    any output)."""
    if est.trials is not None and est.pruning != "pessimistic":
        raise ValueError(
            f"trials (windowing) keeps the trial whose pruned tree has the smallest "
            f"pessimistic estimate: it needs pruning='pessimistic', got "
            f"pruning={est.pruning!r}")
    if est.trials is not None and est.class_weight is not None:
        raise ValueError(f"{ONE_VOTE}; got class_weight={est.class_weight!r:.80}")


def fit_trials(est, schema, data, options):
    """Windowing's trials for the estimator est on its encoded data: (trials,
    index of the best one)."""
    values = np.asarray(data.cont) if data.f32 else values_of(schema, data)
    run = Windowing(schema, data, values, options, est._cf(), bool(est.subtree_raising),
                    est._threads())
    trials, best = run.run(int(est.trials), est.initial_window, est.window_increment)
    if est.subset_splits:
        # As any pessimistic fit under subset_splits: the empty branches go.
        for trial in trials:
            trial.pruned = subset_cleanup(trial.pruned, data.n_values)
    return trials, best
