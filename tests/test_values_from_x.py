"""float64 growing without the sorted values: the cut test from the ranks alone
(Dataset.far, c45/_ranks.pyx: far_column) and the chosen cuts' values read from
X's own columns (TrainingData.values_from_sources) give the trees the sorted
values give (keep_training_data=True keeps them and grows on them)."""
import json

import numpy as np
import pytest

from c45 import C45Classifier, _ranks, to_json
from c45._encode import rank_tables

# (the column of neighbours within the tolerance is warned about: meant here)
pytestmark = pytest.mark.filterwarnings("ignore:X column 2")


def _far_by_values(v, n_known):
    """far_column's definition, by brute force."""
    out = np.zeros(n_known, np.uint8)
    for r in range(n_known):
        r2 = r + 1
        while r2 < n_known and not v[r] < v[r2] - 1e-5:
            r2 += 1
        out[r] = min(r2 - r - 1, 255)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_far_table_is_the_first_rank_a_cut_reaches(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    scale = [1e-6, 3e-6, 1e-5, 1.0][seed % 4]      # neighbours closer than 1e-5, or not
    x = np.cumsum(rng.random(n) * scale) - 0.5 * n * scale
    if seed % 3 == 0:
        x = np.repeat(x[: n // 300 + 1], 300)[:n]  # runs of ties longer than 255
    x[rng.random(n) < 0.05] = np.nan
    rng.shuffle(x)
    cont = x.reshape(1, -1).copy()

    class Schema:
        discrete = np.array([False])
        n_features = 1
        col = np.array([0], np.int32)
    ranks, sorted_values, n_known, far = rank_tables(Schema, cont)
    nk = int(n_known[0])
    np.testing.assert_array_equal(far[0, :nk], _far_by_values(sorted_values[0], nk))
    again = _ranks.far_table(sorted_values, n_known, np.array([0], np.int32),
                             np.array([0], np.int32))
    np.testing.assert_array_equal(again[0, :nk], far[0, :nk])


def _tree_of(clf):
    doc = json.loads(to_json(clf))
    doc.pop("params")
    doc.pop("checksum")
    return doc


def _data(seed, n=6000):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 4))
    X[:, 1] = np.round(X[:, 1] * 3)                     # ties, long runs of them
    X[:, 2] = X[:, 2] * 2e-5                             # neighbours within 1e-5
    X[:, 3] = np.where(rng.random(n) < 0.3, -0.0, X[:, 3])   # -0.0 beside 0.0
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1]) + 1e5 * np.nan_to_num(X[:, 2])
         + rng.standard_normal(n) > 0).astype(int) + (rng.random(n) < 0.2)
    return X, y


def _in_form(X, form, pd):
    """X as the form of input named, and the fit's parameters for it."""
    params = dict(n_jobs=2) if form == "n_jobs" else {}
    if form == "float32":
        X = X.astype(np.float32)
    elif form == "fortran":
        X = np.asfortranarray(X)
    elif form == "frame":
        X = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    return X, params


@pytest.mark.parametrize("form", ["float64", "float32", "fortran", "frame", "n_jobs"])
def test_values_read_from_x_give_the_trees_of_the_sorted_values(form):
    pd = pytest.importorskip("pandas") if form == "frame" else None
    X, y = _data(3)
    X, params = _in_form(X, form, pd)
    clf = C45Classifier(**params)
    _, _, data = clf._prepare(X, y, None, with_sources=True)
    data.values_from_sources()
    assert data.by_source                # X's own columns: growing reads them
    from_x = C45Classifier(**params).fit(X, y)
    kept = C45Classifier(keep_training_data=True, **params).fit(X, y)
    assert _tree_of(from_x) == _tree_of(kept)
    unpruned = C45Classifier(pruning=None, **params).fit(X, y)
    assert _tree_of(unpruned) == _tree_of(
        C45Classifier(pruning=None, keep_training_data=True, **params).fit(X, y))


def test_a_copy_of_x_is_not_held_for_its_values():
    """Where encoding copies X's values (a list, integers), the fit keeps the
    sorted values instead of holding the copy."""
    X, y = _data(5, 500)
    for given in (np.nan_to_num(X).tolist(), np.round(np.nan_to_num(X) * 10).astype(int)):
        _, _, data = C45Classifier()._prepare(given, y, None, with_sources=True)
        data.values_from_sources()
        assert not data.by_source and data.sources is None


@pytest.mark.parametrize("form", ["float64", "float32", "fortran", "frame", "n_jobs"])
def test_ranks_taken_from_x_are_the_encoded_copys(form):
    """Ranked in X's own columns (no copy of the values, no table of them sorted),
    the data holds the ranks, known counts and far table of the encoded copy,
    gives its digest and its warnings, and prune(X, y) accepts it: -0.0 beside
    0.0, NaN, ties and neighbours within the cut tolerance included."""
    import warnings
    from c45._classifier import _fingerprint
    pd = pytest.importorskip("pandas") if form == "frame" else None
    X, y = _data(7)
    X[:, 2] = np.where(np.isnan(X[:, 2]), np.nan, np.linspace(0, 0.05, len(X)))  # dense
    X, params = _in_form(X, form, pd)
    clf = C45Classifier(**params)
    caught = []
    for in_sources in (True, False):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            _, _, data = clf._prepare(X, y, None, with_sources=True, in_sources=in_sources)
        caught.append([str(m.message) for m in w])
        if in_sources:
            ranked = data
    copied = data
    assert ranked.sorted_digest is not None and copied.sorted_digest is None
    assert np.asarray(ranked.sorted_value).shape == (1, 1)     # none made
    assert caught[0] == caught[1] and any("cuts are tried" in m for m in caught[0])
    np.testing.assert_array_equal(ranked.rank, copied.rank)
    np.testing.assert_array_equal(ranked.n_known, copied.n_known)
    for c, nk in enumerate(copied.n_known):
        np.testing.assert_array_equal(ranked.far[c, :nk], copied.far[c, :nk])
    assert _fingerprint(ranked) == _fingerprint(copied)
    fitted = C45Classifier(**params).fit(X, y)
    assert fitted._train_check == _fingerprint(copied)
    fitted.prune(X, y)                      # (its data encoded as usual)
    # a model of the digest of the sorted values' bytes prunes with its data too
    older = _fingerprint(copied, like=(0, 0, "c45d1:"))
    assert older[2].startswith("c45d1:") and older != fitted._train_check
    fitted._train_check = older
    fitted.prune(X, y)
    other = np.array(X, dtype=np.float64)
    other[11, 0] = np.nextafter(np.nan_to_num(other[11, 0]), 9)
    with pytest.raises(ValueError, match="other values"):
        fitted.prune(other, y)
