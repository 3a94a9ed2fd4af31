"""Every ```python block of README.md and docs/*.md runs as a reader runs it, and
prints what the page shows.

A page's blocks run in order in one fresh Python process (one namespace, like a
notebook), whose working directory is a new temporary directory outside the
checkout: a block that needs a data file must make it (c45.datasets has the data).

What a page shows as output, and is compared exactly (trailing blanks aside):

* the ``#`` comment lines that directly follow a top-level ``print(...)``
  statement (``# `` stripped) are what that statement prints;
* a ```text block right after a python block (blank lines between allowed) is
  everything the python block prints.

A top-level expression that is not a print, directly followed by comment lines,
is refused: it shows a value that nothing prints, so nothing would check it.
A block that cannot run (an illustration of code needing the reader's own files or
services) is marked by an ``<!-- no-run: why -->`` line before it; the reason is
required.
"""
import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if not (ROOT / "README.md").is_file():
    pytest.skip("the pages are not beside these tests", allow_module_level=True)
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
NO_RUN = re.compile(r"^<!--\s*no-run:\s*(\S.*?)\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(path):
    """[(language, first line number of the code, code lines, no-run reason)]."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not lines[j].startswith("```"):
            j += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        marker = lines[k] if k >= 0 else ""
        if "no-run" in marker and not NO_RUN.match(marker):
            raise AssertionError(f"{path.name}:{k + 1}: write <!-- no-run: why -->")
        reason = NO_RUN.match(marker).group(1) if NO_RUN.match(marker) else None
        out.append((m.group(1), i + 2, lines[i + 1:j], reason))
        i = j + 1
    return out


def _is_print(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "print")


def checks(path):
    """The python blocks to run, each with the statements whose output the page
    shows: [(first line, code, {statement end line: expected}, whole expected)]."""
    found = blocks(path)
    runs = []
    for n, (lang, first, code, reason) in enumerate(found):
        if lang != "python" or reason is not None:
            continue
        tree = ast.parse("\n".join(code), filename=path.name)
        shown = {}
        for stmt in tree.body:
            after = []
            for line in code[stmt.end_lineno:]:
                if not line.startswith("#"):
                    break
                after.append(line[2:] if line.startswith("# ") else line[1:])
            if not after:
                continue
            where = f"{path.name}:{first + stmt.lineno - 1}"
            if _is_print(stmt):
                shown[first + stmt.end_lineno - 1] = "\n".join(after)
            elif isinstance(stmt, ast.Expr):
                raise AssertionError(f"{where}: the comment lines after this expression "
                                     f"show a value that nothing prints: print(...) it")
        whole = None
        if n + 1 < len(found) and found[n + 1][0] == "text":
            lines = path.read_text(encoding="utf-8").split("\n")
            between = lines[first - 1 + len(code):found[n + 1][1] - 2]
            if all(line.startswith("```") or not line.strip() for line in between):
                whole = "\n".join(found[n + 1][2])
        runs.append((first, "\n".join(code), shown, whole))
    return runs


# Runs the blocks of one page (a JSON list of [first line, code]) statement by
# statement, each one's stdout captured, and writes {end line: output} to a file.
# The guard matters: Dask's LocalCluster starts workers that import this file.
RUNNER = textwrap.dedent('''
    import ast, contextlib, io, json, sys
    if __name__ == "__main__":
        page, blocks_file, result_file = sys.argv[1:]
        with open(blocks_file, encoding="utf-8") as fh:
            blocks = json.load(fh)
        namespace = {"__name__": "__main__"}
        outputs = {}
        for first, code in blocks:
            tree = ast.parse(code, filename=page)
            ast.increment_lineno(tree, first - 1)
            for stmt in tree.body:
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    exec(compile(ast.Module([stmt], []), page, "exec"), namespace)
                outputs[stmt.end_lineno] = buf.getvalue()
                with open(result_file, "w", encoding="utf-8") as fh:
                    json.dump(outputs, fh)
''')


def _same(actual, expected):
    def norm(text):
        return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))
    return norm(actual) == norm(expected)


PAGES_WITH_CODE = [p for p in PAGES
                   if any(lang == "python" and reason is None
                          for lang, _, _, reason in blocks(p))]


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_examples_run_and_print_what_the_page_shows(page, tmp_path_factory):
    import c45
    work = tmp_path_factory.mktemp("docs")
    assert not work.resolve().is_relative_to(ROOT)
    runs = checks(page)
    (work / "_run_docs.py").write_text(RUNNER, encoding="utf-8")
    (work / "_blocks.json").write_text(json.dumps([[f, code] for f, code, _, _ in runs]),
                                       encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg")
    # The same c45 as the tests import (installed, or built in place), as
    # tests/test_examples.py does; the checkout itself is not the working directory.
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(c45.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "_run_docs.py", page.name, "_blocks.json",
                          "_result.json"], cwd=work, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, f"{page.name}: a block failed:\n{out.stderr[-4000:]}"
    printed = {int(k): v for k, v in
               json.loads((work / "_result.json").read_text(encoding="utf-8")).items()}
    for first, code, shown, whole in runs:
        for line, expected in shown.items():
            assert _same(printed[line], expected), (
                f"{page.name}:{line} prints\n{printed[line]}\nbut the page shows\n{expected}")
        if whole is not None:
            last = first + code.count("\n")
            got = "".join(v for k, v in sorted(printed.items()) if first <= k <= last)
            assert _same(got, whole), (
                f"{page.name}:{first}: the block prints\n{got}\nbut the page shows\n{whole}")


def test_every_page_with_python_blocks_is_checked():
    """No page's python blocks are all marked no-run unnoticed, and every no-run
    marker stands before a python block."""
    for page in PAGES:
        for lang, first, _, reason in blocks(page):
            if reason is not None:
                assert lang == "python", f"{page.name}:{first - 1}: no-run before a {lang!r} block"


def test_the_rule_finds_shown_output():
    """The page convention as read by checks(): print + comments, a bare
    expression with comments is refused."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        page = Path(d) / "p.md"
        page.write_text("```python\nx = 1\n# a remark\nprint(x)\n# 1\n```\n", encoding="utf-8")
        assert checks(page) == [(2, "x = 1\n# a remark\nprint(x)\n# 1", {4: "1"}, None)]
        page.write_text("```python\nx = 1\nx\n# 1\n```\n", encoding="utf-8")
        with pytest.raises(AssertionError, match="nothing prints"):
            checks(page)
        page.write_text("<!-- no-run -->\n```python\nx\n```\n", encoding="utf-8")
        with pytest.raises(AssertionError, match="no-run: why"):
            checks(page)
