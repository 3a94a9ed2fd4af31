"""RuleBuilder: c4.5rules (§11) run on one grown tree and the training data.

One candidate rule per leaf, its conditions dropped by the pessimistic estimate,
duplicates merged (§11.2-11.3); per class the subset of shortest description
(§11.4, c45.rules._selection); the classes ordered and a default class chosen
(§11.5); rules that do more harm than good dropped (§11.6).
"""
import math
from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from c45._criterion import confidence_coefficient
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, LEAF_KIND, SUBSET_KIND
from c45._glibc_random import GlibcRandom
from c45.rules import _match
from c45.rules._ruleset import (_MAX_SELECT_ERROR, Condition, Rule, pack_rules,
                                pack_ruleset, rule_classes)
from c45.rules._selection import (_EXHAUSTIVE_MAX, SubsetSearch, _attribute_bits,
                                  _bitsets, _ints, _Lengths, _r32)
from c45.rules._export import rule_table

# The class masks one pass makes: at most this many bytes (classes x cases).
_MASK_BYTES = 1 << 24


def tree_condition(tree, node, b, feature_names, categories):
    """The condition of branch b of the test at node of tree (§11.2)."""
    f = int(tree.feature[node])
    kind = int(tree.kind[node])
    name = str(feature_names[f])
    if kind == CONTINUOUS_KIND:
        return Condition(f, name, "<=" if b == 0 else ">", float(tree.threshold[node]),
                         kind, b, (), node)
    cats = categories[f]
    if kind == DISCRETE_KIND:
        return Condition(f, name, "=", cats[b], kind, b, (b + 1,), node)
    group = tree.branch_values(node, len(cats))[b]
    return Condition(f, name, "in", tuple(cats[v] for v in group), kind, b,
                     tuple(v + 1 for v in group), node)


def tree_edges(tree, feature_names, categories):
    """The conditions of the tree's branches: entry c is that of the branch into
    node c + 1 (every node but the root is one node's child)."""
    edges = [None] * (tree.node_count - 1)
    for node in range(tree.node_count):
        first = int(tree.first_child[node])
        for b in range(int(tree.n_children[node])):
            edges[first + b - 1] = tree_condition(tree, node, b, feature_names, categories)
    return edges


# The arrays of drop_conditions' trace, in its order (pruning_log_'s record
# but its ``rule``: c45.rules._log.RECORD).
TRACE = ("step_start", "dropped", "errors", "total", "pess")


def leaf_paths(tree):
    """The leaves that give candidate rules, those of Items >= 1, depth-first,
    branches in order, the nodes below the root on each one's path and each
    node's parent: (leaves, path_start, path_nodes, parent), leaf k's
    path_nodes[path_start[k]:path_start[k + 1]]."""
    return _match.leaf_paths(tree.kind, tree.weight, tree.first_child, tree.n_children,
                             LEAF_KIND)


def rule_bits(conditions, att_bits, att_test_bits, redundancy, n_values, lengths, f32):
    """A rule's code length (§11.4): per condition the bits for its attribute
    (AttTestBits / redundancy) and for its test (the attribute's bits; a subset
    test's, its number of values), less the bits its order does not carry."""
    # The running sum is stored after each condition (binary32 in float32
    # mode), so it depends on the conditions' order: two rules with the same
    # conditions in another order can differ in their last bit, and the
    # subset search then prefers the cheaper one. Release 8 does so: in the
    # R8 corpus (r0194) it selects rule 112 (d1, d2, c0) over rule 22 (d1,
    # c0, d2), which covers the same cases; a sum rounded once gives a tie
    # that rule 22 wins.
    s = 0.0
    for c in conditions:
        a = n_values[c.feature] if c.kind == SUBSET_KIND else att_bits[c.feature]
        s = _r32(f32, s + (att_test_bits / redundancy + a))
    m = len(conditions)
    return _r32(f32, s + lengths.log2i(m) - lengths.log2fact(m))


@dataclass
class _Candidate:
    conditions: list
    class_index: int
    error: float = 0.0
    n_covered: int = 0
    n_errors: int = 0
    rule_number: int = 0          # 0: rejected; else the (possibly merged) rule


class RuleBuilder:
    """Runs §11 on one grown tree and the training data; keeps what each step found.

    Parameters
    ----------
    tree : Tree (the unpruned tree)
    cont, codes : encoded training matrices; y : class codes; schema : the encoding
    schema; feature_names, categories, classes : for the conditions' labels;
    confidence : c4.5rules' CF; redundancy : ``-r``; fisher : None or the
    significance level of ``-F``; annealing : ``-a``, simulated annealing instead
    of the greedy search; f32 : C4.5's binary32 arithmetic; trace_rows : the
    most rows the condition dropping's trace (log_record) may hold, -1 for no
    bound, 0 for none.
    """

    def __init__(self, tree, cont, codes, y, schema, feature_names, categories,
                 classes, confidence=0.25, redundancy=1.0, fisher=None, annealing=False,
                 f32=True, trace_rows=-1):
        self.tree = tree
        self.trace_rows = trace_rows
        self.cont, self.codes, self.col = cont, codes, schema.col
        self.y = np.ascontiguousarray(y, dtype=np.int64)
        self.n = len(self.y)
        self.k = len(classes)
        self.schema = schema
        self.feature_names = feature_names
        self.categories = categories
        self.classes = classes
        self.cf = confidence
        self.redundancy = redundancy
        self.fisher = fisher
        self.annealing = annealing
        self.f32 = f32
        self.precision = "float32" if f32 else "float64"
        self.lengths = _Lengths(f32)
        self.att_bits, self.att_test_bits = _attribute_bits(
            cont, codes, schema, self.n, self.lengths, f32)
        self._masks, self._masks_from = None, 0     # a block of class_mask's rows
        self.class_count = np.bincount(self.y, minlength=self.k)

    def _mask_rows(self):
        """Classes per block of class masks: at most _MASK_BYTES bytes (a mask of
        every class at once is classes x cases bytes: 400 MB for 20,000 of each)."""
        return max(1, _MASK_BYTES // max(self.n, 1))

    def _mask_block(self, lo):
        """The masks of classes lo, lo + 1, ... (a block of _mask_rows()), made in
        one pass and kept until another block is asked for."""
        if self._masks is None or self._masks_from != lo:
            rows = min(self._mask_rows(), self.k - lo)
            self._masks, self._masks_from = _match.class_masks(self.y, lo, rows), lo
        return self._masks

    def class_mask(self, c):
        """Whether each case is of class c."""
        lo = c - c % self._mask_rows()
        return self._mask_block(lo)[c - lo]

    # -- §11.2 ------------------------------------------------------------
    def _condition(self, node, b):
        return tree_condition(self.tree, node, b, self.feature_names, self.categories)

    def extract(self):
        """Depth-first, branches in order: one candidate per leaf with Items >= 1
        (their paths kept for prune and the log: self.leaves, self.path_start,
        self.path_nodes; self.edges the tree's conditions). A candidate's
        conditions are filled in when it makes a rule."""
        self.edges = tree_edges(self.tree, self.feature_names, self.categories)
        self.leaves, self.path_start, self.path_nodes, _ = leaf_paths(self.tree)
        return [_Candidate(None, c) for c in self.tree.node_class[self.leaves].tolist()]

    # -- §11.3 ------------------------------------------------------------
    def prune(self, candidates):
        """Drop conditions by the pessimistic estimate, each candidate on its own:
        one compiled call (_match.drop_conditions), which keeps each candidate's
        counts up to date as its conditions go. Each step's conditions are those
        left, the one whose removal gives the lowest Pess (the later on ties)
        goes when some removal gives a Pess or Actual no higher than the rule's
        (or, with fisher, when some condition fails the significance test), and
        a rule is rejected when no condition is left, it covers no case, or its
        Pess reaches DefaultError. A condition set covering no case has Actual
        0 and Pess DefaultError: a condition left out whose cases are all right
        (Actual 0) goes. Release 8 does so: with NaN or 1 there, rules are
        rejected that it keeps (R8 corpus r0209, r0089, r0183: the rule numbers
        after them shift). Returns per candidate the rule's Error, or None if it
        is rejected; self.log_record holds every step's counts (the log), None
        when they would pass self.trace_rows rows."""
        f32, n = self.f32, self.n
        targets = np.array([c.class_index for c in candidates], dtype=np.int64)
        default_error = np.array(
            [_r32(f32, 1.0 - (self.class_count[t] + 1.0) / (n + 2.0)) for t in targets.tolist()],
            dtype=np.float64)
        if self.fisher is None:
            fisher, log2fact = -1.0, np.zeros(0)
        else:
            fisher = float(self.fisher)
            log2fact = np.array([self.lengths.log2fact(i) for i in range(n + 1)])
        covered, error, kept, trace = \
            _match.drop_conditions(
                self.cont, self.codes, pack_rules([[c] for c in self.edges], self.col),
                self.tree.first_child, self.tree.n_children, self.path_start,
                self.path_nodes, self.y, targets, default_error, f32,
                _r32(f32, self.cf), confidence_coefficient(self.cf, self.precision),
                fisher, log2fact, self.trace_rows)
        start = self.path_start.tolist()
        errors = [None] * len(candidates)
        for k, (cand, (total0, errors0), pess0) in enumerate(
                zip(candidates, covered.tolist(), error.tolist())):
            left = kept[start[k]:start[k + 1]]
            cand.n_covered, cand.n_errors = total0, errors0
            if not left.any() or total0 == 0 or pess0 >= default_error[k]:
                continue
            path = [self.edges[c - 1] for c in self.path_nodes[start[k]:start[k + 1]].tolist()]
            conds = [path[j] for j in np.flatnonzero(left).tolist()]
            cand.conditions = self._reorder(path, conds)
            cand.error = errors[k] = pess0
        self.log_record = None if trace is None else dict(zip(TRACE, trace))
        return errors

    @staticmethod
    def _reorder(path, kept):
        """§11.3's condition order: a selection by (att, type, cut), reproduced scan
        for scan because the comparison is not a strict ordering. The scan runs
        over the rule's whole path, the dropped conditions keeping their slots
        (skipped, but swapped out of the way as positions fill), as c4.5rules
        does: in the R8 corpus this gives Release 8's order for all 3,296 rules
        of the final rulesets (scanning the shortened list gives 3,162)."""
        alive = {id(c) for c in kept}
        slots = list(path)
        out = []
        for pos in range(len(slots)):
            pick = None
            for j in range(pos, len(slots)):
                if id(slots[j]) not in alive:
                    continue
                x = slots[j]
                if pick is None:
                    pick = j
                    continue
                y = slots[pick]
                if (x.feature < y.feature or x.kind < y.kind
                        or (x.feature == y.feature and x.cut < y.cut)):
                    pick = j
            if pick is None:
                break
            slots[pos], slots[pick] = slots[pick], slots[pos]
            out.append(slots[pos])
        return out

    def form_rules(self):
        """§11.2-§11.3: the numbered rules, after condition dropping and duplicates
        (the same class and the same tests in the same order: Condition.test_key;
        found by a dict, a search through the rules made each a pass over all
        of them, seconds at thousands of rules)."""
        rules = []
        numbers = {}                        # (class, tests): the first rule's number
        self.candidates = self.extract()
        for cand, error in zip(self.candidates, self.prune(self.candidates)):
            if error is None:
                continue
            key = (cand.class_index, tuple(c.test_key() for c in cand.conditions))
            number = numbers.setdefault(key, len(rules) + 1)
            if number <= len(rules):        # rule n is rules[n - 1]
                dup = rules[number - 1]
                rules[number - 1] = replace(dup, error=max(dup.error, cand.error))
                cand.rule_number = dup.number
                continue
            cand.rule_number = len(rules) + 1
            rules.append(Rule(number=len(rules) + 1, conditions=tuple(cand.conditions),
                              class_index=cand.class_index,
                              class_=self.classes[cand.class_index], error=cand.error,
                              n_covered=cand.n_covered, n_errors=cand.n_errors))
        return [replace(r, bits=self._rule_bits(r)) for r in rules]

    # -- §11.4 ------------------------------------------------------------
    def _rule_bits(self, rule):
        return rule_bits(rule.conditions, self.att_bits, self.att_test_bits,
                         self.redundancy, self.schema.n_values, self.lengths, self.f32)

    def select(self, rules, rng):
        """Per class, the cheapest subset of its rules (§11.4)."""
        # Each class's rules' covers in one pass (none for a rule that takes no
        # part), as bits, held while the class is searched: a noisy data set has
        # rules in proportion to its cases, and all covers at once, a flag per
        # rule and case, were gigabytes. The selected rules' covers are kept as
        # Python ints for the ordering (§11.5).
        by_class = sorted(rules, key=lambda r: r.class_index)
        self.active_bits = {}
        selected = {}
        self.selection = {}
        start = [0] * (self.k + 1)                  # class c's rules: by_class[start[c]:start[c + 1]]
        for r in by_class:
            start[r.class_index + 1] += 1
        for c in range(self.k):
            start[c + 1] += start[c]
        for c in range(self.k):
            mine = by_class[start[c]:start[c + 1]]
            active = np.array([r.error <= _MAX_SELECT_ERROR for r in mine], dtype=np.uint8)
            cover = _match.covers(self.cont, self.codes,
                                  pack_rules([r.conditions for r in mine], self.col), active,
                                  bits=True)
            search = SubsetSearch(cover, [r.bits for r in mine], self.class_mask(c),
                                  self.lengths, packed=True)
            if len(mine) <= _EXHAUSTIVE_MAX:
                best_sel, best_cost = search.exhaustive()
                how = "exhaustive"
            elif self.annealing:
                best_sel, best_cost = search.anneal(rng)
                how = "annealing"
            else:
                best_sel, best_cost = search.greedy(rng)
                how = "greedy"
            chosen = [mine[i] for i in best_sel]
            self.active_bits.update(zip((r.number for r in chosen), _ints(cover[best_sel])))
            selected[c] = chosen
            self.selection[self.classes[c]] = dict(
                n_rules=len(mine), search=how, empty_cost=search.subset_cost([]),
                cost=best_cost, selected=[r.number for r in chosen])
        return selected

    # -- §11.5 ------------------------------------------------------------
    def order(self, selected):
        placed = 0
        unplaced = list(range(self.k))
        ordered = []
        self.class_order = []
        class_bits = [b for lo in range(0, self.k, self._mask_rows())
                      for b in _bitsets(self._mask_block(lo))]
        sel_cover = {}
        for c in range(self.k):
            cov = 0
            for r in selected[c]:
                cov |= self.active_bits[r.number]
            sel_cover[c] = cov
        # Next, the first class (by index) of fewest false positives among the cases
        # not yet covered. A class without selected rules has none, whatever is
        # placed, and placing it changes nothing: such classes are taken in index
        # order without counting, and the others' counts are taken again only
        # when one of them is placed (counting every class for every place was
        # K^2 counts: 2 * 10^4 classes did not finish in 5 minutes).
        empty = deque(c for c in unplaced if not sel_cover[c])
        ruled = [c for c in unplaced if sel_cover[c]]

        def false_positives():
            return {c: (sel_cover[c] & ~placed & ~class_bits[c]).bit_count()
                    for c in ruled}
        fp = false_positives()
        while empty or ruled:
            best = min(ruled, key=lambda c: (fp[c], c)) if ruled else None
            if empty and (best is None or fp[best] > 0 or empty[0] < best):
                best = empty.popleft()
            else:
                ruled.remove(best)
                placed |= sel_cover[best]
                fp = false_positives()
            self.class_order.append(best)
            ordered += sorted(selected[best], key=lambda r: (r.error, r.number))
        uncovered = [(class_bits[c] & ~placed).bit_count() for c in range(self.k)]
        default = 0
        for c in range(1, self.k):
            if (uncovered[c], self.class_count[c]) > (uncovered[default],
                                                      self.class_count[default]):
                default = c
        self.uncovered = uncovered
        return ordered, default

    # -- §11.6 ------------------------------------------------------------
    def drop_rules(self, rules, default):
        """Evaluate on the training data and drop the first rule (used) that does
        more harm than good, until none does: every round in one pass
        (_match.drop_rounds). self.rounds keeps each evaluation's table, as
        c4.5rules prints it before each "Drop rule N"; self.train_errors the
        training cases the final rules and the default misclassify."""
        self.dropped = []
        self.rounds = []
        self.counted = {}           # rule number: the rule as its last round counted it
        conditions, can = pack_ruleset(rules, self.col)
        dropped, counts, default_wrong = _match.drop_rounds(
            self.cont, self.codes, conditions, can, rule_classes(rules, default), self.y)
        alive = list(range(len(rules)))
        for drop, (used, wrong, better, worse) in zip(dropped.tolist(), counts.tolist()):
            now = [replace(rules[i], used=used[i], wrong=wrong[i], better=better[i],
                           worse=worse[i]) for i in alive]
            self.counted.update((r.number, r) for r in now)
            self.rounds.append(rule_table(now))
            if drop >= 0:
                self.dropped.append(rules[drop].number)
                alive.remove(drop)
        self.train_errors = sum(r.wrong for r in now) + default_wrong
        return now

    def run(self):
        rules = self.form_rules()
        rng = GlibcRandom(1)
        selected = self.select(rules, rng)
        ordered, default = self.order(selected)
        final = self.drop_rules(ordered, default)
        # Every list shows a rule with the counts of the last evaluation it took
        # part in (none for a rule that was not selected).
        self.rules = [self.counted.get(r.number, r) for r in rules]
        self.ordered = [self.counted[r.number] for r in ordered]
        return final, default
