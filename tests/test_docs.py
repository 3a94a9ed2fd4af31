"""Every ```python block of README.md and docs/*.md runs as a reader runs it, and
prints what the page shows.

A page's blocks run in order as one script (as if pasted into a file and run with
``python``), in a fresh Python process whose working directory is a new temporary
directory outside the checkout: a block that needs a data file must make it
(c45.datasets has the data).

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
FENCE = re.compile(r"^( *)```(\w*)\s*$")     # indented too: a block in a list item


def blocks(path):
    """[(language, first line number of the code, code lines, no-run reason)]."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent = m.group(1)
        j = i + 1
        while not lines[j].startswith(indent + "```"):
            j += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        marker = lines[k].strip() if k >= 0 else ""
        if "no-run" in marker and not NO_RUN.match(marker):
            raise AssertionError(f"{path.name}:{k + 1}: write <!-- no-run: why -->")
        reason = NO_RUN.match(marker).group(1) if NO_RUN.match(marker) else None
        code = textwrap.dedent("\n".join(lines[i + 1:j])).split("\n")
        out.append((m.group(2), i + 2, code, reason))
        i = j + 1
    return out


def _is_print(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "print")


def _is_main_guard(stmt):
    return (isinstance(stmt, ast.If) and not stmt.orelse
            and ast.unparse(stmt.test) in ("__name__ == '__main__'", "'__main__' == __name__"))


def _statements(body):
    """The top-level statements, and those of a top-level
    ``if __name__ == "__main__":`` (a script's own work, as in docs/dask.md)."""
    for stmt in body:
        yield from (_statements(stmt.body) if _is_main_guard(stmt) else [stmt])


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
        for stmt in _statements(tree.body):
            after, indent = [], " " * stmt.col_offset
            for line in code[stmt.end_lineno:]:
                if not line.startswith(indent + "#"):
                    break
                line = line[len(indent):]
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
            if all(line.lstrip().startswith("```") or not line.strip() for line in between):
                whole = "\n".join(found[n + 1][2])
        runs.append((first, "\n".join(code), shown, whole))
    return runs


# Runs one page's blocks (a JSON list of [first line, code]) as one script: the
# statements are compiled with the page's line numbers and run at the top level
# of __main__, as if pasted into a file, with a marker line printed after each
# top-level statement, so that each one's output can be told apart. No
# `if __name__ == "__main__":` here: a page that starts worker processes (Dask's
# LocalCluster) must guard itself, as a reader's script must.
RUNNER = textwrap.dedent('''
    import ast as _ast, json as _json, sys as _sys

    def _marked(body):
        out = []
        for stmt in body:
            if (isinstance(stmt, _ast.If) and not stmt.orelse and _ast.unparse(stmt.test)
                    in ("__name__ == '__main__'", "'__main__' == __name__")):
                stmt.body = _marked(stmt.body)
                out.append(stmt)
                continue
            mark = _ast.parse(f"print({MARK!r} + str({stmt.end_lineno}), flush=True)")
            out += [stmt] + mark.body
        return out

    with open(_sys.argv[1], encoding="utf-8") as _fh:
        _body = []
        for _first, _code in _json.load(_fh):
            _tree = _ast.parse(_code, filename=_sys.argv[2])
            _ast.increment_lineno(_tree, _first - 1)
            _body += _marked(_tree.body)
    exec(compile(_ast.Module(_body, []), _sys.argv[2], "exec"), globals())
''')
MARK = "~~~ c45 docs test: the statement ending on line "


def _same(actual, expected):
    def norm(text):
        return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n"))
    return norm(actual) == norm(expected)


PAGES_WITH_CODE = [p for p in PAGES
                   if any(lang == "python" and reason is None
                          for lang, _, _, reason in blocks(p))]


def _name(page):
    return page.relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Every page's script, each in its own empty directory outside the checkout,
    all started at once (most of the time goes to imports and worker start-up):
    {page: (return code, {statement end line: output}, stderr)}."""
    import c45
    env = dict(os.environ, MPLBACKEND="Agg")
    # The same c45 as the tests import (installed, or built in place), as
    # tests/test_examples.py does; the checkout itself is not the working directory.
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(c45.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    running = {}
    for page in PAGES_WITH_CODE:
        work = tmp_path_factory.mktemp("docs")
        assert not work.resolve().is_relative_to(ROOT)
        (work / "_run_page.py").write_text(RUNNER.replace("{MARK!r}", repr(MARK)),
                                           encoding="utf-8")
        (work / "_blocks.json").write_text(
            json.dumps([[f, code] for f, code, _, _ in checks(page)]), encoding="utf-8")
        running[page] = subprocess.Popen(
            [sys.executable, "_run_page.py", "_blocks.json", page.name], cwd=work, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    results = {}
    for page, proc in running.items():
        stdout, stderr = proc.communicate(timeout=600)
        printed, pending = {}, []
        for line in stdout.replace("\n", "\n\0").split("\0"):   # keep the newlines
            # A mark may share its line with output that did not end in a newline
            # (or, seen once on CI, with the next mark): each mark ends what came
            # before it.
            text, *marks = line.split(MARK)
            pending.append(text)
            for after in marks:
                digits = len(after) - len(after.lstrip("0123456789"))
                printed[int(after[:digits])] = "".join(pending)
                rest = after[digits:]
                pending = [rest[1:] if rest.startswith("\n") else rest]
        results[page] = (proc.returncode, printed, stderr)
    return results


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=_name)
def test_page_examples_run_and_print_what_the_page_shows(page, ran):
    returncode, printed, stderr = ran[page]
    assert returncode == 0, f"{_name(page)}: a block failed:\n{stderr[-4000:]}"
    wrong = []
    for first, code, shown, whole in checks(page):
        for line, expected in shown.items():
            if not _same(printed[line], expected):
                wrong.append(f"{page.name}:{line} prints\n{printed[line]}"
                             f"but the page shows\n{expected}\n")
        if whole is not None:
            last = first + code.count("\n")
            got = "".join(v for k, v in sorted(printed.items()) if first <= k <= last)
            if not _same(got, whole):
                wrong.append(f"{page.name}:{first}: the block prints\n{got}"
                             f"but the page shows\n{whole}\n")
    assert not wrong, "\n".join(wrong)


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


def test_an_indented_block_runs_dedented():
    """A block inside a list item (its fence indented) runs as its lines less
    the indent, its no-run marker and its shown output read as at column 0."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        page = Path(d) / "p.md"
        page.write_text("- item:\n\n  ```python\n  x = 1\n  if x:\n      print(x)\n"
                        "  print(x + 1)\n  # 2\n  ```\n\n  ```text\n  1\n  2\n  ```\n",
                        encoding="utf-8")
        assert checks(page) == [(4, "x = 1\nif x:\n    print(x)\nprint(x + 1)\n# 2",
                                 {7: "2"}, "1\n2")]
        page.write_text("- item:\n\n  <!-- no-run: needs a server -->\n  ```python\n"
                        "  connect()\n  ```\n", encoding="utf-8")
        assert checks(page) == []
        assert blocks(page)[0][3] == "needs a server"


# Pages for developers, which name the package's modules on purpose: the
# architecture page, and README.md's source layout section.
DEVELOPER_PAGES = ("architecture.md",)


def _private_names():
    """The package's private module paths (c45._x, c45/_x.py) and its module
    constants (ALL_CAPS names assigned at the top of a module)."""
    import c45
    # The checkout's sources, or where they are not beside the tests (the tests
    # of an installed wheel), the installed package's.
    package = ROOT / "c45" if (ROOT / "c45").is_dir() else Path(c45.__file__).parent
    consts = set()
    for f in list(package.rglob("*.py")) + list(package.rglob("*.pyx")):
        consts.update(re.findall(r"^(?:cdef\s+\w+\s+)?([A-Z][A-Z0-9_]{3,})\s*=",
                                 f.read_text(encoding="utf-8"), re.M))
    assert consts, f"no module constants found under {package}"
    return re.compile(r"c45\._(?!_)\w+|c45/_(?!_)\w+\.pyx?|\b(?:%s)\b"
                      % "|".join(sorted(map(re.escape, consts))))


def test_user_pages_name_no_private_module_or_constant():
    # Internal names (ONLY_ACTS_WHEN, c45._tree.Tree, c45/_presorted.pyx,
    # MAX_LINE_CHARS) had crept into the user pages: a reader cannot use them,
    # and they move with the code.
    private = _private_names()
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.name in DEVELOPER_PAGES:
            continue
        for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{page.name}:{i}: {m}" for m in private.findall(line)]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    users = readme.split("\n## Layout")[0]       # the source layout names modules
    found += [f"README.md: {m}" for m in private.findall(users)]
    assert not found, found
