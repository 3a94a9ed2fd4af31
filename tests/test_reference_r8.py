"""Conformance with C4.5 Release 8 on the nine bundled data sets.

For every data set in ``tests/data/reference`` the expected figures come from
``r8/<name>.txt``, the output of ``c4.5 -f <name> -u`` (default options: MINOBJS 2,
CF 25%).  With ``precision="float32"`` the package must reproduce exactly:

* the grown tree: size, errors on the training data (and on the test data), and its
  printed text (``export_text(clf, tree="grown")``);
* the pruned tree: size, errors, the estimate as R8 prints it (``%4.1f`` of
  ``100 * errors / items``), and its printed text (``export_text(clf)``).

Trees are compared line by line, stripped, after expanding R8's ``Subtree [Sn]``
blocks inline.  When R8 printed no "Simplified Decision Tree" (pruning changed
nothing: golf, hypo), the pruned tree must have the grown tree's printed structure,
tests, classes and leaf weights; the error figure after ``/`` in the leaves is then
not compared, because R8 did not print the pruned tree's ``E + U`` values.

With ``precision="float64"`` the same holds, except where the specification (section
0.2) says R8's binary32 rounding decides the tree under default options: soybean.
There only sanity and closeness to R8 are checked (see ``BINARY64_DIFFERS``).

No test is skipped: each check is parametrised only over the cases it applies to.
``fitted`` runs over every (data set, precision) pair, ``fitted_exact`` leaves out
``BINARY64_DIFFERS``, and ``fitted_with_test`` keeps only the exact pairs whose data
set has a ``.test`` file (golf and soybean have none).

Errors before pruning are counted with ``predict(X, tree="grown")``, which uses
``clf.grown_tree_``.  Each data set is fitted once per precision (``_fit`` is
cached), with the default pruning; ``test_unpruned_estimator_is_grown_tree`` fits
``pruning=None`` on two data sets and checks that its ``tree_`` is the grown tree.

The file also holds unit tests of the two helpers, ``c45_files`` (the .names/.data
reader) and ``r8_output`` (the R8 output parser).
"""

import functools
import os
import re
from dataclasses import dataclass
from typing import Optional

import numpy as np
import pandas as pd
import pytest

from c45_files import load_c45, read_names, tokenize
from r8_output import _tree_block, expand_subtrees, parse_r8_output, tree_depth

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "reference")
R8_DIR = os.path.join(REFERENCE, "r8")

DATASETS = ["golf", "labor-neg", "vote", "monk1", "monk2", "monk3", "crx", "hypo",
            "soybean"]
NO_TEST_FILE = {"golf", "soybean"}
PRECISIONS = ["float32", "float64"]

# Spec section 0.2: rerun entirely in binary64, the default-option tree changes on
# soybean.  At a node of 67 cases (weight 57.5) `canker-lesion` and `seed-discolor`
# both have a mathematical gain ratio of exactly 1; in binary32 the ratios are
# 1.0000015 and 1.0000041, so R8 picks `seed-discolor`, while binary64 sees a tie and
# keeps the lower attribute index, `canker-lesion`.  The subtree below differs, so
# sizes, printed trees and estimate are not expected to match R8 there; the training
# errors must still be within BINARY64_ERROR_SLACK cases of R8.
BINARY64_DIFFERS = {("soybean", "float64")}
BINARY64_ERROR_SLACK = 5

CASES = [(n, p) for p in PRECISIONS for n in DATASETS]
EXACT_CASES = [c for c in CASES if c not in BINARY64_DIFFERS]
TEST_FILE_CASES = [c for c in EXACT_CASES if c[0] not in NO_TEST_FILE]


def _ids(cases):
    return [f"{name}-{precision}" for name, precision in cases]


def _stem(name):
    return os.path.join(REFERENCE, name)


# --------------------------------------------------------------------------------
# Fitting (once per data set and precision)
# --------------------------------------------------------------------------------


@dataclass
class Fitted:
    name: str
    precision: str
    r8: object
    X: pd.DataFrame
    y: pd.Categorical
    X_test: Optional[pd.DataFrame]
    y_test: Optional[pd.Categorical]
    clf: object  # pruning="pessimistic"; grown_tree_ is the tree before pruning
    export_text: object

    @property
    def exact(self):
        return (self.name, self.precision) not in BINARY64_DIFFERS


def _params(precision):
    """R8's default options (c4.5 -f <name> -u)."""
    return dict(min_samples_leaf=2, confidence=0.25, precision=precision)


@functools.lru_cache(maxsize=None)
def _fit(name, precision):
    from c45 import C45Classifier, export_text

    r8 = parse_r8_output(os.path.join(R8_DIR, name + ".txt"))
    X, y = load_c45(_stem(name))
    if name in NO_TEST_FILE:
        X_test = y_test = None
    else:
        X_test, y_test = load_c45(_stem(name), part="test")
    clf = C45Classifier(pruning="pessimistic", **_params(precision)).fit(X, y)
    return Fitted(name, precision, r8, X, y, X_test, y_test, clf, export_text)


@pytest.fixture(scope="module", params=CASES, ids=_ids(CASES))
def fitted(request):
    """Every (data set, precision) pair."""
    return _fit(*request.param)


@pytest.fixture(scope="module", params=EXACT_CASES, ids=_ids(EXACT_CASES))
def fitted_exact(request):
    """The pairs where R8 must be reproduced exactly (not in BINARY64_DIFFERS)."""
    return _fit(*request.param)


@pytest.fixture(scope="module", params=TEST_FILE_CASES, ids=_ids(TEST_FILE_CASES))
def fitted_with_test(request):
    """The exact pairs whose data set has a .test file."""
    return _fit(*request.param)


def _errors(estimator, X, y, tree="final"):
    predicted = np.asarray(estimator.predict(X, tree=tree), dtype=object)
    truth = np.asarray(y, dtype=object)
    assert predicted.shape == truth.shape
    return int(np.sum(predicted != truth))


def _check_errors(f, got, expected, what):
    if f.exact:
        assert got == expected, f"{f.name} {f.precision}: {what}: expected {expected}, got {got}"
    else:
        assert abs(got - expected) <= BINARY64_ERROR_SLACK, (
            f"{f.name} {f.precision}: {what}: expected within {BINARY64_ERROR_SLACK} "
            f"of R8's {expected}, got {got}")


def _estimate_text(tree, precision):
    """The pruned tree's estimate as R8 prints it: %4.1f of 100*Errors/Items."""
    errors, items = tree.errors[0], tree.weight[0]
    if precision == "float32":
        pct = np.float32(np.float32(100) * np.float32(errors)) / np.float32(items)
    else:
        pct = 100.0 * float(errors) / float(items)
    return f"{float(pct):4.1f}".strip()


def _lines(text):
    """export_text's tree lines with its Subtree [Sn] blocks expanded, as R8's."""
    lines = text.splitlines()
    return [line.strip() for line in _tree_block(lines, 0, len(lines))]


_LEAF_ERRORS = re.compile(r"\((\d+\.\d)/\d+\.\d\)$")


def _without_leaf_errors(lines):
    return [_LEAF_ERRORS.sub(r"(\1)", line) for line in lines]


def _assert_same_tree(got_lines, expected_lines, what):
    expected_lines = [line.strip() for line in expected_lines]
    if got_lines == expected_lines:
        return
    n = min(len(got_lines), len(expected_lines))
    i = next((k for k in range(n) if got_lines[k] != expected_lines[k]), n)
    exp = expected_lines[i] if i < len(expected_lines) else "<end of tree>"
    got = got_lines[i] if i < len(got_lines) else "<end of tree>"
    pytest.fail(
        f"{what}: first difference at line {i + 1} "
        f"(R8 has {len(expected_lines)} lines, got {len(got_lines)}):\n"
        f"  expected: {exp}\n  got:      {got}")


# --------------------------------------------------------------------------------
# Conformance with R8
# --------------------------------------------------------------------------------


def test_classes_in_declared_order(fitted):
    assert list(fitted.clf.declared_classes_) == list(fitted.y.categories)


def test_grown_size(fitted_exact):
    f = fitted_exact
    assert f.clf.grown_tree_.node_count == f.r8.train.size_before


def test_grown_training_errors(fitted):
    f = fitted
    got = _errors(f.clf, f.X, f.y, tree="grown")
    _check_errors(f, got, f.r8.train.errors_before,
                  "errors of the grown tree on the training data")


def test_grown_test_errors(fitted_with_test):
    f = fitted_with_test
    got = _errors(f.clf, f.X_test, f.y_test, tree="grown")
    _check_errors(f, got, f.r8.test.errors_before,
                  "errors of the grown tree on the test data")


def test_pruned_size(fitted_exact):
    f = fitted_exact
    assert f.clf.tree_.node_count == f.r8.train.size_after


def test_pruned_training_errors(fitted):
    f = fitted
    got = _errors(f.clf, f.X, f.y)
    _check_errors(f, got, f.r8.train.errors_after,
                  "errors of the pruned tree on the training data")


def test_pruned_test_errors(fitted_with_test):
    f = fitted_with_test
    got = _errors(f.clf, f.X_test, f.y_test)
    _check_errors(f, got, f.r8.test.errors_after,
                  "errors of the pruned tree on the test data")


def test_pruned_estimate(fitted_exact):
    f = fitted_exact
    tree = f.clf.tree_
    got = _estimate_text(tree, f.precision)
    assert got == f.r8.train.estimate, (
        f"estimate: expected ({f.r8.train.estimate}%), got ({got}%) "
        f"from errors[0]={tree.errors[0]!r}, weight[0]={tree.weight[0]!r}")


def test_grown_tree_text(fitted_exact):
    f = fitted_exact
    got = _lines(f.export_text(f.clf, tree="grown"))
    _assert_same_tree(got, f.r8.grown_tree, f"{f.name} grown tree")


def test_pruned_tree_text(fitted_exact):
    f = fitted_exact
    got = _lines(f.export_text(f.clf))
    if f.r8.pruned_printed:
        _assert_same_tree(got, f.r8.pruned_tree, f"{f.name} pruned tree")
    else:
        # R8 printed no simplified tree: pruning changed nothing.  The leaves' "/E"
        # would show E + U, which R8 did not print; compare everything else.
        _assert_same_tree(_without_leaf_errors(got),
                          _without_leaf_errors(f.r8.pruned_tree),
                          f"{f.name} pruned tree (leaf errors not compared)")


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("name", ["crx", "soybean"])
def test_unpruned_estimator_is_grown_tree(name, precision):
    """pruning=None keeps the grown tree: same size, print and predictions as the
    default classifier's grown_tree_.  crx: pruning removes 32 of 90 nodes;
    soybean: 19 classes, unknown values, and the float64 tree that differs from R8."""
    from c45 import C45Classifier

    f = _fit(name, precision)
    unpruned = C45Classifier(pruning=None, **_params(precision)).fit(f.X, f.y)
    assert unpruned.tree_.node_count == f.clf.grown_tree_.node_count
    assert _lines(f.export_text(unpruned)) == _lines(f.export_text(f.clf, tree="grown"))
    np.testing.assert_array_equal(unpruned.predict_proba(f.X),
                                  f.clf.predict_proba(f.X, tree="grown"))


@pytest.mark.parametrize("precision", PRECISIONS)
def test_golf_pruned_leaves_show_pessimistic_errors(precision):
    """R8 prints no simplified golf tree; its leaves would read N/(E + U(N, E)).

    The U values are the spec's verified reference values (section 8.1, CF 25%):
    U(2,0)=1.000000, U(3,0)=1.110118, U(4,0)=1.171573; E = 0 at every golf leaf.
    The root estimate 5.39/14 is the section 8.2 worked check.
    """
    from c45 import C45Classifier, export_text

    X, y = load_c45(_stem("golf"))
    clf = C45Classifier(precision=precision).fit(X, y)
    assert _lines(export_text(clf)) == [
        "outlook = overcast: Play (4.0/1.2)",
        "outlook = sunny:",
        "|   humidity <= 75 : Play (2.0/1.0)",
        "|   humidity > 75 : Don't Play (3.0/1.1)",
        "outlook = rain:",
        "|   windy = true: Don't Play (2.0/1.0)",
        "|   windy = false: Play (3.0/1.1)",
    ]
    assert float(clf.tree_.errors[0]) == pytest.approx(
        1.171573 + 2 * 1.0 + 2 * 1.110118, abs=1e-5)


def test_tree_is_valid(fitted):
    """Checks that hold whatever the precision, soybean float64 included."""
    f = fitted
    n = len(f.y)
    for tree, which in ((f.clf.tree_, "pruned"), (f.clf.grown_tree_, "grown")):
        assert tree.node_count >= 1
        # All weights start at 1, so the root holds every training case.
        assert float(tree.weight[0]) == pytest.approx(n, abs=1e-3), which
        assert 0.0 <= float(tree.errors[0]) <= n, which
    assert f.clf.tree_.node_count <= f.clf.grown_tree_.node_count
    # A fully inline print has one line per node except the root.
    assert len(_lines(f.export_text(f.clf))) == f.clf.tree_.node_count - 1
    assert len(_lines(f.export_text(f.clf, tree="grown"))) == f.clf.grown_tree_.node_count - 1

    classes = list(f.clf.classes_)
    for which in ("final", "grown"):
        pred = np.asarray(f.clf.predict(f.X, tree=which), dtype=object)
        assert pred.shape == (n,), which
        assert set(pred) <= set(classes), which
        proba = np.asarray(f.clf.predict_proba(f.X, tree=which), dtype=np.float64)
        assert proba.shape == (n, len(classes)), which
        assert np.all(proba >= 0), which
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-5, err_msg=which)


# --------------------------------------------------------------------------------
# Unit tests: c45_files
# --------------------------------------------------------------------------------


def test_golf_names():
    names = read_names(_stem("golf") + ".names")
    assert names.classes == ["Play", "Don't Play"]
    assert [(a.name, a.kind, a.values) for a in names.attributes] == [
        ("outlook", "discrete", ["sunny", "overcast", "rain"]),
        ("temperature", "continuous", []),
        ("humidity", "continuous", []),
        ("windy", "discrete", ["true", "false"]),
    ]


def test_golf_load():
    X, y = load_c45(_stem("golf"))
    assert list(X.columns) == ["outlook", "temperature", "humidity", "windy"]
    assert X.shape == (14, 4)
    assert isinstance(X["outlook"].dtype, pd.CategoricalDtype)
    assert list(X["outlook"].cat.categories) == ["sunny", "overcast", "rain"]
    assert list(X["windy"].cat.categories) == ["true", "false"]
    assert X["temperature"].dtype == np.float64
    assert X["humidity"].dtype == np.float64
    assert X.iloc[0].tolist() == ["sunny", 85.0, 85.0, "false"]
    assert isinstance(y, pd.Categorical)
    assert list(y.categories) == ["Play", "Don't Play"]
    assert list(y[:3]) == ["Don't Play", "Don't Play", "Play"]
    assert (y == "Play").sum() == 9


@pytest.mark.parametrize("name", DATASETS)
def test_load_matches_r8_counts(name):
    r8 = parse_r8_output(os.path.join(R8_DIR, name + ".txt"))
    X, y = load_c45(_stem(name))
    # None of the bundled data sets has ignored attributes.
    assert X.shape == (r8.n_cases, r8.n_attributes)
    assert len(y) == r8.n_cases and not pd.isna(np.asarray(y, dtype=object)).any()
    if name not in NO_TEST_FILE:
        X_test, y_test = load_c45(_stem(name), part="test")
        assert X_test.shape == (r8.test.items, r8.n_attributes)
        assert list(X_test.columns) == list(X.columns)
        assert len(y_test) == r8.test.items
        for col in X.columns:
            assert X_test[col].dtype == X[col].dtype


def test_hypo_multiline_classes_comments_and_unknowns():
    names = read_names(_stem("hypo") + ".names")
    assert names.classes == ["hyperthyroid", "primary hypothyroid",
                             "compensated hypothyroid", "secondary hypothyroid",
                             "negative"]
    X, y = load_c45(_stem("hypo"))
    # First case: "84,F,t,...,f,?,other,negative.|395" -- '.' then a comment.
    assert y[0] == "negative"
    assert X["age"].iloc[0] == 84.0
    assert X["sex"].iloc[0] == "F"
    assert np.isnan(X["TBG"].iloc[0])
    assert X["referral source"].iloc[0] == "other"
    assert list(X["referral source"].cat.categories) == [
        "WEST", "STMW", "SVHC", "SVI", "SVHD", "other"]


def test_soybean_names_spanning_lines():
    names = read_names(_stem("soybean") + ".names")
    assert len(names.classes) == 19
    assert names.classes[0] == "diaporthe-stem-canker"
    assert names.classes[-1] == "herbicide-injury"
    atts = {a.name: a for a in names.attributes}
    assert len(names.attributes) == 35
    assert atts["crop-hist"].values == ["diff-lst-year", "same-lst-yr",
                                        "same-lst-two-yrs", "same-lst-sev-yrs"]
    assert atts["fruit spots"].values[2] == "brown-w/blk-specks"
    assert atts["germination"].values == ["90-100%", "80-89%", "lt-80%"]
    X, _ = load_c45(_stem("soybean"))
    assert X["germination"].isna().sum() > 0  # '?' values become NaN


def test_labor_neg_entries_without_periods():
    names = read_names(_stem("labor-neg") + ".names")
    assert names.classes == ["good", "bad"]
    atts = {a.name: a for a in names.attributes}
    assert atts["duration"].kind == "continuous"
    assert atts["vacation"].values == ["below average", "average", "generous"]
    assert atts["contribution to health plan"].values == ["none", "half", "full"]


def test_monk_names_trailing_spaces_and_tabs():
    names = read_names(_stem("monk1") + ".names")
    assert names.classes == ["0", "1"]
    assert [a.name for a in names.attributes] == [f"attribute#{i}" for i in range(1, 7)]
    assert names.attributes[5].values == ["1", "2"]


def test_tokenizer_rules():
    text = ("a  b\\, c ,x.y,  tab\there . next|comment\n"
            "v1.5,2.,end.\tz")
    toks = list(tokenize(text))
    assert [(t.text, t.delim) for t in toks] == [
        ("a b, c", ","),       # space run collapsed, escaped comma kept, stripped
        ("x.y", ","),          # '.' not followed by whitespace stays
        ("tab\there", "."),    # tabs are not collapsed; '. ' ends the token
        ("next", "\n"),        # '|' comment ends the token like a newline
        ("v1.5", ","),
        ("2.", ","),
        ("end", "."),
        ("z", ""),             # end of file
    ]
    assert [t.line for t in toks] == [1, 1, 1, 1, 2, 2, 2, 2]


def _write(tmp_path, stem, names, data=None, test=None):
    base = tmp_path / stem
    (tmp_path / f"{stem}.names").write_text(names)
    if data is not None:
        (tmp_path / f"{stem}.data").write_text(data)
    if test is not None:
        (tmp_path / f"{stem}.test").write_text(test)
    return str(base)


def test_ignore_and_discrete_n(tmp_path):
    stem = _write(
        tmp_path, "toy",
        "yes, no.\nid: ignore.\ncolour: discrete 3.\nsize: continuous.\n",
        "1, red, 1.5, yes\n2, ?, ?, no\n3, blue, 2, no\n4, red, 3e1, yes.\n",
        "5, green, 4, no\n")
    X, y = load_c45(stem)
    assert list(X.columns) == ["colour", "size"]
    assert list(X["colour"].cat.categories) == ["red", "blue"]
    assert pd.isna(X["colour"].iloc[1]) and np.isnan(X["size"].iloc[1])
    assert X["size"].tolist()[2:] == [2.0, 30.0]
    assert list(y) == ["yes", "no", "no", "yes"]
    X_test, _ = load_c45(stem, part="test")
    # Values are numbered by first appearance in .data, then .test.
    assert list(X_test["colour"].cat.categories) == ["red", "blue", "green"]


@pytest.mark.parametrize(
    "names, line, message",
    [
        ("a, b.\n\nx: continuous.\ny: only.\n", 4, "single value"),
        ("a, b.\nx continuous.\n", 2, "name: spec"),
        ("a, b.\nx: p, q.\nx: continuous.\n", 3, "declared twice"),
        ("a, b.\nx: discrete 1.\n", 2, "n >= 2"),
        ("a, b.\nx: p, q, p.\n", 2, "twice"),
        ("a, b.\n", 1, "no attributes"),
    ],
)
def test_malformed_names_raise_with_line(tmp_path, names, line, message):
    stem = _write(tmp_path, "bad", names, "")
    with pytest.raises(ValueError) as info:
        load_c45(stem)
    text = str(info.value)
    assert "bad.names" in text
    assert f"line {line}" in text
    assert message in text


@pytest.mark.parametrize(
    "data, line, message",
    [
        ("p, 1, a\nr, 2, b\n", 2, "'r' is not declared"),
        ("p, 1, a\nq, 2\n", 2, "expected 3"),
        ("p, 1, a\nq, 2, b, c\n", 2, "more than 3"),
        ("p, 1, a\nq, 1x, b\n", 2, "not a number"),
        ("p, 1, a\n\nq, 2, z\n", 3, "class 'z'"),
        ("p, 1, a\nq, 2,", 2, "ends inside a case"),
    ],
)
def test_malformed_data_raise_with_line(tmp_path, data, line, message):
    stem = _write(tmp_path, "bad", "a, b.\nd: p, q.\nc: continuous.\n", data)
    with pytest.raises(ValueError) as info:
        load_c45(stem)
    text = str(info.value)
    assert "bad.data" in text
    assert f"line {line}" in text
    assert message in text


# --------------------------------------------------------------------------------
# Unit tests: r8_output
# --------------------------------------------------------------------------------


def test_parse_golf():
    r8 = parse_r8_output(os.path.join(R8_DIR, "golf.txt"))
    assert (r8.n_cases, r8.n_attributes) == (14, 4)
    assert r8.grown_tree == [
        "outlook = overcast: Play (4.0)",
        "outlook = sunny:",
        "|   humidity <= 75 : Play (2.0)",
        "|   humidity > 75 : Don't Play (3.0)",
        "outlook = rain:",
        "|   windy = true: Don't Play (2.0)",
        "|   windy = false: Play (3.0)",
    ]
    assert not r8.pruned_printed
    assert r8.pruned_tree == r8.grown_tree
    t = r8.train
    assert (t.items, t.size_before, t.errors_before, t.size_after, t.errors_after,
            t.estimate) == (14, 8, 0, 8, 0, "38.5")
    assert r8.test is None


def test_parse_crx_tables():
    r8 = parse_r8_output(os.path.join(R8_DIR, "crx.txt"))
    assert r8.train.items == 490 and r8.test.items == 200
    assert (r8.train.size_before, r8.train.errors_before, r8.train.size_after,
            r8.train.errors_after, r8.train.estimate) == (90, 19, 58, 24, "11.9")
    assert (r8.test.size_before, r8.test.errors_before, r8.test.size_after,
            r8.test.errors_after, r8.test.estimate) == (90, 34, 58, 34, "11.9")
    assert r8.pruned_tree[0] == "A9 = f: - (239.0/19.4)"


def test_parse_vote_estimate_with_leading_space():
    r8 = parse_r8_output(os.path.join(R8_DIR, "vote.txt"))
    assert r8.train.estimate == "6.9" and r8.train.estimate_pct == 6.9
    assert r8.test.errors_after == 4


def test_parse_soybean_subtree_expansion():
    r8 = parse_r8_output(os.path.join(R8_DIR, "soybean.txt"))
    assert r8.pruned_printed
    for tree in (r8.grown_tree, r8.pruned_tree):
        assert not any("[S" in line for line in tree)
    g = r8.grown_tree
    i = g.index("|   |   |   |   |   |   |   precip = norm:")
    assert g[i + 1:i + 5] == [
        "|   |   |   |   |   |   |   |   area-damaged = scattered: brown-spot (2.0/1.0)",
        "|   |   |   |   |   |   |   |   area-damaged = low-areas: brown-spot (0.0)",
        "|   |   |   |   |   |   |   |   area-damaged = upper-areas: brown-spot (2.0)",
        "|   |   |   |   |   |   |   |   area-damaged = whole-field: "
        "phyllosticta-leaf-spot (1.0)",
    ]
    assert g[i + 5] == "|   |   |   |   |   |   date = july:"
    # S3 is itself two levels deep.
    j = g.index("|   |   |   |   |   |   |   |   |   hail = yes:")
    assert g[j + 1] == ("|   |   |   |   |   |   |   |   |   |   "
                        "leaf-shread = present: alternarialeaf-spot (2.0)")
    assert g[j + 5] == ("|   |   |   |   |   |   |   |   |   |   |   |   "
                        "area-damaged = scattered: frog-eye-leaf-spot (3.0/1.0)")
    # The pruned tree's subtrees restart at S1.
    p = r8.pruned_tree
    k = p.index("|   |   |   |   |   |   |   |   seed-tmt = fungicide:")
    assert p[k + 1] == ("|   |   |   |   |   |   |   |   |   "
                        "plant-stand = normal: frog-eye-leaf-spot (6.0/1.2)")
    assert (r8.train.size_before, r8.train.size_after) == (174, 94)


@pytest.mark.parametrize("name", DATASETS)
def test_parsed_trees_have_one_line_per_non_root_node(name):
    r8 = parse_r8_output(os.path.join(R8_DIR, name + ".txt"))
    assert len(r8.grown_tree) == r8.train.size_before - 1
    assert len(r8.pruned_tree) == r8.train.size_after - 1
    for tree in (r8.grown_tree, r8.pruned_tree):
        depths = [tree_depth(line) for line in tree]
        assert depths[0] == 0
        assert all(b <= a + 1 for a, b in zip(depths, depths[1:]))


def test_expand_nested_and_missing_subtrees():
    main = ["a = 1: X (1.0)", "a = 2:[S1]"]
    subs = {1: ["b = 1: X (1.0)", "b = 2:[S2]"], 2: ["c = 1: Y (1.0)"]}
    assert expand_subtrees(main, subs) == [
        "a = 1: X (1.0)",
        "a = 2:",
        "|   b = 1: X (1.0)",
        "|   b = 2:",
        "|   |   c = 1: Y (1.0)",
    ]
    with pytest.raises(ValueError, match=r"\[S2\]"):
        expand_subtrees(["a = 2:[S2]"], {1: []})


@pytest.mark.parametrize("which", ["grown", "final"])
def test_soybean_subtree_blocks_print_as_r8_prints_them(which):
    """R8 prints soybean's deep subtrees as Subtree [Sn] blocks (depth * 4 plus
    MaxLine over 80 columns): export_text prints the same text, blocks, numbering
    and blank lines included, not only the same tree once expanded."""
    from c45 import C45Classifier, export_text

    X, y = load_c45(_stem("soybean"))
    clf = C45Classifier(**_params("float32")).fit(X, y)
    raw = open(os.path.join(os.path.dirname(__file__), "data", "reference", "r8",
                            "soybean.txt")).read().splitlines()
    start = raw.index("Simplified Decision Tree:" if which == "final" else "Decision Tree:")
    end = raw.index("Tree saved" if which == "final"
                    else "Simplified Decision Tree:")
    expected = "\n".join(raw[start + 2:end]).rstrip("\n") + "\n"
    got = export_text(clf, tree=which)
    assert "Subtree [S" in expected
    assert got == expected
