"""Turning user data into the arrays the Cython core reads, and back.

X becomes a feature-major float64 matrix of the continuous features (NaN =
unknown) and a feature-major int32 matrix of discrete codes (1..V in category
order, 0 = unknown). y becomes class codes 0..k-1. The `Schema` remembers, per
feature, whether it is discrete and its categories, so that prediction encodes
new data the same way (a category never seen in training gets code 0: unknown).
"""
import decimal
import numbers
import sys
import warnings
from collections import namedtuple

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import column_or_1d

from c45._bulk import (BEYOND_FLOAT32, INFINITE, add_distinct, code_values,
                       distinct_sorted, fill_continuous, integer_label_codes,
                       weight_and_unknown_facts)
from c45 import _bulk
from c45._ranks import order_columns, order_sources, rank_column, rank_columns, rank_sources
from c45._fresh import fresh_empty, fresh_pages_for, numpy_pages
from c45._sorting import sorted_in_chunks
from c45._tree import any_inf

try:  # pandas is optional
    import pandas as pd
except ImportError:  # pragma: no cover - exercised only without pandas
    pd = None


def _is_dataframe(X):
    return pd is not None and isinstance(X, pd.DataFrame)


def _is_missing_scalar(v):
    if v is None:
        return True
    if isinstance(v, float) and v != v:
        return True
    if pd is not None and v is pd.NA:
        return True
    if isinstance(v, np.floating) and np.isnan(v):
        return True
    if isinstance(v, decimal.Decimal) and v.is_nan():     # sNaN too: float() refuses it
        return True
    return False


def _frame_names(X):
    """Feature names of a DataFrame as scikit-learn sets them: all-string column
    names are kept, non-string names (integers, as in ``pd.DataFrame(array)``)
    give no names, and a mix of both is refused."""
    cols = list(X.columns)
    kinds = {type(c).__name__ for c in cols}
    strings = [isinstance(c, str) for c in cols]
    if all(strings) and cols:
        names = np.asarray(cols, dtype=object)
        if len(set(cols)) != len(cols):
            raise ValueError("X has duplicate column names; c45 needs them unique")
        return names
    if any(strings):
        raise TypeError(
            f"Feature names are only supported if all input features have string "
            f"names, but your input has {sorted(kinds)} as feature name / column name "
            f"types. If you want feature names to be stored and validated, you must "
            f"convert them all to strings, by using X.columns = X.columns.astype(str) "
            f"for example. Otherwise you can remove feature / column names from your "
            f"input data, or convert them all to a non-string data type.")
    return None


def _date_kind(col):
    """'datetime', 'timedelta' or 'period' if the column holds such values, else None."""
    if pd is not None and isinstance(col, pd.Series):
        dt = col.dtype
        if isinstance(dt, pd.CategoricalDtype):
            return None                     # declared categories: discrete values
        if pd.api.types.is_datetime64_any_dtype(dt):
            return "datetime"
        if pd.api.types.is_timedelta64_dtype(dt):
            return "timedelta"
        if isinstance(dt, pd.PeriodDtype):
            return "period"
        if dt != object:
            return None
        values = col.to_numpy(dtype=object)
    else:
        values = np.asarray(col)
        if values.dtype.kind == "M":
            return "datetime"
        if values.dtype.kind == "m":
            return "timedelta"
        if values.dtype.kind != "O":
            return None
    if pd is not None:
        kind = _inferred_kind(values)
        return {"datetime": "datetime", "datetime64": "datetime", "date": "datetime",
                "time": "datetime", "timedelta": "timedelta", "timedelta64": "timedelta",
                "period": "period"}.get(kind)
    import datetime
    for v in values:
        if isinstance(v, (datetime.date, datetime.time, np.datetime64)):
            return "datetime"
        if isinstance(v, (datetime.timedelta, np.timedelta64)):
            return "timedelta"
    return None


def _refuse_dates(col, label, name):
    """Dates and durations are refused: their tick counts depend on the unit
    (datetime64[s] and [ns] of one date differ by 10^9), so reading them as
    numbers would give a tree that misreads the same dates in another unit."""
    kind = _date_kind(col)
    if kind is None:
        return
    dtype = getattr(col, "dtype", None)
    ref = f"X[{name!r}]" if name is not None else "the column"
    if kind == "timedelta":
        how = f"{ref} / pd.Timedelta(hours=1) (hours)"
    elif kind == "period":
        how = f"{ref}.dt.to_timestamp(), then as for dates"
    else:
        tz = getattr(dtype, "tz", None)
        tz_text = f", tz={str(tz)!r}" if tz is not None else ""
        how = (f"({ref} - pd.Timestamp('1970-01-01'{tz_text})) / pd.Timedelta(days=1) "
               f"(days since 1970), or its parts ({ref}.dt.year, .dt.month, "
               f".dt.dayofweek)")
    raise TypeError(
        f"X {label} holds {kind} values ({dtype}); c45 does not read them as "
        f"numbers (their tick counts depend on the unit). Convert the column to "
        f"numbers first, e.g. {how}, or to strings / a Categorical to treat each "
        f"value as a category")


def _columns(X):
    """(list of 1-D column arrays or Series, feature names or None)."""
    if _is_dataframe(X):
        names = _frame_names(X)
        columns = [X.iloc[:, j] for j in range(X.shape[1])]
    else:
        names = None
        columns = _array_columns(X)
    for j, col in enumerate(columns):
        _refuse_dates(col, _feature_label(j, names),
                      names[j] if names is not None else None)
    return columns, names


def list_array(values, dtype=None):
    """np.asarray(values, dtype), a list's or tuple's rows converted a chunk at
    a time (one np.asarray of a million-row list is deaf to Ctrl-C for most of a
    second: chunks, see UNIQUE_CHUNK). When every chunk gives one dtype and row
    shape, the whole list gives them too; chunks that differ (ints beside
    floats, rows of two lengths) take numpy's own rule over the whole list."""
    if not isinstance(values, (list, tuple)) or len(values) <= UNIQUE_CHUNK:
        return np.asarray(values, dtype=dtype)
    first = np.asarray(values[:UNIQUE_CHUNK], dtype=dtype)
    out = np.empty((len(values),) + first.shape[1:], dtype=first.dtype)
    out[:UNIQUE_CHUNK] = first
    for i in range(UNIQUE_CHUNK, len(values), UNIQUE_CHUNK):
        part = np.asarray(values[i:i + UNIQUE_CHUNK], dtype=dtype)
        if part.dtype != first.dtype or part.shape[1:] != first.shape[1:]:
            del out
            return np.asarray(values, dtype=dtype)
        out[i:i + len(part)] = part
    return out


def _array_columns(X):
    if pd is not None and isinstance(X, pd.Series):
        raise ValueError("X must be 2-dimensional (a DataFrame or a 2-D array), "
                         "got a pandas Series; use X.to_frame()")
    if _is_sparse(X):
        raise TypeError("c45 does not accept sparse matrices; pass a dense array")
    if isinstance(X, np.ma.MaskedArray):
        X = _unmasked(X)
    try:
        arr = list_array(X)
    except ValueError:          # numpy's "inhomogeneous shape": ragged rows
        raise ValueError("X rows have different lengths") from None
    if arr.dtype.kind == "O" and arr.ndim == 1 and len(arr) and isinstance(
            arr[0], (list, tuple, np.ndarray)):
        raise ValueError("X rows have different lengths")
    if arr.ndim != 2:
        raise ValueError(
            f"X must be 2-dimensional (n_samples, n_features), got an array of "
            f"shape {arr.shape}. Reshape your data, e.g. with X.reshape(-1, 1) for a "
            f"single feature or X.reshape(1, -1) for a single sample")
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported: X has a complex dtype")
    if arr.dtype.kind not in "biufO?USMm":
        raise ValueError(f"X has unsupported dtype {arr.dtype}")
    return [arr[:, j] for j in range(arr.shape[1])]


def _unmasked(a):
    """A numpy masked array's values with its masked cells unknown: NaN in a float
    array, None in an array of another kind (np.asarray alone would keep the
    hidden values)."""
    mask = np.ma.getmaskarray(a)
    data = np.asarray(a.data)
    if not mask.any():
        return data
    out = data.copy() if data.dtype.kind == "f" else data.astype(object)
    out[mask] = np.nan if data.dtype.kind == "f" else None
    return out


def _is_sparse(a):
    return hasattr(a, "toarray") or type(a).__module__.startswith("scipy.sparse")


def refuse_sparse_or_masked(a, name):
    """A sparse y or sample_weight is refused as a sparse X is (np.asarray makes
    a 0-d array of objects of it: "shape ()", "must be numeric"); a masked one
    has no meaning for a case (np.asarray would drop the mask)."""
    if _is_sparse(a):
        raise TypeError(f"c45 does not accept sparse matrices; pass {name} as a dense "
                        f"array")
    if isinstance(a, np.ma.MaskedArray) and np.ma.getmaskarray(a).any():
        n = int(np.ma.getmaskarray(a).sum())
        raise ValueError(f"{name} is a masked array with {n} masked entr"
                         f"{'y' if n == 1 else 'ies'}: a case's {name} cannot be "
                         f"unknown; drop those rows or fill them")


def _auto_kind(col):
    """How "auto" reads a column: "discrete" (strings, bytes, a pandas Categorical,
    mixed values: never continuous), "bool" (discrete unless categorical_features
    is None) or "numeric" (continuous unless declared)."""
    numeric = ("integer", "floating", "mixed-integer-float", "decimal", "empty")
    if pd is not None and isinstance(col, pd.Series):
        dt = col.dtype
        if isinstance(dt, pd.CategoricalDtype):
            return "discrete"
        if pd.api.types.is_bool_dtype(dt):
            return "bool"
        if pd.api.types.is_numeric_dtype(dt):
            return "numeric"
        # Any other dtype (object, strings, an Arrow dictionary of strings...):
        # by its values, as an object column.
        kind = _inferred_kind(col)
        return "numeric" if kind in numeric else "bool" if kind == "boolean" \
            else "discrete"
    a = np.asarray(col)
    if a.dtype.kind == "b":
        return "bool"
    if a.dtype.kind in "US":
        return "discrete"
    if a.dtype.kind == "O":
        if pd is not None:
            kind = _inferred_kind(a)
            return "numeric" if kind in numeric else "bool" if kind == "boolean" \
                else "discrete"
        return "discrete" if _object_holds_strings(a) else "numeric"
    return "numeric"


def _inferred_kind(values):
    """pandas' infer_dtype(values, skipna=True) of an object array or Series, a
    chunk at a time (one call over tens of millions of values is deaf to Ctrl-C
    for a third of a second: chunks, see UNIQUE_CHUNK). When every chunk's
    values are of one kind, so are the whole column's (chunks of missing
    values only, "empty", aside); chunks of different kinds are rare (a mixed
    column) and take pandas' rule for the mix over the whole column."""
    infer = pd.api.types.infer_dtype
    if len(values) <= UNIQUE_CHUNK or values.dtype != object:
        return infer(values, skipna=True)
    rows = values.iloc if isinstance(values, pd.Series) else values
    kinds = {infer(rows[i:i + UNIQUE_CHUNK], skipna=True)
             for i in range(0, len(values), UNIQUE_CHUNK)}
    kinds.discard("empty")
    if len(kinds) <= 1:
        return kinds.pop() if kinds else "empty"
    return infer(values, skipna=True)


def _object_holds_strings(a):
    for v in a:
        if isinstance(v, (str, bytes, bool, np.bool_)):
            return True
    return False


def _resolve_categorical(categorical_features, n_features, names):
    """Boolean mask of the features the user declares discrete, or None for "auto"
    (encode_fit adds the columns that cannot be continuous to either)."""
    if isinstance(categorical_features, str):
        if categorical_features == "auto":
            return None
        raise ValueError(f"categorical_features must be 'auto', a list of column "
                         f"indices or names, or a boolean mask; got "
                         f"{categorical_features!r}")
    if categorical_features is None:
        return np.zeros(n_features, dtype=bool)
    try:
        spec = list(categorical_features)
    except TypeError:
        raise ValueError(f"categorical_features must be 'auto', None, a list of column "
                         f"indices or names, or a boolean mask; got "
                         f"{categorical_features!r}") from None
    mask = np.zeros(n_features, dtype=bool)
    if len(spec) and all(isinstance(s, (bool, np.bool_)) for s in spec):
        if len(spec) != n_features:
            raise ValueError(f"categorical_features as a boolean mask must have one "
                             f"entry per feature ({n_features}), got {len(spec)}")
        return np.asarray(spec, dtype=bool)
    for s in spec:
        if isinstance(s, (numbers.Integral, np.integer)) and not isinstance(s, bool):
            j = int(s)
            if not -n_features <= j < n_features:
                raise ValueError(f"categorical_features entry {j} is out of range for "
                                 f"{n_features} features")
            mask[j] = True
        elif isinstance(s, str):
            if names is None:
                raise ValueError(f"categorical_features names a column {s!r}, but X "
                                 f"has no column names (pass a DataFrame or use "
                                 f"indices)")
            hits = np.flatnonzero(names == s)
            if len(hits) == 0:
                raise ValueError(f"categorical_features names an unknown column "
                                 f"{s!r}; X has columns {list(names)}")
            mask[hits[0]] = True
        else:
            raise ValueError(f"categorical_features entries must be column indices or "
                             f"names, got {s!r}")
    return mask


def _feature_label(j, names):
    return f"column {names[j]!r}" if names is not None else f"column {j}"


# Values a continuous column takes as numbers: a Decimal is a real number too
# (Python registers it as a Number only: it does not mix with floats exactly), and
# pandas reads a pyarrow decimal column as Decimals.
_NUMBER = (numbers.Real, np.number, decimal.Decimal)


def _to_continuous(col, label):
    """The column's values as numbers, a float64 or float32 array (a view where
    they are one already), NaN for missing; clear errors for strings. Infinities
    and -0.0 are _bulk.fill_continuous's to refuse and to mend."""
    if pd is not None and isinstance(col, pd.Series):
        if isinstance(col.dtype, pd.CategoricalDtype):
            col = col.astype(object)
        a = col.to_numpy(dtype=object if col.dtype == object or
                         pd.api.types.is_string_dtype(col.dtype) else None)
        if a.dtype.kind != "O" and a.dtype not in _FLOATS:
            try:
                a = col.to_numpy(dtype=np.float64, na_value=np.nan)
            except (TypeError, ValueError):
                a = col.to_numpy(dtype=object)
    else:
        a = np.asarray(col)
    if a.dtype in _FLOATS:
        return a
    if a.dtype.kind in "biuf":
        return a.astype(np.float64)
    out = np.empty(len(a), dtype=np.float64)
    for i, v in enumerate(a):
        if _is_missing_scalar(v):
            out[i] = np.nan
        elif isinstance(v, _NUMBER) and not isinstance(v, (bool, np.bool_)):
            try:
                out[i] = float(v)
            except OverflowError:           # an int beyond float64 (10**400)
                out[i] = np.inf             # refused by fill_continuous, naming the row
        elif not isinstance(v, (str, bytes, bool, np.bool_)):
            raise TypeError(f"X {label} row {i}: argument must be a string or a "
                            f"number, got {type(v).__name__} {v!r}")
        else:
            raise ValueError(f"X {label} is continuous (numbers in training) but "
                             f"row {i} holds {v!r}; give this column numbers or "
                             f"NaN/None for unknown values")
    return out


_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _value_kind(v):
    if isinstance(v, (str, np.str_)):
        return "string"
    if isinstance(v, bytes):
        return "bytes"
    return "number"


# The types a category can have: those a model file stores, each of one kind
# (a bool is not a number here: True == 1, so a column of both would merge them).
# Not np.longdouble: its .item() stays a longdouble, which no file holds.
_STORABLE = ((bool, "bool"), (np.bool_, "bool"), (str, "string"), (np.str_, "string"),
             (bytes, "bytes"), (int, "number"), (np.integer, "number"),
             (float, "number"), (np.float16, "number"), (np.float32, "number"))

# The dtypes of classes a model file stores (to_json writes the dtype; a date's
# or a complex number's it cannot).
STORABLE_CLASS_KINDS = "biufUSO"


def check_storable_classes(classes, where):
    """Refuse classes a model file cannot store, so that what fit accepts
    pickles and saves alike: a dtype of STORABLE_CLASS_KINDS, and labels that
    are (as Python values) str, bytes, bool, int or float."""
    a = np.asarray(classes)
    # few: one per class; numpy's scalars (an object array's) as .item() gives them
    values = [v.item() if isinstance(v, np.generic) else v for v in a.tolist()]
    odd = next((v for v in values if not isinstance(v, (str, bytes, bool, int, float))),
               None)
    if a.dtype.kind not in STORABLE_CLASS_KINDS or a.dtype.fields is not None or \
            odd is not None:
        shown = f" ({odd!r:.40})" if odd is not None else ""
        raise ValueError(f"{where} holds labels of dtype {a.dtype}{shown}, which a model "
                         f"cannot keep (a model file stores string, bytes, bool, int and "
                         f"float labels); convert y, e.g. y.astype(str)")


def check_category_values(values, label):
    """Raise ValueError unless a discrete column's known values are of one kind
    and of types a model keeps through pickle and JSON alike. Reads the raw
    column (before distinct values are taken: those would merge True and 1)."""
    kinds, types = set(), set()
    for i in range(0, len(values), UNIQUE_CHUNK):      # (chunks: see UNIQUE_CHUNK)
        types.update(map(type, values[i:i + UNIQUE_CHUNK]))
    for t in types:
        kind = next((k for base, k in _STORABLE if issubclass(t, base)), None)
        if kind is None:
            value = next((v for v in values if type(v) is t and not _is_missing_scalar(v)),
                         None)
            if value is None or t.__hash__ is None:    # unknown; unhashable: below
                continue
            raise ValueError(f"X {label} holds a value of type {t.__name__} ({value!r:.60}), "
                             f"which a model cannot keep as a category (str, bytes, bool, "
                             f"int and float can); convert the column")
        if issubclass(t, (float, np.floating)) and not any(
                v == v for v in values if type(v) is t):
            continue                    # NaN only: unknown values
        kinds.add(kind)
    if len(kinds) > 1:
        what = "numbers and strings" if kinds == {"number", "string"} else "kinds of value"
        raise ValueError(f"X {label} mixes {what} ({sorted(kinds)}); a column must hold "
                         f"one kind of value (True == 1 in Python: a column of bools and "
                         f"numbers would merge them)")


def _index_list(index):
    """A pandas Index's values as a list of Python values (as list(index) gives
    them), a chunk at a time (see UNIQUE_CHUNK): iterating an Arrow string
    Index takes 5 us a value, tolist far less."""
    out = []
    for i in range(0, len(index), UNIQUE_CHUNK):
        out.extend(index[i:i + UNIQUE_CHUNK].tolist())
    return out


def _same_categories(index, categories):
    """Whether a Categorical's categories (index) are the training categories,
    in their order, by value (==, as a lookup by value matches them): then its
    codes are the training codes (the fitted frame predicted, as the CLI's
    evaluation does), with no pandas lookup (get_indexer hashes the 3M
    categories anew and checks them unique, 0.85 s a call). Compared a chunk at
    a time (see UNIQUE_CHUNK), stopping at the first that differs."""
    if len(index) != len(categories):
        return False
    for i in range(0, len(index), UNIQUE_CHUNK):
        ours = np.empty(min(UNIQUE_CHUNK, len(index) - i), dtype=object)
        ours[:] = categories[i:i + UNIQUE_CHUNK]
        if not (index[i:i + UNIQUE_CHUNK].to_numpy(dtype=object) == ours).all():
            return False
    return True


def _category_list(values, label, present=None):
    """Sorted distinct known values of a discrete column (one kind of value only).
    present: the set of them, if the caller has it (and has checked values with
    check_category_values)."""
    if present is None:
        check_category_values(values, label)
        present = {v for v in values if not _is_missing_scalar(v)}
    try:
        categories = sorted_in_chunks(list(present))
    except TypeError as exc:
        raise ValueError(f"X {label} holds values that cannot be ordered: {exc}") from None
    check_storable(categories, f"X {label}")
    return categories


def _object_values(s):
    """A pandas column's values as an object array, copied chunk by chunk (one
    to_numpy of millions of strings is deaf to Ctrl-C for a second or more)."""
    out = fresh_empty(len(s), object)          # (its None fill: c45/_fresh.pyx)
    for i in range(0, len(s), UNIQUE_CHUNK):
        out[i:i + UNIQUE_CHUNK] = s.iloc[i:i + UNIQUE_CHUNK].to_numpy(dtype=object)
    return out


def _as_objects(col):
    """col as an object array; an array of another dtype (fixed-width strings,
    numbers) converted chunk by chunk: one conversion of millions of values
    makes as many Python objects in one call, deaf to Ctrl-C (0.37 s for 3
    million strings)."""
    if not isinstance(col, np.ndarray) or col.dtype == object:
        return np.asarray(col, dtype=object)
    out = fresh_empty(col.shape, object)
    for i in range(0, len(col), UNIQUE_CHUNK):
        out[i:i + UNIQUE_CHUNK] = col[i:i + UNIQUE_CHUNK]
    return out


def _drop_objects(arrays):
    """Let go of the items of object arrays made here chunk by chunk, the same
    rows of each together: the last array holding millions of Python objects
    frees them all in one call as it goes, deaf to Ctrl-C (0.27 s for 10
    million strings)."""
    for i in range(0, max((len(a) for a in arrays), default=0), UNIQUE_CHUNK):
        for a in arrays:
            a[i:i + UNIQUE_CHUNK] = None


def _discrete_codes(col, categories, label):
    """(codes, categories): 1-based codes in categories, 0 for a missing or unseen
    value. With categories None they are learnt: a pandas Categorical's declared
    categories, else the sorted values present."""
    if pd is not None:
        # dtype=object: no conversion to Arrow strings (pandas 3), which copies
        # the strings and refuses lone surrogates.
        own = None                      # an object copy of col made here
        if not isinstance(col, pd.Series) and isinstance(col, np.ndarray) \
                and col.dtype != object:
            own = _as_objects(col)
        s = col if isinstance(col, pd.Series) else pd.Series(
            own if own is not None else _as_objects(col), dtype=object, copy=False)
        values = None                   # the column as objects, once read
        learnt = False                  # categories are a Categorical's own
        if categories is None:
            if isinstance(s.dtype, pd.CategoricalDtype):
                categories = _index_list(s.cat.categories)
                # What a model's schema may hold (an unpickled one is checked).
                if not check_labels(categories, f"the categories of X {label}",
                                    pandas_unique=True):
                    check_category_values(categories, label)   # str's are storable
                learnt = True           # the codes are the column's own
            else:
                values = _object_values(s)
                check_category_values(values, label)
                try:
                    # The distinct values, chunk by chunk (their order does not
                    # matter: _category_list sorts them).
                    present = set()
                    for i in range(0, len(values), UNIQUE_CHUNK):
                        add_distinct(values, i, i + UNIQUE_CHUNK, present,
                                     _is_missing_scalar)
                except TypeError as exc:          # an unhashable value: a list, a dict
                    raise TypeError(f"X {label}: its values must be hashable to be "
                                    f"categories ({exc})") from None
                categories = _category_list(values, label, present)
        with fresh_pages_for(s):        # (the codes' arrays: c45/_fresh.pyx)
            try:
                if learnt:
                    codes = s.cat.codes.to_numpy().astype(np.int32)
                    codes += 1                      # code -1 (NaN): 0, unknown
                elif isinstance(s.dtype, pd.CategoricalDtype) and _same_categories(
                        s.cat.categories, categories):
                    codes = s.cat.codes.to_numpy().astype(np.int32)
                    codes += 1
                elif isinstance(s.dtype, pd.CategoricalDtype):
                    # Recode by value: the column's own categories -> training codes.
                    index = pd.Index(categories, dtype=object)
                    mapping = np.append(index.get_indexer(s.cat.categories) + 1, 0)
                    codes = mapping[s.cat.codes.to_numpy()]     # code -1 (NaN) -> last: 0
                else:
                    # Each value looked up: index.get_indexer(values) would widen
                    # every value to an Arrow string and back (a long string copied
                    # twice per row), and Arrow refuses lone surrogates. Chunk by
                    # chunk, as above.
                    values = values if values is not None else _object_values(s)
                    lookup = {c: i + 1 for i, c in enumerate(categories)}
                    codes = np.empty(len(values), dtype=np.int64)
                    for i in range(0, len(values), UNIQUE_CHUNK):
                        code_values(values, i, i + UNIQUE_CHUNK, lookup, _is_missing_scalar,
                                    codes)
            except TypeError as exc:
                raise TypeError(f"X {label}: {exc}") from None
            _drop_objects([a for a in (values, own) if a is not None])
            return codes.astype(np.int32), categories
    values = np.asarray(col, dtype=object)
    if categories is None:
        categories = _category_list(values, label)
    lookup = {c: i + 1 for i, c in enumerate(categories)}
    codes = np.zeros(len(values), dtype=np.int32)
    for i, v in enumerate(values):
        if not _is_missing_scalar(v):
            codes[i] = lookup.get(v, 0)
    return codes, categories


def _type_kind(v):
    """The kind of a category value, for the predict-time type check: bool, number,
    string, bytes, or the type's own name."""
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (numbers.Number, np.number)):
        return "number"
    if isinstance(v, (str, np.str_)):
        return "str"
    if isinstance(v, bytes):
        return "bytes"
    return type(v).__name__


def _warn_foreign_types(col, codes, schema, j, label):
    """Warn (once per column and call) when values that match no category are of
    another type than the training categories, e.g. True where training had the
    strings "true"/"false": they are treated as unknown, as C4.5 treats a value
    never seen, but a type mismatch is most likely a mistake."""
    unmatched = codes == 0
    if not unmatched.any():
        return
    if pd is not None and isinstance(col, pd.Series) and isinstance(
            col.dtype, pd.CategoricalDtype):
        values = np.asarray(col.cat.categories, dtype=object)
    elif pd is not None and isinstance(col, pd.Series):
        values = _object_values(col)[unmatched]
    else:
        values = _as_objects(col)[unmatched]
    trained = schema.category_kinds(j)
    fine = set()        # types of a trained kind, once a known value had one
    for v in values:
        if type(v) in fine or _is_missing_scalar(v) or (pd is not None and v is pd.NaT):
            continue
        kind = _type_kind(v)
        if kind in trained:
            fine.add(type(v))
        else:
            warnings.warn(
                f"X {label} holds a value of type {type(v).__name__} ({v!r}), but the "
                f"model was trained on {' / '.join(sorted(trained))} values in this "
                f"column: values of another type are treated as unknown (as a value "
                f"never seen in training is). Convert the column to the training "
                f"type (categories {schema.categories[j][:5]!r}"
                f"{' ...' if len(schema.categories[j]) > 5 else ''}).",
                UserWarning, stacklevel=6)
            return


def _all_strings(values):
    """Whether values (a list or 1-D array) are all str, none missing: pandas'
    infer_dtype, compiled passes (a Python loop over millions of categories
    took seconds), a chunk at a time (see UNIQUE_CHUNK: a list's is first an
    object array, made in one call)."""
    return pd is not None and len(values) > 0 and all(
        pd.api.types.infer_dtype(values[i:i + UNIQUE_CHUNK], skipna=False) == "string"
        for i in range(0, len(values), UNIQUE_CHUNK))


def _utf8_text(strings):
    """Whether every one of the strings is Unicode text (no lone surrogate):
    each chunk joined and encoded in one call (joining cannot pair two
    surrogates up: a str keeps them as two code points, which UTF-8 refuses)."""
    try:
        for i in range(0, len(strings), UNIQUE_CHUNK):      # (chunks: see UNIQUE_CHUNK)
            "".join(strings[i:i + UNIQUE_CHUNK]).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_text(values, where, strings=None):
    """Refuse a string that is not Unicode text (a lone surrogate, as decoding
    with errors="surrogateescape" leaves): a model holding it pickles, but its
    model file (UTF-8) could not be written, so fit refuses it. strings: whether
    values are all str (_all_strings), if the caller knows."""
    if (_all_strings(values) if strings is None else strings) and _utf8_text(values):
        return
    for v in values:
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ValueError(
                    f"{where}: {v!r} is not valid Unicode text ({exc.reason} at "
                    f"position {exc.start}); decode the data without "
                    f"errors='surrogateescape', or fix the value") from None


# An integer a model file holds has at most this many digits: Python's default
# bound on converting int to and from text, which json's reading and writing go
# through (10**5000 as a category fitted and pickled, then to_json failed).
MAX_INT_DIGITS = getattr(sys.int_info, "default_max_str_digits", 4300)
_INT_BOUND = 10 ** MAX_INT_DIGITS


def check_storable(values, where, strings=None):
    """Refuse a category or class a pickle keeps but a model file cannot:
    text that is not Unicode (check_text), an integer of more than
    MAX_INT_DIGITS digits. strings: as check_text's."""
    strings = _all_strings(values) if strings is None else strings
    check_text(values, where, strings)
    if strings:
        return                  # no integer among them
    for v in values:
        if type(v) is int and not -_INT_BOUND < v < _INT_BOUND:
            raise ValueError(f"{where}: an integer of {v.bit_length()} bits, more than "
                             f"the {MAX_INT_DIGITS} digits a model file holds; convert "
                             f"the value (to a string, say)")


def check_labels(values, where, pandas_unique=False):
    """Raise ValueError unless values (a model's categories or classes) are
    distinct, known (not NaN/None) and of one kind: what fit produces, and what
    lookups by value need (NaN != NaN, 1 == True, and b"a" sorts with no int).
    Returns whether they are all str. pandas_unique: values are a pandas
    Index's, which pandas keeps distinct; for strings its rule is Python's, so
    they are not checked again."""
    strings = _all_strings(values)      # then one kind, none missing
    if not strings:
        kinds = set()
        for v in values:
            if _is_missing_scalar(v):
                raise ValueError(f"{where} hold a missing value ({v!r})")
            kinds.add("bool" if isinstance(v, (bool, np.bool_)) else _value_kind(v))
        if len(kinds) > 1:
            raise ValueError(f"{where} mix kinds of value ({sorted(kinds)})")
    check_storable(values, where, strings)
    if strings and pandas_unique:
        return strings
    try:
        distinct = len(set(values))
    except TypeError as exc:
        raise ValueError(f"{where} hold an unhashable value: {exc}") from None
    if distinct != len(values):
        raise ValueError(f"{where} list a value twice")
    return strings


def rank_tables(schema, cont, n_threads=1):
    """float64 mode's tables, per continuous feature: each case's rank in the
    order by (value, row) with unknown values last, the values in that order,
    the number of known values, and where cuts lie between ranks (Dataset.far,
    1 byte a rank). cont becomes the table of sorted values, in place (so the
    fit holds one copy of the values). The sorts (c45/_ranks.pyx) run in one
    call without the GIL, n_threads features at once."""
    n_known = np.zeros(schema.n_features, dtype=np.int64)
    # every row of ranks is ranked below, but the one row of none
    shape = (max(cont.shape[0], 1), cont.shape[1])
    ranks = (np.empty if (~schema.discrete).any() else _bulk.zeros)(shape, dtype=np.uint32)
    far = np.empty(shape, dtype=np.uint8)     # (read at known ranks only)
    features = np.flatnonzero(~schema.discrete)
    rows = np.asarray(schema.col, dtype=np.int32)[features]
    n_known[features] = rank_columns(cont, ranks, rows, n_threads, far)
    return ranks, cont, n_known, far


def rank_tables_from(schema, sources, n, n_threads=1):
    """rank_tables of the values of the caller's X itself (sources: per feature
    the 1-D float64 or float32 array, a view of X, None if discrete), without a
    table of the sorted values: (ranks, n_known, far, facts, lanes), facts and
    lanes what else is read of the sorted values, per row of ranks
    (c45/_ranks.pyx's rank_sources)."""
    n_known = np.zeros(schema.n_features, dtype=np.int64)
    n_cont = int((~schema.discrete).sum())
    ranks = np.empty((max(n_cont, 1), n), dtype=np.uint32)
    with numpy_pages():     # (written, and read, at known ranks only: left unbacked)
        far = np.empty((max(n_cont, 1), n), dtype=np.uint8)
    features = np.flatnonzero(~schema.discrete)
    rows = np.asarray(schema.col, dtype=np.int32)[features]
    n_known[features], facts, lanes = rank_sources([sources[j] for j in features], ranks,
                                                   rows, n_threads, far)
    return ranks, n_known, far, facts, lanes


def distinct_values(schema, cont, dtype=np.float64):
    """Per continuous feature, its distinct known values sorted, in one array
    with offsets (n_features + 1): the stored cuts are read from it (§5.4).
    dtype=np.float32 for float32's values, which are float32 numbers: half the
    bytes. Each feature's are written into the one array as they are found (it
    is made for every cell and cut to size at the end: the pages past what is
    written take no memory); parts concatenated held two copies more (the
    float32 fit with unknown values peaked there, 3.1x X's bytes)."""
    n = cont.shape[1]
    n_cont = int(np.count_nonzero(~np.asarray(schema.discrete, bool)))
    distinct = np.empty(n * n_cont + 1, dtype=dtype)
    x = np.empty(n, dtype=np.float64)
    ranks = np.empty(n, dtype=np.uint32)
    starts = [0]
    for j in range(schema.n_features):
        start = starts[-1]
        if not schema.discrete[j]:
            # np.unique(known values), by c45/_ranks.pyx's sort and passes that
            # look for Ctrl-C (np.unique's sort cannot be interrupted); the
            # copies by _bulk.put, which looks too and keeps the GIL in a short
            # copy (numpy's copies and casts give it up).
            _bulk.put(x, 0, cont[schema.col[j]])
            count = distinct_sorted(x, rank_column(x, ranks))
            _bulk.put(distinct, start, x[:count])
            start += count
        starts.append(start)
    distinct[starts[-1]] = 0.0
    distinct.resize(starts[-1] + 1, refcheck=False)     # (its pages past it back)
    return distinct, np.asarray(starts, dtype=np.int64)


def values_in_row_order(sorted_value, rank):
    """Each row's continuous values back from float64's rank tables (NaN unknown:
    the unknown values sort last), gathered by _bulk, which looks for Ctrl-C in a
    long gather (millions of rows take a second) and keeps the GIL in a short one."""
    return _bulk.take_each_row(np.asarray(sorted_value), np.asarray(rank))


def value_orders(schema, cont):
    """Per continuous feature, its cases in the order of rank_tables (by value,
    then row; unknown values last), as rows of a uint32 table shaped as cont, and
    the known counts per feature; cont is left as it is."""
    n = cont.shape[1]
    order = _bulk.zeros((max(cont.shape[0], 1), n), dtype=np.uint32)
    n_known = np.zeros(schema.n_features, dtype=np.int64)
    features = np.flatnonzero(~schema.discrete)
    rows = np.asarray(schema.col, dtype=np.int32)[features]
    n_known[features] = order_columns(np.ascontiguousarray(cont), order, rows)
    return order, n_known


def value_orders_from(schema, sources, n):
    """value_orders of a float32 fit that reads the caller's X itself (sources:
    per feature the 1-D float64 array, a view of X, None if discrete; read as
    the encoding rounds them): (order, n_known, facts, lanes), facts what the
    warnings read of the sorted values, per row of order (rank_tables_from's),
    lanes the training digest's of the values (c45/_ranks.pyx's order_sources);
    None when a value is unknown (the fit does not take the lists)."""
    order = _bulk.zeros((max(int((~schema.discrete).sum()), 1), n), dtype=np.uint32)
    n_known = np.zeros(schema.n_features, dtype=np.int64)
    features = np.flatnonzero(~schema.discrete)
    rows = np.asarray(schema.col, dtype=np.int32)[features]
    found = order_sources([sources[j] for j in features], order, rows)
    if found is None:
        return None
    n_known[features], facts, lanes = found
    return order, n_known, facts, lanes


# Whole case weights are exact in binary32, and so is every sum of them up to this.
EXACT_TOTAL_F32 = 2.0 ** 24


def exact_in_any_order(schema, cont, codes, weight):
    """Whether every sum of case weights that growing and pruning take is exact
    in binary32 whatever its order: whole weights adding up to at most 2**24,
    and no unknown value (a case of unknown outcome goes down each branch with
    a fractional weight). Then Release 8's case order changes no bit, and
    precision="float32" may grow on the presorted lists (c45/_presorted.pyx).
    cont None: the continuous values are X's own, looked at by the caller
    (value_orders_from stops at an unknown one)."""
    whole, total, unknown = weight_and_unknown_facts(
        weight, np.zeros((1, 1)) if cont is None else cont,
        codes, cont is not None and bool((~schema.discrete).any()),
        bool(schema.discrete.any()))
    return whole and total <= EXACT_TOTAL_F32 and not unknown


def canonical_arrays(state):
    """A copy of a pickled __dict__ whose arrays carry numpy's own dtype objects.

    An unpickled array keeps the dtype object pickle made for it, equal to but not
    numpy's; pickle memoises dtypes by identity, so without this a model pickled
    again after a round trip would give other bytes."""
    return {k: v.view(np.dtype(v.dtype.str)) if type(v) is np.ndarray else v
            for k, v in state.items()}


class Schema:
    """What fit learned about the columns of X."""

    def __init__(self, names, discrete, categories):
        self.names = names                  # ndarray of str, or None
        self.discrete = discrete            # ndarray of bool
        self.categories = categories        # per feature: list or None (continuous)
        # each feature's row among its kind's (numpy's masked assignment gives
        # the GIL up, even on a few items)
        seen = [0, 0]
        col = []
        for d in discrete.tolist():
            col.append(seen[d])
            seen[d] += 1
        self.col = np.array(col, dtype=np.int32)

    def __getstate__(self):
        state = canonical_arrays(self.__dict__)
        state.pop("_kinds", None)           # caches: pickles stay byte-identical
        state.pop("_n_values", None)
        state.pop("_any_discrete", None)
        return state

    def category_kinds(self, j):
        """The kinds of value (_type_kind) of feature j's categories, cached."""
        cache = self.__dict__.setdefault("_kinds", {})
        if j not in cache:
            cache[j] = {_type_kind(c) for c in self.categories[j]} or {"(none)"}
        return cache[j]

    def __setstate__(self, state):
        # Unpickled schemas are checked as loaded model files are, before their
        # arrays are used (col recomputed).
        if not isinstance(state, dict):
            raise ValueError(f"c45 schema: the pickled state is a "
                             f"{type(state).__name__}, not a dict")
        self.names, self.discrete, self.categories = (
            state.get("names"), state.get("discrete"), state.get("categories"))
        self.check()
        self.__init__(self.names, self.discrete, self.categories)

    def check(self):
        """Raise ValueError unless the schema is one fit could have made: one
        flag per feature, a list of distinct known values of one kind for each
        discrete feature, None for each continuous one."""
        d = self.discrete
        if not isinstance(d, np.ndarray) or d.dtype != bool or d.ndim != 1 or len(d) < 1:
            raise ValueError("c45 schema: discrete must be a non-empty 1-D bool array")
        if not isinstance(self.categories, list) or len(self.categories) != len(d):
            raise ValueError("c45 schema: categories must be a list, one entry per feature")
        names = self.names
        if names is not None and not (
                isinstance(names, np.ndarray) and names.shape == d.shape
                and all(isinstance(n, str) for n in names)
                and len(set(names)) == len(names)):
            raise ValueError("c45 schema: names must be None or an array of distinct "
                             "strings, one per feature")
        for j, cats in enumerate(self.categories):
            if not d[j]:
                if cats is not None:
                    raise ValueError(f"c45 schema: continuous feature {j} has categories")
                continue
            if not isinstance(cats, list):
                raise ValueError(f"c45 schema: feature {j}'s categories must be a list")
            check_labels(cats, f"feature {j}'s categories")

    @property
    def n_features(self):
        return len(self.discrete)

    @property
    def any_discrete(self):
        """Whether any feature is discrete; cached (every predict asks)."""
        any_discrete = self.__dict__.get("_any_discrete")
        if any_discrete is None:
            any_discrete = self.__dict__["_any_discrete"] = bool(self.discrete.any())
        return any_discrete

    @property
    def n_values(self):
        """Per feature, its number of categories (0: continuous); read-only, cached
        (every predict passes it)."""
        nv = self.__dict__.get("_n_values")
        if nv is None:
            nv = np.array([0 if c is None else max(len(c), 1) for c in self.categories],
                          dtype=np.int32)
            nv.flags.writeable = False
            self.__dict__["_n_values"] = nv
        return nv


def fit_values_dtype(f32):
    """The dtype of a fit's table of continuous values (cont, Dataset.cont): a
    float32 fit's values are float32 numbers (fill_continuous rounds them), held
    as such, 4 bytes a value; float64's as float64. Every reader widens a
    float32 value to the same double, so no bit of a tree depends on it."""
    return np.float32 if f32 else np.float64


def _matrices(columns, schema, names, f32, learnt=None, sources=None, held_by=None,
              dtype=np.float64):
    """(cont, codes) of the columns, cont of dtype (float64 for new data to
    classify; a fit's fit_values_dtype). held_by given (X) and every continuous
    column a view of it: cont is None, its values only checked (the fit reads
    them from X itself, sources)."""
    n = len(columns[0]) if columns else 0
    n_cont = int((~schema.discrete).sum())
    n_disc = int(schema.discrete.sum())
    # codes' rows are filled only where a feature is discrete (a (1, n) matrix
    # of zeros stands for none).
    codes = (np.empty if n_disc else _bulk.zeros)((max(n_disc, 1), n), dtype=np.int32)
    rows, sources_of, features = [], [], []
    for j, col in enumerate(columns):
        label = _feature_label(j, names)
        if schema.discrete[j]:
            if learnt:
                codes[schema.col[j]] = learnt[j]
            else:
                codes[schema.col[j]] = _discrete_codes(col, schema.categories[j], label)[0]
                _warn_foreign_types(col, codes[schema.col[j]], schema, j, label)
        else:
            rows.append(schema.col[j])
            sources_of.append(_to_continuous(col, label))
            features.append(j)
    if sources is not None:     # each feature's, None for a discrete one
        sources.extend([None] * len(columns))
        for j, a in zip(features, sources_of):
            sources[j] = a
    if held_by is not None and sources_of and all(_held_by(held_by, a)
                                                  for a in sources_of):
        cont = None
        verdict, q, i = fill_continuous(None, rows, sources_of, f32, n)
    else:
        # Every row of cont is filled (a (1, n) matrix of zeros stands for none).
        cont = (np.empty if n_cont else _bulk.zeros)((max(n_cont, 1), n), dtype=dtype)
        # One pass over every continuous value, the GIL given up once (not per column).
        verdict, q, i = fill_continuous(cont, rows, sources_of, f32)
    if verdict == INFINITE:
        raise ValueError(f"X {_feature_label(features[q], names)} holds an infinite "
                         f"value at row {i} (or a number beyond float64); use NaN for an "
                         f"unknown value")
    if verdict == BEYOND_FLOAT32:
        raise ValueError(f"X {_feature_label(features[q], names)} holds values beyond "
                         f"the float32 range; use precision='float64'")
    return cont, codes


def values_of(schema, sources, n, f32=False):
    """cont of a fit whose values encode_fit left in X (copy=False): the
    continuous columns (sources, checked then) copied as _matrices copies them."""
    features = np.flatnonzero(~schema.discrete)
    cont = np.empty((max(len(features), 1), n), dtype=fit_values_dtype(f32))
    fill_continuous(cont, [schema.col[j] for j in features],
                    [sources[j] for j in features], f32)
    return cont


def _rows_of(X, columns):
    return X.shape[0] if hasattr(X, "shape") else (len(columns[0]) if columns else 0)


def n_rows(X):
    """The number of rows of X, checked as fit checks X's shape."""
    return _rows_of(X, _columns(X)[0])


def encode_fit(X, categorical_features, f32, sources=None, copy=True):
    """Learn the schema of X and encode it: (schema, cont, codes). sources: a list
    that receives, per feature, the 1-D float64 or float32 array its values were
    read from, None if discrete; left empty unless every one is X's own memory.
    copy False: where every continuous one is, cont is None (no copy of the
    values made: the fit reads them from the sources); otherwise cont holds
    them."""
    columns, names = _columns(X)
    if names is not None:
        check_text(names, "X's column names")
    n_features = len(columns)
    rows = _rows_of(X, columns)
    if n_features == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape=({rows}, 0)) while a "
                         f"minimum of 1 is required.")
    if rows == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape=(0, {n_features})) while "
                         f"a minimum of 1 is required.")
    # One rule: string / Categorical columns are always discrete, bool columns
    # unless categorical_features is None, and categorical_features adds numeric
    # columns to those.
    kinds = [_auto_kind(c) for c in columns]
    declared = _resolve_categorical(categorical_features, n_features, names)
    if declared is None:
        declared = np.zeros(n_features, dtype=bool)
    always = ("discrete",) if categorical_features is None else ("discrete", "bool")
    mask = declared | np.array([k in always for k in kinds], dtype=bool)
    categories, learnt = [], {}
    for j, col in enumerate(columns):
        if mask[j]:
            learnt[j], cats = _discrete_codes(col, None, _feature_label(j, names))
            categories.append(cats)
        else:
            categories.append(None)
    schema = Schema(names, mask, categories)
    cont, codes = _matrices(columns, schema, names, f32, learnt, sources,
                            X if sources is not None and not copy else None,
                            fit_values_dtype(f32))
    if cont is None:
        return schema, cont, codes
    if sources is not None and not all(a is None or _held_by(X, a) for a in sources):
        sources.clear()         # a copy: holding it would cost what it saves
    return schema, cont, codes


def _held_by(X, a):
    """Whether the column array a read from X is X's own memory (a view), not
    a copy made on the way: then referring to it holds nothing more."""
    if a.ndim != 1:
        return False
    if _is_dataframe(X):
        return not a.flags.owndata          # a view of one of the frame's blocks
    return (isinstance(X, np.ndarray) and not isinstance(X, np.ma.MaskedArray)
            and _bytes_within(a, X))


def _bytes_within(a, X):
    """Whether a's bytes lie within X's extent (np.may_share_memory's bounds
    test, without its giving the GIL up)."""
    def extent(arr):
        lo = hi = arr.__array_interface__["data"][0]
        for n, step in zip(arr.shape, arr.strides):
            if n == 0:
                return lo, lo
            if step < 0:
                lo += (n - 1) * step
            else:
                hi += (n - 1) * step
        return lo, hi + arr.itemsize
    (alo, ahi), (xlo, xhi) = extent(a), extent(X)
    return xlo <= alo and ahi <= xhi


def encode_predict(schema, X, f32, estimator="C45Classifier"):
    """Encode new data with a fitted schema: (cont, codes)."""
    columns, names = _columns(X)
    if len(columns) != schema.n_features:
        raise ValueError(f"X has {len(columns)} features, but {estimator} is "
                         f"expecting {schema.n_features} features as input")
    if schema.names is not None and names is None:
        warnings.warn(f"X does not have valid feature names, but {estimator} was "
                      f"fitted with feature names", UserWarning, stacklevel=4)
    elif schema.names is None and names is not None:
        warnings.warn(f"X has feature names, but {estimator} was fitted without "
                      f"feature names", UserWarning, stacklevel=4)
    if schema.names is not None and names is not None and not np.array_equal(
            names, schema.names):
        raise ValueError(f"X has columns {list(names)}, but the model was fitted with "
                         f"columns {list(schema.names)} (same names, same order)")
    return _matrices(columns, schema, schema.names if names is None else names, f32)


def plain_rows(schema, X, f32):
    """X's values as prediction can read them in place, or None (encode_predict
    then checks and copies): (rows, rows_first), rows C-ordered float64, either
    (n_rows, n_features) with rows_first (a float ndarray) or (n_features, n_rows)
    (a DataFrame of float64 columns: pandas keeps them column by column, so its
    values transposed are that layout without a copy). Only when every feature is
    continuous, precision is float64, no value is infinite and the feature names
    agree as encode_predict requires (it gives the warnings and errors)."""
    if f32 or schema.any_discrete or len(getattr(X, "shape", ())) != 2 or X.shape[0] == 0:
        return None
    # No discrete feature: column j of the rows is feature j (schema.col).
    if _is_dataframe(X):
        if (X.shape[1] != schema.n_features or schema.names is None
                or not all(dt == np.float64 for dt in X.dtypes)):
            return None
        try:
            names = _frame_names(X)
        except (TypeError, ValueError):
            return None
        if names is None or not np.array_equal(names, schema.names):
            return None
        values = X.to_numpy(dtype=np.float64)
        rows, rows_first = (values.T, False) if values.T.flags.c_contiguous else (
            np.ascontiguousarray(values), True)
    elif (isinstance(X, np.ndarray) and not isinstance(X, np.ma.MaskedArray)
            and X.ndim == 2 and X.dtype.kind == "f"
            and schema.names is None and X.shape[1] == schema.n_features):
        rows, rows_first = np.ascontiguousarray(X, dtype=np.float64), True
    else:
        return None
    if any_inf(rows):
        return None                        # encode_predict names the cell
    return rows, rows_first


def _check_label_kinds(values):
    """y must hold one kind of label: numbers, strings, bytes or booleans. Mixed,
    they would be turned into strings or merged (1 == True) without a word."""
    kinds = {"bool" if isinstance(v, (bool, np.bool_)) else _value_kind(v)
             for v in values if not _is_missing_scalar(v)}
    if len(kinds) > 1:
        raise ValueError(f"Mix of label input types ({' and '.join(sorted(kinds))}) in y; "
                         f"use one type of label")


def _refuse_object_non_strings(arr):
    """An object array y of numbers, booleans or bytes is refused, as scikit-learn's
    classifiers refuse it (its target type is "unknown"): its classes_ would be
    objects, which scikit-learn's metrics do not take for numbers."""
    first = next((v for v in arr if not isinstance(v, (str, np.str_))), None)
    if first is None:
        return
    kind = ("bool" if isinstance(first, (bool, np.bool_))
            else "number" if isinstance(first, (numbers.Number, np.number))
            else "bytes" if isinstance(first, bytes) else type(first).__name__)
    hint = ("decode them to strings" if kind == "bytes"
            else "give y a numeric or bool dtype (np.asarray(y, dtype=...), "
                 "y.astype(...)) or string labels" if kind in ("bool", "number")
            else "give y string, number or bool labels")
    raise ValueError(f"Unknown label type: y is an array of dtype object holding "
                     f"{kind} labels ({first!r:.40}), which scikit-learn's "
                     f"classifiers refuse: {hint}")


def sorted_classes(declared, where="the categories of y"):
    """(classes_, columns): the classes in scikit-learn's order (ascending, as
    np.unique sorts y's labels; what its scorers, label_binarize and calibration
    assume of classes_) and, per entry, its index in declared, C4.5's class order
    (a Categorical's declared categories): the order of the trees' class columns
    and of C4.5's tie-breaking and printed output."""
    declared = np.asarray(declared)
    try:
        columns = _stable_order(declared)
    except TypeError as exc:
        raise ValueError(f"{where} cannot be ordered: {exc}") from None
    return declared[columns], columns


def _stable_order(values):
    """np.argsort(values, kind="stable"), the same order: for a few numbers or
    strings a Python sort (both sorts are stable and compare with <, NaN aside),
    as a numpy sort gives the GIL up (a switch interval beside a busy thread)."""
    if (values.ndim == 1 and len(values) <= 1 << 16 and values.dtype.kind in "biufUS"
            and not (values.dtype.kind == "f" and np.isnan(values).any())):
        listed = values.tolist()
        return np.array(sorted(range(len(listed)), key=listed.__getitem__), dtype=np.intp)
    return np.argsort(values, kind="stable")


def class_columns(classes, declared):
    """Per entry of classes (a model's classes_), the index in declared (its
    declared_classes_) of the class it is, matched by value: classes_ may be of
    another dtype (a Categorical's integer categories are objects, its classes_
    int64; its booleans floats). ValueError when one is not declared, or two are
    one declared class."""
    index = {}
    for i, c in enumerate(np.asarray(declared).tolist()):
        index.setdefault(c, i)
    columns = np.empty(len(classes), dtype=np.intp)
    for i, c in enumerate(np.asarray(classes).tolist()):
        try:
            columns[i] = index[c]
        except (KeyError, TypeError):
            raise ValueError(f"classes_ holds {c!r:.80}, which is not one of the "
                             f"declared_classes_") from None
    if len(set(columns.tolist())) != len(columns):     # no numpy sort (a GIL release)
        raise ValueError("classes_ names one of the declared_classes_ twice")
    return columns


# np.unique sorts a whole column in one call, deaf to Ctrl-C for seconds on
# millions of labels (strings above all), as pandas' unique and factorize hash
# one: in chunks of this many, the interpreter handles signals between them.
UNIQUE_CHUNK = 1 << 16


def _unique_in_chunks(arr):
    """np.unique(arr, return_inverse=True), the same arrays, chunk by chunk: each
    chunk's distinct labels, their union's, then each chunk's codes by binary
    search in it."""
    n = len(arr)
    if n <= UNIQUE_CHUNK:
        return np.unique(arr, return_inverse=True)
    starts = range(0, n, UNIQUE_CHUNK)
    classes = np.unique(np.concatenate([np.unique(arr[i:i + UNIQUE_CHUNK])
                                        for i in starts]))
    codes = np.empty(n, dtype=np.intp)
    for i in starts:
        codes[i:i + UNIQUE_CHUNK] = np.searchsorted(classes, arr[i:i + UNIQUE_CHUNK])
    return classes, codes


class Target(namedtuple("Target", "declared codes classes")):
    """An encoded target. declared: C4.5's classes in its order, which the trees
    index (a pandas Categorical's declared categories, used or not; otherwise
    classes); codes: each case's index in declared; classes: ``classes_``, the
    classes y holds as scikit-learn's own classifiers give them (np.unique of y
    as its check_array reads it), each equal to one of declared (class_columns
    finds it)."""
    __slots__ = ()


_FINITE = None          # check_array's keyword for "leave NaN alone" (renamed in 1.6)


def _as_scikit_learn_reads(y):
    """A pandas target of an extension dtype (nullable integers, floats and
    booleans, strings, Categorical) as scikit-learn's check_array converts it,
    the labels its classifiers take np.unique of: nullable numbers and booleans
    (a Categorical of booleans too) become float64, strings object."""
    global _FINITE
    from sklearn.utils import check_array
    if _FINITE is None:
        import inspect
        names = inspect.signature(check_array).parameters
        _FINITE = "ensure_all_finite" if "ensure_all_finite" in names else "force_all_finite"
    try:
        arr = check_array(y, ensure_2d=False, dtype=None, ensure_min_samples=0,
                          **{_FINITE: False})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y of dtype {y.dtype} cannot be read as labels: {exc}") from None
    return np.asarray(arr).ravel()


def _extension_dtype(y):
    """Whether y is a pandas Series or array of a dtype that is not numpy's."""
    return (pd is not None and isinstance(y, (pd.Series, pd.api.extensions.ExtensionArray))
            and not isinstance(y.dtype, np.dtype))


def encode_target(y, n_rows):
    """The target as a Target: a pandas Categorical keeps its declared classes
    (the trees' class order and set, as C4.5 keeps a .names file's), and
    classes_ holds those y holds, as scikit-learn's classifiers have them."""
    target = _target(y, n_rows)
    check_storable_classes(target.declared, "y")
    check_storable_classes(target.classes, "y")
    return target


def _target(y, n_rows):
    refuse_sparse_or_masked(y, "y")
    if pd is not None and isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be 1-dimensional, got a DataFrame with "
                             f"{y.shape[1]} columns (c45 has no multi-output trees)")
        y = y.iloc[:, 0]
    if pd is not None and isinstance(y, (pd.Series, pd.Categorical)) and isinstance(
            y.dtype, pd.CategoricalDtype):
        return _categorical_target(y, n_rows)
    if _extension_dtype(y):
        arr = _as_scikit_learn_reads(y)
    elif pd is not None and isinstance(y, pd.Series):
        arr = np.asarray(y, dtype=object) if y.dtype == object else np.asarray(y)
    else:
        if not isinstance(y, np.ndarray):
            # A list of mixed labels would become strings silently: [1, "a"] -> "1".
            _check_label_kinds(list_array(y, dtype=object).ravel())
        arr = list_array(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = column_or_1d(arr, warn=True)
    _check_length(arr, n_rows)
    classes, codes = _plain_target(arr)
    return Target(classes, codes, classes)


def _check_length(arr, n_rows):
    if arr.ndim != 1:
        raise ValueError(f"y must be 1-dimensional, got shape {arr.shape}")
    if len(arr) != n_rows:
        raise ValueError(f"X has {n_rows} rows but y has {len(arr)}")


def _refuse_missing(missing):
    if missing.any():
        raise ValueError(f"y holds a missing value (NaN/None) at row "
                         f"{int(np.flatnonzero(missing)[0])}; every case needs a class")


def _categorical_target(y, n_rows):
    """A Categorical target: the declared categories are C4.5's classes, in
    their order; classes_ those y holds, as scikit-learn reads them."""
    declared = list(y.categories if isinstance(y, pd.Categorical) else y.cat.categories)
    check_labels(declared, "the categories of y")
    declared = np.asarray(declared, dtype=object)
    sorted_classes(declared)       # refuses categories that cannot be ordered
    codes = np.asarray(y.codes if isinstance(y, pd.Categorical) else y.cat.codes)
    _check_length(codes, n_rows)
    _refuse_missing(codes < 0)
    _, first = np.unique(codes, return_index=True)      # a case of each class held
    classes, _ = sorted_classes(_as_scikit_learn_reads(y)[first])
    if len(classes) > 1 and np.any(classes[1:] == classes[:-1]):
        raise ValueError(f"the categories of y {declared.tolist()!r:.200} hold labels that "
                         f"scikit-learn reads as one class")
    return Target(declared, codes.astype(np.int32), classes)


def _plain_target(arr):
    """(classes, codes) of a target array that declares no classes: its
    distinct labels, sorted (np.unique)."""
    # Whole-number labels (the common case) in one pass: no NaN, infinity or
    # fraction among them, so they are classes as np.unique gives them.
    fast = integer_label_codes(arr)
    if fast is not None:
        return fast
    if arr.dtype.kind == "O":
        _refuse_missing(np.array([_is_missing_scalar(v) for v in arr], dtype=bool))
    elif arr.dtype.kind == "f":
        _refuse_missing(np.isnan(arr))
    if arr.dtype.kind == "f" and np.isinf(arr).any():
        raise ValueError("y holds an infinite value")
    if arr.dtype.kind == "O":
        _check_label_kinds(arr)
        _refuse_object_non_strings(arr)
    if arr.dtype.kind in "fiub":
        check_classification_targets(arr)      # refuses a continuous target
    try:
        classes, codes = _unique_in_chunks(arr)
    except TypeError as exc:
        raise ValueError(f"y holds labels that cannot be ordered: {exc}") from None
    if classes.dtype.kind in "OU":
        check_storable(classes.tolist(), "y")
    return classes, codes.astype(np.int32).ravel()
