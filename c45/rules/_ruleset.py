"""A ruleset's parts, Condition and Rule, and how a ruleset classifies cases:
the first rule that can fire and whose conditions hold, else the default class."""
from dataclasses import dataclass, replace

import numpy as np

from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND
from c45.rules import _match

# A rule is active only if its error estimate is at most _MAX_SELECT_ERROR: only
# then does it take part in the subset selection, and only then does it classify
# a case (first or second choice), if also its strength 1 - Error exceeds
# _MIN_STRENGTH. Release 8 evaluates so: in the R8 corpus (r0292) a selected rule
# of Error 72.4% classifies no case, first or second.
_MAX_SELECT_ERROR = 0.7
_MIN_STRENGTH = 0.1


@dataclass(frozen=True)
class Condition:
    """One condition of a rule: the outcome ``branch`` of a test of the tree.

    Attributes
    ----------
    feature : int
        Column of X.
    name : str
        Feature name.
    op : {"=", "<=", ">", "in"}
    value : category (``"="``), float threshold (``"<="``, ``">"``) or tuple of
        categories (``"in"``).
    kind : int
        The tree's test kind: 1 discrete, 2 continuous, 3 value subset.
    branch : int
        0-based branch of the test.
    codes : tuple of int
        The 1-based category codes the condition accepts (discrete and subset).
    node : int
        The test's node in the grown tree (subset tests are the same test only when
        they are the same node, §11.2).

    A case whose value is unknown (or a category unseen in training) never
    satisfies a condition.
    """
    feature: int
    name: str
    op: str
    value: object
    kind: int
    branch: int
    codes: tuple = ()
    node: int = -1

    @property
    def cut(self):
        """The threshold of a continuous test, 0 for other tests (the reordering
        key of §11.3)."""
        return float(self.value) if self.kind == CONTINUOUS_KIND else 0.0

    def test_key(self):
        """What the duplicate test of §11.3 compares: kind and feature; then the
        discrete outcome, only the cut of a threshold (so ``<= t`` matches
        ``> t``), only the very test of a subset."""
        if self.kind == DISCRETE_KIND:
            return (self.kind, self.feature, self.branch)
        if self.kind == CONTINUOUS_KIND:
            return (self.kind, self.feature, float(self.value))
        return (self.kind, self.feature, self.node)

    def same_test(self, other):
        """The duplicate test of §11.3 (test_key)."""
        return self.test_key() == other.test_key()

    def mask(self, cont, codes, col):
        """Boolean mask of the cases (columns of the encoded matrices) satisfying it."""
        return _match.covers(np.ascontiguousarray(cont, dtype=np.float64),
                             np.ascontiguousarray(codes, dtype=np.int32),
                             pack_rules([[self]], col))[0]

    def __str__(self):
        if self.op in ("<=", ">"):
            return f"{self.name} {self.op} {self.value:g}"
        if self.op == "in":
            if len(self.value) == 1:            # as the tree prints a one-value group
                return f"{self.name} = {self.value[0]}"
            return f"{self.name} in {{{', '.join(str(v) for v in self.value)}}}"
        return f"{self.name} = {self.value}"


@dataclass(frozen=True)
class Rule:
    """One rule: all ``conditions`` hold -> ``class_``. Frozen, as Condition is:
    a fitted model's rules do not change under it (a changed ruleset is a new
    tuple assigned to ``rules_``, made with ``dataclasses.replace``).

    Attributes
    ----------
    number : int
        c4.5rules' rule number (order of creation, before selection and ordering).
    conditions : tuple of Condition
    class_index : int
        Index into ``declared_classes_`` (C4.5's class order).
    class_ : label
    error : float
        The pessimistic error rate of the rule on the training data (§11.3); the
        rule's *strength* or confidence is ``1 - error``, printed ``[nn.n%]``.
    n_covered, n_errors : int
        Training cases satisfying the conditions, and those of them not of
        ``class_`` (when the conditions were last pruned; duplicates keep the first).
    bits : float
        The rule's description length (§11.4).
    used, wrong : int
        In the final ruleset: training cases the rule classifies (first firing
        rule) and how many of them wrongly.
    better, worse : int
        Of the ``used`` cases on which the next rule (or the default) would give
        another class: how many the rule gets right, and how many the next choice
        would have got right (§11.6). ``advantage = better - worse``.
    """
    number: int
    conditions: tuple
    class_index: int
    class_: object
    error: float
    n_covered: int = 0
    n_errors: int = 0
    bits: float = 0.0
    used: int = 0
    wrong: int = 0
    better: int = 0
    worse: int = 0

    @property
    def confidence(self):
        """``1 - error``: c4.5rules' strength of the rule, printed as its accuracy."""
        return 1.0 - self.error

    @property
    def advantage(self):
        return self.better - self.worse

    def __str__(self):
        lines = [f"Rule {self.number}:"]
        lines += [f"    \t{c}" for c in self.conditions]
        lines.append(f"\t->  class {self.class_}  [{100.0 * (1.0 - self.error):.1f}%]")
        return "\n".join(lines)


def can_fire(rule):
    """Whether the rule classifies the cases it covers (active and strong enough)."""
    return rule.error <= _MAX_SELECT_ERROR and 1.0 - rule.error > _MIN_STRENGTH


def pack_rules(condition_lists, col):
    """Each list's conditions (a rule's) packed for the passes of c45.rules._match
    (a PackedRules, checked once): per condition its test, its row of the encoded
    matrices (col[feature]), its cut and its codes; per list the range of its
    conditions."""
    test, row, cut, code_start, codes, rule_start = [], [], [], [0], [], [0]
    for conditions in condition_lists:
        for c in conditions:
            if c.kind == CONTINUOUS_KIND:
                test.append(_match.LE if c.branch == 0 else _match.GT)
                cut.append(float(c.value))
            else:                       # discrete: its one code; subset: its codes
                test.append(_match.IN)
                cut.append(0.0)
                codes.extend(c.codes)
            row.append(int(col[c.feature]))
            code_start.append(len(codes))
        rule_start.append(len(test))
    return _match.PackedRules(test, row, cut, code_start, codes, rule_start)


def rule_mask(rule, cont, codes, col):
    """Cases (columns) on which the rule fires: can_fire and every condition."""
    if not can_fire(rule):
        return np.zeros(cont.shape[1], dtype=bool)
    return _match.covers(cont, codes, pack_rules([rule.conditions], col))[0]


def pack_ruleset(rules, col):
    """What firing reads of a ruleset, packed once: its conditions (pack_rules)
    and which rules can fire."""
    can = np.array([can_fire(r) for r in rules], dtype=np.uint8)
    return pack_rules([r.conditions for r in rules], col), can


def firing(rules, cont, codes, col, packed=None):
    """(first, second): per case (column of the encoded matrices) the position in
    rules of the first and the second rule that fires on it (can_fire and every
    condition holds), -1 where none does. One pass over the cases. packed:
    pack_ruleset(rules, col), when the caller keeps it."""
    conditions, can = pack_ruleset(rules, col) if packed is None else packed
    return _match.first_two(cont, codes, conditions, can)


def rule_classes(rules, default):
    """Each rule's class index, then the default's (what tally reads)."""
    return np.array([r.class_index for r in rules] + [default], dtype=np.int64)


def tally(rules, fired, default):
    """Classify the cases by the first firing rule or the default, given
    fired = firing(rules, ...). Returns (predicted codes, index of the rule used
    or -1)."""
    first = fired[0]
    return rule_classes(rules, default)[first], first   # -1 -> the default


def counted(rules, fired, default, y):
    """The rules as classifying the cases of classes y made them: each a copy with
    its used/wrong/better/worse (the next choice: the second firing rule, else
    the default; one pass), given fired = firing(rules, ...). Returns
    (predicted codes, the copies)."""
    first, second = fired
    cls = rule_classes(rules, default)
    counts = _match.rule_counts(first, second, cls, np.ascontiguousarray(y, dtype=np.int64))
    used, wrong, better, worse = (c.tolist() for c in counts)
    return cls[first], [replace(r, used=used[i], wrong=wrong[i], better=better[i],
                                worse=worse[i]) for i, r in enumerate(rules)]
