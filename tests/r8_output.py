"""Parser for the printed output of C4.5 Release 8 (``c4.5 -f <stem> -u``).

Extracts

* the grown tree (the ``Decision Tree:`` block) and the pruned tree (the
  ``Simplified Decision Tree:`` block; C4.5 prints it only when pruning changed the
  tree, otherwise the pruned tree has the grown tree's structure), each with its
  ``Subtree [Sn]`` blocks expanded inline, so the result is the tree as a fully
  inline print would show it;
* the evaluation tables on the training data and (with ``-u``) on the test data:
  size and errors before pruning; size, errors and estimate after pruning.

Tree lines are returned with trailing whitespace removed.  Subtree expansion: a line
``<indent>att = v:[Sn]`` becomes ``<indent>att = v:`` followed by the lines of subtree
``Sn`` (themselves expanded), each prefixed with ``"|   "`` repeated depth + 1 times,
where depth is the number of ``"|   "`` units in ``<indent>``.  Subtree numbers are
local to one printed tree (the pruned tree restarts at ``S1``).

Public API: :func:`parse_r8_output`, :func:`expand_subtrees`, :func:`tree_depth`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional

__all__ = ["Evaluation", "R8Output", "parse_r8_output", "expand_subtrees", "tree_depth",
           "INDENT"]

INDENT = "|   "

_SUBTREE_REF = re.compile(r"^(?P<head>.*?)\[S(?P<n>\d+)\]$")
_SUBTREE_HEADER = re.compile(r"^Subtree \[S(?P<n>\d+)\]$")
_READ = re.compile(r"^Read (?P<cases>\d+) cases \((?P<atts>\d+) attributes\) from (?P<file>\S+)$")
_EVAL_HEADER = re.compile(
    r"^Evaluation on (?P<which>training|test) data \((?P<items>\d+) items\):$")
_EVAL_ROW = re.compile(
    r"^\s*(?P<size0>\d+)\s+(?P<err0>\d+)\(\s*(?P<pct0>\d+\.\d)%\)"
    r"\s+(?P<size1>\d+)\s+(?P<err1>\d+)\(\s*(?P<pct1>\d+\.\d)%\)"
    r"\s+\(\s*(?P<est>\d+\.\d)%\)")


@dataclass(frozen=True)
class Evaluation:
    """One evaluation table (training or test data).

    ``estimate`` is the printed text inside ``(...%)`` with surrounding spaces
    removed, e.g. ``"6.9"`` for ``( 6.9%)``; ``estimate_pct`` is the same as a float.
    """

    items: int
    size_before: int
    errors_before: int
    size_after: int
    errors_after: int
    estimate: str

    @property
    def estimate_pct(self) -> float:
        return float(self.estimate)


@dataclass(frozen=True)
class R8Output:
    """Everything the tests need from one R8 output file."""

    stem: str
    n_cases: int
    n_attributes: int
    grown_tree: List[str]
    pruned_tree: List[str]
    pruned_printed: bool
    train: Evaluation
    test: Optional[Evaluation]


def tree_depth(line: str) -> int:
    """Number of leading ``"|   "`` units of a tree line."""
    depth = 0
    while line.startswith(INDENT, depth * len(INDENT)):
        depth += 1
    return depth


def expand_subtrees(main: List[str], subtrees: Dict[int, List[str]]) -> List[str]:
    """Expand ``[Sn]`` references in ``main`` using ``subtrees`` (recursively)."""

    def expand(lines: List[str], stack: tuple) -> List[str]:
        out: List[str] = []
        for line in lines:
            m = _SUBTREE_REF.match(line)
            if not m:
                out.append(line)
                continue
            n = int(m.group("n"))
            if n not in subtrees:
                raise ValueError(f"reference to missing subtree [S{n}]: {line!r}")
            if n in stack:
                raise ValueError(f"subtree [S{n}] refers to itself")
            head = m.group("head").rstrip()
            out.append(head)
            prefix = INDENT * (tree_depth(head) + 1)
            out.extend(prefix + sub for sub in expand(subtrees[n], stack + (n,)))
        return out

    return expand(main, ())


def _tree_block(lines: List[str], start: int, end: int) -> List[str]:
    """Tree lines between ``start`` and ``end``, with Subtree blocks expanded."""
    main: List[str] = []
    subtrees: Dict[int, List[str]] = {}
    current = main
    for raw in lines[start:end]:
        line = raw.rstrip()
        if not line:
            continue
        m = _SUBTREE_HEADER.match(line)
        if m:
            n = int(m.group("n"))
            if n in subtrees:
                raise ValueError(f"subtree [S{n}] is printed twice")
            current = subtrees[n] = []
            continue
        current.append(line)
    if not main:
        raise ValueError("empty tree block")
    return expand_subtrees(main, subtrees)


def _find(lines: List[str], text: str, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if lines[i].strip() == text:
            return i
    return -1


def _evaluation(lines: List[str], which: str) -> Optional[Evaluation]:
    for i, line in enumerate(lines):
        m = _EVAL_HEADER.match(line.strip())
        if not m or m.group("which") != which:
            continue
        for row in lines[i + 1:]:
            r = _EVAL_ROW.match(row)
            if r:
                return Evaluation(
                    items=int(m.group("items")),
                    size_before=int(r.group("size0")),
                    errors_before=int(r.group("err0")),
                    size_after=int(r.group("size1")),
                    errors_after=int(r.group("err1")),
                    estimate=r.group("est"),
                )
            if _EVAL_HEADER.match(row.strip()):
                break
        raise ValueError(f"no table row after 'Evaluation on {which} data'")
    return None


def parse_r8_output(source) -> R8Output:
    """Parse an R8 output, given as a path or as the text itself (with newlines)."""
    if isinstance(source, str) and "\n" in source:
        text = source
        stem = ""
    else:
        path = os.fspath(source)
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
        stem = os.path.splitext(os.path.basename(path))[0]
    lines = text.splitlines()

    n_cases = n_atts = -1
    for line in lines:
        m = _READ.match(line.strip())
        if m:
            n_cases, n_atts = int(m.group("cases")), int(m.group("atts"))
            break

    grown_at = _find(lines, "Decision Tree:")
    if grown_at < 0:
        raise ValueError("no 'Decision Tree:' block")
    pruned_at = _find(lines, "Simplified Decision Tree:", grown_at + 1)
    saved_at = _find(lines, "Tree saved", grown_at + 1)
    eval_at = next((i for i, l in enumerate(lines) if l.startswith("Evaluation on")),
                   len(lines))
    end = saved_at if saved_at >= 0 else eval_at

    if pruned_at >= 0:
        grown = _tree_block(lines, grown_at + 1, pruned_at)
        pruned = _tree_block(lines, pruned_at + 1, end)
    else:
        grown = _tree_block(lines, grown_at + 1, end)
        pruned = list(grown)

    train = _evaluation(lines, "training")
    if train is None:
        raise ValueError("no 'Evaluation on training data' table")
    test = _evaluation(lines, "test")
    return R8Output(stem, n_cases, n_atts, grown, pruned, pruned_at >= 0, train, test)
