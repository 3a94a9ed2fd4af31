"""pruning_log_: c4.5rules' trace of condition dropping (``-v``), kept compact.

The trace has a row per condition left at each step of each leaf: some 10
million rows on a tree 170 levels deep. Held as Python objects (a tuple and a
string per row, a dict and a list per step) it took gigabytes, and each
collection of the garbage collector's oldest generation walked them all, tenths
of a second deaf to Ctrl-C. Here it is six numpy arrays, the record fit makes
(no Python object per row or step), and what the grown tree gives (each leaf's
path, its conditions' text, its class); an entry is built when it is read.

Its size still grows with the leaves times the square of their depth: 40
million rows (640 MB) for a tree 247 levels deep, tens of gigabytes past 700.
So fit keeps the steps only within a bound (C45RulesClassifier's
``pruning_trace``); past it the record holds each entry's rule alone, and an
entry's ``steps`` is None.
"""
from collections.abc import Sequence

import numpy as np

from c45.rules._builder import TRACE, leaf_paths, tree_edges

# The record: per entry the rule it became (0: rejected); its steps (the
# trace's arrays, all or none)
# step_start[k]:step_start[k + 1], each with its dropped condition (its
# position among those left, -1: none, the last step) and its rows: the whole
# rule's, then those of each condition left in path order; per row the errors,
# the cases covered and the pessimistic error rate.
RECORD = {"rule": np.int64, "step_start": np.int64, "dropped": np.int64,
          "errors": np.int32, "total": np.int32, "pess": np.float64}
assert set(RECORD) == {"rule", *TRACE}

# The most rows pruning_trace="auto" keeps (16 bytes a row: 64 MiB), or one
# row a training value if more.
TRACE_ROWS = 1 << 22


def trace_rows(pruning_trace, values):
    """drop_conditions' bound on the trace's rows (-1: none, 0: not kept) for
    C45RulesClassifier's pruning_trace, on training data of this many values."""
    if pruning_trace == "auto":
        return max(TRACE_ROWS, values)
    return -1 if pruning_trace else 0


def row_starts(path_length, step_start):
    """Where each step's rows start (and the end): a step holds one row more
    than the conditions left, and every step but the last drops one."""
    steps = np.diff(step_start)
    entry = np.repeat(np.arange(len(steps)), steps)
    within = np.arange(len(entry)) - step_start[:-1][entry]
    rows = path_length[entry] - within + 1
    out = np.zeros(len(entry) + 1, dtype=np.int64)
    np.cumsum(rows, out=out[1:])
    return out


class PruningLog(Sequence):
    """``pruning_log_``: a read-only sequence with one entry per leaf of the grown
    tree giving a candidate rule, in tree order. Each entry, built when read, is
    a dict: ``leaf_conditions`` (the path's conditions as text), ``class_``,
    ``rule`` (the number of the rule it became or merged into, None if
    rejected) and ``steps``, one per round of condition dropping: ``rows`` of
    (errors, cases covered, pessimistic error rate, condition left out; None
    for the whole rule) and ``dropped`` (the condition dropped, or None);
    ``steps`` is None when the fit did not keep them (``has_steps``).
    ``list(clf.pruning_log_)`` gives them all; ``record`` the arrays they are
    read from (what a pickle holds)."""

    __slots__ = ("record", "_leaves", "_length", "_parent", "_labels", "_classes", "_rows")

    def __init__(self, record, leaves, path_length, parent, labels, classes):
        for a in record.values():          # what was checked stays as it is
            a.flags.writeable = False
        self.record = record
        self._leaves = leaves            # per entry its leaf
        self._length = path_length       # and the conditions of its path
        self._parent = parent            # per node its parent (-1: the root)
        self._labels = labels            # per node below the root its condition's text
        self._classes = classes          # per entry its class label
        self._rows = None                # per step where its rows start: when read
                                         # (numpy's passes give the GIL up; a fit
                                         # reads no entry)

    def __len__(self):
        return len(self._leaves)

    @property
    def has_steps(self):
        """Whether the entries have their steps (the fit kept the trace)."""
        return "step_start" in self.record

    def _entry(self, k):
        path = []
        node = int(self._leaves[k])
        while self._parent[node] >= 0:
            path.append(self._labels[node - 1])
            node = int(self._parent[node])
        path.reverse()
        r = self.record
        rule = int(r["rule"][k]) or None
        if not self.has_steps:
            return dict(leaf_conditions=path, class_=self._classes[k], steps=None, rule=rule)
        if self._rows is None:
            self._rows = row_starts(self._length, r["step_start"])
        left = list(path)
        steps = []
        for s in range(int(r["step_start"][k]), int(r["step_start"][k + 1])):
            a, b = int(self._rows[s]), int(self._rows[s + 1])
            errors, total, pess = (r[name][a:b].tolist() for name in ("errors", "total", "pess"))
            rows = [(errors[j], total[j], pess[j], left[j - 1] if j else None)
                    for j in range(b - a)]
            d = int(r["dropped"][s])
            steps.append(dict(rows=rows, dropped=left[d] if d >= 0 else None))
            if d >= 0:
                del left[d]
        return dict(leaf_conditions=path, class_=self._classes[k], steps=steps, rule=rule)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self._entry(i) for i in range(*k.indices(len(self)))]
        k = range(len(self))[k]             # an IndexError past the end, as a list's
        return self._entry(k)

    def __eq__(self, other):
        if not isinstance(other, (PruningLog, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None

    def __repr__(self):
        if not self.has_steps:
            return f"<PruningLog: {len(self)} entries, no steps kept>"
        return (f"<PruningLog: {len(self)} entries, {len(self.record['dropped'])} "
                f"steps, {len(self.record['errors'])} rows>")

    def __reduce__(self):
        return (PruningLog, (self.record, self._leaves, self._length, self._parent,
                             self._labels, self._classes))


def pruning_log(record, tree, feature_names, categories, classes):
    """The PruningLog of a record made on the grown tree (its leaves giving
    candidate rules, their paths and classes; classes: declared_classes_)."""
    leaves, start, _, parent = leaf_paths(tree)
    labels = [str(c) for c in tree_edges(tree, feature_names, categories)]
    return PruningLog(record, leaves, np.diff(start), parent, labels,
                      classes[tree.node_class[leaves]])
