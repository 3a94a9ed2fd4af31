"""The rows reduced-error pruning holds out (c45/_split.pyx) are the rows
scikit-learn's train_test_split draws for the same random state: stratified,
or plain where a class is too small to stratify, with its errors, and the
RandomState moved on as scikit-learn moves it."""
import threading
import warnings

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from c45 import C45Classifier, _split


def scikit_learn_rows(labels, fraction, rng):
    """_hold_out's rows as they were drawn with train_test_split."""
    idx = np.arange(len(labels))
    try:
        grow, val = train_test_split(idx, stratify=labels, test_size=fraction,
                                     random_state=rng)
    except ValueError:          # a class too small to stratify
        grow, val = train_test_split(idx, test_size=fraction, random_state=rng)
    return np.sort(grow), np.sort(val)


def problems(n_problems, seed=0):
    """(c45's class codes, labels, number of codes, fraction, seed): sizes
    2-5000, 1-40 classes (uniform, skewed with classes of one row, tied
    counts), class codes numbered in another order than the labels sort."""
    rng = np.random.default_rng(seed)
    for t in range(n_problems):
        n = int(rng.choice([2, 3, 5, 10, 37, 100, 1000, 5000]))
        k = int(rng.integers(1, 41))
        if t % 4 == 0:
            classes = rng.integers(0, k, n)
        elif t % 4 == 1:
            p = rng.random(k) ** 4
            classes = rng.choice(k, n, p=p / p.sum())
        elif t % 4 == 2:
            classes = np.repeat(np.arange(k), n // k + 1)[:n]
            rng.shuffle(classes)
        else:
            classes = rng.integers(0, min(k, 3), n)
        fraction = float(rng.choice([0.01, 0.1, 0.123, 0.25, 1 / 3, 0.5, 0.7, 0.9]))
        if t % 3 == 0:
            labels = np.array([f"c{c:02d}" for c in classes])
        elif t % 3 == 1:
            labels = classes * 7 - 3
        else:               # a column: scikit-learn orders its classes as text
            labels = (classes * 9 + 1).reshape(-1, 1)
        codes = rng.permutation(k)[classes].astype(np.int32)
        yield codes, labels, k, fraction, int(rng.integers(0, 2**31))


@pytest.mark.parametrize("as_state", [False, True], ids=["seed", "RandomState"])
def test_hold_out_rows_are_train_test_splits(as_state):
    checked = errors = 0
    for codes, labels, k, fraction, seed in problems(300):
        ours, theirs = (np.random.RandomState(seed) for _ in range(2))
        try:
            want = scikit_learn_rows(labels, fraction, theirs)
        except ValueError as exc:
            with pytest.raises(ValueError) as got:
                _split.hold_out_rows(codes, k, labels, fraction, ours)
            assert str(got.value) == str(exc)
            errors += 1
            continue
        grow, val = _split.hold_out_rows(codes, k, labels, fraction,
                                         ours if as_state else np.random.RandomState(seed))
        assert np.array_equal(grow, want[0]) and np.array_equal(val, want[1]), (
            len(codes), k, fraction, seed)
        assert grow.dtype == val.dtype == np.int64
        if as_state:        # the generator moved on as scikit-learn's did
            assert ours.randint(2**31) == theirs.randint(2**31)
        checked += 1
    assert checked > 250 and errors > 0, (checked, errors)


def test_the_global_random_state_moves_on_as_scikit_learn_moves_it():
    codes = np.arange(1000, dtype=np.int32) % 3
    np.random.seed(5)
    want = scikit_learn_rows(codes, 0.25, None)
    after = np.random.randint(2**31)
    np.random.seed(5)
    got = _split.hold_out_rows(codes, 3, codes, 0.25, np.random.mtrand._rand)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert np.random.randint(2**31) == after


def test_permutations_are_randomstate_permutations():
    for seed in range(20):
        ours = _split.LegacyDraws.of(np.random.RandomState(seed))
        theirs = np.random.RandomState(seed)
        for n in (0, 1, 2, 3, 624, 1000, 70_000):
            assert np.array_equal(ours.permutation(n), theirs.permutation(n)), (seed, n)


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_a_reduced_error_fit_grows_and_validates_on_train_test_split_rows(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(3000, 4))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = np.where(X[:, 0] > 0.2, "a", np.where(X[:, 1] > 0, "b", "c"))
    y[:2] = "rare"                          # too small to stratify: the plain split
    for labels in (y, y[2:]):
        Xs = X[len(X) - len(labels):]
        grow, val = scikit_learn_rows(labels, 1 / 3, np.random.RandomState(seed))
        held = C45Classifier(pruning="reduced_error", random_state=seed).fit(Xs, labels)
        given = C45Classifier(pruning="reduced_error", random_state=seed).fit(
            Xs[grow], labels[grow], X_val=Xs[val], y_val=labels[val])
        for a, b in ((held.tree_, given.tree_), (held.grown_tree_, given.grown_tree_)):
            for f in a._fields:
                assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True), f


def test_seeds_draw_as_the_randomstate_they_seed():
    """A seed's draws are made without a RandomState: the same numbers, and the
    same refusals of what is no random state."""
    for seed in (0, 1, 5, 2**31, 2**32 - 1, True, np.int64(77)):
        ours = _split.LegacyDraws.of(seed)
        theirs = np.random.RandomState(seed)
        assert np.array_equal(ours.permutation(1000), theirs.permutation(1000))
        assert ours.randint(1, 2**31 - 1) == theirs.randint(1, 2**31 - 1)
        assert _split.randint(seed, 1, 2**31 - 1) == np.random.RandomState(
            seed).randint(1, 2**31 - 1)
    for bad in (-1, 2**32, 1.5, "0"):
        with pytest.raises(ValueError, match="random_state must be"):
            C45Classifier(random_state=bad).fit([[0], [1]], [0, 1])


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.Philox])
def test_a_randomstate_of_another_bit_generator_holds_out_train_test_split_rows(bit_generator):
    """A RandomState wrapping another bit generator than the Mersenne Twister
    is a random_state scikit-learn takes: its rows, and the generator moved on
    as there (it was refused with 'too many values to unpack')."""
    rng = np.random.default_rng(4)
    for classes in (rng.integers(0, 3, 500), np.r_[0, rng.integers(1, 3, 499)]):
        codes = classes.astype(np.int32)
        labels = np.array(["b", "c", "a"])[classes]
        ours, theirs = (np.random.RandomState(bit_generator(11)) for _ in range(2))
        want = scikit_learn_rows(labels, 0.25, theirs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = _split.hold_out_rows(codes, 3, labels, 0.25, ours)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert got[0].dtype == got[1].dtype == np.int64
        assert ours.randint(2**31) == theirs.randint(2**31)
    X = rng.normal(size=(300, 2))
    y = np.where(X[:, 0] > 0, "p", "q")
    grow, val = scikit_learn_rows(y, 1 / 3, np.random.RandomState(bit_generator(5)))
    held = C45Classifier(pruning="reduced_error",
                         random_state=np.random.RandomState(bit_generator(5))).fit(X, y)
    given = C45Classifier(pruning="reduced_error").fit(X[grow], y[grow], X_val=X[val],
                                                       y_val=y[val])
    for f in held.tree_._fields:
        assert np.array_equal(getattr(held.tree_, f), getattr(given.tree_, f),
                              equal_nan=True), f


def test_threads_holding_out_from_one_randomstate_draw_in_turn():
    """Two threads holding out rows from one RandomState at once (the global one
    too: random_state=None) draw in turn, as two train_test_split calls do: two
    different hold-outs, the ones two calls in a row give, and the generator
    moved on by both (each read the same state and drew the same rows)."""
    n = 2_200_000                   # above NOGIL_WORK: the draws give the GIL up
    codes = (np.arange(n) % 3).astype(np.int32)
    for shared, reseed in ((np.random.RandomState(8), None),
                           (np.random.mtrand._rand, lambda: np.random.seed(8))):
        if reseed:
            reseed()
        start, got = threading.Barrier(2), []

        def hold_out():
            start.wait()
            got.append(_split.hold_out_rows(codes, 3, codes, 0.25, shared)[1])

        threads = [threading.Thread(target=hold_out) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        after = shared.randint(2**31)
        rng = np.random.RandomState(8)
        in_turn = [_split.hold_out_rows(codes, 3, codes, 0.25, rng)[1] for _ in range(2)]
        assert len(got) == 2 and not np.array_equal(got[0], got[1])
        assert {g.tobytes() for g in got} == {g.tobytes() for g in in_turn}
        assert after == rng.randint(2**31)
