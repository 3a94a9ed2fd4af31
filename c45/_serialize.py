"""A fitted tree as a nested dict, and the whole model as a versioned JSON file.

``to_dict`` gives the textbook ``{feature: {value: subtree-or-class}}`` form, or with
``weights=True`` a richer form that carries what C4.5's fractional descent needs,
which ``dict_predict_proba`` evaluates exactly as ``predict_proba`` does.
``to_json`` / ``from_json`` write and read the model format of
docs/model-format.md: plain JSON, no pickle, loaded without executing code.
"""
import base64
import hashlib
import itertools
import json
import math
import re
import warnings

import numpy as np
from sklearn.utils.validation import check_is_fitted

from c45._gc import paused
from c45._encode import (STORABLE_CLASS_KINDS, UNIQUE_CHUNK, Schema, _is_missing_scalar,
                         _unmasked, check_labels, check_text,
                         class_columns, sorted_classes)
from c45._tree import CONTINUOUS_KIND, LEAF_KIND, SUBSET_KIND, Tree
from c45._state import check_held_classes, checked_fitted_state
from c45._classifier import class_map
from c45._bulk import put
from c45._tree_checks import count_nonfinite

FORMAT_NAME = "c45-model"
FORMAT_VERSION = 3       # 2: the checksum is over the file's own bytes; 3: classes.present

# The deepest tree whose to_dict survives json.dumps at Python's default recursion
# limit (1000, less the caller's own frames): the dicts nest two levels a tree
# level (a test, then its branches), and json.dumps and repr recurse once a
# nesting level. to_dict itself builds any depth without recursion.
MAX_DICT_DEPTH = 400

# Keys of the weighted dict form that are not feature names.
_META = ("_class", "_weight", "_value", "_threshold", "_branches", "_classes",
         "_class_order", "_features", "_precision", "_laplace")


# ---------------------------------------------------------------------------
# Shared helpers

def threshold_text(t, f32):
    """The shortest decimal that reads back as the threshold ``t`` (in binary32
    when the model is float32): exact, and as short as the data value it is."""
    v = np.float32(t) if f32 and float(np.float32(t)) == t else np.float64(t)
    s = np.format_float_positional(v, unique=True, trim="-")
    if len(s) > 17:
        s = np.format_float_scientific(v, unique=True, trim="-")
    return s


def _check_classifier(clf):
    from c45._classifier import C45Classifier
    if not isinstance(clf, C45Classifier):
        raise TypeError(f"expected a fitted C45Classifier, got {type(clf).__name__}")
    check_is_fitted(clf, "tree_")


def _pick_tree(clf, tree):
    _check_classifier(clf)
    return clf._pick_tree(tree, clf.__dict__)


def name_list(values, n, what, unit):
    """values (a user's feature_names or class_names) as n strings."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{what} must be a list of {n} names, got {values!r:.80}")
    names = [str(v) for v in values]
    if len(names) != n:
        raise ValueError(f"{what} has {len(names)} entries, the model has {n} {unit}")
    return names


def check_count(name, value):
    """A display option that is None or a non-negative int (a bool is not one)."""
    if value is not None and (not isinstance(value, (int, np.integer))
                              or isinstance(value, bool) or value < 0):
        raise ValueError(f"{name} must be None or a non-negative int, got {value!r}")


def _feature_names(clf, feature_names=None):
    if feature_names is None:
        feature_names = getattr(clf, "feature_names_in_", None)
    if feature_names is None:
        return [f"x{j}" for j in range(clf.n_features_in_)]
    return name_list(feature_names, clf.n_features_in_, "feature_names", "features")


def _py(v):
    """A numpy scalar as the plain Python value (str, int, float, bool, bytes)."""
    return v.item() if isinstance(v, np.generic) else v


def _branch_groups(t, node, categories):
    """Per branch of a discrete or subset test: the list of its category values."""
    if t.kind[node] == SUBSET_KIND:
        return [[categories[v] for v in g]
                for g in t.branch_values(node, max(len(categories), 1))]
    return [[categories[b]] if b < len(categories) else []
            for b in range(t.n_children[node])]


# ---------------------------------------------------------------------------
# Nested dict

def to_dict(clf, tree="final", weights=False, feature_names=None):
    """The tree as nested dicts: ``{feature: {value: subtree-or-class}}`` (the
    form of textbook ID3/C4.5 code).

    A test node is a dict with one key, the feature's name, mapping each branch
    value to the subtree below it; a leaf is the class label. Discrete branches are
    keyed by category (a subset branch, ``subset_splits=True``, once per category it
    holds, all sharing one subtree); continuous branches by ``"<= t"`` and
    ``"> t"``, ``t`` written as the shortest decimal that reads back exactly.

    **Missing values.** The plain form (``weights=False``) cannot express how
    C4.5 classifies an unknown (NaN/None) or unseen value: such a case goes down
    *every* branch, weighted by the share of the training weight each branch got,
    and the leaves' class distributions are averaged with those weights. A plain
    ``tree[feature][value]`` lookup has no answer for it, and a leaf label alone
    drops the distribution. Use ``weights=True`` for a form that carries what the
    descent needs, and evaluate it with :func:`dict_predict_proba`, which gives
    exactly ``clf.predict_proba``.

    Parameters
    ----------
    clf : fitted C45Classifier
    tree : {"final", "grown"}, default="final"
    weights : bool, default=False
        Every node (leaves too) becomes a dict with, besides its feature key,
        ``"_weight"`` (C4.5's Items: training weight reaching the node),
        ``"_value"`` (class weights, in the order of the root's ``"_classes"``,
        which is ``classes_``),
        ``"_class"`` (the node's class); continuous tests add ``"_threshold"``
        (the exact float) and subset tests ``"_branches"`` (per branch, the
        categories it holds; branches holding none carry no weight and are left
        out). The root also holds ``"_classes"``, ``"_class_order"``
        (``declared_classes_``: C4.5's order, for ties), ``"_features"`` (names in
        column order), ``"_precision"`` and ``"_laplace"``. Keys starting with ``_`` are
        never features. Values are Python scalars, so the dict survives
        ``json.dumps`` as long as the categories and classes are strings (and the
        tree is at most 400 levels deep: see Notes).
    feature_names : list of str, optional
        Defaults to ``feature_names_in_``, else ``x0, x1, ...``.

    Notes
    -----
    to_dict builds a tree of any depth, but the dicts nest two levels per tree
    level, and ``json.dumps`` (like ``repr``) recurses once per nesting level under
    Python's recursion limit, 1000 by default: a tree deeper than
    400 levels raises RecursionError there. :func:`to_json`
    saves a tree of any depth (flat arrays).

    Examples
    --------
    >>> from c45 import C45Classifier, to_dict
    >>> from c45.datasets import load_golf
    >>> X, y = load_golf()
    >>> to_dict(C45Classifier().fit(X, y))["outlook"]["sunny"]
    {'humidity': {'<= 75': 'Play', '> 75': "Don't Play"}}
    """
    t = _pick_tree(clf, tree)
    names = _feature_names(clf, feature_names)
    f32 = clf._fit_value("precision") == "float32"
    # node_class and value's columns index declared_classes_; _value is written
    # in the order of classes_, as predict_proba's columns (a declared class y
    # held no case of has no weight, and no column).
    classes = [_py(c) for c in clf.declared_classes_]
    found = class_map(vars(clf))
    columns = None if found.in_order else found.columns
    if weights:
        clash = [n for n in names if n in _META]
        if clash:
            raise ValueError(f"feature name {clash[0]!r} is a reserved key of the "
                             f"weighted dict form; pass other feature_names")

    # Children have larger indices than their parents: building the nodes from
    # the last to the first needs no recursion (trees can be thousands deep).
    built = {}

    def build(node):
        return built.pop(node)

    def make(node):
        out = {}
        if t.kind[node] != LEAF_KIND:
            f = int(t.feature[node])
            first = int(t.first_child[node])
            branches = {}
            if t.kind[node] == CONTINUOUS_KIND:
                s = threshold_text(t.threshold[node], f32)
                branches[f"<= {s}"] = build(first)
                branches[f"> {s}"] = build(first + 1)
                if weights:
                    out["_threshold"] = float(t.threshold[node])
            else:
                groups = _branch_groups(t, node, clf.categories_[f])
                kept = []
                for b, group in enumerate(groups):
                    if not group:
                        if t.weight[first + b] != 0:     # never grown by C4.5
                            raise ValueError(f"node {node}: branch {b} holds no value "
                                             f"but has training weight")
                        continue
                    sub = build(first + b)
                    for v in group:
                        branches[_py(v)] = sub
                    kept.append([_py(v) for v in group])
                if weights and t.kind[node] == SUBSET_KIND:
                    out["_branches"] = kept
            out = {names[f]: branches, **out}
        elif not weights:
            return classes[t.node_class[node]]
        if weights:
            out["_class"] = classes[t.node_class[node]]
            out["_weight"] = float(t.weight[node])
            value = t.value[node] if columns is None else t.value[node][columns]
            out["_value"] = [float(v) for v in value]
        return out

    for node in range(t.node_count - 1, -1, -1):
        built[node] = make(node)
    d = built.pop(0)
    if weights:
        d.update(_classes=[_py(c) for c in clf.classes_], _class_order=classes,
                 _features=names, _precision=clf._fit_value("precision"),
                 _laplace=bool(clf.laplace))
    return d


def _feature_key(node):
    for key in node:
        if not (isinstance(key, str) and key in _META):
            return key
    return None


def _dict_columns(X, names):
    """Per feature (in ``names`` order): a sequence of the rows' values."""
    try:
        import pandas as pd
    except ImportError:                     # pragma: no cover
        pd = None
    if pd is not None and isinstance(X, pd.DataFrame):
        missing = [n for n in names if n not in X.columns]
        if missing:
            raise ValueError(f"X has no column {missing[0]!r}")
        return [X[n].to_numpy(dtype=object) for n in names], len(X)
    if isinstance(X, (list, tuple)) and X and isinstance(X[0], dict):
        return [[row.get(n) for row in X] for n in names], len(X)
    if isinstance(X, np.ma.MaskedArray):      # a masked cell is unknown, as in predict
        X = _unmasked(X)
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2 or arr.shape[1] != len(names):
        raise ValueError(f"X must be a DataFrame, a list of dicts or a 2-D array with "
                         f"{len(names)} columns ({names}), got shape {arr.shape}")
    return [arr[:, j] for j in range(len(names))], arr.shape[0]


def dict_predict_proba(tree_dict, X):
    """Class probabilities from the weighted dict form of :func:`to_dict`.

    Evaluates ``to_dict(clf, weights=True)`` the way ``clf.predict_proba`` does,
    bit for bit (in float32 models every step is rounded to binary32 as in C4.5):
    a known value follows its branch; an unknown (None/NaN) or unseen value goes
    down every branch with weight ``w * _weight(child) / _weight(node)``; a leaf
    with weight adds ``w * _value / _weight`` (Laplace: ``w * (_value + 1) /
    (_weight + k)``), an empty leaf adds ``w`` to its ``_class``.

    Parameters
    ----------
    tree_dict : dict from ``to_dict(clf, weights=True)``
    X : DataFrame, list of dicts (feature name -> value) or 2-D array whose
        columns are in the order of ``tree_dict["_features"]``.

    Returns
    -------
    ndarray of shape (n_samples, n_classes), classes in ``tree_dict["_classes"]``.
    """
    if not isinstance(tree_dict, dict) or "_weight" not in tree_dict \
            or "_classes" not in tree_dict:
        raise ValueError("dict_predict_proba needs the weighted form, to_dict(clf, "
                         "weights=True): the plain {feature: {value: subtree}} form "
                         "cannot express C4.5's fractional descent for unknown and "
                         "unseen values")
    classes = tree_dict["_classes"]
    names = list(tree_dict["_features"])
    f32 = tree_dict["_precision"] == "float32"
    laplace = bool(tree_dict["_laplace"])
    k = len(classes)
    n_tree = len(_class_order(tree_dict))       # laplace's k: the trees' classes
    class_index = {}
    for i, c in enumerate(classes):
        class_index.setdefault(c, i)
    col_of = {n: j for j, n in enumerate(names)}
    columns, m = _dict_columns(X, names)
    r = (lambda x: float(np.float32(x))) if f32 else (lambda x: x)
    out = np.zeros((m, k), dtype=np.float64)

    for i in range(m):
        sums = [0.0] * k
        stack = [(tree_dict, 1.0)]
        while stack:                       # depth first, branches in order
            node, wt = stack.pop()
            feat = _feature_key(node)
            weight = node["_weight"]
            if feat is None:               # a leaf
                if weight > 0 and laplace:
                    for c, v in enumerate(node["_value"]):
                        sums[c] = r(sums[c] + r(r(wt * r(v + 1)) / r(weight + n_tree)))
                elif weight > 0:
                    for c, v in enumerate(node["_value"]):
                        if v != 0:
                            sums[c] = r(sums[c] + r(r(wt * v) / weight))
                else:
                    c = class_index[node["_class"]]
                    sums[c] = r(sums[c] + wt)
                continue
            branches = node[feat]
            x = columns[col_of[feat]][i]
            child = None
            if not _is_missing_scalar(x):
                if "_threshold" in node:
                    x = float(x)
                    if f32:
                        x = float(np.float32(x))
                    keys = list(branches)
                    child = branches[keys[0] if x <= node["_threshold"] else keys[1]]
                else:
                    child = branches.get(_py(x))
            if child is not None:
                stack.append((child, wt))
                continue
            if "_branches" in node:
                subs = [branches[g[0]] for g in node["_branches"]]
            else:
                subs = list(branches.values())
            for sub in reversed(subs):
                stack.append((sub, r(r(wt * sub["_weight"]) / weight)))
        out[i] = sums
    total = out.sum(axis=1, keepdims=True)
    return out / np.where(total > 0, total, 1.0)


def dict_predict(tree_dict, X):
    """Classes from the weighted dict form (``to_dict(clf, weights=True)``): the
    most probable class of :func:`dict_predict_proba`, ties to the first class of
    ``"_class_order"`` (C4.5's order, as ``clf.predict``; else ``"_classes"``)."""
    proba = dict_predict_proba(tree_dict, X)
    classes = tree_dict["_classes"]
    order = _class_order(tree_dict)
    position = {c: j for j, c in enumerate(classes)}
    held = [c for c in order if c in position]      # C4.5's order of the columns
    best = np.argmax(proba[:, [position[c] for c in held]], axis=1)
    return np.asarray([held[j] for j in best], dtype=object)


def _class_order(tree_dict):
    """The dict's "_class_order" (the trees' classes: "_classes" and any class y
    held no case of), checked."""
    classes = tree_dict["_classes"]
    order = tree_dict.get("_class_order", classes)
    try:
        fits = (isinstance(order, list) and len(set(order)) == len(order)
                and set(classes) <= set(order))
    except TypeError:                   # an unhashable entry
        fits = False
    if not fits:
        raise ValueError(f"the dict's _class_order must list its _classes "
                         f"({classes!r:.80}), each once, got {order!r:.80}")
    return order


# ---------------------------------------------------------------------------
# JSON model file

_TREE_INT = {"kind": np.int8, "feature": np.int32, "first_child": np.int32,
             "n_children": np.int32, "node_class": np.int32, "map_offset": np.int64}
_TREE_FLOAT = ("threshold", "weight", "errors")
# Optional: the bounds of soft thresholds (soft_thresholds=True), both or neither.
_TREE_SOFT = ("lower", "upper")


def _encode_value(v, where):
    """A category or class as JSON: str, int, float, bool natively; bytes and
    non-finite floats as tagged objects."""
    v = _py(v)
    if isinstance(v, str):
        check_text([v], where)          # fit refuses such text; a model file is UTF-8
        return v
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": repr(v)}
    if isinstance(v, bytes):
        return {"bytes": base64.b64encode(v).decode("ascii")}
    raise ValueError(f"{where}: a value of type {type(v).__name__} ({v!r}) cannot be "
                     f"stored in a c45 model file (str, int, float, bool and bytes can)")


def _decode_value(v, where):
    if isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, dict) and len(v) == 1:
        if "bytes" in v and isinstance(v["bytes"], str):
            try:
                return base64.b64decode(v["bytes"].encode("ascii"), validate=True)
            except ValueError:
                pass
        if "float" in v and v["float"] in ("inf", "-inf", "nan"):
            return float(v["float"])
    raise _corrupt(f"{where} holds {v!r}, which is not a value of the format")


class _Column:
    """A tree array in to_json's document, written out a chunk at a time by
    _dumps_pieces (never a whole Python list: one tolist and one json.dumps of a
    big tree's array are single C calls, deaf to Ctrl-C, and millions of short
    lived lists and tuples set off the garbage collector's full passes).
    nan_null: NaN is written null."""
    __slots__ = ("array", "nan_null")

    def __init__(self, array, nan_null=False):
        self.array, self.nan_null = array, nan_null

    def items(self, start, stop):
        items = self.array[start:stop].tolist()
        return [None if v != v else v for v in items] if self.nan_null else items

    def text(self, start, stop):
        """The JSON text of items start:stop, without the brackets around them
        (json.dumps's default separators)."""
        if self.array.ndim == 1:
            return _dumps_plain(self.items(start, stop))[1:-1]
        # Rows (value's): written from the numbers' own text, regrouped, not
        # from a list per row (thousands of lists alive at once set off the
        # garbage collector's full passes, 0.1-0.2 s each beside pandas and
        # sklearn's objects).
        block = self.array[start:stop]
        numbers = _dumps_plain(block.ravel().tolist())[1:-1].split(", ")
        k = block.shape[1]
        return "[" + "], [".join(map(", ".join, zip(*[numbers[j::k] for j in range(k)]))) + "]"

    def tolist(self):
        return self.items(0, len(self.array))

    def chunk_rows(self):
        """Rows written a chunk (_rows_a_chunk: at thousands of classes,
        UNIQUE_CHUNK rows of value were the whole array in one json.dumps, 2.1 s
        deaf at 8,000 rows x 2,000 classes)."""
        return _rows_a_chunk(self.array.shape[1] if self.array.ndim == 2 else 1)


def _rows_a_chunk(width):
    """Rows of width numbers a C call handles at once, written, checked or freed:
    UNIQUE_CHUNK numbers (a tree's value rows hold a class weight each)."""
    return max(1, UNIQUE_CHUNK // max(width, 1))


def _encode_tree(t):
    doc = {"n_nodes": t.node_count, "n_classes": t.n_classes}
    for name in ("kind", "feature", "first_child", "n_children", "node_class"):
        doc[name] = _Column(getattr(t, name))
    doc["threshold"] = _Column(t.threshold, nan_null=True)
    doc["weight"] = _Column(t.weight)
    doc["errors"] = _Column(t.errors)
    doc["value"] = _Column(t.value)             # a list per node
    doc["map_offset"] = _Column(t.map_offset)
    doc["value_map"] = _Column(t.value_map)
    if getattr(t, "lower", None) is not None:     # soft thresholds: NaN off the tests
        for name in _TREE_SOFT:
            doc[name] = _Column(getattr(t, name), nan_null=True)
    return doc


def _json_param(v):
    v = _py(v)
    if v is None or isinstance(v, (str, bool, int, float)):
        return v if not isinstance(v, float) or math.isfinite(v) else None
    if isinstance(v, (list, tuple, np.ndarray)):
        items = [_py(x) for x in v]
        if all(isinstance(x, (str, bool, int, float)) for x in items):
            return items
    raise TypeError


def _dumps_canonical(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _canonical(doc):
    """Format 1's checksum was over this canonical form: sorted keys, no spaces."""
    return _dumps_canonical(doc).encode("utf-8")


def _canonical_chunks(v):
    # The canonical form in pieces, so that a model's arrays are never written
    # out whole (json.dumps builds the whole text, a Python string per token).
    return _json_pieces(v, _dumps_canonical, ",", ":", sort_keys=True)


def _dumps_pieces(v):
    """json.dumps(v, ensure_ascii=False, allow_nan=False), the same text (a
    _Column as its list), as pieces: one json.dumps of a model's arrays is a
    single C call, deaf to Ctrl-C for as long as the tree is big (0.77 s for 520k
    nodes); written a chunk of a list at a time (see UNIQUE_CHUNK), signals are
    seen between."""
    return _json_pieces(v, _dumps_plain, ", ", ": ", sort_keys=False)


def _json_pieces(v, dumps, comma, colon, sort_keys):
    """dumps(v) as pieces, objects a member at a time and lists (and _Columns)
    longer than UNIQUE_CHUNK a chunk at a time; comma and colon: dumps'
    separators."""
    if isinstance(v, _Column):          # in to_json's documents: its separators
        yield "["
        step = v.chunk_rows()
        for start in range(0, len(v.array), step):
            yield (comma if start else "") + v.text(start, start + step)
        yield "]"
    elif isinstance(v, dict):
        yield "{"
        for i, key in enumerate(sorted(v) if sort_keys else v):
            yield (comma if i else "") + dumps(key) + colon
            yield from _json_pieces(v[key], dumps, comma, colon, sort_keys)
        yield "}"
    elif isinstance(v, list) and len(v) > UNIQUE_CHUNK:
        yield "["
        for start in range(0, len(v), UNIQUE_CHUNK):
            yield (comma if start else "") + dumps(v[start:start + UNIQUE_CHUNK])[1:-1]
        yield "]"
    else:
        yield dumps(v)


def _dumps_plain(v):
    return json.dumps(v, ensure_ascii=False, allow_nan=False)


_HASH_BATCH = 4 << 20     # bytes (characters) hashed at a time
_HASH_HOLD = 8 << 20      # characters: a text of fewer hashed keeping the GIL ...
_HASH_PIECE = 2047        # ... this many at a time (hashlib keeps it below 2048)


def _digest(doc):
    """Format 1's checksum of doc: SHA-256 of _canonical(doc), taken piece by
    piece (a file of format 1 is checked by writing its document out again)."""
    # Pieces gathered up to a few MB: hashlib releases the GIL on every update of
    # 2 kB or more, and beside a busy thread each release costs a switch interval
    # (an update per piece released it ~190 times for a 20k-node model).
    h = hashlib.sha256()
    batch, size = [], 0
    for chunk in _canonical_chunks(doc):
        batch.append(chunk)
        size += len(chunk)
        if size >= _HASH_BATCH:
            h.update("".join(batch).encode("utf-8"))
            batch, size = [], 0
    h.update("".join(batch).encode("utf-8"))
    return "sha256:" + h.hexdigest()


# Format 2's checksum is over the file's own bytes (docs/model-format.md): the
# file ends with the member "checksum": "sha256:<hex>", and the digest is of
# every byte before the comma that precedes it. Checking it reads the text once;
# nothing is written out again.
_JSON_SPACE = " \t\n\r"
_SPACE_RUN = 1 << 16        # whitespace stripped at a time, looking backwards
_DIGEST = re.compile(r'"(sha256:[0-9a-f]{64})"')
_DIGEST_LEN = 73            # the quoted value: 1 + 7 + 64 + 1 characters


def _before_space(text, end):
    """The index after the last non-whitespace character of text[:end]."""
    while end > 0:
        start = max(0, end - _SPACE_RUN)
        kept = len(text[start:end].rstrip(_JSON_SPACE))
        if kept:
            return start + kept
        end = start
    return 0


def _checksum_member(text):
    """(comma, value) of the checksum member that ends text (a str): comma is the
    index of the comma before it, value the index of its digest's first
    character ("sha256:..."); None when text does not end with one."""
    end = _before_space(text, len(text))
    if text[end - 1:end] != "}":
        return None
    end = _before_space(text, end - 1)
    start = end - _DIGEST_LEN
    if start < 0 or not _DIGEST.fullmatch(text, start, end):
        return None
    value = start + 1
    for token in (":", '"checksum"', ","):
        end = _before_space(text, start)
        start = end - len(token)
        if start < 0 or text[start:end] != token:
            return None
    return start, value


def _sha256_of_text(text, end):
    """sha256: + the hex digest of the UTF-8 bytes of text[:end], encoded a few MB
    at a time (never a second copy of a whole file)."""
    h = hashlib.sha256()
    for start in range(0, end, _HASH_BATCH):
        data = text[start:min(start + _HASH_BATCH, end)].encode("utf-8")
        if end >= _HASH_HOLD:       # (a few ms a batch: one release each)
            h.update(data)
            continue
        # hashlib gives the GIL up for an update of 2048 bytes or more: a
        # model's bytes in smaller pieces hash in about the switch interval
        # each release costs beside a busy Python thread (a 5 MB text in two
        # batches gave it up twice)
        view = memoryview(data)
        for at in range(0, len(data), _HASH_PIECE):
            h.update(view[at:at + _HASH_PIECE])
    return "sha256:" + h.hexdigest()


def _sealed(text):
    """text (json.dumps of a document whose last member is a checksum of 64
    zeros) with its checksum: the SHA-256 of the bytes before that member."""
    comma, value = _checksum_member(text)
    try:
        digest = _sha256_of_text(text, comma)
    except UnicodeEncodeError as exc:   # a lone surrogate, e.g. in a feature name
        raise ValueError(f"the model holds text that is not valid Unicode "
                         f"({exc.reason}): a c45 model file is UTF-8") from None
    head, tail = text[:value], text[value + len(digest):]
    del text            # the caller's string is not kept: the head grows in place
    head += digest + tail
    return head


_UNSEALED = "sha256:" + "0" * 64


def to_json(clf, indent=None):
    """The fitted model as text in c45's versioned JSON model format.

    The format (docs/model-format.md) holds what prediction needs and nothing
    executable: the parameters, the feature names, kinds and categories, the
    classes with their dtype, and both trees (``tree_`` and ``grown_tree_``) as
    flat arrays. Floats are written as JSON numbers in Python's shortest
    round-trip form, so :func:`from_json` restores them bit for bit and the
    loaded model gives the same predictions and probabilities. A SHA-256
    checksum of the text before it, the last field, lets the loader refuse a
    damaged or edited file.

    Parameters
    ----------
    clf : fitted C45Classifier
    indent : int or None, default=None
        Passed to ``json.dumps`` (None: one line).

    Returns
    -------
    str
    """
    _check_classifier(clf)
    import c45
    schema = clf._schema
    features = []
    for j in range(schema.n_features):
        if schema.discrete[j]:
            features.append({"kind": "discrete", "categories": [
                _encode_value(v, f"feature {j} category") for v in schema.categories[j]]})
        else:
            features.append({"kind": "continuous"})
    # The trees' class order (declared_classes_), as classes_ was before it was
    # sorted, and the classes y held (classes_) in "present".
    classes = np.asarray(clf.declared_classes_)
    present = np.asarray(clf.classes_)
    for a in (classes, present):
        if a.dtype.kind not in STORABLE_CLASS_KINDS:
            raise ValueError(f"classes of dtype {a.dtype} cannot be stored in a c45 "
                             f"model file")
    params, dropped = {}, []
    for name, value in clf._fitted_params().items():      # (as its trees were made)
        try:
            params[name] = _json_param(value)
        except TypeError:
            params[name] = None
            dropped.append(name)
    doc = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "c45_version": c45.__version__,
        "estimator": type(clf).__name__,
        "precision": clf._fit_value("precision"),
        "laplace": bool(clf.laplace),
        "params": params,
        "params_not_stored": dropped,
        "n_features": int(schema.n_features),
        "feature_names": None if schema.names is None else [str(n) for n in schema.names],
        "features": features,
        "classes": {"dtype": classes.dtype.str,
                    "values": [_encode_value(v, "class") for v in classes],
                    "present": {"dtype": present.dtype.str,
                                "values": [_encode_value(v, "class") for v in present]}},
        "trees": {"final": _encode_tree(clf.tree_), "grown": _encode_tree(clf.grown_tree_)},
    }
    doc["checksum"] = _UNSEALED         # last: the checksum seals what comes before
    if indent is None:
        text = "".join(_dumps_pieces(doc))
    else:       # json.dumps writes an indented text in Python, token by token
        text = json.dumps(doc, indent=indent, ensure_ascii=False, allow_nan=False,
                          default=_Column.tolist)
    del doc
    return _sealed(text)


def _corrupt(msg):
    return ValueError(f"c45 model file is corrupted: {msg}")


def _unique_keys(pairs):
    """json's object_pairs_hook: a key given twice is refused (a reader that keeps
    the first and one that keeps the last would see two models, under one
    checksum)."""
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _corrupt(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return doc


# The fields of each object of the format; any other is refused, naming it.
_TOP_FIELDS = frozenset((
    "format", "format_version", "c45_version", "estimator", "precision", "laplace",
    "params", "params_not_stored", "n_features", "feature_names", "features",
    "classes", "trees", "checksum"))
_TREE_FIELDS = frozenset(("n_nodes", "n_classes", "value", "value_map")
                         + tuple(_TREE_INT) + _TREE_FLOAT + _TREE_SOFT)
_TREE_PLACES = {"tree_": "trees.final", "grown_tree_": "trees.grown"}
_FIELDS = {"features[]": frozenset(("kind", "categories")),
           "classes": frozenset(("dtype", "values", "present")),
           "classes.present": frozenset(("dtype", "values")),
           "trees": frozenset(("final", "grown"))}


def _only_fields(doc, allowed, where):
    if isinstance(doc, dict) and not doc.keys() <= allowed:
        extra = sorted(set(doc) - allowed)
        raise _corrupt(f"{where} has fields the format does not define: "
                       f"{', '.join(map(repr, extra[:5]))}")


def _check_fields(doc):
    """Refuse fields the format does not define, at every level (before format
    1's checksum walks the document: a junk field costs nothing more)."""
    _only_fields(doc, _TOP_FIELDS, "the file")
    for j, feat in enumerate(doc.get("features") or ()):
        _only_fields(feat, _FIELDS["features[]"], f"features[{j}]")
    _only_fields(doc.get("classes"), _FIELDS["classes"], "classes")
    if isinstance(doc.get("classes"), dict):
        _only_fields(doc["classes"].get("present"), _FIELDS["classes.present"],
                     "classes.present")
    trees = doc.get("trees")
    _only_fields(trees, _FIELDS["trees"], "trees")
    for key in ("final", "grown"):
        if isinstance(trees, dict):
            _only_fields(trees.get(key), _TREE_FIELDS, f"trees.{key}")


def _text_digest(text):
    """Format 2's checksum of text (a str): the digest of the bytes before the
    checksum member that ends it, or None when it does not end with one. Taken
    before the text is parsed, while the text alone is in memory."""
    member = _checksum_member(text)
    if member is None:
        return None
    try:
        return _sha256_of_text(text, member[0])
    except UnicodeEncodeError as exc:       # a lone surrogate in a str
        raise ValueError(f"c45 model file is not UTF-8 text: {exc}") from None


def _check_checksum(doc, version, text_digest):
    """Refuse a file whose checksum is missing or does not match its content.
    text_digest: _text_digest of the file's text."""
    checksum = _need(doc, "checksum", str)
    if version >= 2:
        # Over the file's own bytes before the checksum member, which must end
        # the file (an edit anywhere before it, spaces or key order too, shows).
        if text_digest is None or list(doc)[-1] != "checksum":
            raise _corrupt('the file does not end with its checksum, written as '
                           '"checksum": "sha256:<64 lowercase hex digits>"')
        digest = text_digest
    else:
        # Format 1: over the document written out canonically.
        body = {key: v for key, v in doc.items() if key != "checksum"}
        try:
            digest = _digest(body)
        except ValueError as exc:          # a number JSON cannot hold (1e999 -> inf)
            raise _corrupt(str(exc)) from None
        except RecursionError:
            raise ValueError("c45 model file is not a c45 model: JSON nested too "
                             "deeply to read") from None
    if digest != checksum:
        raise _corrupt("checksum mismatch (the content was changed after it was "
                       "written)")


def _check_plain_json(doc):
    """Refuse, outside the trees (whose arrays their readers check), what a
    writer of the format never writes: NaN, Infinity or a number beyond float64
    (non-finite categories and classes are tagged), or text that is not Unicode
    (a lone surrogate escaped as \\udXXX)."""
    rest = {key: v for key, v in doc.items() if key != "trees"}
    try:
        json.dumps(rest, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _corrupt(f"text that is not valid Unicode ({exc.reason})") from None
    except ValueError:
        raise _corrupt("a number JSON cannot hold (NaN, Infinity or beyond float64) "
                       "outside the trees") from None
    except RecursionError:
        raise ValueError("c45 model file is not a c45 model: JSON nested too deeply "
                         "to read") from None


def _need(doc, key, types, where="the file"):
    """doc[key], checked to be one of types (a bool is not an int here)."""
    types = types if isinstance(types, tuple) else (types,)
    if not isinstance(doc, dict) or key not in doc:
        raise _corrupt(f"{where} has no {key!r} field")
    v = doc[key]
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
        raise _corrupt(f"{where} field {key!r} has the wrong type ({type(v).__name__})")
    return v


def _int_array(values, dtype, where):
    # Checked a whole list at a time (type() over a list runs in C): a model file
    # holds millions of numbers.
    if not isinstance(values, list) or not set(map(type, values)) <= {int}:
        raise _corrupt(f"{where} must be a list of integers")
    info = np.iinfo(dtype)
    if values and not info.min <= min(values) <= max(values) <= info.max:
        raise _corrupt(f"{where} holds an integer out of range")
    return np.asarray(values, dtype=dtype).reshape(len(values))


def _finite(v):
    """v (an int or float) is a finite float64 (JSON integers are unbounded)."""
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


def _float_array(values, where, nullable=False):
    if not isinstance(values, list):
        raise _corrupt(f"{where} must be a list of numbers")
    types = set(map(type, values))
    out = None
    if types <= {int, float, type(None)} and (nullable or type(None) not in types):
        try:
            out = np.array(values, dtype=np.float64).reshape(len(values))  # None: NaN
        except OverflowError:                   # an integer beyond float64
            pass
    if out is not None:
        # count_nonfinite: one C loop (numpy's isfinite and any release the GIL).
        bad = count_nonfinite(out)
        if not bad or (type(None) in types and bad == values.count(None)):
            return out
    for i, v in enumerate(values):              # name the first bad entry
        if not ((v is None and nullable) or (type(v) in (int, float) and _finite(v))):
            raise _corrupt(f"{where}[{i}] is {v!r:.40}, not a finite number")
    raise _corrupt(f"{where} must be a list of numbers")      # pragma: no cover


def _float_matrix(rows, width, where):
    """rows (lists of width numbers) as a float64 array, checked as _float_array
    checks a list, without a flat copy of the rows; UNIQUE_CHUNK numbers a C call
    (one call over all the cells, at thousands of classes, was deaf to Ctrl-C:
    0.44 s at 8,000 rows x 2,000 classes)."""
    out = np.empty((len(rows), width), dtype=np.float64)
    flat = out.reshape(-1)
    step = _rows_a_chunk(width)
    ok = True
    for start in range(0, len(rows), step):
        part = rows[start:start + step]
        if not set(map(type, itertools.chain.from_iterable(part))) <= {int, float}:
            ok = False
            break
        try:
            # (_bulk.put keeps the GIL: numpy's copy of a chunk gives it up)
            put(flat, start * width, np.fromiter(itertools.chain.from_iterable(part),
                                                 dtype=np.float64, count=len(part) * width))
        except OverflowError:                   # an integer beyond float64
            ok = False
            break
    if not ok or count_nonfinite(out.reshape(-1)):
        _float_array(list(itertools.chain.from_iterable(rows)), where)  # names it
        raise _corrupt(f"{where} must be lists of numbers")     # pragma: no cover
    return out


def _decode_tree(doc, where, schema, n_classes):
    """The tree of doc (a tree object of the file) as a Tree. Each list of doc is
    dropped once it is an array: the loaded document shrinks as the arrays grow."""
    n = _need(doc, "n_nodes", int, where)
    if n < 1:
        raise _corrupt(f"{where} has no nodes")
    if _need(doc, "n_classes", int, where) != n_classes:
        raise _corrupt(f"{where}.n_classes does not match the classes")
    arrays = {}
    for name, dtype in _TREE_INT.items():
        arrays[name] = _int_array(_need(doc, name, list, where), dtype, f"{where}.{name}")
        del doc[name]
    for name in _TREE_FLOAT:
        arrays[name] = _float_array(_need(doc, name, list, where), f"{where}.{name}",
                                    nullable=name == "threshold")
        del doc[name]
    for name in _TREE_SOFT:
        if name in doc:
            arrays[name] = _float_array(_need(doc, name, list, where), f"{where}.{name}",
                                        nullable=True)
            del doc[name]
    for name, arr in arrays.items():
        if len(arr) != n:
            raise _corrupt(f"{where}.{name} has {len(arr)} entries for {n} nodes")
    rows = _need(doc, "value", list, where)
    if len(rows) != n or not set(map(type, rows)) <= {list} \
            or not set(map(len, rows)) <= {n_classes}:
        raise _corrupt(f"{where}.value must be {n} lists of {n_classes} numbers")
    value = _float_matrix(rows, n_classes, f"{where}.value")
    del doc["value"]
    step = _rows_a_chunk(n_classes)
    while rows:         # freed a chunk at a time: one free of millions of floats is deaf
        del rows[-step:]
    value_map = _int_array(_need(doc, "value_map", list, where), np.int32,
                           f"{where}.value_map")
    del doc["value_map"]

    try:        # the structure and ranges: Tree's own checks, as for every tree
        return Tree._of_own_arrays(value=value, value_map=value_map,
                                   n_values=schema.n_values, **arrays)
    except ValueError as exc:
        raise _corrupt(f"{where} {str(exc).removeprefix('c45: invalid tree: ')}") from None


def _decode_classes(cls, where, file_size):
    """The class array of a classes object ({"dtype", "values"}) of the file."""
    raw_values = _need(cls, "values", list, where)
    dtype = _class_dtype(_need(cls, "dtype", str, where), raw_values, file_size)
    values = [_decode_value(v, where) for v in raw_values]
    if not values:
        raise _corrupt(f"no {where}")
    try:
        check_labels(values, where)
    except ValueError as exc:
        raise _corrupt(str(exc)) from None
    if dtype.kind == "O":
        classes = np.empty(len(values), dtype=object)
        classes[:] = values
    else:
        try:
            with np.errstate(over="ignore"):     # refused below: the value changed
                classes = np.asarray(values, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            raise _corrupt(f"{where} do not fit dtype {dtype}") from None
        if classes.tolist() != values:          # e.g. 1.5 as int, 1e10 as float16
            raise _corrupt(f"{where} {values[:5]} change value in dtype {dtype}")
    return classes


def _present_classes(cls, declared, trees, file_size):
    """classes.present of a file of format 3 (classes_): declared classes, sorted,
    and those of the others without training weight in the trees."""
    if not isinstance(cls.get("present"), dict):
        raise _corrupt("classes.present is missing or not an object (format 3 has it)")
    present = _decode_classes(cls["present"], "classes.present", file_size)
    try:
        class_columns(present, declared)
        ordered, _ = sorted_classes(present, "classes.present")
        if ordered.tolist() != present.tolist():
            raise ValueError(f"they are not sorted: {present.tolist()[:5]}")
        for tree, where in zip(trees, ("trees.final", "trees.grown")):
            check_held_classes(tree, present, declared, where)
    except ValueError as exc:
        raise _corrupt(f"classes.present contradicts classes or the trees: {exc}") from None
    return present


def _class_dtype(text, values, file_size):
    """The classes' dtype, refused when its item size is more than the file's own
    size could justify (a "|S2147483647" would allocate 2 GiB per class)."""
    try:
        dtype = np.dtype(text)
    except (TypeError, ValueError):
        raise _corrupt(f"classes dtype {text!r}") from None
    if dtype.kind not in STORABLE_CLASS_KINDS or dtype.fields is not None or dtype.shape:
        raise _corrupt(f"classes dtype {dtype}")
    # A string dtype is as wide as the longest class; each class's text is in the
    # file, at most 4 bytes of UTF-32 per character of the file.
    if dtype.itemsize * max(len(values), 1) > 4 * file_size + 64:
        raise _corrupt(f"classes dtype {dtype} is wider ({dtype.itemsize} bytes a class) "
                       f"than the file's {file_size} characters can justify")
    return dtype


_JSON_WS = re.compile(r"[ \t\n\r]*")
# Where a run of an array's elements read by one json.loads stops: a string or
# object (read element by element), the array's end, or for rows (arrays) two
# closing brackets in a row (the end of the array of rows).
_RUN_END = re.compile(r'[{}"\]]')
_ROWS_END = re.compile(r'[{}"]|\][ \t\n\r]*\]')


class _Reader:
    """json.loads(text, object_pairs_hook=_unique_keys) of a model file, read in
    pieces: one json.loads of a file is a single C call, deaf to Ctrl-C (0.36 s
    for a 14 MB model). Objects are read key by key, arrays of numbers (or of
    rows of numbers) a run of about UNIQUE_CHUNK characters at a time by
    json.loads of the run, other elements one by one by json's own scanner.
    Anything it does not read as json.loads would raises ValueError, and the
    caller reads the text with json.loads itself: its answer, or its error, is
    the one given."""

    def __init__(self, text):
        self.text = text
        self.scan = json.JSONDecoder(object_pairs_hook=_unique_keys).scan_once

    def skip(self, i):
        return _JSON_WS.match(self.text, i).end()

    def document(self):
        i = self.skip(0)
        doc, i = self.value(i)
        if self.skip(i) != len(self.text):
            raise ValueError("extra data")
        return doc

    def value(self, i):
        c = self.text[i:i + 1]
        if c == "{":
            return self.object(i)
        if c == "[":
            return self.array(i)
        try:
            return self.scan(self.text, i)
        except StopIteration:
            raise ValueError("no value") from None

    def object(self, i):
        text, pairs = self.text, []
        i = self.skip(i + 1)
        if text[i:i + 1] == "}":
            return _unique_keys(pairs), i + 1
        while True:
            if text[i:i + 1] != '"':
                raise ValueError("no key")
            key, i = json.decoder.scanstring(text, i + 1, True)
            i = self.skip(i)
            if text[i:i + 1] != ":":
                raise ValueError("no colon")
            item, i = self.value(self.skip(i + 1))
            pairs.append((key, item))
            i = self.skip(i)
            if text[i:i + 1] == "}":
                return _unique_keys(pairs), i + 1
            if text[i:i + 1] != ",":
                raise ValueError("no comma")
            i = self.skip(i + 1)

    def array(self, i):
        text, out = self.text, []
        i = self.skip(i + 1)
        if text[i:i + 1] == "]":
            return out, i + 1
        fast = True
        while True:
            if fast:
                i, fast = self.run(out, i)
            item, i = self.value(i)
            out.append(item)
            i = self.skip(i)
            if text[i:i + 1] == "]":
                return out, i + 1
            if text[i:i + 1] != ",":
                raise ValueError("no comma")
            i = self.skip(i + 1)

    def run(self, out, i):
        """Read whole elements from i (an element's start) by json.loads while
        they are numbers or rows of numbers: (where the next element starts,
        whether to try again at the array's next element). A run json.loads
        refuses leaves the rest of the array to be read element by element (it
        would be tried, and refused, again at every element)."""
        text = self.text
        while True:
            rows = text[i:i + 1] == "["
            limit = min(i + UNIQUE_CHUNK, len(text))
            stop = (_ROWS_END if rows else _RUN_END).search(text, i, limit)
            stop = limit if stop is None else stop.start()
            # The run ends before the last separating comma before stop: the
            # one after a row's closing bracket, or any between numbers.
            if rows:
                end = text.rfind("]", i, stop) + 1
                comma = self.skip(end) if end else i
                if text[comma:comma + 1] != ",":
                    return i, True
            else:
                end = comma = text.rfind(",", i, stop)
            if end <= i:
                return i, True
            try:
                items = json.loads("[" + text[i:end] + "]")
            except ValueError:          # not whole elements: one by one
                return i, False
            out += items
            i = self.skip(comma + 1)


def _loads(text):
    """json.loads(text, object_pairs_hook=_unique_keys), in pieces (_Reader)."""
    try:
        return _Reader(text).document()
    except (ValueError, RecursionError):
        pass                    # json.loads's own answer or error, below
    return json.loads(text, object_pairs_hook=_unique_keys)


def from_json(text):
    """Load a model written by :func:`to_json`: a fitted C45Classifier.

    Reads JSON only (no pickle, nothing executed). Refuses, with a ValueError
    naming the problem, text that is not JSON (a truncated file), a file of
    another format, a format version newer than this c45 reads, a checksum
    mismatch (a changed byte, or any edit of the text before the checksum) and
    arrays that do not form a valid tree.

    The model predicts exactly as the one saved. It does not hold the training
    data, so ``prune()`` needs a new ``fit``.
    """
    # The garbage collector is paused until the document is freed (at return):
    # its lists (a row per node) walked by each collection made a 17 MB file's
    # load deaf to Ctrl-C for 0.12-0.15 s of CPU (0.025-0.037 s paused).
    with paused():
        return _from_json(text)


def _from_json(text):
    """from_json, the collector paused."""
    from c45._classifier import C45Classifier
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"c45 model file is not UTF-8 text: {exc}") from None
    if not isinstance(text, str):
        raise TypeError(f"from_json expects str or bytes, got {type(text).__name__}")
    text_digest = _text_digest(text)
    try:
        doc = _loads(text)
    except ValueError as exc:
        if str(exc).startswith("c45 model file is corrupted"):
            raise        # JSONDecodeError, or an integer too long to read
        raise ValueError(f"c45 model file is not valid JSON (truncated or corrupted?): "
                         f"{exc}") from None
    except RecursionError:
        raise ValueError("c45 model file is not a c45 model: JSON nested too deeply "
                         "to read") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise ValueError(f"not a c45 model file: no \"format\": \"{FORMAT_NAME}\" field")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _corrupt(f"format_version is {version!r}, not a positive integer")
    if version > FORMAT_VERSION:
        raise ValueError(f"c45 model file has format version {version}, newer than this "
                         f"c45 reads (up to {FORMAT_VERSION}); upgrade c45 to load it "
                         f"(written by c45 {doc.get('c45_version')})")
    _check_fields(doc)
    _check_plain_json(doc)
    _check_checksum(doc, version, text_digest)
    if not isinstance(doc.get("c45_version", ""), str):     # informative, but text
        raise _corrupt(f"c45_version is {doc['c45_version']!r:.40}, not a string")
    if doc.get("estimator") != "C45Classifier":
        raise ValueError(f"c45 model file holds a {doc.get('estimator')!r}, not a "
                         f"C45Classifier (its estimator field)")

    precision = _need(doc, "precision", str)
    if precision not in ("float64", "float32"):
        raise _corrupt(f"precision {precision!r}")
    laplace = _need(doc, "laplace", bool)
    n_features = _need(doc, "n_features", int)
    features = _need(doc, "features", list)
    if n_features < 1 or len(features) != n_features:
        raise _corrupt(f"{len(features)} feature entries for n_features={n_features}")
    names = doc.get("feature_names")
    if names is not None:
        if not isinstance(names, list) or len(names) != n_features or not all(
                isinstance(s, str) for s in names):
            raise _corrupt("feature_names must be null or one string per feature")
        names = np.asarray(names, dtype=object)
    discrete = np.zeros(n_features, dtype=bool)
    categories = []
    for j, feat in enumerate(features):
        kind = _need(feat, "kind", str, f"features[{j}]")
        if kind == "continuous":
            categories.append(None)
        elif kind == "discrete":
            raw = _need(feat, "categories", list, f"features[{j}]")
            cats = [_decode_value(v, f"features[{j}].categories") for v in raw]
            discrete[j] = True
            categories.append(cats)
        else:
            raise _corrupt(f"features[{j}] has unknown kind {kind!r}")
    schema = Schema(names, discrete, categories)
    try:
        schema.check()
    except ValueError as exc:
        raise _corrupt(str(exc)) from None

    cls = _need(doc, "classes", dict)
    classes = _decode_classes(cls, "classes", len(text))
    trees = _need(doc, "trees", dict)
    final = _decode_tree(_need(trees, "final", dict, "trees"), "trees.final", schema,
                         len(classes))
    grown = _decode_tree(_need(trees, "grown", dict, "trees"), "trees.grown", schema,
                         len(classes))

    clf = C45Classifier()
    known = clf.get_params(deep=False)
    params = doc.get("params") or {}
    if not isinstance(params, dict):
        raise _corrupt("params must be an object")
    unknown = sorted(set(params) - set(known))
    if unknown:
        warnings.warn(f"c45 model file sets parameters this c45 does not know, ignored: "
                      f"{unknown}", UserWarning, stacklevel=3)   # the caller of from_json
    dropped = doc.get("params_not_stored") or []
    if not isinstance(dropped, list) or not all(isinstance(k, str) for k in dropped):
        raise _corrupt("params_not_stored must be a list of parameter names")
    dropped = set(dropped)
    # A parameter not stored is written null and loads as its default: a value
    # there would be dropped unchecked and unsaid.
    held = sorted(k for k in dropped if params.get(k) is not None)
    if held:
        raise _corrupt(f"params.{held[0]} is {params[held[0]]!r:.80}, but "
                       f"params_not_stored lists it (a parameter not stored is null)")
    given = {k: v for k, v in params.items() if k in known and k not in dropped}
    # The file says precision and laplace twice (the trees' own fields and the
    # parameters): one edited without the other is refused, not half obeyed.
    # The parameter's own value is kept for its check (0 for False is refused).
    for name, value in (("precision", precision), ("laplace", laplace)):
        if name in given and given[name] != value:
            raise _corrupt(f"{name} is {value!r} but params.{name} is {given[name]!r}")
    clf.set_params(**dict(dict(precision=precision, laplace=laplace), **given))
    clf._schema = schema
    try:                        # refused now, not at the first predict or refit
        clf._check_loaded_params()
    except (TypeError, ValueError) as exc:
        raise _corrupt(f"params: {exc}") from None
    # n_jobs (checked all the same) is the loading machine's business, never the
    # file's (a file's 100000 would start 100000 threads in predict).
    clf.n_jobs = None
    if version < 3 and "present" not in cls:
        clf.classes_ = classes      # the trees' order: declared_classes_ (below)
    else:       # (a file of version 1 or 2 holding present: read with it, checked)
        clf.classes_ = _present_classes(cls, classes, (final, grown), len(text))
        clf.declared_classes_ = classes
    clf.n_features_in_ = n_features
    if names is not None:
        clf.feature_names_in_ = names
    clf.categories_ = [None if c is None else list(c) for c in categories]
    clf.tree_ = final
    clf.grown_tree_ = grown
    try:
        # What predict and the exports rely on, checked as for a pickle's trees.
        vars(clf).update(checked_fitted_state(vars(clf), _TREE_PLACES))
    except ValueError as exc:
        raise _corrupt(str(exc)) from None
    clf._train = clf._train_check = None
    # The file keeps windowing's parameter, not its trials_: what prune() needs
    # to refuse the loaded model as it refuses the fitted one.
    clf._windowed = clf.trials is not None
    return clf
