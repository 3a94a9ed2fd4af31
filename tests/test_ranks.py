"""The float64 fit's one sort per feature (c45/_ranks.pyx) against numpy's stable
argsort: the canonical order by (value, row), NaN last, -0.0 equal to 0.0."""
import numpy as np
import pytest

from c45 import _ranks


def _check_against_argsort(x):
    ranks, values, n_known = _expected(x)
    got_values, got_ranks = x.copy(), np.zeros(x.size, np.uint32)
    assert _ranks.rank_column(got_values, got_ranks) == n_known
    np.testing.assert_array_equal(got_ranks, ranks)
    # The values in that order, bit for bit (the sign of a zero kept).
    np.testing.assert_array_equal(got_values.view(np.uint64), values.view(np.uint64))


def _expected(x):
    order = np.argsort(x, kind="stable")           # NaN last, ties in row order
    ranks = np.zeros(len(x), np.uint32)
    ranks[order] = np.arange(len(x), dtype=np.uint32)
    return ranks, x[order], int(np.count_nonzero(~np.isnan(x)))


@pytest.mark.parametrize("seed", range(40))
def test_rank_column_equals_stable_argsort(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 400)) if seed else 0
    x = rng.normal(scale=10.0 ** rng.integers(-3, 4), size=n)
    if seed % 3 == 0:
        x = np.round(x, 1)                          # many ties
    for value, share in ((np.nan, 0.1), (-0.0, 0.05), (0.0, 0.05), (np.inf, 0.03),
                         (-np.inf, 0.03), (5e-324, 0.02), (-5e-324, 0.02)):
        x[rng.random(n) < share] = value
    _check_against_argsort(x)


def test_rank_column_large_column():
    rng = np.random.default_rng(7)
    x = rng.normal(size=200_000)
    x[rng.random(x.size) < 0.05] = np.nan
    _check_against_argsort(x)


@pytest.mark.parametrize("run", [2, 16, 17, 300, 4096, 4097, 30000])
def test_rank_column_values_close_together(run):
    """Values that share the top 32 bits of their keys (within 2**-20 of one
    another, as timestamps a few minutes apart do), in runs of every length the
    sort orders its own way (by insertion, by merges, by the low half's
    digits), with ties among them (row order kept) and unknown values."""
    rng = np.random.default_rng(run)
    groups = max(2, 60000 // run)
    # 1.7e9 is in [2**30, 2**31): one top half spans 1024, so groups 2048 apart
    # never share one, and the values of a group (within 1000) mostly do.
    x = (1.7e9 + 2048.0 * np.repeat(np.arange(groups), run)
         + np.round(rng.uniform(0, 1000, groups * run), 2))
    x = x[rng.permutation(x.size)]
    x[rng.random(x.size) < 0.02] = np.nan
    _check_against_argsort(x)


def test_rank_column_rejects_short_ranks():
    with pytest.raises(ValueError, match="shorter"):
        _ranks.rank_column(np.zeros(3), np.zeros(2, np.uint32))
