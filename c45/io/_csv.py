"""CSV files: a header row of column names, then one case per row.

The file is read as a stream, in chunks of rows (at most ``CHUNK_CELLS`` fields and
``CHUNK_CHARS`` characters at a time), so memory stays a small multiple of the
columns' final arrays. A column starts as numbers, kept as float64 (NaN unknown);
one that turns out to hold a non-number (and every column named in ``discrete``)
is kept as integer codes into the distinct strings it holds and becomes a pandas
Categorical. A column that holds numbers and only later a word is read again for
its strings (from the file, or from a temporary copy of a stream that cannot
seek): numbers are not kept as strings in case they turn out to be categories.
Missing values: empty fields, ``?`` (C4.5's), ``NA``, ``N/A``, ``NaN``, ``nan``,
``null``, ``NULL``, ``None``. Blank lines are skipped. Every malformed row raises
:class:`DataFileError` naming the file, line and column. Runs of plain lines (no
quote, blank line or odd field count) are split many at a time (split_block), any
other row by the csv module.
"""
import csv
import math
import re
import shutil
import tempfile
from itertools import repeat
from operator import itemgetter

import numpy as np

from c45._fresh import TOUCH_BYTES
from c45._gc import paused
from c45._sorting import sorted_in_chunks
from c45.io._common import (MAX_COLUMNS, NOT_NUMBER, NUMBER, SPLIT_LINES, DataFileError,
                            LineFeed, check_columns, choose_columns, listing,
                            joined_arrays, may_overflow, need_pandas, numbers_at_once,
                            numeric_sort_key, open_binary, text_blocks, too_large)

# A quoted field (a doubled quote inside reads as two quoted fields: the same
# separators outside them).
_QUOTED = re.compile(r'"[^"]*"')
MISSING = frozenset({"", "?", "NA", "N/A", "NaN", "nan", "null", "NULL", "None"})
CHUNK_ROWS = 65536
CHUNK_CELLS = 1 << 18           # fields held as Python strings at a time
CHUNK_CHARS = 1 << 24           # characters of the fields held at a time


class _Column:
    """One CSV column: float64 values while every value is a number, else codes
    into the distinct (stripped) strings seen."""

    __slots__ = ("name", "index", "missing", "text", "redo", "vocab", "chunks", "problem")

    def __init__(self, name, index, missing, text):
        self.name = name
        self.index = index
        self.missing = missing
        self.text = text            # kept as strings (a discrete column, the class)
        self.redo = False           # numbers first, then a word: read again as text
        self.vocab = {}
        self.chunks = []
        self.problem = None         # (row, message) of the first bad number

    def add_chunk(self, values, row0, pd, continuous):
        if self.redo:
            return
        if not self.text:
            floats = self._all_numbers(values, row0)
            if floats is not None:
                self.chunks.append(floats)
                return
            if len(values) < _SMALL:
                self._add_few_numbers(values, row0, continuous)
            else:
                self._add_numbers(pd, *_factorize(pd, values), row0, continuous)
            if not (self.redo and row0 == 0):
                return
            # A word in the first chunk: no number was kept, no need to read again.
            self.as_text()
        self._add_text(*_factorize(pd, values))

    def _not_a_number(self, row, text, continuous):
        """A word among numbers: an error to report (continuous), else False: the
        column is to be read again as text."""
        if not continuous:
            self.redo, self.chunks = True, []
            return False
        if self.problem is None:
            self.problem = (row, f"{text!r} is not a number (the column is continuous)")
        return True

    def _all_numbers(self, values, row0):
        """The float64 values of a chunk that holds only numbers and unknown
        values (numbers_at_once); None when it holds another string:
        _add_numbers then finds and reports it."""
        joined = "\x01".join(values)
        if " " in joined or "\t" in joined:
            values = [v.strip(" \t") for v in values]
        floats = numbers_at_once(values, self.missing)
        if floats is not None and self.problem is None and may_overflow(values, joined):
            huge = np.flatnonzero(np.isinf(floats))
            if len(huge):
                self.problem = (row0 + int(huge[0]), too_large(values[huge[0]]))
        return floats

    def _add_few_numbers(self, values, row0, continuous):
        """A chunk of a few rows (of a wide file), value by value."""
        out = []
        for i, v in enumerate(values):
            v = v.strip(" \t")
            if v in self.missing:
                out.append(math.nan)
            elif NUMBER.fullmatch(v) is None:
                if not self._not_a_number(row0 + i, v, continuous):
                    return
                out.append(math.nan)
            else:
                out.append(float(v))
                if math.isinf(out[-1]) and self.problem is None:
                    self.problem = (row0 + i, too_large(v))
        self.chunks.append(np.array(out, dtype=np.float64))

    def _add_text(self, codes, uniques):
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

    def _add_numbers(self, pd, codes, uniques, row0, continuous):
        """The chunk's distinct strings parsed at once: a scan for characters no
        number has, then float(); only when that fails, NUMBER on each string."""
        uniq = list(uniques)
        joined = "\x01".join(uniq)
        if " " in joined or "\t" in joined:
            uniq = [u.strip(" \t") for u in uniq]
        miss = _isin(pd, uniq, self.missing)
        known = [u for u, m in zip(uniq, miss) if not m] if miss.any() else uniq
        floats = np.full(len(uniq) + 1, np.nan)
        numbers = None
        if not NOT_NUMBER.search("\x01".join(known)):
            try:
                floats[:-1][~miss] = np.array(known, dtype=object).astype(np.float64)
                numbers = True
            except ValueError:
                pass
        if numbers is None:
            ok = np.fromiter((m or NUMBER.fullmatch(u) is not None
                              for u, m in zip(uniq, miss)), dtype=bool, count=len(uniq))
            if not ok.all():
                k = int(np.flatnonzero(~ok)[0])
                r = row0 + int(np.flatnonzero(codes == k)[0])
                if not self._not_a_number(r, uniq[k], continuous):
                    return
                ok |= miss
            floats[:-1][ok & ~miss] = [float(u) for u, g in zip(uniq, ok & ~miss) if g]
        huge = np.flatnonzero(np.isinf(floats))
        if len(huge) and self.problem is None:
            first = np.flatnonzero(np.isin(codes, huge))[0]
            self.problem = (row0 + int(first), too_large(uniq[codes[first]]))
        self.chunks.append(floats[codes])

    def as_text(self):
        """Read again from the start, as strings."""
        self.text, self.redo, self.chunks, self.problem = True, False, [], None

    def values(self):
        if self.chunks:
            return joined_arrays(self.chunks)
        return np.empty(0, np.int32 if self.text else np.float64)


# Below this many values pandas' hashing costs more than it saves (a wide file
# read one row at a time).
_SMALL = 512


def _factorize(pd, values):
    """(codes, distinct values in order of first appearance) of a list of str."""
    if len(values) < _SMALL:
        first = {}
        codes = np.fromiter((first.setdefault(v, len(first)) for v in values),
                            dtype=np.intp, count=len(values))
        return codes, list(first)
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    return codes, list(uniques)


def _isin(pd, values, wanted):
    """Which of the strings are in the set wanted, as a boolean array."""
    if len(values) < _SMALL:
        return np.fromiter((v in wanted for v in values), dtype=bool, count=len(values))
    return np.asarray(pd.Index(values, dtype=object).isin(list(wanted)), dtype=bool)


def _categorical(pd, codes, values):
    """A Categorical of the values, categories sorted (by number if all numbers)."""
    key = numeric_sort_key(values)
    keys = values if key is None else [key(v) for v in values]
    order = sorted_in_chunks(range(len(values)), key=keys.__getitem__)
    rank = np.empty(len(values) + 1, dtype=np.int64)
    step = TOUCH_BYTES // 8     # (one call of a million: 0.16 s deaf to Ctrl-C)
    for i in range(0, len(order), step):
        rank[np.asarray(order[i:i + step], dtype=np.int64)] = np.arange(
            i, min(i + step, len(order)))
    rank[-1] = -1
    cats = pd.Index([values[k] for k in order], dtype=object)
    return pd.Categorical.from_codes(rank[codes], dtype=_distinct_categories(pd, cats),
                                     validate=False)


def _distinct_categories(pd, cats):
    """The CategoricalDtype of cats, strings known distinct (a factorize's).
    pandas' own check of them (no NaN, all distinct: a hash of every one) is one
    call deaf to Ctrl-C, 0.25 s of CPU at a million; its fast path skips it.
    Without the fast path (a private method), the checked dtype."""
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    if fast is not None:
        try:
            return fast(cats, False)
        except TypeError:
            pass
    return pd.CategoricalDtype(cats, ordered=False)


def read_csv(source, target=None, *, features=None, discrete=(), continuous=(),
             ignore=(), sep=",", encoding="utf-8", missing=MISSING, progress=None,
             chunk_rows=CHUNK_ROWS, max_columns=MAX_COLUMNS):
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
    max_columns : a header of more columns is refused, before any column is
        made (each costs the DataFrame about 1 KiB: see ``c45.io.MAX_COLUMNS``).

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
                     set(ignore), sep, encoding, frozenset(missing), progress, chunk_rows,
                     max_columns)
    finally:
        if close:
            fh.close()


class _Rewindable:
    """A binary stream that can be read again from where it stood: the file
    itself when it can seek, else a temporary copy made while reading."""

    def __init__(self, fh):
        self.fh, self.copy = fh, None
        try:
            self.start = fh.tell() if fh.seekable() else None
        except (OSError, AttributeError, ValueError):
            self.start = None
        if self.start is None:
            self.copy = tempfile.TemporaryFile()

    def read(self, n=-1):
        data = self.fh.read(n)
        if self.copy is not None:
            self.copy.write(data)
        return data

    def rewound(self):
        if self.copy is None:
            self.fh.seek(self.start)
            return self.fh
        shutil.copyfileobj(self.fh, self.copy)      # a stream read to its end
        self.copy.seek(0)
        return self.copy

    def close(self):
        if self.copy is not None:
            self.copy.close()


class _Rows:
    """The CSV rows of a binary stream: ``header`` (and its line), then the
    rows after it (data_rows), read by the csv module or, a block of lines
    at a time, split by split_block."""

    def __init__(self, fh, path, encoding, sep, max_columns):
        self.path, self.sep = path, sep
        self.feed = LineFeed(text_blocks(fh, path, encoding))
        self.reader = csv.reader(self._counted(self.feed.lines(), max_columns),
                                 delimiter=sep, skipinitialspace=True, strict=True)
        for header in self._rows():
            if any(h.strip() for h in header):
                break
        else:
            raise DataFileError(path, max(self.feed.count, 1), "the file is empty "
                                "(no header row of column names)")
        self.header, self.header_line = header, self.feed.count
        check_columns(path, self.header_line, len(header), max_columns, "the header has")

    def _counted(self, lines, max_columns):
        """The lines, the header's columns counted (and refused beyond
        max_columns) before the csv module makes a string of each: the
        separators outside quoted fields of its first line (exact for a header
        on one line; the csv module's count is checked after)."""
        for line in lines:
            if line.strip():
                text = _QUOTED.sub("", line) if '"' in line else line
                if '"' in text:         # a quoted field that goes on to the next line
                    text = text[:text.index('"')]
                check_columns(self.path, self.feed.count, text.count(self.sep) + 1,
                              max_columns, "the header has")
                yield line
                break
            yield line
        yield from lines

    def _rows(self):
        while True:
            try:
                row = next(self.reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise self.not_csv(exc) from None
            yield row

    def data_rows(self):
        """The csv reader of the rows after the header (``feed.count`` is the
        line a row ends on); a csv.Error from it is for not_csv."""
        return self.reader

    def not_csv(self, exc):
        return DataFileError(self.path, self.feed.count, f"not valid CSV: {exc}")


def split_block(lines, width, sep):
    """The fields of lines that hold exactly width fields each, none quoted,
    blank or too long for the csv module, as width lists (one per column); None
    for any other lines, which the csv module reads (and reports). What it
    returns is what csv.reader returns for them, but for the spaces it skips
    after a separator (skipinitialspace), which every column strips anyway."""
    text = "".join(lines)
    if '"' in text:
        return None
    if "\r" in text:                    # a "\r\n" line end is a line end
        if text.count("\r") != text.count("\r\n"):
            return None
        lines = [line.replace("\r\n", "\n") for line in lines]
        text = "".join(lines)
    limit = csv.field_size_limit()
    if width < 2 or len(text) > limit and max(map(len, lines)) > limit:
        return None             # (one column: a blank line would pass for a row)
    counts = list(map(str.count, lines, repeat(sep)))      # (no numpy: see may_overflow)
    if counts.count(width - 1) != len(counts):
        return None
    if text.endswith("\n"):
        text = text[:-1]
    fields = text.replace("\n", sep).split(sep)
    return [fields[j::width] for j in range(width)]


def _read(fh, path, pd, target, features, discrete, continuous, ignore, sep,
          encoding, missing, progress, chunk_rows, max_columns):
    stream = _Rewindable(fh)
    try:
        return _read_columns(stream, path, pd, target, features, discrete, continuous,
                             ignore, sep, encoding, missing, progress, chunk_rows,
                             max_columns)
    finally:
        stream.close()


def _read_columns(stream, path, pd, target, features, discrete, continuous, ignore, sep,
                  encoding, missing, progress, chunk_rows, max_columns):
    rows = _Rows(stream, path, encoding, sep, max_columns)
    header_line = rows.header_line
    names = [h.strip() for h in rows.header]
    index = {}                              # a dict: linear in the columns
    for j, h in enumerate(names):
        if h == "":
            raise DataFileError(path, header_line, f"column {j + 1} of the header has no "
                                f"name")
        if index.setdefault(h, j) != j:
            raise DataFileError(path, header_line, f"column {h!r} appears twice in the "
                                f"header")
    for option, wanted in (("discrete", discrete), ("continuous", continuous),
                           ("ignore", ignore)):
        unknown = sorted(w for w in wanted if w not in index)
        if unknown:
            raise DataFileError(path, header_line, f"the {option} column {unknown[0]!r} "
                                f"is not in the header {listing(names)}")
    both = discrete & continuous
    if both:
        raise ValueError(f"column {sorted(both)[0]!r} cannot be both discrete and "
                         f"continuous")

    target, feature_names = choose_columns(path, header_line, names, index, target,
                                           features, "column",
                                           f"is not in the header {listing(names)}", ignore)
    cols = [_Column(h, index[h], missing, h in discrete) for h in feature_names]
    tcol = _Column(target, index[target], missing, True) if target is not None else None
    wanted = cols + ([tcol] if tcol is not None else [])

    n_rows, row_lines = _load(rows, wanted, len(names), path, pd, continuous, progress,
                              chunk_rows)
    if n_rows == 0:
        raise DataFileError(path, header_line, "no data rows after the header")
    again = [col for col in cols if col.redo]
    if again:
        for col in again:
            col.as_text()
        if progress is not None:
            progress(f"reading {len(again)} column(s) again as categories")
        _load(_Rows(stream.rewound(), path, encoding, sep, max_columns), again,
              len(names), path, pd, continuous, None, chunk_rows)

    data = {}
    for col in cols:
        values = col.values()
        if col.problem is not None:
            r, message = col.problem
            raise DataFileError(path, int(row_lines[r]), message,
                                field=f"column {col.name!r}")
        data[col.name] = _categorical(pd, values, list(col.vocab)) if col.text else values
    X = pd.DataFrame(data, index=pd.RangeIndex(n_rows))
    y = None
    if tcol is not None:
        codes = tcol.values()
        if (codes < 0).any():
            r = int(np.flatnonzero(codes < 0)[0])
            raise DataFileError(path, int(row_lines[r]), "the class is missing; every "
                                "row needs one", field=f"column {target!r}")
        y = pd.Series(_categorical(pd, codes, list(tcol.vocab)), name=target)
    return X, y


def _load(rows, wanted, width, path, pd, continuous, progress, chunk_rows):
    """Feed the rows to the columns in chunks: (number of rows, their line numbers).
    The cyclic garbage collector is paused meanwhile: the rows held are lists
    (containers) and make no cycles, but would make it scan them again and again
    (it took half the time)."""
    with paused():
        return _load_rows(rows, wanted, width, path, pd, continuous, progress, chunk_rows)


def _load_rows(rows, wanted, width, path, pd, continuous, progress, chunk_rows):
    """Each block of lines split_block can split goes to the columns at once;
    the csv module reads the others, a row at a time."""
    chunk_rows = max(1, min(chunk_rows, CHUNK_CELLS // max(width, 1)))
    buf, lines, line_chunks = [], [], []
    n_rows = chars = 0

    def flush(columns, n, line_numbers):
        row0 = n_rows - n
        for col in wanted:
            col.add_chunk(columns(col.index), row0, pd, col.name in continuous)
        line_chunks.append(line_numbers)
        if progress is not None:
            progress(f"read {n_rows} rows")

    def flush_rows():
        flush(lambda j: list(map(itemgetter(j), buf)), len(buf),
              np.asarray(lines, dtype=np.int64))
        buf.clear()
        lines.clear()

    feed, reader = rows.feed, rows.data_rows()
    split = True        # the csv module is between rows here: try split_block
    while True:         # on what follows, until it fails; again at a new block
        if split or feed.at_block_end():
            part = feed.rest(min(chunk_rows, SPLIT_LINES))
            if not part:
                break
            fields = split_block(part, width, rows.sep)
            split = fields is not None
            if split:
                if buf:
                    flush_rows()
                    chars = 0
                n = len(part)
                n_rows += n
                first = feed.count + 1
                feed.take(n)
                flush(fields.__getitem__, n, range(first, first + n))
                continue
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise rows.not_csv(exc) from None
        if len(row) != width:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue                        # a blank line
            raise DataFileError(path, feed.count, f"{len(row)} fields, expected "
                                f"{width} (the header has {width} columns)")
        buf.append(row)
        lines.append(feed.count)
        n_rows += 1
        chars += sum(map(len, row))
        if len(buf) >= chunk_rows or chars >= CHUNK_CHARS:
            flush_rows()
            chars = 0
    if buf:
        flush_rows()
    return n_rows, _row_lines(line_chunks, n_rows)


def _row_lines(chunks, n_rows):
    """The line of each row, from chunks in row order: ranges (a split block's
    lines follow one another) or arrays (rows the csv module read). The ranges
    are made in a few numpy calls for the whole file, not one a block (each
    gives the GIL up: see may_overflow)."""
    sizes = np.fromiter(map(len, chunks), dtype=np.int64, count=len(chunks))
    firsts = np.fromiter((c.start if isinstance(c, range) else 0 for c in chunks),
                         dtype=np.int64, count=len(chunks))
    starts = np.cumsum(sizes) - sizes
    lines = np.repeat(firsts - starts, sizes) + np.arange(n_rows, dtype=np.int64)
    for c, at in zip(chunks, starts.tolist()):
        if not isinstance(c, range):
            lines[at:at + len(c)] = c
    return lines
