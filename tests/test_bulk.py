"""The facade's one-pass column steps (c45/_bulk.pyx) against the numpy steps they
replace: the same values, classes, codes and refusals."""
import numpy as np
import pytest

from c45 import C45Classifier, _bulk, export_text


@pytest.mark.parametrize("f32", [False, True])
def test_fill_continuous_equals_numpys_steps(f32):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 3)) * 10.0 ** rng.integers(-30, 30, size=(500, 3))
    X[rng.random(X.shape) < 0.1] = np.nan
    X[::7, 1] = -0.0
    out = np.empty((3, 500))
    assert _bulk.fill_continuous(out, [2, 0, 1], [X[:, 0], X[:, 1], X[:, 2]], f32) == (
        _bulk.OK, -1, -1)
    want = X.astype(np.float32).astype(np.float64) if f32 else X.copy()
    want += 0.0
    np.testing.assert_array_equal(out[[2, 0, 1]], want.T)
    assert not np.signbit(out[0][X[:, 1] == 0]).any()          # no -0.0 left
    X32 = X.astype(np.float32)
    assert _bulk.fill_continuous(out, [0], [X32[:, 0]], f32) == (_bulk.OK, -1, -1)
    np.testing.assert_array_equal(out[0], X32[:, 0].astype(np.float64) + 0.0)


def test_fill_continuous_names_the_first_bad_column_and_row():
    col = np.zeros(6)
    col[4], col[2] = np.inf, 1e300            # infinite at 4, beyond float32 at 2
    out = np.empty((2, 6))
    ok = np.zeros(6)
    assert _bulk.fill_continuous(out, [0, 1], [ok, col], False) == (_bulk.INFINITE, 1, 4)
    # The infinite value is named before the earlier one float32 cannot hold.
    assert _bulk.fill_continuous(out, [0, 1], [ok, col], True) == (_bulk.INFINITE, 1, 4)
    col[4] = 0.0
    assert _bulk.fill_continuous(out, [0, 1], [ok, col], False) == (_bulk.OK, -1, -1)
    assert _bulk.fill_continuous(out, [0, 1], [col, ok], True) == (
        _bulk.BEYOND_FLOAT32, 0, 2)


def test_fit_refuses_infinities_and_float32_overflow_by_column():
    X = np.zeros((4, 3))
    X[3, 2] = -np.inf
    with pytest.raises(ValueError, match=r"column 2 holds an infinite value at row 3"):
        C45Classifier().fit(X, [0, 1, 0, 1])
    X[3, 2] = 1e39
    with pytest.raises(ValueError, match=r"column 2 holds values beyond the float32"):
        C45Classifier(precision="float32").fit(X, [0, 1, 0, 1])
    C45Classifier().fit(X, [0, 1, 0, 1])             # float64 holds it


def test_column_spans_leave_unknown_values_out():
    v = np.array([[np.nan, 3.0, -1.0, np.nan], [np.nan] * 4, [5.0, 5.0, 5.0, 5.0]])
    lo, hi = _bulk.column_spans(v)
    np.testing.assert_array_equal(lo, [-1.0, np.nan, 5.0])
    np.testing.assert_array_equal(hi, [3.0, np.nan, 5.0])


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int32, np.int16, np.int8,
                                   np.uint8, np.float32])
def test_integer_label_codes_equal_np_unique(dtype):
    rng = np.random.default_rng(1)
    for span in (1, 2, 10, 1000, 2 ** 19):
        y = (rng.integers(0, span, size=300) - span // 2).astype(dtype)
        classes, codes = _bulk.integer_label_codes(y)
        want_classes, want_codes = np.unique(y, return_inverse=True)
        assert classes.dtype == want_classes.dtype
        np.testing.assert_array_equal(classes, want_classes)
        np.testing.assert_array_equal(codes, want_codes.ravel())


@pytest.mark.parametrize("y", [np.array([0.5, 1.0]), np.array([1.0, np.nan]),
                               np.array([1.0, np.inf]), np.array([0, 2 ** 40]),
                               np.array(["a", "b"])])
def test_integer_label_codes_leave_other_labels_to_the_caller(y):
    assert _bulk.integer_label_codes(y) is None


def test_fit_keeps_refusing_what_is_not_a_class_label():
    X = np.zeros((3, 1))
    with pytest.raises(ValueError, match="continuous"):
        C45Classifier().fit(X, [0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match="missing value .* at row 1"):
        C45Classifier().fit(X, [0.0, np.nan, 2.0])


def test_digest_sees_every_byte_and_shape():
    rng = np.random.default_rng(2)
    arrays = [rng.normal(size=(3, 5)), rng.integers(0, 9, size=13).astype(np.int32)]
    base = _bulk.digest(arrays)
    assert base.startswith(_bulk.DIGEST_PREFIX) and base == _bulk.digest(arrays)
    for a in arrays:
        flat = a.reshape(-1).view(np.uint8)
        for byte in (0, flat.size // 2, flat.size - 1):
            flat[byte] ^= 1
            assert _bulk.digest(arrays) != base
            flat[byte] ^= 1
    assert _bulk.digest([arrays[0].reshape(5, 3), arrays[1]]) != base
    assert _bulk.digest([arrays[0][:, ::2], arrays[1]]) == _bulk.digest(
        [np.ascontiguousarray(arrays[0][:, ::2]), arrays[1]])


def test_a_model_with_an_older_digest_still_prunes_with_its_data():
    """Models pickled before the one-pass digest hold a blake2b digest of their
    training data; prune(X, y) compares with that kind."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3)); y = (X[:, 0] > 0).astype(int)
    clf = C45Classifier().fit(X, y)
    from c45._classifier import _fingerprint
    data = clf._prepare(X, y, None)[2]
    rows, features, _ = clf._train_check
    legacy = _fingerprint(data, like=(rows, features, "0" * 32))
    assert not legacy[2].startswith(_bulk.DIGEST_PREFIX)
    clf._train_check = legacy
    clf.prune(X, y, pruning="pessimistic")
    with pytest.raises(ValueError, match="other values"):
        clf.prune(X, 1 - y, pruning="pessimistic")



def test_an_unweighted_fit_holds_one_number_for_its_weights():
    """No sample_weight: the weights are unit_weights (stride 0, 8 bytes), read
    as an array of ones by every step that reads case weights: the same totals,
    digest, facts and trees as np.ones, without its 8 bytes a case."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(400, 3)); X[rng.random(X.shape) < 0.05] = np.nan
    y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
    for precision in ("float64", "float32"):
        clf = C45Classifier(precision=precision)
        w = clf._prepare(X, y, None)[2].init_weight
        assert w.strides == (0,) and w.shape == (400,) and w[0] == 1.0
        weighted = C45Classifier(precision=precision).fit(X, y, sample_weight=np.ones(400))
        unweighted = clf.fit(X, y)
        assert export_text(unweighted) == export_text(weighted)
        np.testing.assert_array_equal(unweighted.tree_.value, weighted.tree_.value)
    ones = np.ones(1000)
    unit = _bulk.unit_weights(1000)
    assert _bulk.count_positive(unit) == 1000
    for f32 in (False, True):
        assert _bulk.sequential_total(unit, f32) == _bulk.sequential_total(ones, f32)
    # float32's sum of ones stops at 2**24 (C4.5's total), read without a copy
    assert _bulk.sequential_total(_bulk.unit_weights(2 ** 24 + 5), True) == 2.0 ** 24
    codes = np.ones((1, 1000), np.int32)
    cont = rng.normal(size=(2, 1000))
    assert (_bulk.weight_and_unknown_facts(unit, cont, codes, True, True)
            == _bulk.weight_and_unknown_facts(ones, cont, codes, True, True))
    # the digest of the training data (prune(X, y)'s check, models' _train_check)
    # sees the ones' bytes wherever they stand
    a = rng.integers(0, 9, size=13).astype(np.int32)
    for arrays in ([unit, a], [a, unit, a], [a, unit]):
        assert _bulk.digest(arrays) == _bulk.digest(
            [ones if b is unit else b for b in arrays])
    assert _bulk.digest([a, _bulk.unit_weights(999)]) != _bulk.digest([a, unit])
    # a window's rows of them (windowing) stay one number, checked as any take
    rows = np.array([999, 0, 5, 5])
    taken = _bulk.take_rows(unit, rows)
    assert taken.strides == (0,) and np.array_equal(taken, ones[rows])
    with pytest.raises(IndexError, match="row 1000 out of range"):
        _bulk.take_rows(unit, np.array([1000]))

@pytest.mark.parametrize("k", [2, 7, 8, 9, 17, 128, 129, 300])
def test_probabilities_divide_by_numpys_row_sums(k):
    """predict_proba normalizes the class sums in the core; its totals are numpy's
    (pairwise) row sums bit for bit, unknown values' fractional sums included."""
    rng = np.random.default_rng(k)
    X = rng.normal(size=(2000, 3)); y = rng.integers(0, k, size=2000)
    X[rng.random(X.shape) < 0.3] = np.nan
    clf = C45Classifier(min_samples_leaf=1).fit(X, y)
    sums = clf._sums(X)
    total = sums.sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(clf._sums(X, proba=True),
                                  sums / np.where(total > 0, total, 1.0))


@pytest.mark.parametrize("shape", [(0, 3), (5, 0), (1, 1), (7, 3), (1000, 4)])
def test_transposed_and_one_hot_equal_numpys(shape):
    a = np.random.default_rng(0).standard_normal(shape)
    t = _bulk.transposed(a)
    assert t.flags.c_contiguous and np.array_equal(t, a.T)
    k = 4
    column = np.random.default_rng(1).integers(0, k, shape[0])
    expected = np.zeros((shape[0], k))
    expected[np.arange(shape[0]), column] = 1.0
    assert np.array_equal(_bulk.one_hot(column, k), expected)


def test_one_hot_refuses_a_column_outside_the_classes():
    with pytest.raises(ValueError, match="column 3 of row 1"):
        _bulk.one_hot(np.array([0, 3], dtype=np.int64), 3)


@pytest.mark.parametrize("ufunc", [np.log, np.log2])
@pytest.mark.parametrize("shape", [(0,), (1,), (499,), (500,), (501,), (1234, 3), (70000,)])
def test_elementwise_gives_numpys_numbers_bit_for_bit(ufunc, shape):
    rng = np.random.default_rng(len(shape) * 1000 + shape[0])
    a = rng.random(shape) * 10.0 ** rng.integers(-300, 300, shape)
    a.reshape(-1)[::7] = 0.0               # log(0): -inf, as numpy gives it
    a.reshape(-1)[::11] = 1.0
    with np.errstate(divide="ignore"):
        got, want = _bulk.elementwise(ufunc, a), ufunc(a)
    assert got.shape == want.shape
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))
