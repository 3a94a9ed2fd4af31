"""pruning_log_: c4.5rules' trace of condition dropping (``-v``), kept compact.

The trace has a row per condition left at each step of each leaf: some 10
million rows on a tree 170 levels deep. Held as Python objects (a tuple and a
string per row, a dict and a list per step) it took gigabytes, and each
collection of the garbage collector's oldest generation walked them all, tenths
of a second deaf to Ctrl-C. Here it is six numpy arrays, the record fit makes
(no Python object per row or step), and what the grown tree gives (each leaf's
path, its conditions' text, its class); an entry is built when it is read.
"""
from collections.abc import Sequence

import numpy as np

from c45.rules._builder import leaf_paths, tree_edges

# The record: per entry the rule it became (0: rejected); its steps
# step_start[k]:step_start[k + 1], each with its dropped condition (its
# position among those left, -1: none, the last step) and its rows: the whole
# rule's, then those of each condition left in path order; per row the errors,
# the cases covered and the pessimistic error rate.
RECORD = {"rule": np.int64, "step_start": np.int64, "dropped": np.int64,
          "errors": np.int32, "total": np.int32, "pess": np.float64}


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
    for the whole rule) and ``dropped`` (the condition dropped, or None).
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

    def _entry(self, k):
        path = []
        node = int(self._leaves[k])
        while self._parent[node] >= 0:
            path.append(self._labels[node - 1])
            node = int(self._parent[node])
        path.reverse()
        r = self.record
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
        return dict(leaf_conditions=path, class_=self._classes[k], steps=steps,
                    rule=int(r["rule"][k]) or None)

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
        return (f"<PruningLog: {len(self)} entries, {len(self.record['dropped'])} "
                f"steps, {len(self.record['errors'])} rows>")

    def __reduce__(self):
        return (PruningLog, (self.record, self._leaves, self._length, self._parent,
                             self._labels, self._classes))


def tree_parents(tree):
    """Each node's parent, -1 for the root."""
    parent = np.full(tree.node_count, -1, dtype=np.int64)
    for node in np.flatnonzero(tree.n_children > 0).tolist():
        first = int(tree.first_child[node])
        parent[first:first + int(tree.n_children[node])] = node
    return parent


def pruning_log(record, tree, feature_names, categories, classes):
    """The PruningLog of a record made on the grown tree (its leaves giving
    candidate rules, their paths and classes; classes: declared_classes_)."""
    leaves, start, _ = leaf_paths(tree)
    labels = [str(c) for c in tree_edges(tree, feature_names, categories)]
    return PruningLog(record, leaves, np.diff(start), tree_parents(tree), labels,
                      classes[tree.node_class[leaves]])
