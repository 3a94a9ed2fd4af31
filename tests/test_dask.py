"""C4.5 on a Dask cluster (issue 8): scoring, grid search, blockwise training.

One ``distributed.LocalCluster`` of 2 worker processes (1 thread each) serves the
module; the fixture always closes it. Data are small so the file runs in seconds.
"""
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dask
import dask.array as da
import dask.dataframe as dd
import joblib
from dask_ml.ensemble import BlockwiseVotingClassifier
from dask_ml.wrappers import ParallelPostFit
from distributed import Client, LocalCluster, get_task_stream
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, StratifiedKFold

import c45
import c45.dask
from c45 import C45Classifier

C45_ROOT = str(Path(c45.__file__).resolve().parent.parent)
LEVELS = ["red", "green", "blue", "black", "unused"]     # "unused": declared, never seen


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # Worker processes must import the c45 under test, not another installed copy.
    path = os.pathsep.join(p for p in (C45_ROOT, os.environ.get("PYTHONPATH")) if p)
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                           dashboard_address=None, env={"PYTHONPATH": path},
                           local_directory=str(tmp_path_factory.mktemp("dask")))
    try:
        with Client(cluster) as c:
            yield c
    finally:
        cluster.close()


def make_frame(n, seed):
    """Continuous columns with NaN, a Categorical with declared (and one unused)
    categories and NaN, a plain string column; a noisy two-rule concept."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    z = rng.uniform(0, 10, size=n)
    colour = rng.choice(LEVELS[:4], size=n)
    shape = rng.choice(["round", "square", "flat"], size=n)
    signal = (x > 0.2) ^ np.isin(colour, ["red", "blue"]) | ((z > 8) & (shape == "flat"))
    y = np.where(signal ^ (rng.random(n) < 0.1), "pos", "neg")
    X = pd.DataFrame({
        "x": np.where(rng.random(n) < 0.1, np.nan, x),
        "z": np.where(rng.random(n) < 0.05, np.nan, z),
        "colour": pd.Categorical(np.where(rng.random(n) < 0.1, None, colour),
                                 categories=LEVELS),
        "shape": pd.Series(np.where(rng.random(n) < 0.05, None, shape), dtype=object),
    })
    return X, y


@pytest.fixture(scope="module")
def data():
    X, y = make_frame(3000, seed=1)
    return X, y, C45Classifier().fit(X, y)


def test_workers_import_the_c45_under_test(client):
    where = client.run(lambda: str(Path(__import__("c45").__file__).resolve()))
    assert len(where) == 2
    assert set(where.values()) == {str(Path(c45.__file__).resolve())}


def test_fit_on_a_worker_keeps_names_categories_and_tree(client, data):
    X, y, local = data
    remote = client.submit(C45Classifier().fit, X, y).result()
    assert list(remote.feature_names_in_) == ["x", "z", "colour", "shape"]
    assert remote.categories_ == local.categories_
    assert remote.categories_[2] == LEVELS
    for field in local.tree_._fields:
        np.testing.assert_array_equal(getattr(remote.tree_, field),
                                      getattr(local.tree_, field))
    assert not hasattr(remote, "_train")        # the training data stayed on the worker


def test_partitions_keep_names_and_categorical_dtypes(client, data):
    X, _, _ = data
    ddf = dd.from_pandas(X, npartitions=4)
    assert ddf["colour"].cat.known

    def describe(part):
        return list(part.columns), part["colour"].dtype, len(part)

    seen = dask.compute(*[dask.delayed(describe)(p) for p in ddf.to_delayed()])
    assert sum(n for _, _, n in seen) == len(X)
    for names, dtype, _ in seen:
        assert names == list(X.columns)
        assert dtype == X["colour"].dtype           # same declared categories, in order


def test_predict_dask_dataframe_equals_in_memory(client, data):
    X, y, model = data
    ddf = dd.from_pandas(X, npartitions=4)
    labels = c45.dask.predict(model, ddf)
    proba = c45.dask.predict_proba(model, ddf)
    assert list(proba.columns) == list(model.classes_)
    with get_task_stream(client) as ts:
        got_labels, got_proba = dask.compute(labels, proba)
    assert {t["worker"] for t in ts.data} <= set(client.scheduler_info()["workers"])
    assert len(ts.data) >= 4
    assert got_labels.index.equals(X.index) and got_proba.index.equals(X.index)
    np.testing.assert_array_equal(got_labels.to_numpy(), model.predict(X))
    np.testing.assert_array_equal(got_proba.to_numpy(), model.predict_proba(X))
    # The labels align with the frame they came from.
    joined = ddf.assign(pred=labels).compute()
    np.testing.assert_array_equal(joined["pred"].to_numpy(), model.predict(X))


def test_dask_ml_parallel_post_fit_equals_in_memory(client, data):
    X, _, model = data
    ddf = dd.from_pandas(X, npartitions=3)
    wrapped = ParallelPostFit(model)
    np.testing.assert_array_equal(wrapped.predict(ddf).compute(), model.predict(X))
    np.testing.assert_array_equal(wrapped.predict_proba(ddf).compute(),
                                  model.predict_proba(X))


def test_unknown_and_differing_categories_give_the_same_predictions(client, data):
    X, _, model = data
    # Categories made by Dask per partition (unknown on the client): each partition
    # holds only the colours it sees, in its own order; c45 recodes them by value.
    raw = X.assign(colour=X["colour"].astype(object))
    ddf = dd.from_pandas(raw, npartitions=5)
    ddf = ddf.assign(colour=ddf["colour"].astype("category"))
    assert not ddf["colour"].cat.known
    np.testing.assert_array_equal(c45.dask.predict(model, ddf).compute().to_numpy(),
                                  model.predict(X))
    np.testing.assert_array_equal(c45.dask.predict_proba(model, ddf).compute().to_numpy(),
                                  model.predict_proba(X))


def test_predict_dask_array_with_discrete_columns_and_nan(client):
    rng = np.random.default_rng(2)
    n = 2000
    A = np.column_stack([rng.normal(size=n), rng.integers(0, 4, n).astype(float),
                         rng.uniform(size=n)])
    y = (A[:, 0] > 0) ^ (A[:, 1] == 2)
    A[rng.random(A.shape) < 0.08] = np.nan
    model = C45Classifier(categorical_features=[1]).fit(A, y)
    assert model.categories_[1] == [0.0, 1.0, 2.0, 3.0]
    dA = da.from_array(A, chunks=(300, 2))          # column chunks are joined first
    labels = c45.dask.predict(model, dA)
    proba = c45.dask.predict_proba(model, dA)
    assert labels.shape == (n,) and proba.shape == (n, 2)
    np.testing.assert_array_equal(labels.compute(), model.predict(A))
    np.testing.assert_array_equal(proba.compute(), model.predict_proba(A))
    np.testing.assert_array_equal(ParallelPostFit(model).predict(dA).compute(),
                                  model.predict(A))


def test_wrong_columns_fail_on_the_client(data):
    X, _, model = data
    ddf = dd.from_pandas(X[["z", "x", "colour", "shape"]], npartitions=2)
    with pytest.raises(ValueError, match="same names, same order"):
        c45.dask.predict(model, ddf)
    with pytest.raises(TypeError, match="Dask DataFrame or Dask array"):
        c45.dask.predict(model, X)
    with pytest.raises(TypeError, match="C45Classifier or dask-ml"):
        c45.dask.predict_proba(ParallelPostFit(model), ddf)
    with pytest.raises(NotFittedError):
        c45.dask.predict(C45Classifier(), ddf)


def test_grid_search_with_joblib_dask_backend_matches_local(client, data):
    X, y, _ = data
    grid = {"confidence": [0.01, 0.1, 0.25, 0.5], "min_samples_leaf": [1, 2, 10, 50]}
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    local = GridSearchCV(C45Classifier(), grid, cv=cv).fit(X, y)
    with joblib.parallel_backend("dask"), get_task_stream(client) as ts:
        remote = GridSearchCV(C45Classifier(), grid, cv=cv, n_jobs=-1).fit(X, y)
    # The fits ran on both workers (joblib sends them in batches of fit-and-score calls).
    fitters = {t["worker"] for t in ts.data if "fit_and_score" in str(t["key"])}
    assert fitters == set(client.scheduler_info()["workers"])
    assert remote.best_params_ == local.best_params_
    assert remote.best_score_ == local.best_score_
    for key in ("mean_test_score", "std_test_score", "rank_test_score"):
        np.testing.assert_array_equal(remote.cv_results_[key], local.cv_results_[key])
    assert len(set(local.cv_results_["mean_test_score"])) > 3     # the grid matters
    assert list(remote.best_estimator_.feature_names_in_) == list(X.columns)
    np.testing.assert_array_equal(remote.predict(X), local.predict(X))


def test_blockwise_voting_trains_one_tree_per_partition(client):
    X, y = make_frame(8000, seed=3)
    X_test, y_test = make_frame(4000, seed=4)
    classes = ["neg", "pos"]
    dX = dd.from_pandas(X, npartitions=4)
    dy = dd.from_pandas(pd.Series(y), npartitions=4)
    dy = dy.astype(pd.CategoricalDtype(classes))     # known: every tree keeps both classes
    assert dy.cat.known
    voter = BlockwiseVotingClassifier(C45Classifier(), voting="soft", classes=classes)
    voter.fit(dX, dy)
    assert len(voter.estimators_) == 4
    # Each tree is the in-memory tree of its partition.
    parts = dX.to_delayed()
    for est, (part, part_y) in zip(voter.estimators_,
                                   zip(dask.compute(*parts), dask.compute(*dy.to_delayed()))):
        alone = C45Classifier().fit(part, part_y)
        np.testing.assert_array_equal(est.tree_.value, alone.tree_.value)
        assert list(est.classes_) == classes

    dX_test = dd.from_pandas(X_test, npartitions=2)
    labels = c45.dask.predict(voter, dX_test).compute().to_numpy()
    # dask-ml's own predict answers class indices; c45.dask.predict answers labels.
    np.testing.assert_array_equal(labels, voter.classes_[voter.predict(dX_test).compute()])
    np.testing.assert_allclose(c45.dask.predict_proba(voter, dX_test).compute().to_numpy(),
                               voter.predict_proba(dX_test).compute(), rtol=0, atol=1e-12)

    voting_acc = np.mean(labels == y_test)
    single_acc = np.mean(C45Classifier().fit(X, y).predict(X_test) == y_test)
    print(f"\nheld-out accuracy: one tree on all 8000 rows {single_acc:.4f}, "
          f"soft vote of 4 trees on 2000 rows each {voting_acc:.4f}")
    assert single_acc > 0.8                      # the concept is learnable (10% noise)
    assert voting_acc > 0.8
    assert abs(voting_acc - single_acc) < 0.03


def test_blockwise_voting_puts_a_tree_missing_a_class_under_its_classes(client):
    """A partition without a class gives a tree whose classes_ lack it (as
    scikit-learn's trees, a Categorical y too): its probability columns go under
    the ensemble's classes, 0 for the class it never saw."""
    X, y = make_frame(600, seed=5)
    order = np.argsort(y, kind="stable")          # sorted: the first partition is all "neg"
    X, y = X.iloc[order].reset_index(drop=True), y[order]
    voter = BlockwiseVotingClassifier(C45Classifier(), voting="soft",
                                      classes=["neg", "pos"])
    dy = dd.from_pandas(pd.Series(y), npartitions=3, sort=False)
    voter.fit(dd.from_pandas(X, npartitions=3, sort=False),
              dy.astype(pd.CategoricalDtype(["neg", "pos"])))
    assert [list(e.classes_) for e in voter.estimators_][0] == ["neg"]
    assert any(list(e.classes_) == ["neg", "pos"] for e in voter.estimators_)
    dX = dd.from_pandas(X, npartitions=2)
    proba = c45.dask.predict_proba(voter, dX).compute()
    want = np.zeros((len(X), 2))
    for est in voter.estimators_:
        want[:, [["neg", "pos"].index(c) for c in est.classes_]] += est.predict_proba(X)
    want /= len(voter.estimators_)
    np.testing.assert_allclose(proba.to_numpy(), want, rtol=0, atol=1e-15)
    labels = c45.dask.predict(voter, dX).compute().to_numpy()
    np.testing.assert_array_equal(labels, np.array(["neg", "pos"])[want.argmax(axis=1)])


def test_blockwise_voting_refuses_a_tree_with_a_class_the_ensemble_lacks(client):
    X, y = make_frame(600, seed=5)
    voter = BlockwiseVotingClassifier(C45Classifier(), voting="soft", classes=["neg", "pos"])
    voter.fit(dd.from_pandas(X, npartitions=2), dd.from_pandas(pd.Series(y), npartitions=2))
    voter.classes_ = np.array(["neg", "other"])
    with pytest.raises(ValueError, match="knows the class 'pos', which is not among"):
        c45.dask.predict(voter, dd.from_pandas(X, npartitions=2))
