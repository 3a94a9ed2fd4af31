"""Reader for C4.5's ``.names`` / ``.data`` / ``.test`` files (test helper).

The format follows the C4.5 Release 8 specification, section 1:

* ``|`` starts a comment that runs to the end of the line.
* A token ends at ``,``, ``:``, a newline or ``|``.  A ``.`` immediately followed by
  a space, tab, newline or ``|`` (or by the end of the file) also ends a token; any
  other ``.`` is part of the token.
* ``\\`` escapes the next character.
* Runs of spaces (not tabs) inside a token collapse to one space; leading and
  trailing whitespace is dropped.  Whitespace, newlines and comments before a token
  are skipped, so a list continues on the next line after a ``,``.
* The first entry of a ``.names`` file is the comma-separated class list.  Every
  later entry is ``name: spec`` with ``spec`` one of ``continuous``, ``ignore``,
  ``discrete n`` (n >= 2) or an explicit list of at least two values.
* A case is ``v_1, ..., v_A, class``; ``?`` is an unknown value.

Deviations, chosen because this reader only feeds tests: every malformed input raises
:class:`ValueError` naming the file and line (C4.5 prints some errors and carries on,
e.g. it gives an unlisted class the class index 0), and a ``.`` at the very end of a
file without a newline ends the token normally (C4.5 mis-parses that).

Public API: :func:`load_c45`, :func:`read_names`, :func:`tokenize`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

import numpy as np
import pandas as pd

__all__ = ["Token", "Attribute", "Names", "tokenize", "read_names", "read_cases", "load_c45"]

#: Delimiter value of a token that ends at the end of the file.
EOF = ""

_WHITESPACE = " \t\n\r\f\v"
_DOT_FOLLOWERS = " \t\n|"

# A decimal number as strtod reads it (no hex, no inf/nan, no underscores).
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_DISCRETE = re.compile(r"discrete\s+(\d+)")


@dataclass(frozen=True)
class Token:
    """One token of a C4.5 file.

    ``delim`` is the character that ended it: ``","``, ``":"``, ``"."``, ``"\\n"``
    (a newline or a ``|`` comment) or :data:`EOF`.  ``line`` is the 1-based line on
    which the token starts.
    """

    text: str
    delim: str
    line: int


@dataclass
class Attribute:
    """One attribute declared in a ``.names`` file.

    ``kind`` is ``"continuous"``, ``"discrete"`` or ``"ignore"``.  ``values`` holds
    the declared values in declared order (empty for ``discrete n``, whose values
    are collected from the data; ``max_values`` is then ``n``).
    """

    name: str
    kind: str
    values: List[str] = field(default_factory=list)
    max_values: Optional[int] = None
    line: int = 0


@dataclass
class Names:
    """Contents of a ``.names`` file."""

    classes: List[str]
    attributes: List[Attribute]
    path: str = ""


def _error(path, line, message):
    return ValueError(f"{path}, line {line}: {message}")


def tokenize(text: str) -> Iterator[Token]:
    """Split the text of a C4.5 file into :class:`Token` objects."""
    i = 0
    n = len(text)
    line = 1
    while True:
        # Skip whitespace, newlines and comments before the token.
        while i < n:
            c = text[i]
            if c == "|":
                while i < n and text[i] != "\n":
                    i += 1
            elif c in _WHITESPACE:
                if c == "\n":
                    line += 1
                i += 1
            else:
                break
        if i >= n:
            return
        start_line = line
        chars: List[str] = []
        delim = EOF
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
                delim = "\n"
                line += 1
                i += 1
                break
            if c == "|":
                # The comment runs to the end of the line; the token ends as at a
                # newline.  The newline itself is consumed by the next skip.
                delim = "\n"
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
        yield Token("".join(chars).strip(" \t\r\f\v"), delim, start_line)


def _read_text(path: str) -> str:
    with open(path, "r", encoding="utf-8", newline=None) as f:
        return f.read()


def _describe_delim(delim: str) -> str:
    return {",": "','", ":": "':'", ".": "'.'", "\n": "end of line", EOF: "end of file"}[delim]


def read_names(path) -> Names:
    """Read a ``.names`` file: the class list, then the attribute declarations."""
    path = os.fspath(path)
    tokens = tokenize(_read_text(path))

    classes: List[str] = []
    last_line = 1
    for tok in tokens:
        last_line = tok.line
        if tok.text == "":
            raise _error(path, tok.line, "empty class name in the class list")
        if tok.delim == ":":
            raise _error(
                path, tok.line,
                f"the first entry must be the class list, found attribute '{tok.text}:'")
        if tok.text in classes:
            raise _error(path, tok.line, f"class '{tok.text}' is listed twice")
        classes.append(tok.text)
        if tok.delim != ",":
            break
    else:
        if not classes:
            raise _error(path, last_line, "no class list (the file is empty)")
        raise _error(path, last_line, "the class list ends with ','")
    if len(classes) < 1:
        raise _error(path, last_line, "no classes declared")

    attributes: List[Attribute] = []
    seen = set()
    for name_tok in tokens:
        name = name_tok.text
        if name_tok.delim != ":":
            raise _error(
                path, name_tok.line,
                f"expected 'name: spec' but '{name}' is followed by "
                f"{_describe_delim(name_tok.delim)}")
        if name == "":
            raise _error(path, name_tok.line, "empty attribute name")
        if name in seen:
            raise _error(path, name_tok.line, f"attribute '{name}' is declared twice")
        seen.add(name)
        values: List[Token] = []
        for tok in tokens:
            values.append(tok)
            if tok.delim != ",":
                break
        else:
            if not values:
                raise _error(path, name_tok.line,
                             f"attribute '{name}' has no specification")
            raise _error(path, values[-1].line,
                         f"the value list of attribute '{name}' ends with ','")
        if values[-1].delim == ":":
            raise _error(path, values[-1].line,
                         f"unexpected ':' after '{values[-1].text}' in the declaration "
                         f"of attribute '{name}' (missing '.' or newline?)")
        if len(values) == 1:
            spec = values[0].text
            match = _DISCRETE.fullmatch(spec)
            if spec == "continuous":
                attributes.append(Attribute(name, "continuous", line=name_tok.line))
            elif spec == "ignore":
                attributes.append(Attribute(name, "ignore", line=name_tok.line))
            elif match:
                n = int(match.group(1))
                if n < 2:
                    raise _error(path, values[0].line,
                                 f"attribute '{name}': 'discrete {n}' needs n >= 2")
                attributes.append(
                    Attribute(name, "discrete", [], max_values=n, line=name_tok.line))
            else:
                raise _error(
                    path, values[0].line,
                    f"attribute '{name}' has a single value '{spec}' (a value list "
                    f"needs at least two values)")
            continue
        declared: List[str] = []
        for tok in values:
            if tok.text == "":
                raise _error(path, tok.line, f"attribute '{name}' has an empty value")
            if tok.text in declared:
                raise _error(path, tok.line,
                             f"attribute '{name}' lists value '{tok.text}' twice")
            declared.append(tok.text)
        attributes.append(Attribute(name, "discrete", declared, line=name_tok.line))

    if not attributes:
        raise _error(path, last_line, "no attributes declared")
    return Names(classes, attributes, path)


def read_cases(path, names: Names) -> List[Tuple[List[str], int]]:
    """Read the cases of a ``.data``/``.test`` file as raw token texts.

    Returns a list of ``(tokens, line)`` with ``len(names.attributes) + 1`` texts per
    case (the last is the class) and the line on which the case starts.  Checks only
    the shape of each case; values are checked by :func:`load_c45`.
    """
    path = os.fspath(path)
    width = len(names.attributes) + 1
    cases = []
    tokens = tokenize(_read_text(path))
    for first in tokens:
        case = [first]
        while len(case) < width:
            prev = case[-1]
            if prev.delim != ",":
                raise _error(
                    path, prev.line,
                    f"case has {len(case)} values, expected {width} "
                    f"({width - 1} attributes and the class); '{prev.text}' is followed "
                    f"by {_describe_delim(prev.delim)}")
            nxt = next(tokens, None)
            if nxt is None:
                raise _error(path, prev.line,
                             f"the file ends inside a case after '{prev.text},'")
            case.append(nxt)
        last = case[-1]
        if last.delim not in ("\n", ".", EOF):
            raise _error(
                path, last.line,
                f"case has more than {width} values ({width - 1} attributes and the "
                f"class); class '{last.text}' is followed by {_describe_delim(last.delim)}")
        cases.append(([t.text for t in case], case[0].line))
    return cases


def _parse_number(text: str, path: str, line: int, attribute: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise _error(path, line,
                     f"attribute '{attribute}': '{text}' is not a number or '?'")
    return float(text)


def load_c45(stem_path, part: str = "data"):
    """Load ``<stem>.names`` and ``<stem>.<part>`` into pandas objects.

    Parameters
    ----------
    stem_path : str or path-like
        The file stem, e.g. ``tests/data/reference/golf``.
    part : {"data", "test"}, default="data"
        Which case file to read.

    Returns
    -------
    X : pandas.DataFrame
        One column per non-ignored attribute, named as declared and in declared
        order.  Continuous attributes are float64 columns (NaN for ``?``).  Discrete
        attributes are ``pandas.Categorical`` columns whose categories are the
        declared values in declared order (NaN for ``?``).  For ``discrete n`` the
        categories are the values in order of first appearance in ``<stem>.data``,
        then in ``<stem>.test`` (C4.5 numbers them the same way).
    y : pandas.Categorical
        The classes, with the declared classes as categories in declared order.

    Raises
    ------
    ValueError
        For malformed input, naming the file and the line.
    """
    if part not in ("data", "test"):
        raise ValueError(f"part must be 'data' or 'test', got {part!r}")
    stem = os.fspath(stem_path)
    names = read_names(stem + ".names")

    # discrete n: values in order of first appearance in .data, then .test.
    discovered = {i: [] for i, a in enumerate(names.attributes)
                  if a.kind == "discrete" and a.max_values is not None}
    parts = ["data"] if part == "data" else ["data", "test"]
    loaded = {}
    for p in parts:
        path = f"{stem}.{p}"
        cases = read_cases(path, names)
        loaded[p] = (path, cases)
        for i, found in discovered.items():
            limit = names.attributes[i].max_values
            for values, line in cases:
                v = values[i]
                if v != "?" and v not in found:
                    if len(found) >= limit:
                        raise _error(
                            path, line,
                            f"attribute '{names.attributes[i].name}' is 'discrete "
                            f"{limit}' but value '{v}' would be value {limit + 1}")
                    found.append(v)

    path, cases = loaded[part]
    columns = {}
    for i, att in enumerate(names.attributes):
        if att.kind == "ignore":
            continue
        if att.kind == "continuous":
            col = np.empty(len(cases), dtype=np.float64)
            for r, (values, line) in enumerate(cases):
                v = values[i]
                col[r] = np.nan if v == "?" else _parse_number(v, path, line, att.name)
            columns[att.name] = col
        else:
            categories = att.values if att.max_values is None else discovered[i]
            allowed = set(categories)
            col = []
            for values, line in cases:
                v = values[i]
                if v == "?":
                    col.append(None)
                elif v in allowed:
                    col.append(v)
                else:
                    raise _error(path, line,
                                 f"attribute '{att.name}': value '{v}' is not declared "
                                 f"in {names.path}")
            columns[att.name] = pd.Categorical(col, categories=list(categories))

    allowed_classes = set(names.classes)
    labels = []
    for values, line in cases:
        c = values[-1]
        if c not in allowed_classes:
            raise _error(path, line, f"class '{c}' is not declared in {names.path}")
        labels.append(c)

    X = pd.DataFrame(columns, index=pd.RangeIndex(len(cases)))
    if not columns:
        X = pd.DataFrame(index=pd.RangeIndex(len(cases)))
    y = pd.Categorical(labels, categories=list(names.classes))
    return X, y
