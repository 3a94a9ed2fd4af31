"""Exports of a fitted tree: Graphviz DOT, matplotlib, nested dicts, the JSON
model file; and the parity test: the weighted dict and the JSON-loaded model
route missing and unseen values exactly as ``predict`` does."""
import itertools
import json
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import c45
from c45 import (C45Classifier, dict_predict, dict_predict_proba, export_graphviz,
                 export_text, from_json, plot_tree, to_dict, to_json)
from c45._serialize import threshold_text
from c45.datasets import load_golf, load_loan, load_weather
import model_files


@pytest.fixture(scope="module")
def golf():
    X, y = load_golf()
    return X, y, C45Classifier().fit(X, y)


@pytest.fixture(scope="module")
def weather():
    """Seed 000's weather data grown in full: multiway tests, CJK names."""
    X, y = load_weather()
    return X, y, C45Classifier(min_samples_leaf=1, pruning=None).fit(X, y)


def mixed(n, seed):
    """Continuous and discrete features, all with unknown values, three classes."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "num": rng.normal(size=n).round(3),
        "num2": rng.uniform(0, 10, size=n),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue", "cyan"], size=n)),
        "size": rng.choice(["S", "M", "L", "XL", "XXL"], size=n).astype(object),
        "code": rng.choice([1, 2, 3], size=n).astype(object),
    })
    y = np.where((X["num"] > 0) ^ (X["colour"] == "red").to_numpy()
                 | (X["size"] == "S").to_numpy(), "yes", "no")
    y = np.where(rng.random(n) < 0.15, rng.choice(["yes", "no", "maybe"], size=n), y)
    for c in X.columns:
        X.loc[rng.random(n) < 0.12, c] = None if X[c].dtype == object else np.nan
    return X, y


def with_unseen(X, seed):
    """X with categories training never saw, besides its unknown values."""
    X = X.copy()
    rng = np.random.default_rng(seed)
    X["size"] = X["size"].where(rng.random(len(X)) > 0.1, "XS")
    X["colour"] = X["colour"].cat.add_categories(["magenta"])
    X.loc[::17, "colour"] = "magenta"
    X.loc[::13, "code"] = 7
    return X


# ---------------------------------------------------------------------------
# Nested dicts

def test_to_dict_is_seed_002_form(golf):
    _, _, clf = golf
    assert to_dict(clf) == {"outlook": {
        "sunny": {"humidity": {"<= 75": "Play", "> 75": "Don't Play"}},
        "overcast": "Play",
        "rain": {"windy": {"true": "Don't Play", "false": "Play"}}}}


def test_to_dict_loan_and_seed_002_lookup():
    X, y = load_loan()
    clf = C45Classifier(pruning=None).fit(X, y)
    d = to_dict(clf)
    assert d == {"有自己的房子": {"否": {"有工作": {"否": "否", "是": "是"}}, "是": "是"}}

    def lookup(tree, row):                 # seed 002's predict
        while isinstance(tree, dict):
            feature = next(iter(tree))
            tree = tree[feature][row[feature]]
        return tree
    rows = X.to_dict("records")
    assert [lookup(d, r) for r in rows] == list(clf.predict(X))


def test_to_dict_subset_branches_share_a_subtree():
    X, y = load_golf()
    clf = C45Classifier(subset_splits=True, min_samples_leaf=1).fit(X, y)
    d = to_dict(clf)
    assert d["outlook"]["sunny"] is d["outlook"]["rain"]
    assert d["outlook"]["overcast"] == "Play"
    w = to_dict(clf, weights=True)
    assert w["_branches"] == [["sunny", "rain"], ["overcast"]]
    # _value follows _classes (classes_, sorted); _class_order is C4.5's.
    assert w["_classes"] == ["Don't Play", "Play"]
    assert w["_class_order"] == ["Play", "Don't Play"]
    assert w["_weight"] == 14.0 and w["_value"] == [5.0, 9.0]
    assert np.array_equal(dict_predict_proba(w, X), clf.predict_proba(X))


def test_to_dict_single_leaf_and_feature_names():
    clf = C45Classifier().fit([[0.0], [1.0]], ["a", "b"])
    assert to_dict(clf) == "a"
    assert to_dict(clf, weights=True)["_class"] == "a"
    X, y = load_golf(as_frame=False)
    clf = C45Classifier(categorical_features=[0, 3]).fit(X, y)
    assert next(iter(to_dict(clf))) == "x0"
    assert next(iter(to_dict(clf, feature_names=["o", "t", "h", "w"]))) == "o"
    with pytest.raises(ValueError, match="reserved"):
        to_dict(clf, weights=True, feature_names=["_weight", "t", "h", "w"])


def _chain_model(depth):
    """A chain `depth` tests deep (as test_reliability.chain makes it)."""
    n = depth + 1
    X = np.arange(n, dtype=float).reshape(-1, 1)
    clf = C45Classifier(pruning=None, min_samples_leaf=1000).fit(
        X, np.arange(n) % 2, sample_weight=np.full(n, 1000.0))
    assert clf.get_depth() == depth
    return clf, X


def test_to_dict_survives_json_dumps_to_its_documented_depth():
    """The docstring promises json.dumps of to_dict up to MAX_DICT_DEPTH levels at
    the default recursion limit (deeper dicts are built: test_reliability)."""
    from c45._serialize import MAX_DICT_DEPTH
    clf, X = _chain_model(MAX_DICT_DEPTH)
    for weights in (False, True):
        d = json.loads(json.dumps(to_dict(clf, weights=weights)))
        assert len(repr(d)) > MAX_DICT_DEPTH
    assert np.array_equal(dict_predict_proba(d, X), clf.predict_proba(X))


def test_plain_dict_cannot_be_evaluated(golf):
    X, _, clf = golf
    with pytest.raises(ValueError, match="fractional descent"):
        dict_predict_proba(to_dict(clf), X)


def test_threshold_text_reads_back_exactly():
    rng = np.random.default_rng(0)
    for t in np.concatenate([rng.normal(size=200) * 10.0 ** rng.integers(-8, 20, 200),
                             [75.0, 0.1, -3.0, 1e-300, 2.5e21]]):
        assert float(threshold_text(t, False)) == t
        t32 = float(np.float32(t))
        assert float(np.float32(threshold_text(t32, True))) == t32
    assert threshold_text(75.0, False) == "75"
    assert threshold_text(float(np.float32(0.1)), True) == "0.1"


# ---------------------------------------------------------------------------
# The parity test

@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_parity_missing_and_unseen_values(precision):
    """The weighted dict and the JSON-loaded model answer exactly as predict and
    predict_proba, on rows with unknown values and unseen categories."""
    X, y = mixed(400, 1)
    Xt = with_unseen(mixed(300, 2)[0], 3)
    weight = np.random.default_rng(4).uniform(0.3, 2.0, len(y))
    checked = 0
    for subsets, laplace, pruning, sw in itertools.product(
            [False, True], [False, True], ["pessimistic", None], [None, weight]):
        clf = C45Classifier(precision=precision, subset_splits=subsets, laplace=laplace,
                            pruning=pruning, categorical_features=["colour", "size", "code"]
                            ).fit(X, y, sample_weight=sw)
        loaded = from_json(to_json(clf))
        for tree in ("final", "grown"):
            proba = clf.predict_proba(Xt, tree=tree)
            d = to_dict(clf, tree=tree, weights=True)
            assert np.array_equal(dict_predict_proba(d, Xt), proba)
            assert np.array_equal(loaded.predict_proba(Xt, tree=tree), proba)
            assert np.array_equal(loaded.predict(Xt, tree=tree), clf.predict(Xt, tree=tree))
        assert list(dict_predict(to_dict(clf, weights=True), Xt)) == list(clf.predict(Xt))
        checked += 1
    assert checked == 16


def test_dict_evaluator_inputs(golf):
    X, _, clf = golf
    d = to_dict(clf, weights=True)
    Xq = X.astype(object)
    Xq.iloc[0, 0] = None                       # unknown outlook
    Xq.iloc[1, 0] = "foggy"                    # unseen outlook
    Xq.iloc[2, 2] = np.nan                     # unknown humidity
    expected = clf.predict_proba(Xq)
    assert not np.array_equal(expected[0], [1.0, 0.0])
    assert np.array_equal(dict_predict_proba(d, Xq), expected)
    assert np.array_equal(dict_predict_proba(d, Xq.to_dict("records")), expected)
    assert np.array_equal(dict_predict_proba(d, Xq.to_numpy()), expected)
    # The dict survives JSON when its categories and classes are strings.
    assert np.array_equal(dict_predict_proba(json.loads(json.dumps(d)), Xq), expected)


# ---------------------------------------------------------------------------
# JSON model file

def test_json_round_trip_is_a_fitted_classifier(golf, weather):
    for X, y, clf in (golf, weather):
        text = to_json(clf)
        loaded = from_json(text)
        assert isinstance(loaded, C45Classifier)
        assert loaded.get_params() == clf.get_params()
        assert export_text(loaded) == export_text(clf)
        assert export_text(loaded, tree="grown") == export_text(clf, tree="grown")
        assert np.array_equal(loaded.predict_proba(X), clf.predict_proba(X))
        assert np.array_equal(loaded.predict(X), clf.predict(X))
        assert list(loaded.feature_names_in_) == list(clf.feature_names_in_)
        assert loaded.categories_ == clf.categories_
        assert np.array_equal(loaded.feature_importances_, clf.feature_importances_)
        assert np.array_equal(loaded.apply(X), clf.apply(X))
        for name in loaded.tree_._fields:
            a, b = getattr(loaded.tree_, name), getattr(clf.tree_, name)
            assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)
        assert to_json(loaded) == text
        assert np.array_equal(from_json(text.encode("utf-8")).predict(X), clf.predict(X))
    with pytest.raises(ValueError, match="training cases"):
        loaded.prune(pruning="pessimistic", confidence=0.1)


def test_json_keeps_value_types_and_class_dtype():
    X = np.array([[1, "a", 0.5], [2, "b", 1.5], [1, "a", 2.5], [3, "b", 3.5],
                  [2, "a", 4.5], [3, "b", 5.5]] * 3, dtype=object)
    for y in (np.array([0, 1, 0, 1, 0, 1] * 3), np.array([True, False] * 9),
              np.array([1.0, 2.0, 1.0, 2.0, 1.0, 2.0] * 3), np.array(list("xyxyxy") * 3)):
        clf = C45Classifier(min_samples_leaf=1, categorical_features=[0, 1]).fit(X, y)
        loaded = from_json(to_json(clf))
        assert loaded.classes_.dtype == clf.classes_.dtype
        assert loaded.classes_.tolist() == clf.classes_.tolist()
        assert [type(v) for v in loaded.categories_[0]] == [int, int, int]
        assert not hasattr(loaded, "feature_names_in_")
        p, q = clf.predict(X), loaded.predict(X)
        assert p.dtype == q.dtype and np.array_equal(p, q)
    Xb = np.array([[b"p"], [b"q"]] * 4, dtype=object)
    clf = C45Classifier(min_samples_leaf=1, categorical_features=[0]).fit(Xb, [0, 1] * 4)
    assert from_json(to_json(clf)).categories_ == [[b"p", b"q"]]


def test_json_format_is_documented_fields(golf):
    _, _, clf = golf
    doc = json.loads(to_json(clf))
    assert doc["format"] == "c45-model" and doc["format_version"] == 3
    assert doc["features"][0] == {"kind": "discrete",
                                  "categories": ["sunny", "overcast", "rain"]}
    assert doc["features"][1] == {"kind": "continuous"}
    assert doc["classes"] == {"dtype": "|O", "values": ["Play", "Don't Play"],
                              "present": {"dtype": "|O", "values": ["Don't Play", "Play"]}}
    assert doc["trees"]["final"]["threshold"][1] == 75.0
    assert list(doc)[-1] == "checksum"
    assert model_files.checksum_matches(to_json(clf))
    assert model_files.checksum_matches(to_json(clf, indent=2))


def test_json_unstorable_params_are_listed():
    X, y = load_golf()
    clf = C45Classifier().fit(X, y)
    clf.set_params(random_state=np.random.RandomState(0))    # not JSON
    doc = json.loads(to_json(clf))
    assert doc["params_not_stored"] == ["random_state"]
    assert from_json(to_json(clf)).random_state is None


def _resign(doc):
    return model_files.sealed(doc)


def test_json_refuses_bad_files(golf):
    _, _, clf = golf
    text = to_json(clf)
    with pytest.raises(ValueError, match="not valid JSON.*truncated"):
        from_json(text[:len(text) // 2])
    with pytest.raises(ValueError, match="not a c45 model file"):
        from_json('{"hello": 1}')
    with pytest.raises(ValueError, match="not a c45 model file"):
        from_json("[1, 2]")
    with pytest.raises(ValueError, match="not UTF-8"):
        from_json(b"\xff\xfe{")
    newer = json.loads(text)
    newer["format_version"] = 4
    with pytest.raises(ValueError, match="format version 4, newer"):
        from_json(json.dumps(newer))
    with pytest.raises(ValueError, match="format version 4, newer"):
        from_json(_resign(newer))
    changed = text.replace('"weight": [14.0', '"weight": [15.0')
    assert changed != text
    with pytest.raises(ValueError, match="corrupted: checksum mismatch"):
        from_json(changed)
    no_sum = json.loads(text)
    del no_sum["checksum"]
    with pytest.raises(ValueError, match="corrupted.*checksum"):
        from_json(json.dumps(no_sum))
    # Well signed but not a tree: refused before predict could loop or overrun.
    cyclic = json.loads(text)
    cyclic["trees"]["final"]["first_child"][1] = 0
    with pytest.raises(ValueError, match="corrupted: trees.final node 1 has children"):
        from_json(_resign(cyclic))
    short = json.loads(text)
    short["trees"]["grown"]["weight"].pop()
    with pytest.raises(ValueError, match="corrupted: trees.grown.weight has 7 entries"):
        from_json(_resign(short))
    bad_feature = json.loads(text)
    bad_feature["trees"]["final"]["feature"][0] = 1          # a continuous feature
    with pytest.raises(ValueError, match="kind does not match"):
        from_json(_resign(bad_feature))
    with pytest.raises(ValueError, match="corrupted"):
        from_json(text.replace('"weight": [14.0', '"weight": [1e999'))


def _same_predictions(a, b, X):
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert np.array_equal(a.predict(X), b.predict(X))


def test_json_checksum_covers_the_text_as_written(golf):
    """Format 2's checksum is over the file's bytes before the checksum member:
    an edit the document's content would not show (spaces, key order) is a
    change; what follows the member's comma is not hashed."""
    X, _, clf = golf
    text = to_json(clf)
    assert text.endswith('"}') and ', "checksum": "sha256:' in text
    edits = {"a space": text.replace('"precision": "float64"', '"precision":  "float64"'),
             "a newline": text.replace(', "laplace"', ',\n"laplace"', 1),
             "key order": text.replace('"precision": "float64", "laplace": false',
                                       '"laplace": false, "precision": "float64"'),
             "re-indented": json.dumps(json.loads(text), indent=1, ensure_ascii=False)}
    for name, edited in edits.items():
        assert edited != text and json.loads(edited) == json.loads(text), name
        with pytest.raises(ValueError, match="corrupted: checksum mismatch"):
            from_json(edited)
    head, member = text.rsplit(", ", 1)
    for accepted in (text + "\n", text + " \r\n\t",
                     head + ',\n  ' + member.replace(": ", " :\n ")[:-1] + "\n}\n",
                     to_json(clf, indent=2), to_json(clf, indent="\t")):
        assert model_files.checksum_matches(accepted)
        _same_predictions(from_json(accepted), clf, X)
        _same_predictions(from_json(accepted.encode("utf-8")), clf, X)
    # The checksum must be the last field, written as the format says.
    doc = json.loads(text)
    first = {"checksum": doc.pop("checksum"), **doc}
    moved = json.dumps(first)
    tagged = text.replace('"checksum": "sha256:', '"checksum": "SHA256:')
    for bad in (moved, tagged, text.replace('"checksum"', '"\\u0063hecksum"'),
                text[:-3] + 'A"}'):
        with pytest.raises(ValueError, match="corrupted: the file does not end with its "
                                             "checksum"):
            from_json(bad)


def test_json_of_format_1_still_loads(golf):
    """A file of format 1 (checksum over the canonical form: spaces and key
    order are not seen) loads, and is refused when its content changes."""
    X, _, clf = golf
    with open(Path(__file__).parent / "data" / "format1" / "golf-model.json",
              encoding="utf-8") as fh:
        old = fh.read()
    assert json.loads(old)["format_version"] == 1
    _same_predictions(from_json(old), clf, X)
    doc = json.loads(old)
    for respaced in (json.dumps(doc, indent=3), json.dumps(dict(reversed(doc.items())))):
        _same_predictions(from_json(respaced), clf, X)
    with pytest.raises(ValueError, match="corrupted: checksum mismatch"):
        from_json(old.replace('"weight": [14.0', '"weight": [15.0'))
    # A file of format 1 made from today's model, with its canonical checksum.
    _same_predictions(from_json(model_files.sealed_format1(json.loads(to_json(clf)))),
                      clf, X)


@pytest.mark.parametrize("field, value, match", [
    ("classes", {"dtype": "<f8", "values": [1.5, 1e999]}, "a number JSON cannot hold"),
    ("params", "NaN", "a number JSON cannot hold"),
    ("feature_names", ["\ud800", "b", "c", "d"], "text that is not valid Unicode"),
])
def test_json_values_no_writer_writes_are_refused(golf, field, value, match):
    """Outside the trees (whose arrays are checked as numbers), a value the
    format never holds is refused: NaN, Infinity, a number beyond float64, a
    lone surrogate."""
    _, _, clf = golf
    doc = json.loads(to_json(clf))
    if field == "params":
        doc["params"]["ccp_alpha"] = float(value)
    else:
        doc[field] = value
    # Format 1's canonical form cannot hold them: a placeholder checksum (these
    # are refused before the checksum is looked at).
    format1 = json.dumps(dict(model_files.body(doc), format_version=1,
                              checksum="sha256:" + "0" * 64))
    for text in (model_files.sealed(doc), format1):
        with pytest.raises(ValueError, match=f"corrupted: {match}"):
            from_json(text)


# ---------------------------------------------------------------------------
# Graphviz and matplotlib

def test_export_graphviz_shows_tests_values_and_distributions(golf):
    _, _, clf = golf
    dot = export_graphviz(clf)
    assert dot.startswith("digraph C45Tree {") and dot.rstrip().endswith("}")
    assert '0 [label="outlook\\nN = 14\\nPlay: 9 · Don\'t Play: 5"' in dot
    for edge in ('0 -> 1 [label="sunny"]', '1 -> 2 [label="<= 75"]',
                 '1 -> 3 [label="> 75"]', '[label="overcast"]', '[label="rain"]'):
        assert edge in dot
    assert '[label="Don\'t Play\\nN = 3\\nDon\'t Play: 3"' in dot
    assert "cannot route missing or unseen values" in dot
    assert "every branch, weighted by the child's N / the node's N" in dot
    assert dot.count(" -> ") == clf.tree_.node_count - 1
    assert "fillcolor" not in export_graphviz(clf, filled=False, note=False)
    assert "weighted" not in export_graphviz(clf, note=False)


def test_export_graphviz_multiway_cjk_subsets_and_depth(weather, tmp_path):
    _, _, clf = weather
    dot = export_graphviz(clf)
    for text in ("紫外线指数", '[label="东"]', '[label="南"]', '[label="西"]', '[label="北"]',
                 "晴天: 4 · 阴天: 4 · 雨天: 4"):
        assert text in dot
    export_graphviz(clf, tmp_path / "w.dot", max_depth=0)
    short = (tmp_path / "w.dot").read_text(encoding="utf-8")
    assert short.count(" -> ") == 2 and "(...)" in short
    X, y = load_golf()
    subset = C45Classifier(subset_splits=True, min_samples_leaf=1).fit(X, y)
    assert '[label="{sunny, rain}"]' in export_graphviz(subset)


def test_export_graphviz_renders_with_dot(golf, weather, tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot program is not installed")
    for name, (_, _, clf) in (("golf", golf), ("weather", weather)):
        path = tmp_path / f"{name}.png"
        subprocess.run(["dot", "-Tpng", "-o", str(path)], check=True,
                       input=export_graphviz(clf).encode("utf-8"), timeout=60)
        assert path.stat().st_size > 1000


def _render(clf, path, **kw):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.image import imread
    boxes = plot_tree(clf, **kw)
    fig = boxes[0].figure
    fig.savefig(path, dpi=60)
    plt.close(fig)
    image = imread(path)
    assert image.shape[0] > 50 and image.shape[1] > 50
    assert image[..., :3].std() > 0.05           # something was drawn
    return boxes


def test_plot_tree_golf_and_weather_png(golf, weather, tmp_path):
    pytest.importorskip("matplotlib")
    boxes = _render(golf[2], tmp_path / "golf.png")
    assert [b.get_text().split("\n")[0] for b in boxes] == [
        "outlook", "humidity", "Play", "Don't Play", "Play", "windy", "Don't Play", "Play"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # no CJK font: glyph warnings
        boxes = _render(weather[2], tmp_path / "weather.png")
    assert boxes[0].get_text() == "紫外线指数\nN = 12\n晴天: 4 · 阴天: 4 · 雨天: 4"
    assert len(boxes) == weather[2].tree_.node_count


def test_plot_tree_without_cjk_font_falls_back(weather, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import c45._graph as graph
    monkeypatch.setattr(graph, "_cjk_font", lambda: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _render(weather[2], tmp_path / "weather.png")
    assert any("no CJK font" in str(w.message) for w in caught)


def test_plot_tree_into_given_axes(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    X, y = mixed(300, 5)
    clf = C45Classifier(categorical_features=["colour", "size", "code"],
                        subset_splits=True, pruning=None).fit(X, y)
    fig, ax = plt.subplots(figsize=(8, 5))
    boxes = plot_tree(clf, ax=ax, max_depth=2, class_names=["M", "N", "Y"])
    assert "(...)" in [b.get_text() for b in boxes]
    assert boxes[0].get_fontsize() < 10          # shrunk to fit
    fig.savefig(tmp_path / "small.png", dpi=50)
    plt.close(fig)
    with pytest.raises(ValueError, match="class_names"):
        plot_tree(clf, class_names=["a"])


def test_public_names():
    for name in ("export_graphviz", "plot_tree", "to_dict", "dict_predict",
                 "dict_predict_proba", "to_json", "from_json"):
        assert name in c45.__all__


# ---------------------------------------------------------------------------
# Reading well: the current axes, a font floor, thresholds to `precision`

def cuts(n=3000, seed=0):
    """Continuous cuts with many digits and three integer classes."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"income": rng.gamma(3, 20000, n).round(2),
                      "ratio": rng.random(n)})
    y = np.where(X.income > 51885.95, 2, np.where(X.ratio < 0.2867688654485352, 1, 0))
    return X, y, C45Classifier().fit(X, y)


def test_thresholds_follow_precision_and_integer_classes_read_clearly():
    X, y, clf = cuts()
    dot = export_graphviz(clf)
    income = clf.tree_.threshold[0]
    assert f'[label="<= {income:.2f}"]' in dot and "e-01" not in dot
    assert f"N = {len(y)}\\n0: " in dot                  # "0: 1234 · 1: ..."
    exact = export_graphviz(clf, precision=None)
    assert f'[label="<= {threshold_text(income, False)}"]' in exact
    four = f"{income:.4f}".rstrip("0").rstrip(".")     # fractions: trailing zeros off
    assert f'[label="<= {four}"]' in export_graphviz(clf, precision=4)
    with pytest.raises(ValueError, match="precision"):
        export_graphviz(clf, precision=-1)


def test_export_text_options_keep_release_8_defaults(golf):
    _, _, clf = golf
    assert export_text(clf, max_depth=None, decimals=None) == export_text(clf)
    assert export_text(clf) == GOLF_PRUNED_R8
    X, y, big = cuts()
    text = export_text(big, decimals=2)
    assert f"income <= {big.tree_.threshold[0]:.2f} :" in text
    assert f"income <= {big.tree_.threshold[0]:g} :" in export_text(big)
    short = export_text(big, max_depth=0)
    assert "... (subtree of depth" in short and "|   " not in short
    named = export_text(golf[2], class_names=["yes", "no"])
    assert named == GOLF_PRUNED_R8.replace("Don't Play", "no").replace("Play", "yes")
    with pytest.raises(ValueError, match="class_names"):
        export_text(clf, class_names=["a"])
    with pytest.raises(ValueError, match="max_depth"):
        export_text(clf, max_depth=-1)


@pytest.mark.parametrize("name", ["max_depth", "decimals", "precision"])
@pytest.mark.parametrize("bad", [True, -1, 1.5, "2"])
def test_display_options_take_none_or_a_non_negative_int_alike(golf, name, bad):
    """export_text, export_graphviz and plot_tree check their counts one way: a
    bool is not a depth (True once drew one level in export_graphviz)."""
    _, _, clf = golf
    takers = {"max_depth": [export_text, export_graphviz], "decimals": [export_text],
              "precision": [export_graphviz]}[name]
    for export in takers:
        with pytest.raises(ValueError, match=f"{name} must be None or a non-negative int, "
                                             f"got {bad!r}"):
            export(clf, **{name: bad})


GOLF_PRUNED_R8 = """outlook = overcast: Play (4.0/1.2)
outlook = sunny:
|   humidity <= 75 : Play (2.0/1.0)
|   humidity > 75 : Don't Play (3.0/1.1)
outlook = rain:
|   windy = true: Don't Play (2.0/1.0)
|   windy = false: Play (3.0/1.1)
"""


def test_plot_tree_draws_on_the_current_axes(golf, tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.close("all")
    fig = plt.figure(figsize=(8, 4))
    boxes = plot_tree(golf[2])
    assert plt.get_fignums() == [fig.number] and boxes[0].figure is fig
    assert boxes[0].axes is plt.gca()
    fig.savefig(tmp_path / "gca.png", dpi=50)
    plt.close("all")
    boxes = plot_tree(golf[2])                 # no figure open: one sized to the tree
    assert len(plt.get_fignums()) == 1
    plt.close("all")


def test_plot_tree_warns_below_a_readable_font_with_a_size():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rng = np.random.default_rng(1)
    X = rng.random((2000, 2))
    y = (np.floor(X[:, 0] * 8) + np.floor(X[:, 1] * 8)).astype(int) % 3
    clf = C45Classifier(pruning=None, min_samples_leaf=1).fit(X, y)
    assert clf.get_n_leaves() > 60
    fig, ax = plt.subplots(figsize=(4, 3))
    with pytest.warns(UserWarning, match=r"shrinks the text to \d+\.\d pt.*figure of "
                                         r"about \d+ x \d+ inches.*max_depth=\d"):
        plot_tree(clf, ax=ax)
    plt.close("all")


def test_missing_matplotlib_says_how_to_install_it(golf, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'plot_tree needs matplotlib.*pip install '
                                          r'matplotlib \(or pip install "c45\[plot\]"\)'):
        plot_tree(golf[2])


# ---------------------------------------------------------------------------
# scikit-learn's display options

def test_export_text_show_weights_and_spacing(golf):
    _, _, clf = golf
    assert export_text(clf, show_weights=False, spacing=4) == GOLF_PRUNED_R8
    weighted = export_text(clf, show_weights=True)
    t = clf.tree_
    leaves = [i for i in range(t.node_count) if t.kind[i] == 0]
    assert weighted.count(" weights: [") == len(leaves)
    for line in weighted.splitlines():
        if "(" in line:          # a leaf line: C4.5's text, then the class weights
            head, weights = line.split(" weights: ")
            assert head in GOLF_PRUNED_R8.splitlines()
            assert weights.startswith("[") and weights.count(",") == 1
    assert "Play (4.0/1.2) weights: [4.0, 0.0]" in weighted
    assert "Play (4.0/1.2) weights: [4.00, 0.00]" in export_text(clf, show_weights=True,
                                                                 decimals=2)
    assert export_text(clf, spacing=2) == GOLF_PRUNED_R8.replace("|   ", "| ")
    assert export_text(clf, spacing=1) == GOLF_PRUNED_R8.replace("|   ", "|")
    for bad in (0, -1, 1.5, True, None, "4"):
        with pytest.raises(ValueError, match="spacing must be an int of at least 1"):
            export_text(clf, spacing=bad)
    one_leaf = C45Classifier(max_depth=0).fit(*load_golf())
    assert export_text(one_leaf, show_weights=True) == \
        " Play (14.0/6.8) weights: [9.0, 5.0]\n"


def test_export_text_spacing_sets_the_width_rule_of_subtree_blocks():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, (3000, 8))
    X = pd.DataFrame({f"attribute_{j}": pd.Categorical(codes[:, j]) for j in range(8)})
    y = codes.sum(axis=1) % 2                         # parity: a tree of depth 8
    deep = C45Classifier(pruning=None, min_samples_leaf=1).fit(X, y)
    assert export_text(deep).count("Subtree [S") == 0
    narrow, wide = export_text(deep, spacing=1), export_text(deep, spacing=12)
    assert narrow.count("Subtree [S") < wide.count("Subtree [S")
    # R8's rule: a block starts where a branch line would pass column 80.
    assert max(len(line.encode()) for line in wide.splitlines()) <= 80 + 12


def _labels(dot):
    import re
    return {int(m.group(1)): m.group(2).split("\\n")
            for m in re.finditer(r'^(\d+) \[label="([^"]*)"', dot, re.M)}


def test_export_graphviz_defaults_are_scikit_learns(golf):
    _, _, clf = golf
    dot = export_graphviz(clf)
    assert "fillcolor" not in dot and "filled" not in dot            # filled=False
    assert "entropy" not in dot and "node #" not in dot
    assert "fillcolor" in export_graphviz(clf, filled=True)
    X, y, big = cuts()
    cut = big.tree_.threshold[0]
    three = f"{cut:.3f}".rstrip("0").rstrip(".")
    assert f'[label="<= {three}"]' in export_graphviz(big)            # precision=3


def test_export_graphviz_label_impurity_node_ids_proportion(golf):
    _, _, clf = golf
    t = clf.tree_
    full = _labels(export_graphviz(clf, impurity=True, node_ids=True, note=False))
    assert full[0] == ["node #0", "outlook", "entropy = 0.94", "N = 14",
                       "Play: 9 · Don't Play: 5"]
    assert full[1] == ["node #1", "humidity", "entropy = 0.971", "N = 5",
                       "Play: 2 · Don't Play: 3"]
    leaf = full[2]
    assert leaf[0] == f"node #{t.first_child[1]}" and leaf[2] == "entropy = 0"
    root_only = _labels(export_graphviz(clf, label="root", impurity=True, node_ids=True))
    assert root_only[0] == full[0]
    assert root_only[1] == ["1", "humidity", "0.971", "5", "[2, 3]"]
    none = _labels(export_graphviz(clf, label="none"))
    assert none[0] == ["outlook", "14", "[9, 5]"]
    shares = _labels(export_graphviz(clf, proportion=True))
    assert shares[0] == ["outlook", "N = 100%", "Play: 0.643 · Don't Play: 0.357"]
    assert shares[1] == ["humidity", "N = 35.714%", "Play: 0.4 · Don't Play: 0.6"]
    assert _labels(export_graphviz(clf, proportion=True, precision=1))[1][1] == "N = 35.7%"
    for bad in ("some", None, 1):
        with pytest.raises(ValueError, match="label must be one of"):
            export_graphviz(clf, label=bad)


def test_plot_tree_takes_the_same_options(golf, tmp_path):
    pytest.importorskip("matplotlib")
    boxes = _render(golf[2], tmp_path / "opts.png", impurity=True, node_ids=True,
                    proportion=True, label="root", filled=True)
    assert boxes[0].get_text().split("\n") == [
        "node #0", "outlook", "entropy = 0.94", "N = 100%",
        "Play: 0.643 · Don't Play: 0.357"]
    assert boxes[1].get_text().split("\n")[:3] == ["1", "humidity", "0.971"]
    with pytest.raises(ValueError, match="label must be one of"):
        plot_tree(golf[2], label="leaves")


def test_export_text_numbers_every_subtree_block_past_99():
    # Release 8 prints "[S??]" after 99 blocks and leaves those subtrees out; c45
    # goes on numbering and prints every block (docs/precision.md says so).
    n = 300
    name = "a_feature_with_a_rather_long_descriptive_name_for_this_test"
    X = pd.DataFrame({name: np.arange(n, dtype=float)})
    w = 25 * np.exp(12 * (1 - np.arange(n) / n))     # a chain: one cut a level
    clf = C45Classifier(min_samples_leaf=1, mdl_correction=False, pruning=None).fit(
        X, np.arange(n) % 2, sample_weight=w)
    text = export_text(clf)
    blocks = text.count("Subtree [S")
    assert blocks > 99 and "[S??]" not in text
    for k in range(1, blocks + 1):        # each block referred to once, printed once
        assert text.count(f":[S{k}]\n") == 1 and text.count(f"Subtree [S{k}]\n") == 1
    # Every node of the tree is printed: one branch line per child.
    branch_lines = [line for line in text.splitlines() if f"{name} <=" in line
                    or f"{name} >" in line]
    assert len(branch_lines) == clf.tree_.node_count - 1


def test_a_long_value_subset_wraps_under_its_first_value():
    """A subset test whose values would take it past 80 columns goes on under
    its first value; the columns count from the test, not the line (Release 8
    prints deep subset tests reaching column 94 on one line)."""
    rng = np.random.default_rng(0)
    n = 4000
    names = [f"value-number-{i}" for i in range(16)]
    codes = rng.integers(0, 16, n)
    x = rng.random(n)
    y = np.where(x < 0.5, 0, 1 + (codes % 3 == 0))
    X = pd.DataFrame({"x": x, "education": pd.Categorical.from_codes(codes, names)})
    clf = C45Classifier(subset_splits=True).fit(X, y)
    text = c45.export_text(clf)
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if "education in {" in line]
    assert starts, text
    wrapped = 0
    for i in starts:
        prefix = lines[i][:lines[i].index("education")]
        assert prefix.startswith("|"), "the test is below the root's test"
        group = [lines[i]]
        while "}:" not in group[-1]:
            group.append(lines[i + len(group)])
        under = prefix + " " * len("education in {")
        for line in group[1:]:
            assert line.startswith(under) and line[len(under)] != " ", group
        for line in group[:-1]:
            assert line.endswith(","), group
            assert len(line) - len(prefix) <= 80, group
        wrapped += len(group) > 1
        # Unwrapped, the values are the branch's own, in value order.
        joined = group[0] + "".join(line[len(under):] for line in group[1:])
        values = joined[joined.index("{") + 1:joined.index("}")].split(",")
        assert values == sorted(values, key=names.index) and len(values) > 1
    assert wrapped
