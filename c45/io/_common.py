"""What the readers share: the error they raise, line-by-line decoding, and
the column builders that turn values into the columns of a DataFrame."""
import codecs
import math
import os
import re
from array import array
from itertools import compress, repeat
from operator import is_

import numpy as np

# A decimal number as C's strtod reads it (ASCII digits; no hex, inf, nan or
# underscores).
NUMBER = re.compile(r"[ \t]*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[ \t]*", re.ASCII)
# Characters outside every number: values joined by "\x01" and free of them (and
# that float() accepts) are all numbers in NUMBER's sense, checked in one scan.
NOT_NUMBER = re.compile(r"[^0-9eE+\-.\x01]")
# The digits of an exponent that is not negative (may_overflow).
_POSITIVE_EXPONENT = re.compile(r"[eE]\+?(\d+)")


class DataFileError(ValueError):
    """A data file that cannot be read: names the file, the line and the field.

    Attributes ``path``, ``line`` (1-based, or None) and ``field`` (the attribute
    or column concerned, or None); ``reason`` is the message without them.
    """

    def __init__(self, path, line, reason, field=None):
        self.path = os.fspath(path) if path is not None else "<input>"
        self.line = line
        self.field = field
        self.reason = reason
        where = self.path if line is None else f"{self.path}, line {line}"
        if field is not None:
            where += f", {field}"
        super().__init__(f"{where}: {reason}")


def need_pandas(what="reading data files"):
    from c45._optional import require
    return require("pandas", what)


# The longest line a reader accepts, in characters. A text data file's lines are
# short; a stream without line breaks (a device, a binary file) would otherwise
# be read into memory whole. A CSV field is bounded tighter by Python's csv module.
MAX_LINE_CHARS = 64 * 1024 * 1024
READ_BLOCK = 1 << 20            # bytes read at a time
# The most lines split at once (LineFeed.rest): the strings of their fields are
# held meanwhile (a few MiB). A block's numpy and pandas calls give the GIL up
# (a switch interval each beside a busy Python thread: see may_overflow), so
# fewer, larger blocks; 16,384 lines cost a few MiB more than 2,048 did.
SPLIT_LINES = 16384
# A carriage return that ends a line by itself (classic Mac OS line ends, as
# Python's universal newlines read them): read as the "\r\n" every reader takes.
LONE_CR = re.compile(r"\r(?!\n)")
# The most columns (CSV header fields, ARFF or .names attributes) a reader accepts
# by default (its ``max_columns``). A column costs its DataFrame about 1 KiB
# (pandas.read_csv: 1.1 GB for 1M columns of one row, 5.5 GB for 5M) against the
# few bytes of its name in the file: no multiple of the file bounds that, so a
# wider file is refused before any column is made, at the cost of its header.
MAX_COLUMNS = 250_000


def text_decoder(path, encoding):
    """An incremental decoder of the text encoding; DataFileError if there is none."""
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError):
        raise DataFileError(path, None, f"unknown text encoding {encoding!r}") from None
    if not getattr(info, "_is_text_encoding", True) or info.incrementaldecoder is None:
        # base64, zlib, rot13, ...
        raise DataFileError(path, None, f"{encoding!r} is not a text encoding")
    return info.incrementaldecoder("strict")


def decoded_lines(fh, path, encoding, max_line=MAX_LINE_CHARS):
    """Yield (line number, text) of a binary file, one line at a time: see
    text_lines."""
    return enumerate(text_lines(fh, path, encoding, max_line), 1)


def text_lines(fh, path, encoding, max_line=MAX_LINE_CHARS):
    """Yield the lines of a binary file, each ending with its "\\n" (but perhaps
    the last): text_blocks' lines one at a time."""
    for lines in text_blocks(fh, path, encoding, max_line):
        yield from lines


def text_blocks(fh, path, encoding, max_line=MAX_LINE_CHARS):
    """Yield the lines of a binary file in lists (those that end in a block
    read), each line ending with its "\\n" (but perhaps the last). The bytes are
    decoded before they are split into lines, so encodings in which a line break
    is not the byte 0x0A (UTF-16, UTF-32) read as well. An undecodable line, a NUL
    character or a line longer than ``max_line`` characters raises DataFileError
    naming the line, as soon as it is met (so a stream without line breaks costs
    ``max_line`` at most). A byte order mark (an editor's, on Windows) is not part
    of the first line. A line may end in "\n", "\r\n" or a lone "\r" (LONE_CR:
    it ends in "\r\n" then)."""
    decoder = text_decoder(path, encoding)
    number = 0                  # lines yielded
    tail, tail_len = [], 0      # the pieces of the line not yet ended
    cr = ""                     # a block's last "\r", until what follows it is read
    final = False
    while not final:
        raw = fh.read(READ_BLOCK)
        final = not raw
        bad = None              # raised once the lines before it are read
        try:
            text = decoder.decode(raw, final)
        except UnicodeDecodeError as exc:
            bad, text = exc, _decoded_before(decoder, exc)
        except UnicodeError as exc:     # the codec's own words (UTF-16: no BOM)
            raise DataFileError(path, number + 1, f"cannot be decoded as {encoding} "
                                f"({exc}): not a text file, or give its encoding") from None
        if cr or "\r" in text:
            text, cr = cr + text, ""
            if text.endswith("\r") and not final and bad is None:
                text, cr = text[:-1], "\r"
            text = LONE_CR.sub("\r\n", text)
        nul = None
        if "\x00" in text:
            upto = text.index("\x00")
            nul = number + 1 + text.count("\n", 0, upto)
            text = text[:text.rfind("\n", 0, upto) + 1]
        pieces = text.split("\n")
        if number == 0 and pieces[0].startswith("\ufeff") and not tail:
            pieces[0] = pieces[0][1:]
        last = pieces.pop()
        if tail and pieces:
            tail.append(pieces[0])
            if tail_len + len(pieces[0]) > max_line:
                raise _too_long(path, number + 1, max_line)
            pieces[0], tail, tail_len = "".join(tail), [], 0
        if pieces:              # no longer than a block, a tail's checked above
            pieces = [piece + "\n" for piece in pieces]    # (not held twice)
            yield pieces
        number += len(pieces)
        if nul is not None:
            raise DataFileError(path, nul, "holds a NUL byte: not a text file")
        if last:
            tail.append(last)
            tail_len += len(last)
            if tail_len > max_line:
                raise _too_long(path, number + 1, max_line)
        if bad is not None:
            raise _undecodable(path, number + 1, "".join(tail), bad, encoding)
    if tail:
        yield ["".join(tail)]


class LineFeed:
    """The lines of a stream (text_blocks' lists), handed out one at a time
    (``lines``, ``numbered``: to the csv module, a tokenizer) or a block's worth at
    a time (``rest``, then ``take``: to a reader that splits many lines at once).
    ``count``: the lines handed out, so the line a row ends on."""

    def __init__(self, blocks):
        self.blocks, self.block, self.pos, self.count = blocks, [], 0, 0

    def lines(self):
        while True:
            while self.pos < len(self.block):   # the block may change between lines
                line = self.block[self.pos]
                self.pos += 1
                self.count += 1
                yield line
            self.block, self.pos = next(self.blocks, None), 0
            if self.block is None:
                self.block = []
                return

    def numbered(self):
        for line in self.lines():
            yield self.count, line

    def at_block_end(self):
        return self.pos == len(self.block)

    def rest(self, most=SPLIT_LINES):
        """The lines of the block not handed out yet (at most ``most``), else
        the next block's ([] at the end of the stream)."""
        if self.pos == len(self.block):
            self.block, self.pos = next(self.blocks, []), 0
        return self.block[self.pos:self.pos + most]

    def take(self, n):
        self.pos += n
        self.count += n


def _decoded_before(decoder, exc):
    """The text of the bytes before an undecodable one (exc.object is the bytes
    the decoder held over from the block before, then the block)."""
    try:
        held = len(decoder.getstate()[0])
        return decoder.decode(exc.object[held:max(exc.start, held)])
    except (UnicodeDecodeError, TypeError):
        return ""


def _undecodable(path, number, line, exc, encoding):
    """The DataFileError of bytes that cannot be decoded on line number, after
    the text line of it: which byte of the line (counted by encoding it back)."""
    try:
        at = len(line.encode(encoding)) - len("".encode(encoding))   # less a BOM
    except UnicodeError:
        at = len(line)
    bad = exc.object[exc.start:exc.start + 1]
    return DataFileError(
        path, number, f"cannot be decoded as {encoding} (byte {at + 1} of the line is "
        f"{bad!r}): not a text file, or give its encoding")


def _too_long(path, number, max_line):
    return DataFileError(path, number, f"is longer than {max_line} characters without a "
                         f"line break: not a text file of lines (or a corrupt one)")


def check_columns(path, line, n, max_columns, what):
    """DataFileError if n columns (what: "the header has", ...) are beyond
    max_columns."""
    if n > max_columns:
        raise DataFileError(path, line, f"{what} more than {max_columns:,} columns: "
                            f"refused, as each column costs its DataFrame about 1 KiB "
                            f"(max_columns={max_columns} is the limit, --max-columns "
                            f"on the command line)")


def declared_index(values, path, line_of, field, what="value"):
    """The pandas Index of declared values (a nominal list, a class list), which
    are both a Categorical's categories and its lookup: one object array and a
    hash table, about 40 bytes a value beside the strings (a dict of str -> code
    costs 70). DataFileError on a repeated value, naming its line (line_of:
    its position -> its line)."""
    pd = need_pandas()
    index = pd.Index(np.array(values, dtype=object), dtype=object, copy=False) \
        if values else pd.Index([], dtype=object)
    if not index.is_unique:
        k = int(np.flatnonzero(index.duplicated())[0])
        raise DataFileError(path, line_of(k), f"{what} {values[k]!r} is listed twice",
                            field=field)
    return index


def listing(names, most=20):
    """The names for a message: all of a few, else the first ones and how many
    (a message does not copy a header of 100,000 columns)."""
    if len(names) <= most:
        return str(list(names))
    return f"{list(names[:most])} and {len(names) - most:,} more"


def open_binary(source):
    """(file object, path, should_close) for a path or an open binary file."""
    if hasattr(source, "read"):
        return source, getattr(source, "name", "<input>"), False
    path = os.fspath(source)
    if os.path.isdir(path):
        raise DataFileError(path, None, "is a directory, not a data file")
    try:
        return open(path, "rb"), path, True
    except FileNotFoundError:
        raise DataFileError(path, None, "no such file") from None
    except PermissionError:
        raise DataFileError(path, None, "permission denied") from None


def numeric_sort_key(values):
    """Sort key for category labels: by number when every label is a number."""
    if values and all(NUMBER.fullmatch(v) for v in values):
        return lambda v: (float(v), v)
    return None


def may_overflow(values, joined=None):
    """Whether some of these numbers' texts (NUMBER's; joined: them joined by a
    character of no number, if at hand) can be beyond float64. A text of L
    characters and exponent e (0 if none or negative) is below 10**(L + e):
    none is when the longest text and the largest exponent add up to 308 at
    most. Looked at here, not with numpy: every numpy call on 500 values or more
    gives the GIL up, a switch interval beside a busy Python thread, and the
    readers parse a block of lines at a time."""
    if joined is None:
        joined = "\x01".join(values)
    longest = max(map(len, values), default=0)
    if "e" not in joined and "E" not in joined:
        return longest > 308
    return longest + max(map(int, _POSITIVE_EXPONENT.findall(joined)), default=0) > 308


def joined_arrays(chunks):
    """np.concatenate of 1-D arrays of one dtype, copied through memoryviews:
    numpy's gives the GIL up once an array (see may_overflow)."""
    out = np.empty(sum(map(len, chunks)), dtype=chunks[0].dtype)
    view, at = memoryview(out).cast("B"), 0
    for chunk in chunks:
        part = memoryview(np.ascontiguousarray(chunk, dtype=out.dtype)).cast("B")
        view[at:at + len(part)] = part
        at += len(part)
    return out


def too_large(text):
    """The message for a number beyond float64 (strtod's HUGE_VAL: C4.5 would read
    an infinity, which no test can split)."""
    return f"{text.strip()[:40]!r} is beyond the range of a double (about 1.8e308)"


def numbers_at_once(values, missing):
    """The float64 values (NaN for those in missing) of strings that are all
    numbers in NUMBER's sense (without blanks around) or missing, parsed by one
    numpy call: no per-value Python work but a scan for the missing ones when
    there may be some. None when any other string is among them."""
    joined = "\x01".join(values)
    known, miss = values, None
    if NOT_NUMBER.search(joined) or any(_holds(joined, m) for m in missing
                                        if not NOT_NUMBER.search(m)):
        miss = np.fromiter(map(missing.__contains__, values), dtype=bool,
                           count=len(values))
        known = list(compress(values, (~miss).tolist()))
        if NOT_NUMBER.search("\x01".join(known)):
            return None
    try:
        floats = np.array(known, dtype=np.float64)
    except ValueError:          # "1.2.3", "-", "1e": not numbers
        return None
    if miss is None:
        return floats
    out = np.full(len(values), np.nan)
    out[~miss] = floats
    return out


def _holds(joined, value):
    """Whether the values joined by "\\x01" hold this one."""
    return (f"\x01{value}\x01" in joined or joined.startswith(f"{value}\x01")
            or joined.endswith(f"\x01{value}") or joined == value)


class ContinuousColumn:
    """Floats, NaN for unknown; non-numbers raise DataFileError."""

    def __init__(self, name):
        self.name = name
        self.values = array("d")

    def add(self, text, path, line, missing=("?",)):
        if text in missing:
            self.values.append(math.nan)
        elif NUMBER.fullmatch(text):
            value = float(text)
            if math.isinf(value):
                raise DataFileError(path, line, too_large(text),
                                    field=f"attribute {self.name!r}")
            self.values.append(value)
        else:
            raise DataFileError(path, line, f"{text!r} is not a number (nor '?' for "
                                f"an unknown value)", field=f"attribute {self.name!r}")

    def prepare(self, values, missing=("?",)):
        """The adding of many values at once, to call when every column has
        prepared its own (a function); None when one would raise: add, value by
        value, says which."""
        floats = numbers_at_once(values, missing)
        if floats is None or (may_overflow(values) and np.isinf(floats).any()):
            return None
        return lambda: self.values.frombytes(floats.tobytes())

    def series(self, pd):
        return np.frombuffer(self.values, dtype=np.float64).copy() if len(
            self.values) else np.empty(0, dtype=np.float64)


class DiscreteColumn:
    """Codes into a list of values: declared (fixed: a pandas Index, see
    declared_index) or found in the data (in order of first appearance, at most
    ``limit`` values; a dict, growing with the data)."""

    def __init__(self, name, values=None, limit=None, declared_in=None, kind="value",
                 field=None):
        self.name = name
        self.field = field if field is not None or kind != "value" else \
            f"attribute {name!r}"
        self.fixed = values is not None and limit is None
        if self.fixed:      # (an Index: the reader checked the values already)
            self.categories = values if isinstance(values, need_pandas().Index) else \
                declared_index(values, declared_in, lambda k: None, self.field)
        else:
            self.categories = list(values or [])
            self.lookup = {v: i for i, v in enumerate(self.categories)}
        self.limit = limit
        self.declared_in = declared_in
        self.kind = kind
        self.codes = array("i")

    def add(self, text, path, line, missing=("?",)):
        if text in missing:
            self.codes.append(-1)
            return
        if self.fixed:
            try:
                code = self.categories.get_loc(text)
            except KeyError:
                code = self._new(text, path, line)
        else:
            code = self.lookup.get(text)
            if code is None:
                code = self._new(text, path, line)
        self.codes.append(code)

    def prepare(self, values, missing=("?",)):
        """As ContinuousColumn.prepare: None when a value is neither known nor
        missing and cannot be added (declared values, or ``limit`` reached)."""
        if self.fixed:
            target = np.array(values, dtype=object)     # as an object Index: not
            codes = self.categories.get_indexer(        # inferred to strings (7x)
                type(self.categories)(target, dtype=object, copy=False))
            # (lists, not numpy calls on the block's codes: see may_overflow)
            listed = codes.tolist()
            if -1 in listed and not all(values[i] in missing for i, c in
                                        enumerate(listed) if c < 0):
                return None
            return lambda: self.codes.extend(listed)
        codes = list(map(self.lookup.get, values))
        new = {}                        # values met first here, in order
        if None in codes:
            for i in compress(range(len(codes)), map(is_, codes, repeat(None))):
                v = values[i]
                if v in missing:
                    codes[i] = -1
                    continue
                code = new.get(v)
                if code is None:
                    code = len(self.categories) + len(new)
                    if self.limit is not None and code >= self.limit:
                        return None
                    new[v] = code
                codes[i] = code

        def commit():
            self.codes.extend(array("i", codes))
            self.lookup.update(new)
            self.categories.extend(new)
        return commit

    def _new(self, text, path, line):
        field = self.field
        if self.fixed:
            what = "class" if self.kind == "class" else "value"
            where = f" in {self.declared_in}" if self.declared_in else ""
            raise DataFileError(path, line, f"{what} {text!r} is not declared{where}",
                                field=field)
        if self.limit is not None and len(self.categories) >= self.limit:
            raise DataFileError(
                path, line, f"declared 'discrete {self.limit}' but {text!r} would be "
                f"value {self.limit + 1}", field=field)
        code = len(self.categories)
        self.categories.append(text)
        self.lookup[text] = code
        return code

    def series(self, pd):
        codes = np.frombuffer(self.codes, dtype=np.int32) if len(self.codes) else \
            np.empty(0, dtype=np.int32)
        categories = self.categories if self.fixed else pd.Index(
            list(self.categories), dtype=object)
        return pd.Categorical.from_codes(codes.astype(np.int64), categories=categories,
                                         validate=False)


def choose_columns(path, line, names, present, target, features, noun, absent, ignore=()):
    """(target, feature names) of a data file whose columns are names (present:
    the same as a set, for the model's features). With features (a model's), those columns, and the target
    only when the file has it; otherwise the target given (by default the last
    column) and every other column not ignored. noun: what the format calls a
    column ("attribute", "column"); absent: how a message says one is missing
    ("is not declared", "is not in the header [...]")."""
    if features is not None:
        missing = [f for f in features if f not in present]
        if missing:
            raise DataFileError(path, line, f"the model's feature {noun} {missing[0]!r} "
                                f"{absent}")
        if target is not None and target not in names:
            target = None
        return target, list(features)
    if target is None:
        target = names[-1]
    elif target not in names:
        raise DataFileError(path, line, f"the target {noun} {target!r} {absent}"
                            + _separator_hint(names))
    if target in ignore:
        raise ValueError(f"the target {noun} {target!r} is also ignored")
    feature_names = [h for h in names if h != target and h not in ignore]
    if not feature_names:
        raise DataFileError(path, line, f"no feature {noun}s besides the target {target!r}"
                            + _separator_hint(names))
    return target, feature_names


def _separator_hint(names):
    """A header read as one column that holds another likely separator."""
    if len(names) == 1:
        for sep in (";", "\t", "|"):
            if sep in str(names[0]):
                return (f"; the header is one column: are the fields separated by "
                        f"{sep!r}? (sep={sep!r}, or --sep on the command line)")
    return ""

