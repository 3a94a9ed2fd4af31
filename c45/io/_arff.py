"""Weka's ARFF files, read by c45's own reader (no extra dependency).

Supported: ``@relation``; ``@attribute NAME TYPE`` with TYPE ``numeric``,
``real`` or ``integer`` (continuous), a nominal list ``{a, b, 'c d'}`` (discrete,
the declared values in declared order) or ``string`` (discrete, the values in
order of first appearance); ``@data`` rows, dense (``v1, v2, ...``) or sparse
(``{0 v1, 3 v4}``: an omitted value is 0, or the first value of a nominal
attribute, as Weka reads it); ``?`` for an unknown value; ``'...'`` and ``"..."``
quotes with backslash escapes; ``%`` comments. Not supported (an error naming the
line): ``date`` and ``relational`` attributes, instance weights ``{w}``.
The class is the last attribute unless ``target`` names another, as in Weka.
"""
import re
from itertools import repeat

import numpy as np

from c45.io._common import (MAX_COLUMNS, ContinuousColumn, DataFileError,
                            DiscreteColumn, LineFeed, check_columns, choose_columns,
                            declared_index, listing, need_pandas, open_binary,
                            text_blocks)

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"',
            "%": "%"}


# Runs of characters _split copies as they are: outside quotes, inside '...'
# and inside "...".
_PLAIN = {None: re.compile(r"[^'\"%,{]+"), "'": re.compile(r"[^'\\]+"),
          '"': re.compile(r'[^"\\]+')}


def _split(text, path, line, stop=None):
    """Split on "," outside quotes; '%' outside quotes ends the line.
    Returns (values, quoted, rest): the stripped values, whether each held a
    quote (an iterable), and the text after ``stop`` if given (else None). A
    text without quotes is split at once; otherwise each value by one match
    (_simple_split) or, failing that, by runs of plain characters (_PLAIN), so a
    long declaration costs its values and time linear in its length."""
    if "'" not in text and '"' not in text:
        cut = min(text.find(c) % (len(text) + 1) for c in ("%", stop or "%"))
        rest = text[cut + 1:] if cut < len(text) and text[cut] == stop else None
        values = [v.strip() for v in text[:cut].split(",")]
        return values, repeat(False, len(values)), rest
    simple = _simple_split(text)
    if simple is not None:
        return simple
    values, quoted, cur, i, n = [], [], [], 0, len(text)
    q = None                    # the open quote, if any
    while i < n:
        run = _PLAIN[q].match(text, i)
        if run is not None:
            cur.append(run.group())
            i = run.end()
            continue
        c = text[i]
        if q is not None:       # in quotes: an escape or the closing quote
            if c == "\\" and i + 1 < n:
                cur.append(_ESCAPES.get(text[i + 1], text[i + 1]))
                i += 2
            elif c == q:
                q = None
                i += 1
            else:               # a lone backslash at the end, the other quote
                cur.append(c)
                i += 1
            continue
        if c in "'\"":
            q = c
            i += 1
            if len(quoted) == len(values):
                quoted.append(True)
            continue
        if c == "%":
            break
        if c == stop:
            _close(values, quoted, cur)
            return values, quoted, text[i + 1:]
        if c == ",":
            _close(values, quoted, cur)
            cur = []
            i += 1
            continue
        cur.append(c)           # "{" without a stop
        i += 1
    if q is not None:
        raise DataFileError(path, line, f"unterminated {q}quote{q}")
    _close(values, quoted, cur)
    return values, quoted, None


# A value that is one quoted piece without escapes, or plain, then "," or the end.
_SIMPLE = re.compile(r"""\s*(?:'([^'\\]*)'|"([^"\\]*)"|([^'",%{]*))\s*(,|\Z)""")


def _simple_split(text):
    """_split's answer when each value is _SIMPLE, a match a value; else None."""
    values, quoted, pos, match = [], [], 0, _SIMPLE.match
    while True:
        m = match(text, pos)
        if m is None:
            return None
        single, double, plain, end = m.groups()
        values.append((single if single is not None else double if double is not None
                       else plain).strip())
        quoted.append(plain is None)
        if not end:
            return values, quoted, None
        pos = m.end()


def _close(values, quoted, cur):
    """End the value of the pieces cur."""
    values.append("".join(cur).strip())
    if len(quoted) < len(values):
        quoted.append(False)


def _name_and_rest(text, path, line):
    """The (possibly quoted) first word of ``text`` and what follows it."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        q = text[0]
        i, out = 1, []
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
                i += 2
                continue
            if c == q:
                return "".join(out), text[i + 1:].strip()
            out.append(c)
            i += 1
        raise DataFileError(path, line, f"unterminated {q}quote{q} in a name")
    parts = text.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


def read_arff(source, target=None, *, features=None, encoding="utf-8", progress=None,
              max_columns=MAX_COLUMNS):
    """Read an ARFF file (a path or a binary file object): ``(X, y)``.

    ``target``: the class attribute, by default the last one. ``features``: the
    attributes wanted as X, in this order (for prediction; then y is None when the
    file has no ``target`` attribute). X holds float64 columns for numeric
    attributes and pandas Categoricals for nominal and string ones; y is a
    Categorical with the nominal class values in declared order. A file that
    declares more than ``max_columns`` attributes is refused (see
    ``c45.io.MAX_COLUMNS``).
    """
    pd = need_pandas()
    fh, path, close = open_binary(source)
    try:
        return _read(fh, path, pd, target, features, encoding, progress, max_columns)
    finally:
        if close:
            fh.close()


def split_rows(lines, builders, target):
    """The adding of the rows of lines to the builders (None: skipped), as
    functions to call; None unless each line is one dense row of plain values
    (no quote, comment, brace or blank line), each known or declared and every
    number finite (the row by row reading then says what is wrong)."""
    text = "".join(lines)
    if any(c in text for c in "'\"%{"):
        return None
    if text.endswith("\n"):
        text = text[:-1]
    width = len(builders)
    counts = list(map(str.count, text.split("\n"), repeat(",")))   # (see may_overflow)
    if counts.count(width - 1) != len(counts):
        return None
    fields = text.replace("\n", ",").split(",")
    blank = not text.isascii() or any(c in text for c in _ASCII_BLANKS)
    commits = []
    for j, b in enumerate(builders):
        if b is None:
            continue
        values = fields[j::width]
        if blank:
            values = [v.strip() for v in values]
        commit = b.prepare(values, missing=() if b.name == target else ("?",))
        if commit is None:
            return None
        commits.append(commit)
    return commits


# What str.strip() strips among ASCII characters.
_ASCII_BLANKS = " \t\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _read(fh, path, pd, target, features, encoding, progress, max_columns):
    feed = LineFeed(text_blocks(fh, path, encoding))
    lines = feed.numbered()
    attributes = []         # (name, kind, values, line)
    declared = set()
    data_line = None
    for number, text in lines:
        s = text.strip()
        if not s or s.startswith("%"):
            continue
        word, rest = (s.split(None, 1) + [""])[:2]
        key = word.lower()
        if key == "@relation":
            continue
        if key == "@attribute":
            name, spec = _name_and_rest(rest, path, number)
            s = rest = None             # copies of a long nominal list's line
            if not name:
                raise DataFileError(path, number, "@attribute without a name")
            if name in declared:           # a set: linear in the attributes
                raise DataFileError(path, number, f"attribute {name!r} is declared twice")
            declared.add(name)
            check_columns(path, number, len(declared), max_columns, "the file declares")
            if spec.startswith("{"):
                if "}" not in spec:
                    raise DataFileError(path, number, "the nominal value list has no "
                                        "closing '}'", field=f"attribute {name!r}")
                values = _split(spec[1:spec.rindex("}")], path, number)[0]
                if "" in values:
                    raise DataFileError(path, number, "empty nominal value",
                                        field=f"attribute {name!r}")
                values = declared_index(values, path, lambda k: number,
                                        f"attribute {name!r}", "nominal value")
                attributes.append((name, "nominal", values, number))
                continue
            kind = spec.split(None, 1)[0].lower() if spec.strip() else ""
            if kind in ("numeric", "real", "integer"):
                attributes.append((name, "numeric", None, number))
            elif kind == "string":
                attributes.append((name, "string", None, number))
            elif kind in ("date", "relational"):
                raise DataFileError(path, number, f"{kind} attributes are not "
                                    f"supported", field=f"attribute {name!r}")
            else:
                raise DataFileError(path, number, f"unknown attribute type {spec[:40]!r} "
                                    f"(numeric, real, integer, string or {{values}})",
                                    field=f"attribute {name!r}")
            continue
        if key == "@data":
            data_line = number
            break
        raise DataFileError(path, number, f"expected @relation, @attribute or @data, "
                            f"found {s[:40]!r}")
    if data_line is None:
        if not attributes:
            raise DataFileError(path, 1, "the file is empty (no @attribute or @data)")
        raise DataFileError(path, attributes[-1][3], "no @data section")
    if not attributes:
        raise DataFileError(path, data_line, "no @attribute declared before @data")

    names = [a[0] for a in attributes]
    target, feature_names = choose_columns(path, data_line, names, declared, target, features,
                                           "attribute",
                                           f"is not declared (attributes: {listing(names)})")
    if target is not None:
        kind = attributes[names.index(target)][1]
        if kind == "numeric":
            raise DataFileError(path, attributes[names.index(target)][3],
                                "the class attribute is numeric; c45 classifies "
                                "(a nominal class is needed)", field=f"attribute {target!r}")

    builders = []
    wanted = set(feature_names)             # a set: linear in the attributes
    for name, kind, values, _ in attributes:
        if name not in wanted and name != target:
            builders.append(None)
        elif kind == "numeric":
            builders.append(ContinuousColumn(name))
        elif kind == "nominal":
            builders.append(DiscreteColumn(name, values, declared_in="the header",
                                           kind="class" if name == target else "value",
                                           field=f"attribute {name!r}"))
        else:
            builders.append(DiscreteColumn(name, None))
    width = len(attributes)
    n_rows = 0
    split = True        # try split_rows (again at each new block) until it fails
    while True:
        if split or feed.at_block_end():
            block = feed.rest()
            if not block:
                break
            commits = split_rows(block, builders, target)
            split = commits is not None
            if split:
                for commit in commits:
                    commit()
                feed.take(len(block))
                before, n_rows = n_rows, n_rows + len(block)
                if progress is not None and n_rows // 65536 > before // 65536:
                    progress(f"read {n_rows} rows")
                continue
        number, text = next(lines, (None, None))
        if number is None:
            break
        s = text.strip()
        if not s or s.startswith("%"):
            continue
        if s.startswith("{"):
            if "}" not in s:
                raise DataFileError(path, number, "a sparse row without its closing '}'")
            body = s[1:s.index("}")]
            if s[s.index("}") + 1:].strip().startswith("{"):
                raise DataFileError(path, number, "instance weights are not supported")
            row = [None] * width
            if body.strip():
                for item in _split(body, path, number)[0]:
                    idx, _, value = item.partition(" ")
                    try:
                        j = int(idx)
                    except ValueError:
                        raise DataFileError(path, number, f"sparse entry {item!r} does not "
                                            f"start with an attribute index") from None
                    if not 0 <= j < width:
                        raise DataFileError(path, number, f"attribute index {j} is out "
                                            f"of range (0..{width - 1})")
                    row[j] = (value.strip().strip("'\""), False)
            fields = []
            for j, (name, kind, values, _) in enumerate(attributes):
                if row[j] is not None:
                    fields.append(row[j])
                elif kind == "numeric":
                    fields.append(("0", False))
                elif kind == "nominal":
                    fields.append((values[0], True))
                else:                           # a string: unknown
                    fields.append(("?", False))
        else:
            values, quoted, rest = _split(s, path, number, stop="{")
            fields = list(zip(values, quoted))
            if rest is not None:
                raise DataFileError(path, number, "instance weights are not supported")
            if len(fields) != width:
                raise DataFileError(path, number, f"{len(fields)} values, expected "
                                    f"{width} (one per @attribute)")
        for j, (b, (value, quoted)) in enumerate(zip(builders, fields)):
            if b is None:
                continue
            miss = ("?",) if not quoted else ()
            if b.name == target:
                if value == "?" and not quoted:
                    raise DataFileError(path, number, "the class is unknown ('?'); every "
                                        "case needs a class", field=f"attribute {target!r}")
                b.add(value, path, number, missing=())
            else:
                b.add(value, path, number, missing=miss)
        n_rows += 1
        if progress is not None and n_rows % 65536 == 0:
            progress(f"read {n_rows} rows")
    if n_rows == 0:
        raise DataFileError(path, data_line, "no data rows after @data")
    by_name = {b.name: b for b in builders if b is not None}
    X = pd.DataFrame({f: by_name[f].series(pd) for f in feature_names},
                     index=pd.RangeIndex(n_rows))
    y = None
    if target is not None:
        y = pd.Series(by_name[target].series(pd), name=target)
    return X, y
