"""c45 ``precision="float32"`` against C4.5 Release 8 on the R8 corpus.

300 generated problems (15 to 1,000 training cases, about 60% with unknown values,
so fractional case weights everywhere), each run by Release 8 itself: ``c4.5 -u``
with default options, ``-m 1``, ``-c 10``, ``-s`` and ``-g``; ``c4.5rules -u``;
and R8's class sums of every case (see ``r8_corpus``). For every problem:

* ``test_c45_output_and_class_sums``: ``c45 fit -f STEM -u --precision float32`` prints, from
  ``Decision Tree:`` on, what R8 printed, line for line, under each option: the
  grown and the pruned tree, both evaluation tables (sizes, errors, estimate) and
  the confusion matrix; and the sizes and errors equal ``index.json``'s; with the
  default options every training and test case gets R8's class from the grown
  and from the pruned tree, and R8's float32 class sums, bit for bit;
* ``test_rules``: ``c45 rules -f STEM -u --precision float32`` prints R8's
  c4.5rules report line for line from ``Final rules from tree 0:`` on (the ruleset,
  its evaluation with the rules dropped, test evaluation, confusion matrices), and
  the rules kept (those used on the training data), default class and errors
  equal ``index.json``'s;
* ``test_soft_thresholds``: ``c45 fit -p`` and ``-p -s`` print R8's output from
  ``Decision Tree:`` on (the Softening thresholds report, the final tree with its
  bounds, the evaluation tables), and the figures equal ``extra.json``'s;
* ``test_rules_options``: the same with c4.5rules' options (``-c 10``, ``-r 1.5``,
  ``-F 10``, ``-a``), the figures from ``extra.json``;
* ``test_windowing``: ``c45 fit ... --precision float32`` with windowing (``-t 3``,
  ``-t 3 -m 1``, ``-t 1 -w W -i I``) prints R8's whole output line for line (the
  options, each trial's cycle table and trees, the trial table, the best trial,
  the confusion matrix; see ``r8_corpus.window_text``), and the best trial's sizes
  and errors equal ``extra.json``'s.

The soft-threshold and windowing tests run each problem under one option of
their family in turn (suite time); ``C45_CORPUS_FULL=1`` runs every option on
every problem.
"""
import os

import numpy as np
import pytest

import r8_corpus as corpus
from r8_output import parse_r8_output

PROBLEMS = corpus.problems()

# Problems whose c4.5rules report c45 does not reproduce (none since r0194 was
# explained: the rule bits' running sum is stored after each condition).
RULES_DIFFER: set = set()

# Per c4.5rules option (r8_corpus.RULES_OPTIONS), the problems whose report c45 does
# not reproduce. r0194 (-c 10 and -F 10) and r0008 (-r 1.5): two rules with the
# same conditions in another order, whose bits differ in their last binary32
# place; Release 8 selects the costlier one there, the cheaper one in r0194's
# default run.
# -a (c45.rules._selection.anneal, a schedule fitted to Release 8's -a outputs with
# tests/anneal_replay.py) reproduces all 300.
OPTION_DIFFER = {"rules-c10": {"r0194"}, "rules-r15": {"r0008"}, "rules-F10": {"r0194"},
                 "rules-a": set()}


def _option_cases():
    for option in OPTION_DIFFER:
        for p in PROBLEMS:
            marks = [pytest.mark.xfail(strict=True, reason="see OPTION_DIFFER")] \
                if p in OPTION_DIFFER[option] else []
            yield pytest.param(p, option, marks=marks, id=f"{p}-{option}")


def _rules_cases():
    for p in PROBLEMS:
        marks = [pytest.mark.xfail(strict=True, reason="rule order, see RULES_DIFFER")] \
            if p in RULES_DIFFER else []
        yield pytest.param(p, marks=marks, id=p)


# c45 fit -p (soft thresholds) and -p -s: problems whose report differs from R8's
# (none since the standard error is taken as R8 takes it: the square root in
# double, rounded to binary32, then added to the base errors in binary32).
SOFT_DIFFER: dict = {"p": set(), "ps": set()}


# Suite time: the soft-threshold and windowing options run each problem under one
# option of their family in turn (every problem once a family, every option on a
# third or a half of the problems); C45_CORPUS_FULL=1 runs them all, as
# `python tests/r8_corpus.py --check p --check ps --check t3 ...` does.
FULL = os.environ.get("C45_CORPUS_FULL") == "1"


def _in_turn(options):
    """(problem, option) pairs: all of them with C45_CORPUS_FULL=1, else each
    problem under the option whose turn it is."""
    for i, p in enumerate(PROBLEMS):
        for k, option in enumerate(options):
            if FULL or i % len(options) == k:
                yield p, option


def _soft_cases():
    for p, option in _in_turn(list(SOFT_DIFFER)):
        marks = [pytest.mark.xfail(strict=True, reason="see SOFT_DIFFER")] \
            if p in SOFT_DIFFER[option] else []
        yield pytest.param(p, option, marks=marks, id=f"{p}-{option}")


@pytest.mark.parametrize("problem,option", list(_soft_cases()))
def test_soft_thresholds(problem, option):
    """c45 fit -p (and -p -s) prints R8's output from ``Decision Tree:`` on: the
    trees, the Softening thresholds report (every bound, as %g prints it), the
    final tree with its bounds, the evaluation tables; the figures equal
    extra.json's (R8's tables under -p are those without it)."""
    text, clf = corpus.fit_run(problem, option)
    diff = corpus.first_difference(corpus.tree_report(text),
                                   corpus.tree_report(corpus.r8_text(problem, option)))
    assert not diff, f"{problem} {option}: {diff}"
    got = parse_r8_output(text)
    want = corpus.figures(problem, option)
    assert (got.train.size_before, got.train.errors_before, got.train.size_after,
            got.train.errors_after) == (want["unpruned_size"], want["unpruned_errors"],
                                        want["pruned_size"], want["pruned_errors"])
    assert (got.test.errors_before, got.test.errors_after) == (
        want["test_unpruned_errors"], want["test_pruned_errors"])


@pytest.mark.parametrize("problem", PROBLEMS)
def test_c45_output_and_class_sums(problem):
    expected = corpus.index()[problem]
    for option in corpus.INDEX_OPTIONS:
        text, clf = corpus.fit_run(problem, option)
        if option == "default":
            diffs = corpus.sums_differences(problem, clf)
            assert not diffs, f"{problem}: class sums: " + "; ".join(diffs)
        diff = corpus.first_difference(corpus.tree_report(text),
                                       corpus.tree_report(corpus.r8_text(problem, option)))
        assert not diff, f"{problem} {option}: {diff}"
        got = parse_r8_output(text)
        want = expected[option]
        assert (got.train.size_before, got.train.errors_before, got.train.size_after,
                got.train.errors_after) == (want["unpruned_size"], want["unpruned_errors"],
                                            want["pruned_size"], want["pruned_errors"])
        assert (got.test.errors_before, got.test.errors_after) == (
            want["test_unpruned_errors"], want["test_pruned_errors"])


@pytest.mark.parametrize("problem", list(_rules_cases()))
def test_rules(problem):
    text, clf = corpus.rules_run(problem)
    diff = corpus.first_difference(corpus.rules_text(text, problem),
                                   corpus.rules_text(corpus.r8_text(problem, "rules"), problem))
    assert not diff, f"{problem}: {diff}"
    (X, y), (Xt, yt) = corpus.data(problem)
    want = corpus.index()[problem]["rules"]
    errors = int(np.sum(clf.predict(X).astype(object) != np.asarray(y, dtype=object)))
    test_errors = int(np.sum(clf.predict(Xt).astype(object) != np.asarray(yt, dtype=object)))
    # index.json's "rules kept" counts the rows of R8's last training table: the
    # rules that classify some training case (a kept rule that classifies none,
    # such as an inactive one of Error > 70%, has no row).
    used = sum(1 for r in clf.rules_ if r.used > 0)
    assert (used, str(clf.default_class_), errors, test_errors) == (
        want["rules_kept"], want["default_class"], want["train_errors"], want["test_errors"])


@pytest.mark.parametrize("problem,option", list(_option_cases()))
def test_rules_options(problem, option):
    """c45 rules with c4.5rules' options prints R8's report from ``Final rules``
    on, and its rules and errors equal extra.json's (whose rule count is that of
    the printed ruleset, before the rules dropped on the training data)."""
    text, clf = corpus.rules_run(problem, option)
    diff = corpus.first_difference(corpus.rules_text(text, problem),
                                   corpus.rules_text(corpus.r8_text(problem, option), problem))
    assert not diff, f"{problem} {option}: {diff}"
    (X, y), (Xt, yt) = corpus.data(problem)
    want = corpus.extra()[problem][option]
    errors = int(np.sum(clf.predict(X).astype(object) != np.asarray(y, dtype=object)))
    test_errors = int(np.sum(clf.predict(Xt).astype(object) != np.asarray(yt, dtype=object)))
    assert (len(clf.ordered_rules_), errors, test_errors) == (
        want["rules"], want["train_errors"], want["test_errors"])


# Per windowing option (r8_corpus.WINDOW_OPTIONS), the problems whose output c45
# does not reproduce: none.
WINDOW_DIFFER = {"t3": set(), "t3m1": set(), "t1w": set()}


def _window_cases():
    for p, option in _in_turn(list(corpus.WINDOW_OPTIONS)):
        marks = [pytest.mark.xfail(strict=True, reason="see WINDOW_DIFFER")] \
            if p in WINDOW_DIFFER[option] else []
        yield pytest.param(p, option, marks=marks, id=f"{p}-{option}")


@pytest.mark.parametrize("problem,option", list(_window_cases()))
def test_windowing(problem, option):
    text, clf = corpus.window_run(problem, option)
    diff = corpus.first_difference(corpus.window_text(text, problem),
                                   corpus.window_text(corpus.r8_text(problem, option),
                                                      problem))
    assert not diff, f"{problem} {option}: {diff}"
    (X, y), (Xt, yt) = corpus.data(problem)
    y, yt = np.asarray(y, dtype=object), np.asarray(yt, dtype=object)
    want = corpus.extra()[problem][option]
    assert (clf.grown_tree_.node_count, clf.tree_.node_count) == (
        want["unpruned_size"], want["pruned_size"])
    errors = [int(np.sum(clf.predict(rows, tree=tree).astype(object) != labels))
              for rows, labels in ((X, y), (Xt, yt)) for tree in ("grown", "final")]
    assert errors == [want["unpruned_errors"], want["pruned_errors"],
                      want["test_unpruned_errors"], want["test_pruned_errors"]]


def test_labor_57_cases_grow_release8s_tree_in_float32():
    """Weka's labor.arff is labor-neg's 40 training cases followed by its 17 test
    cases. Release 8 grows 17 nodes on it: at `wage increase first year <= 2.5`,
    `education allowance = yes` the known weight of the continuous evaluation is
    7.49999952 in float32 and the only cut's upper side 1.99999934 < MINOBJS, so
    R8 does not split there. Exactly 7.5 in float64, where J48's 22-node tree grows."""
    import pandas as pd
    from c45 import C45Classifier
    from c45.io import C45Files
    files = C45Files(os.path.join(os.path.dirname(__file__), "data", "reference",
                                  "labor-neg"))
    (X, y), (Xt, yt) = files.read("data"), files.read("test")
    X, y = pd.concat([X, Xt], ignore_index=True), pd.concat([y, yt], ignore_index=True)
    assert C45Classifier(precision="float32").fit(X, y).grown_tree_.node_count == 17
    assert C45Classifier(precision="float64").fit(X, y).grown_tree_.node_count == 22


def test_rule_bits_are_a_running_sum_in_condition_order():
    """r0194's rules 22 (d1 = v1, c0 <= 5, d2 = v4) and 112 (d1 = v1, d2 = v4,
    c0 <= 5) have the same conditions and cover; their bits, summed condition by
    condition with the sum stored in binary32, differ by one ulp, and Release 8
    selects the cheaper rule 112."""
    (X, y), _ = corpus.data("r0194")
    from c45 import C45RulesClassifier
    clf = C45RulesClassifier(precision="float32").fit(X, y)
    rules = {r.number: r for r in clf.candidate_rules_}
    r22, r112 = rules[22], rules[112]
    assert [str(c) for c in r22.conditions] == ["d1 = v1", "c0 <= 5", "d2 = v4"]
    assert [str(c) for c in r112.conditions] == ["d1 = v1", "d2 = v4", "c0 <= 5"]
    assert r112.bits == float(np.nextafter(np.float32(r22.bits), np.float32(0)))
    assert 112 in clf.selection_["k5"]["selected"]
    assert 22 not in clf.selection_["k5"]["selected"]
