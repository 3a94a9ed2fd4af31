"""C4.5's own files: ``STEM.names`` declares the classes and attributes,
``STEM.data`` holds the training cases and ``STEM.test`` the test cases.

The format (C4.5 Release 8; project spec §1), as read here:

* ``|`` starts a comment that runs to the end of the line.
* A token ends at ``,``, ``:``, the end of a line or a comment; a ``.`` followed
  by a space, a tab, the end of the line or ``|`` also ends one, any other ``.``
  belongs to the token (``1.5``). ``\\`` escapes the next character.
* Runs of spaces inside a token become one space; leading and trailing blanks go.
  Blank lines and comments between tokens are skipped, so a list may continue on
  the next line after a ``,``.
* ``.names``: first the class list (``a, b, c.``), then one ``name: spec`` entry
  per attribute, ``spec`` being ``continuous``, ``ignore``, ``discrete N`` (N >= 2;
  the values are numbered in order of first appearance in the data, at most N) or
  a list of at least two values.
* ``.data`` / ``.test``: one case per entry, ``v1, ..., vA, class``; ``?`` is an
  unknown value.

Where C4.5 reports an error and carries on (an undeclared class becomes class 0)
this reader stops: every malformed input raises :class:`DataFileError` naming the
file, the line and the attribute. The files are read once, as a stream: runs of
one plain case per line many lines at a time (split_cases), any other line token
by token.
"""
import os
import re
from array import array
from dataclasses import dataclass, field
from itertools import repeat
from typing import List, NamedTuple, Optional

import numpy as np

from c45.io._common import (MAX_COLUMNS, ContinuousColumn, DataFileError,
                            DiscreteColumn, LineFeed, check_columns, declared_index,
                            decoded_lines, need_pandas, open_binary, text_blocks)

_SPLIT = re.compile(r"([,:]|\.(?=[ \t]|$))")
_SPACES = re.compile(r" {2,}")
_DISCRETE = re.compile(r"discrete\s+(\d+)")
_BLANK = " \t\r\f\v"
_DOT_BLANK = re.compile(r"\.[ \t]")
_DOT_FOLLOWERS = " \t\n|"


class Token(NamedTuple):
    """One token: its text, the character that ended it (``","``, ``":"``,
    ``"."`` or ``"\\n"`` for the end of a line or a comment) and its line. A
    tuple: made fast (a frozen dataclass's __init__ took most of a long value
    list's reading) and small."""
    text: str
    delim: str
    line: int


@dataclass
class Attribute:
    """One attribute of a ``.names`` file. ``kind``: ``"continuous"``,
    ``"discrete"`` or ``"ignore"``; ``values`` the declared values (empty for
    ``discrete N``, whose ``max_values`` is N)."""
    name: str
    kind: str
    values: List[str] = field(default_factory=list)
    max_values: Optional[int] = None
    line: int = 0


@dataclass
class Names:
    """The contents of a ``.names`` file."""
    classes: List[str]
    attributes: List[Attribute]
    path: str = ""


def _clean(text):
    text = text.strip(_BLANK)
    return _SPACES.sub(" ", text) if "  " in text else text


def _slow_tokens(text, line):
    """Character by character, for a (logical) line holding a backslash."""
    i, n = 0, len(text)
    while True:
        while i < n:
            c = text[i]
            if c == "|":
                while i < n and text[i] != "\n":
                    i += 1
            elif c in " \t\n\r\f\v":
                if c == "\n":
                    line += 1
                i += 1
            else:
                break
        if i >= n:
            return
        start, chars, delim = line, [], "\n"
        while i < n:
            c = text[i]
            if c == "\\":
                if i + 1 < n:
                    if text[i + 1] == "\n":
                        line += 1
                    chars.append(text[i + 1])
                i += 2
                continue
            if c in ",:":
                delim = c
                i += 1
                break
            if c == "\n":
                line += 1
                i += 1
                break
            if c == "|":
                while i < n and text[i] != "\n":
                    i += 1
                break
            if c == "." and (i + 1 >= n or text[i + 1] in _DOT_FOLLOWERS):
                delim = "."
                i += 1
                break
            if c == " " and chars and chars[-1] == " ":
                i += 1
                continue
            chars.append(c)
            i += 1
        yield Token("".join(chars).strip(_BLANK), delim, start)


def tokens(lines):
    """Tokens of a C4.5 file from its ``(line number, text)`` pairs."""
    lines = iter(lines)
    for number, text in lines:
        yield from line_tokens(number, text, lines)


def line_tokens(number, text, lines):
    """The tokens of one line (an iterator, so that a long line's tokens are not
    all held at once), and of the lines after it that a backslash joins to it
    (taken from lines now)."""
    if "\\" in text:
        # A backslash before the newline escapes it: join the next line.
        while text.endswith("\\\n") and (len(text) - 1 - len(text[:-1].rstrip("\\"))) % 2:
            nxt = next(lines, None)
            if nxt is None:
                break
            text += nxt[1]
        return _slow_tokens(text, number)
    bar = text.find("|")
    if bar >= 0:
        text = text[:bar]
    return _plain_tokens(text.rstrip("\r\n"), number)


# Characters of a line split at once (_plain_tokens): a long line is split a
# piece at a time, so its parts are not all held at once.
SPLIT_CHARS = 1 << 16


def _plain_tokens(text, number, most=SPLIT_CHARS):
    """The tokens of a line without a backslash or comment, made a list of a
    piece at a time: a value list of a million values is one long line, and a
    token at a time in Python took three times ARFF's reading of the same list."""
    start, n = 0, len(text)
    while n - start > most:         # a piece ends at a ",", which ends a token
        end = text.find(",", start + most)
        if end < 0:
            break
        texts, delims = _split_piece(text[start:end + 1])
        yield from map(Token, _cleaned(texts), delims, repeat(number))
        start = end + 1
    texts, delims = _split_piece(text[start:] if start else text)
    yield from map(Token, _cleaned(texts), delims, repeat(number))
    last = _clean(texts[-1])
    if last:
        yield Token(last, "\n", number)


def _split_piece(piece):
    """The texts of a piece of a line (the last one the text after its last
    delimiter) and the delimiters that end the others."""
    if ":" not in piece and "." not in piece:       # commas only: str.split's speed
        texts = piece.split(",")
        return texts, repeat(",", len(texts) - 1)
    parts = _SPLIT.split(piece)
    return parts[0::2], parts[1::2]


def _cleaned(texts):
    """_clean of each text but the last."""
    out = [t.strip(_BLANK) for t in texts[:-1]]
    if any("  " in t for t in out):
        out = [_SPACES.sub(" ", t) if "  " in t else t for t in out]
    return out


class _TokenStream:
    """The tokens of numbered lines, tokenized a line at a time, so that
    between lines (``between_lines``) the lines that follow can be read
    otherwise (split_cases)."""

    def __init__(self, lines):
        self.lines, self.pending, self.ahead = lines, iter(()), None

    def __iter__(self):
        return self

    def __next__(self):
        tok, self.ahead = self.ahead or next(self.pending, None), None
        while tok is None:
            number, text = next(self.lines)
            self.pending = line_tokens(number, text, self.lines)
            tok = next(self.pending, None)
        return tok

    def between_lines(self):
        if self.ahead is None:
            self.ahead = next(self.pending, None)
        return self.ahead is None


def split_cases(lines, columns, target):
    """The adding of the cases of lines to the columns (None: ignored) and the
    target, as functions to call; None unless each line holds exactly one case
    of plain values, no comment, escape, ':' or '.' before a blank, each value
    known or declared, every number finite (the tokens then read, value by
    value, what they say of the others)."""
    text = "".join(lines)
    if "|" in text or "\\" in text or ":" in text or _DOT_BLANK.search(text):
        return None
    width = len(columns) + 1
    if text.endswith("\n"):
        text = text[:-1]
    counts = np.fromiter(map(str.count, text.split("\n"), repeat(",")), dtype=np.intp)
    if (counts != width - 1).any():
        return None
    fields = text.replace("\n", ",").split(",")
    values = [fields[j::width] for j in range(width)]
    if "\r" in text:                        # a "\r\n" line end
        values[-1] = [v.rstrip("\r") for v in values[-1]]
    if "." in "\x01".join(values[-1]):      # a '.' ends a case
        values[-1] = [v[:-1] if v.endswith(".") else v for v in values[-1]]
    blank = any(c in text for c in _BLANK)
    commits = []
    for col, vals in zip(columns + [target], values):
        if col is None:
            continue
        if blank:
            vals = [v.strip(_BLANK) for v in vals]
            if "  " in "\x01".join(vals):
                vals = [_clean(v) for v in vals]
        commit = col.prepare(vals, missing=() if col is target else ("?",))
        if commit is None:
            return None
        commits.append(commit)
    return commits


def _describe(delim):
    return {",": "','", ":": "':'", ".": "'.'", "\n": "the end of the line"}[delim]


def _file_tokens(fh, path, encoding):
    return tokens(decoded_lines(fh, path, encoding))


def read_names(source, encoding="utf-8", max_columns=MAX_COLUMNS):
    """Read a ``.names`` file (a path or a binary file object): :class:`Names`.
    More than ``max_columns`` attributes are refused (see ``c45.io.MAX_COLUMNS``)."""
    fh, path, close = open_binary(source)
    try:
        return _parse_names(_file_tokens(fh, path, encoding), path, max_columns)
    finally:
        if close:
            fh.close()


def _no_repeats(texts, lines, path, what, field=None):
    """DataFileError at the first text of a list that repeats an earlier one
    (lines: each text's line). Checked once the list is read, not value by
    value (a set of them would cost more than the list): before any other error
    of the list, which then stands for the part of it before that error."""
    declared_index(texts, path, lines.__getitem__, field, what)


def _parse_names(toks, path, max_columns=MAX_COLUMNS):
    classes, lines = [], array("i")     # the class names and their lines
    tok = next(toks, None)
    if tok is None:
        raise DataFileError(path, 1, "the file is empty (no class list)")
    while True:
        if tok.text == "" or tok.delim == ":":
            _no_repeats(classes, lines, path, "class")
            if tok.text == "":
                raise DataFileError(path, tok.line, "empty class name in the class list")
            raise DataFileError(path, tok.line, f"the first entry must be the class list "
                                f"(a, b, c.), found an attribute {tok.text!r}: (missing "
                                f"class line?)")
        classes.append(tok.text)
        lines.append(tok.line)
        if tok.delim != ",":
            break
        tok = next(toks, None)
        if tok is None:
            _no_repeats(classes, lines, path, "class")
            raise DataFileError(path, lines[-1], "the class list ends with ','")
    _no_repeats(classes, lines, path, "class")
    last_line = lines[-1]

    attributes, seen = [], set()
    for name_tok in toks:
        name = name_tok.text
        if name_tok.delim != ":":
            raise DataFileError(path, name_tok.line, f"expected 'name: specification' but "
                                f"{name!r} is followed by {_describe(name_tok.delim)}")
        if name == "":
            raise DataFileError(path, name_tok.line, "empty attribute name")
        if name in seen:
            raise DataFileError(path, name_tok.line, f"attribute {name!r} is declared "
                                f"twice")
        seen.add(name)
        check_columns(path, name_tok.line, len(seen), max_columns, "the file declares")
        field = f"attribute {name!r}"
        first = next(toks, None)
        if first is None:
            raise DataFileError(path, name_tok.line, "has no specification", field=field)
        if first.delim != "," and first.delim != ":":
            spec = first.text
            match = _DISCRETE.fullmatch(spec)
            if spec == "continuous":
                attributes.append(Attribute(name, "continuous", line=name_tok.line))
            elif spec == "ignore":
                attributes.append(Attribute(name, "ignore", line=name_tok.line))
            elif match:
                n = int(match.group(1))
                if n < 2:
                    raise DataFileError(path, first.line, f"'discrete {n}' needs "
                                        f"at least 2 values", field=field)
                attributes.append(Attribute(name, "discrete", [], n, name_tok.line))
            else:
                raise DataFileError(path, first.line, f"a single value {spec[:40]!r} "
                                    f"(a value list needs at least two; or continuous, "
                                    f"ignore, discrete N)", field=field)
            continue
        values, lines, tok = [first.text], array("i", [first.line]), first
        if tok.delim == ",":
            # (a for loop over the tokens: a million values are a million of them)
            add_value, add_line = values.append, lines.append
            for tok in toks:
                add_value(tok.text)
                add_line(tok.line)
                if tok.delim != ",":
                    break
            else:
                raise DataFileError(path, lines[-1], "the value list ends with ','",
                                    field=field)
        if tok.delim == ":":
            raise DataFileError(path, tok.line, f"unexpected ':' after {tok.text!r} "
                                f"(missing '.' or end of line?)", field=field)
        if "" in values:
            k = values.index("")
            _no_repeats(values[:k], lines, path, "value", field)
            raise DataFileError(path, lines[k], "empty value in the value list",
                                field=field)
        _no_repeats(values, lines, path, "value", field)
        attributes.append(Attribute(name, "discrete", values, line=name_tok.line))
    if not attributes:
        raise DataFileError(path, last_line, "no attributes declared after the class "
                            "list")
    return Names(classes, attributes, path)


class C45Files:
    """Reads the cases of ``STEM.data`` and ``STEM.test`` against one ``STEM.names``.

    ``discrete N`` attributes number their values in order of first appearance,
    over every file read so far through this object (``.data`` first, as C4.5
    does), so the test cases' columns extend the training columns' categories.
    """

    def __init__(self, stem, encoding="utf-8", max_columns=MAX_COLUMNS):
        self.stem = os.fspath(stem)
        for ext in (".names", ".data", ".test"):
            if self.stem.endswith(ext):   # accept "vote.names" for "vote"
                self.stem = self.stem[:-len(ext)]
        self.encoding = encoding
        self.names = read_names(self.stem + ".names", encoding, max_columns)
        self._found = {i: [] for i, a in enumerate(self.names.attributes)
                       if a.kind == "discrete" and a.max_values is not None}

    def path(self, part):
        return f"{self.stem}.{part}"

    def read(self, part="data", progress=None):
        """``(X, y)`` of ``STEM.<part>``: X a DataFrame (continuous columns
        float64 with NaN for ``?``, discrete ones pandas Categoricals with the
        declared values as categories, in declared order), y a Categorical of the
        declared classes."""
        pd = need_pandas()
        fh, path, close = open_binary(self.path(part))
        try:
            return self._read(fh, path, pd, progress)
        finally:
            if close:
                fh.close()

    def _read(self, fh, path, pd, progress):
        names = self.names
        columns = []
        for i, a in enumerate(names.attributes):
            if a.kind == "ignore":
                columns.append(None)
            elif a.kind == "continuous":
                columns.append(ContinuousColumn(a.name))
            elif a.max_values is not None:
                col = DiscreteColumn(a.name, self._found[i], limit=a.max_values)
                columns.append(col)
            else:
                columns.append(DiscreteColumn(a.name, a.values, declared_in=names.path))
        target = DiscreteColumn("class", names.classes, declared_in=names.path,
                                kind="class")
        width = len(columns) + 1
        feed = LineFeed(text_blocks(fh, path, self.encoding))
        toks = _TokenStream(feed.numbered())
        n_cases = 0
        split = True        # try split_cases (again at each new block) until it fails
        while True:
            if toks.between_lines() and (split or feed.at_block_end()):
                block = feed.rest()
                if not block:
                    break
                commits = split_cases(block, columns, target)
                split = commits is not None
                if split:
                    for commit in commits:
                        commit()
                    feed.take(len(block))
                    before, n_cases = n_cases, n_cases + len(block)
                    if progress is not None and n_cases // 65536 > before // 65536:
                        progress(f"read {n_cases} cases")
                    continue
            first = next(toks, None)
            if first is None:
                break
            case = [first]
            while len(case) < width:
                prev = case[-1]
                if prev.delim != ",":
                    raise DataFileError(
                        path, prev.line, f"the case has {len(case)} values, expected "
                        f"{width} ({width - 1} attributes and the class): "
                        f"{prev.text!r} is followed by {_describe(prev.delim)}")
                nxt = next(toks, None)
                if nxt is None:
                    raise DataFileError(path, prev.line, f"the file ends inside a case, "
                                        f"after {prev.text!r},")
                case.append(nxt)
            last = case[-1]
            if last.delim not in ("\n", "."):
                raise DataFileError(
                    path, last.line, f"the case has more than {width} values ({width - 1} "
                    f"attributes and the class): the class {last.text!r} is followed by "
                    f"{_describe(last.delim)}")
            for col, tok in zip(columns, case):
                if col is not None:
                    col.add(tok.text, path, tok.line)
            if last.text == "?":
                raise DataFileError(path, last.line, "the class is unknown ('?'); every "
                                    "case needs a class")
            target.add(last.text, path, last.line, missing=())
            n_cases += 1
            if progress is not None and n_cases % 65536 == 0:
                progress(f"read {n_cases} cases")
        if n_cases == 0:
            raise DataFileError(path, 1, "no cases (the file is empty)")
        for i, col in enumerate(columns):
            if i in self._found:
                self._found[i] = col.categories
        data = {col.name: col.series(pd) for col in columns if col is not None}
        X = pd.DataFrame(data, index=pd.RangeIndex(n_cases))
        y = pd.Series(target.series(pd), name="class")
        return X, y


def read_c45(stem, part="data", encoding="utf-8", max_columns=MAX_COLUMNS):
    """Read C4.5's ``STEM.names`` and ``STEM.<part>``: ``(X, y)``.

    ``part="test"`` reads ``STEM.data`` first when ``discrete N`` attributes need
    its values (C4.5 numbers them over the data, then the test cases). Malformed
    input raises :class:`DataFileError` naming the file, line and attribute; a
    ``.names`` file of more than ``max_columns`` attributes is refused.
    """
    files = C45Files(stem, encoding, max_columns)
    if part != "data" and files._found:
        files.read("data")
    return files.read(part)
