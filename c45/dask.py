"""Scoring C4.5 trees on Dask collections, partition by partition.

Optional: ``pip install "c45[dask]"`` (dask[dataframe], distributed, dask-ml), then
``import c45.dask`` (scoring plain C45Classifier models needs dask only; dask-ml is
for its ensembles). See docs/dask.md for grid searches with joblib's Dask backend
and for training with dask-ml's ``BlockwiseVotingClassifier``.

``predict(model, X)`` and ``predict_proba(model, X)`` apply a fitted
``C45Classifier`` (or a fitted soft-voting ``BlockwiseVotingClassifier`` of them)
to every partition of a Dask DataFrame, or every row block of a Dask array,
exactly as the in-memory ``predict``/``predict_proba`` would: each partition is a
pandas DataFrame with the columns, names and categorical dtypes of the collection,
and categories are recoded by value, so partitions with unknown or differing
categories give the same answers. Each task carries the model, pickled (a few MB
and milliseconds for a 100k-node tree), as dask-ml's ``ParallelPostFit`` does; the
tree walk in each task releases the GIL.
"""
import numpy as _np
import pandas as _pd

from c45._optional import require as _require

_da = _require("dask.array", "c45.dask")
_dd = _require("dask.dataframe", "c45.dask")

__all__ = ["predict", "predict_proba"]


def _trees(model):
    """The fitted C4.5 trees of ``model``, each with the places of its classes_
    among the model's classes (None: the same classes), and the model's class
    labels."""
    from sklearn.utils.validation import check_is_fitted

    from c45 import C45Classifier
    if isinstance(model, C45Classifier):
        check_is_fitted(model, "tree_")
        return [(model, None)], _np.asarray(model.classes_)
    BlockwiseVotingClassifier = _require(
        "dask_ml.ensemble", "scoring a BlockwiseVotingClassifier").BlockwiseVotingClassifier
    if not isinstance(model, BlockwiseVotingClassifier):
        raise TypeError(f"model must be a fitted C45Classifier or dask-ml "
                        f"BlockwiseVotingClassifier, got {type(model).__name__}")
    check_is_fitted(model, "estimators_")
    if model.voting != "soft":
        raise ValueError("c45.dask scores BlockwiseVotingClassifier(voting='soft') "
                         "ensembles only (their trees' probabilities are averaged)")
    classes = _np.asarray(model.classes_)
    trees = []
    for i, est in enumerate(model.estimators_):
        if len(est.classes_) == len(classes) and _np.all(est.classes_ == classes):
            trees.append((est, None))
            continue
        if sorted(est.classes_.tolist()) == sorted(classes.tolist()):
            raise ValueError(
                f"the ensemble's classes {classes.tolist()} are not in the order of "
                f"its trees' classes_ {est.classes_.tolist()} (sorted, as their "
                f"predict_proba columns): give it classes={est.classes_.tolist()}")
        # A partition without a class: its tree's columns go to their classes, the
        # others are 0 (the tree saw none of them), as averaged below.
        index = {c: j for j, c in enumerate(classes.tolist())}
        unknown = [c for c in est.classes_.tolist() if c not in index]
        if unknown:
            raise ValueError(f"tree {i} of the ensemble knows the class {unknown[0]!r}, "
                             f"which is not among the ensemble's classes {list(classes)}")
        trees.append((est, _np.array([index[c] for c in est.classes_.tolist()])))
    return trees, classes


def _tree_proba(X, tree, n_classes):
    est, columns = tree
    proba = est.predict_proba(X)
    if columns is None:
        return proba
    out = _np.zeros((proba.shape[0], n_classes))
    out[:, columns] = proba
    return out


def _proba(X, trees, n_classes):
    if len(trees) == 1:
        return _tree_proba(X, trees[0], n_classes)
    return _np.stack([_tree_proba(X, t, n_classes) for t in trees]).mean(axis=0)


def _proba_frame(part, trees, classes):
    return _pd.DataFrame(_proba(part, trees, len(classes)), index=part.index,
                        columns=_pd.Index(classes, dtype=classes.dtype))


def _labels(X, trees, classes):
    if len(trees) == 1 and trees[0][1] is None:
        return _np.asarray(trees[0][0].predict(X))     # the class of largest class sum
    return classes.take(_np.argmax(_proba(X, trees, len(classes)), axis=1))


def _label_series(part, trees, classes):
    return _pd.Series(_labels(part, trees, classes), index=part.index, dtype=classes.dtype)


def _label_block(block, trees, classes):
    return _labels(block, trees, classes)


def _rows_only(X):
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional, got a Dask array of shape {X.shape}")
    return X if X.numblocks[1] == 1 else X.rechunk({1: -1})


def predict_proba(model, X):
    """Class probabilities of every row of a Dask DataFrame or array, lazily.

    A Dask DataFrame gives a Dask DataFrame with the index (and divisions) of X and
    one float64 column per class (``model.classes_``); a Dask array gives a Dask
    array of shape ``(n_rows, n_classes)`` chunked like X's rows. Each partition's
    values equal ``model.predict_proba`` on that partition in memory. For a
    soft-voting ``BlockwiseVotingClassifier`` they are its trees' average.
    """
    trees, classes = _trees(model)
    if isinstance(X, _dd.DataFrame):
        meta = _proba_frame(X._meta, trees, classes)    # checks columns on the client
        return X.map_partitions(_proba_frame, trees, classes, meta=meta)
    if isinstance(X, _da.Array):
        X = _rows_only(X)
        return X.map_blocks(_proba, trees, len(classes),
                            chunks=(X.chunks[0], (len(classes),)),
                            dtype=_np.float64, meta=_np.empty((0, 0), _np.float64))
    raise TypeError(f"X must be a Dask DataFrame or Dask array, got {type(X).__name__}; "
                    f"call model.predict_proba for in-memory data")


def predict(model, X):
    """Predicted labels of every row of a Dask DataFrame or array, lazily.

    A Dask DataFrame gives a Dask Series with X's index and the dtype of
    ``model.classes_``; a Dask array gives a 1-D Dask array. The labels equal
    ``model.predict`` on each partition in memory (ties to the first class). For a
    soft-voting ``BlockwiseVotingClassifier`` they are labels, not the class
    indices that dask-ml's own ``predict`` returns.
    """
    trees, classes = _trees(model)
    if isinstance(X, _dd.DataFrame):
        meta = _label_series(X._meta, trees, classes)
        return X.map_partitions(_label_series, trees, classes, meta=meta)
    if isinstance(X, _da.Array):
        X = _rows_only(X)
        return X.map_blocks(_label_block, trees, classes, drop_axis=1,
                            dtype=classes.dtype, meta=_np.empty(0, classes.dtype))
    raise TypeError(f"X must be a Dask DataFrame or Dask array, got {type(X).__name__}; "
                    f"call model.predict for in-memory data")
