"""The worked numbers of the C4.5 Release 8 specification (c45-spec.md §2-§9) and
of seed 000, checked on the Cython core."""
import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier, export_text, split_scores
from c45._criterion import (confidence_coefficient, entropy, info_bits,
                            pessimistic_extra_errors)
from c45.datasets import load_golf, load_weather
from c45_files import load_c45
from pathlib import Path

REFERENCE_DIR = Path(__file__).parent / "data" / "reference"

# §8.1 reference values of U(N, E) at CF = 0.25, from the verified model.
U_REFERENCE = [((1, 0), 0.750000), ((2, 0), 1.000000), ((3, 0), 1.110118),
               ((4, 0), 1.171573), ((6, 0), 1.237797), ((5, 2), 1.239583),
               ((9, 3), 1.538712), ((14, 5), 1.794993), ((100, 10), 2.814705),
               ((4.52, 0.52), 1.215827), ((1.4, 1.05), 0.234500)]


@pytest.mark.parametrize("precision", ["float32", "float64"])
@pytest.mark.parametrize("ne,expected", U_REFERENCE)
def test_pessimistic_extra_errors(ne, expected, precision):
    assert pessimistic_extra_errors(*ne, 0.25, precision) == pytest.approx(expected, abs=2e-6)


@pytest.mark.parametrize("precision", ["float32", "float64"])
@pytest.mark.parametrize("confidence", [0.001, 0.1, 0.25, 0.75, 0.99, 1.0])
def test_a_leaf_estimate_never_falls_as_whole_cases_join_it(confidence, precision):
    # Subtree raising stops a branch's estimate once a lower bound of it passes
    # the threshold: where weights are whole, each node's stored errors
    # (c45/_prune.pyx: floor_of). That holds because a leaf's E + U(N, E) never
    # falls as a case joins it, classified right (N + 1, E) or wrong (N + 1,
    # E + 1), beyond the roundings floor_margin_of allows: a few units of the
    # last place, and with E = 0 the cancellation in 1 - exp(log(CF) / N).
    f = np.float32 if precision == "float32" else np.float64
    u = 5.97e-08 if precision == "float32" else 1.12e-16
    cf = float(np.float32(confidence)) if precision == "float32" else confidence

    def leaf(n, e):
        return float(f(e) + f(pessimistic_extra_errors(n, e, confidence, precision)))

    sizes = list(range(1, 200)) + [1000, 4097, 65537, 10**6, 2**24 - 2, 10**9]
    for n in sizes:
        errors = range(n) if n < 200 else [0, 1, 2, 7, n // 3, n // 2, n - 2, n - 1]
        for e in errors:
            allowed = 64 * u
            if e == 0 and cf < 1.0:
                allowed += 2 * (n + 3) * 2.3e-16 / abs(np.log(cf))
            before = leaf(n, e)
            for after in (leaf(n + 1, e), leaf(n + 1, e + 1)):
                assert after >= before * (1 - allowed), (n, e, before, after)


def test_confidence_coefficient():
    assert confidence_coefficient(0.25, "float32") == np.float32(0.47955623)
    for cf, z in [(0.10, 1.28), (0.05, 1.65), (0.01, 2.33), (0.5, 0.2083)]:
        assert np.sqrt(confidence_coefficient(cf)) == pytest.approx(z, abs=1e-4)


def test_information_measures():
    # §3: base information of labor-neg's root, H(14, 10), and its split info.
    assert entropy([14, 10]) == pytest.approx(0.97987, abs=1e-5)
    assert entropy([16, 14, 4, 6]) == pytest.approx(1.80161, abs=1e-5)
    assert info_bits([4, 4]) == pytest.approx(8.0)
    assert info_bits([0, 0]) == 0.0
    assert info_bits([5, 0]) == 0.0


def scores_by_name(X, y, **params):
    s = split_scores(X, y, **params)
    return s, {n: i for i, n in enumerate(s["feature_names"])}


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_golf_root(precision):
    """§4.4/§5.3/§6: outlook gain 0.247, info 1.577, val 0.156; temperature and
    humidity have no gain after the MDL penalty (9 and 6 cuts); outlook wins."""
    s, at = scores_by_name(*load_golf(), precision=precision)
    o = at["outlook"]
    assert s["gain"][o] == pytest.approx(0.24675, abs=1e-5)
    assert s["split_info"][o] == pytest.approx(1.57741, abs=1e-5)
    assert s["gain_ratio"][o] == pytest.approx(0.156, abs=5e-4)
    assert s["tries"][at["temperature"]] == 9 and s["tries"][at["humidity"]] == 6
    assert s["raw_gain"][at["temperature"]] == pytest.approx(0.045, abs=5e-4)
    assert s["raw_gain"][at["humidity"]] == pytest.approx(0.102, abs=5e-4)
    assert s["gain"][at["temperature"]] < 0 and s["gain"][at["humidity"]] < 0
    assert s["gain"][at["windy"]] == pytest.approx(0.048, abs=5e-4)
    assert s["chosen"] == o


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_labor_neg_root(precision):
    """§3 and §5.3: cost of living adjustment gain 0.105 / info 1.802 with 40%
    unknown; wage increase first year: 13 cuts, penalised gain 0.291, info 1.005,
    stored threshold 2.5."""
    X, y = load_c45(REFERENCE_DIR / "labor-neg")
    s, at = scores_by_name(X, y, precision=precision)
    c = at["cost of living adjustment"]
    assert s["gain"][c] == pytest.approx(0.10535, abs=1e-4)
    assert s["split_info"][c] == pytest.approx(1.80161, abs=1e-4)
    w = at["wage increase first year"]
    assert s["tries"][w] == 13
    assert s["raw_gain"][w] == pytest.approx(0.383, abs=5e-4)
    assert s["gain"][w] == pytest.approx(0.383 - 0.09251, abs=1e-3)
    assert s["split_info"][w] == pytest.approx(1.005, abs=5e-4)
    assert s["midpoint"][w] == pytest.approx(2.65, abs=1e-6)
    assert s["threshold"][w] == 2.5
    assert s["chosen"] == w


# §9: golf cases classified by the tree (Play = 0, Don't Play = 1).
GOLF_CASES = [(["?", 70, 90, "true"], 1, (0.286, 0.714)),
              (["sunny", 70, "?", "false"], 1, (0.4, 0.6)),
              (["rain", 70, 90, "?"], 0, (0.6, 0.4)),
              (["?", 70, "?", "?"], 0, (9 / 14, 5 / 14)),
              (["sunny", 75, 75, "true"], 0, (1.0, 0.0)),
              (["sunny", 75, 75.5, "true"], 1, (0.0, 1.0))]


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_golf_classification(precision):
    X, y = load_golf()
    clf = C45Classifier(precision=precision).fit(X, y)
    rows = pd.DataFrame([[None if v == "?" else v for v in case] for case, _, _ in GOLF_CASES],
                        columns=X.columns)
    rows["temperature"] = rows["temperature"].astype(float)
    rows["humidity"] = rows["humidity"].astype(float)
    for col in ("outlook", "windy"):
        rows[col] = pd.Categorical(rows[col], categories=X[col].cat.categories)
    # predict_proba's columns follow classes_ (sorted); the cases' are Play's first.
    proba = pd.DataFrame(clf.predict_proba(rows), columns=clf.classes_)
    proba = proba[["Play", "Don't Play"]].to_numpy()
    pred = clf.predict(rows)
    for i, (_, expected, p) in enumerate(GOLF_CASES):
        assert pred[i] == clf.declared_classes_[expected]
        assert proba[i] == pytest.approx(p, abs=1e-3)


def test_empty_branch_inherits_parent_majority():
    """§2 step 9 / vote: an empty branch is a leaf of the parent's class, (0.0)."""
    X, y = load_c45(REFERENCE_DIR / "vote")
    text = export_text(C45Classifier(precision="float32").fit(X, y), tree="grown")
    assert "|   water project cost sharing = n: democrat (0.0)" in text


def test_collapse_keeps_subtree_errors():
    """§2 step 11 / Q7: labor-neg's collapsed node prints (4.5/0.5)."""
    X, y = load_c45(REFERENCE_DIR / "labor-neg")
    text = export_text(C45Classifier(precision="float32").fit(X, y), tree="grown")
    assert "|   |   wage increase first year <= 4 : bad (4.5/0.5)" in text


def test_weather_seed000_root_gains():
    """Seed 000's root: gains 0.126, 0.150, 0.667, 0.541 (temperature at the cut
    30.5, before Release 8's MDL penalty) and split infos 1.959, 1.483, 1, 0.811."""
    s = split_scores(*load_weather(), min_samples_leaf=1)
    assert np.round(s["raw_gain"], 3).tolist() == [0.126, 0.150, 0.667, 0.541]
    assert np.round(s["split_info"], 3).tolist() == [1.959, 1.483, 1.0, 0.811]
    assert s["midpoint"][3] == 30.5
    assert s["threshold"][3] == 30.0        # C4.5 stores an observed value (§5.4)


def test_weather_seed000_tree():
    """On seed 000's data C4.5 R8 tests UV index at the root: the seed's tie
    between UV index and temperature (both gain ratio 0.67) is broken by the MDL
    penalty log2(cuts)/N taken off temperature's gain."""
    X, y = load_weather()
    clf = C45Classifier(precision="float32").fit(X, y)
    assert export_text(clf, tree="grown") == ("紫外线指数 = 强: 晴天 (6.0/2.0)\n"
                                               "紫外线指数 = 弱: 雨天 (6.0/2.0)\n")
    s = split_scores(X, y)
    assert s["gain"][3] == pytest.approx(s["raw_gain"][3] - np.log2(s["tries"][3]) / 12)
    assert s["gain_ratio"][3] < s["gain_ratio"][2] == pytest.approx(2 / 3)
    assert s["chosen"] == 2
