"""CSV files: a header row of column names, then one case per row.

The file is read once, in a single pass and in chunks of rows: each column is
kept as integer codes into the distinct strings it holds (so a million rows of a
few columns take a few tens of megabytes), and only at the end does a column
become float64 (every value a number) or a pandas Categorical (otherwise, or when
named in ``discrete``). Missing values: empty fields, ``?`` (C4.5's), ``NA``,
``N/A``, ``NaN``, ``nan``, ``null``, ``NULL``, ``None``. Blank lines are skipped.
Every malformed row raises :class:`DataFileError` naming the file, line and column.
"""
import csv

import numpy as np

from c45.io._common import (NUMBER, DataFileError, choose_columns, decoded_lines, need_pandas,
                            numeric_sort_key, open_binary, too_large)

MISSING = frozenset({"", "?", "NA", "N/A", "NaN", "nan", "null", "NULL", "None"})
CHUNK_ROWS = 65536


class _Column:
    """One CSV column as codes into the distinct (stripped) strings seen."""

    def __init__(self, name, index, missing):
        self.name = name
        self.index = index
        self.missing = missing
        self.vocab = {}
        self.chunks = []

    def add_chunk(self, values, pd):
        codes, uniques = pd.factorize(np.asarray(values, dtype=object))
        mapping = np.empty(len(uniques) + 1, dtype=np.int32)
        vocab, missing = self.vocab, self.missing
        for k, u in enumerate(uniques):
            u = u.strip(" \t")
            if u in missing:
                mapping[k] = -1
            else:
                code = vocab.get(u)
                if code is None:
                    code = vocab[u] = len(vocab)
                mapping[k] = code
        mapping[-1] = -1
        self.chunks.append(mapping[codes])

    def codes(self):
        return np.concatenate(self.chunks) if self.chunks else np.empty(0, np.int32)

    def first_row(self, codes, wanted):
        hits = np.flatnonzero(np.isin(codes, wanted))
        return int(hits[0]) if len(hits) else None


def _categorical(pd, codes, values):
    """A Categorical of the values, categories sorted (by number if all numbers)."""
    key = numeric_sort_key(values) or (lambda v: v)
    order = sorted(range(len(values)), key=lambda k: key(values[k]))
    rank = np.empty(len(values) + 1, dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(values))
    rank[-1] = -1
    cats = pd.Index([values[k] for k in order], dtype=object)
    return pd.Categorical.from_codes(rank[codes], categories=cats, validate=False)


def read_csv(source, target=None, *, features=None, discrete=(), continuous=(),
             ignore=(), sep=",", encoding="utf-8", missing=MISSING, progress=None,
             chunk_rows=CHUNK_ROWS):
    """Read a CSV file (a path or a binary file object): ``(X, y)``.

    Parameters
    ----------
    source : path or binary file object
    target : str or None
        The class column; None: the last column.
    features : list of str, optional
        The feature columns wanted, in this order (others are skipped); then the
        target is optional and y is None when the file has no such column.
    discrete, continuous : column names forced to be discrete / continuous.
        Otherwise a column whose values are all numbers is continuous and any
        other is discrete. A non-number in a ``continuous`` column is an error.
    ignore : column names to skip.
    sep, encoding : the field separator and the text encoding.
    missing : the strings that mean an unknown value.

    Returns
    -------
    X : DataFrame: float64 columns (NaN unknown) and Categoricals (categories
        sorted: by value when they are all numbers).
    y : Categorical Series of the class labels (as strings), or None.
    """
    pd = need_pandas()
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"":
        raise ValueError(f"sep must be one character (not a quote or a line break), "
                         f"got {sep!r}")
    fh, path, close = open_binary(source)
    try:
        return _read(fh, path, pd, target, features, set(discrete), set(continuous),
                     set(ignore), sep, encoding, frozenset(missing), progress, chunk_rows)
    finally:
        if close:
            fh.close()


def _read(fh, path, pd, target, features, discrete, continuous, ignore, sep,
          encoding, missing, progress, chunk_rows):
    line_no = [0]

    def text_lines():
        for number, text in decoded_lines(fh, path, encoding):
            line_no[0] = number
            yield text

    reader = csv.reader(text_lines(), delimiter=sep, skipinitialspace=True,
                        strict=True)

    def rows():
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise DataFileError(path, line_no[0], f"not valid CSV: {exc}") from None
            yield row

    it = rows()
    header = None
    for header in it:
        if any(h.strip() for h in header):
            break
    else:
        raise DataFileError(path, max(line_no[0], 1), "the file is empty (no header "
                            "row of column names)")
    header_line = reader.line_num
    names = [h.strip() for h in header]
    seen = set()
    for j, h in enumerate(names):
        if h == "":
            raise DataFileError(path, header_line, f"column {j + 1} of the header has no "
                                f"name")
        if h in seen:                       # a set: linear in the columns
            raise DataFileError(path, header_line, f"column {h!r} appears twice in the "
                                f"header")
        seen.add(h)
    width = len(names)
    for option, wanted in (("discrete", discrete), ("continuous", continuous),
                           ("ignore", ignore)):
        unknown = sorted(wanted - set(names))
        if unknown:
            raise DataFileError(path, header_line, f"the {option} column {unknown[0]!r} "
                                f"is not in the header {names}")
    both = discrete & continuous
    if both:
        raise ValueError(f"column {sorted(both)[0]!r} cannot be both discrete and "
                         f"continuous")

    target, feature_names = choose_columns(path, header_line, names, seen, target, features,
                                           "column", f"is not in the header {names}", ignore)
    index = {h: j for j, h in enumerate(names)}
    cols = [_Column(h, index[h], missing) for h in feature_names]
    tcol = _Column(target, index[target], missing) if target is not None else None
    wanted = cols + ([tcol] if tcol is not None else [])

    buf, lines, line_chunks, n_rows = [], [], [], 0

    def flush():
        if not buf:
            return
        transposed = list(zip(*buf))
        for col in wanted:
            col.add_chunk(transposed[col.index], pd)
        line_chunks.append(np.asarray(lines, dtype=np.int64))
        buf.clear()
        lines.clear()
        if progress is not None:
            progress(f"read {n_rows} rows")

    for row in it:
        if len(row) != width:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue                        # a blank line
            raise DataFileError(path, reader.line_num, f"{len(row)} fields, expected "
                                f"{width} (the header has {width} columns)")
        buf.append(row)
        lines.append(reader.line_num)
        n_rows += 1
        if len(buf) >= chunk_rows:
            flush()
    flush()
    if n_rows == 0:
        raise DataFileError(path, header_line, "no data rows after the header")
    row_lines = np.concatenate(line_chunks)

    data = {}
    for col in cols:
        codes = col.codes()
        values = list(col.vocab)
        if col.name in discrete:
            data[col.name] = _categorical(pd, codes, values)
            continue
        numeric = np.fromiter((NUMBER.fullmatch(v) is not None for v in values),
                              dtype=bool, count=len(values))
        if numeric.all():
            floats = np.append(np.array([float(v) for v in values], dtype=np.float64),
                               np.nan)
            huge = np.flatnonzero(np.isinf(floats))
            if len(huge):
                r = col.first_row(codes, huge)
                raise DataFileError(path, int(row_lines[r]), too_large(values[codes[r]]),
                                    field=f"column {col.name!r}")
            data[col.name] = floats[codes]
        elif col.name in continuous:
            r = col.first_row(codes, np.flatnonzero(~numeric))
            bad = values[codes[r]]
            raise DataFileError(path, int(row_lines[r]), f"{bad!r} is not a number (the "
                                f"column is continuous)", field=f"column {col.name!r}")
        else:
            data[col.name] = _categorical(pd, codes, values)
    X = pd.DataFrame(data, index=pd.RangeIndex(n_rows))
    y = None
    if tcol is not None:
        codes = tcol.codes()
        if (codes < 0).any():
            r = int(np.flatnonzero(codes < 0)[0])
            raise DataFileError(path, int(row_lines[r]), "the class is missing; every "
                                "row needs one", field=f"column {target!r}")
        y = pd.Series(_categorical(pd, codes, list(tcol.vocab)), name=target)
    return X, y
