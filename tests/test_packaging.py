"""What a newcomer meets before the first fit: importing from an unbuilt source
tree, a missing optional package, the demo without extras."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import c45

PACKAGE = Path(c45.__file__).resolve().parent


def test_import_from_an_unbuilt_checkout_says_what_to_do(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "c45",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    done = subprocess.run([sys.executable, "-c", "import c45"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "c45's compiled modules are not built in" in done.stderr
    assert "pip install -e ." in done.stderr and "another directory" in done.stderr
    assert "No module named 'c45._tree'" not in done.stderr


@pytest.mark.parametrize("module, what, command", [
    ("matplotlib.pyplot", "plot_tree", 'pip install matplotlib (or pip install "c45[plot]")'),
    ("dask.array", "c45.dask", 'pip install dask[dataframe] distributed (or pip install '
                               '"c45[dask]")'),
    ("pandas", "reading data files", "pip install pandas"),
])
def test_a_missing_optional_package_names_the_pip_command(monkeypatch, module, what,
                                                          command):
    from c45._optional import require
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError) as caught:
        require(module, what)
    assert str(caught.value) == (f"{what} needs {module.split('.')[0]}, which is not "
                                 f"installed: {command}")


def test_a_missing_dependency_of_the_package_is_not_masked(tmp_path, monkeypatch):
    """An installed package that fails on a dependency of its own: that error
    is shown as it is, not as "pip install the package"."""
    from c45._optional import require
    (tmp_path / "c45_fake_optional").mkdir()
    (tmp_path / "c45_fake_optional" / "__init__.py").write_text(
        "import c45_fake_missing_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="c45_fake_missing_dependency"):
        require("c45_fake_optional", "x")


def _packages(top):
    """The dotted names of the packages under top/c45."""
    return {".".join(p.parent.relative_to(top).parts) for p in (top / "c45").rglob("__init__.py")
            if "__pycache__" not in p.parts}


SOURCE = Path(__file__).resolve().parents[1]   # the checkout these tests came from


@pytest.mark.skipif(not (SOURCE / "pyproject.toml").is_file(),
                    reason="the tests were copied out of the checkout (run against a wheel)")
def test_every_package_is_listed_and_installed():
    """pyproject.toml lists the packages explicitly: a new one (c45/rules/) left
    out of the list would be missing from the wheel. When the tests run against
    an installed c45, every package of the checkout is in it too."""
    import tomllib
    listed = set(tomllib.loads((SOURCE / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    assert _packages(SOURCE) == listed
    assert _packages(PACKAGE.parent) == listed


def _manifest(root):
    """The files of ``root`` that MANIFEST.in's rules put in the source
    distribution (the rules MANIFEST.in uses: include, recursive-include,
    exclude, global-exclude; another one fails here, to be added)."""
    from fnmatch import fnmatch
    every = [p.relative_to(root).as_posix() for p in root.rglob("*")
             if p.is_file() and ".git" not in p.relative_to(root).parts]
    chosen = set()
    for number, line in enumerate((root / "MANIFEST.in").read_text().splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        rule, args = words[0], words[1:]
        if rule == "include":
            chosen |= {f for f in every if any(fnmatch(f, a) for a in args)}
        elif rule == "exclude":
            chosen -= {f for f in chosen if any(fnmatch(f, a) for a in args)}
        elif rule == "recursive-include":
            top, patterns = args[0].rstrip("/") + "/", args[1:]
            chosen |= {f for f in every if f.startswith(top)
                       and any(fnmatch(f.rsplit("/", 1)[-1], p) for p in patterns)}
        elif rule == "global-exclude":
            chosen -= {f for f in chosen
                       if any(fnmatch(f.rsplit("/", 1)[-1], p) for p in args)}
        else:
            raise AssertionError(f"MANIFEST.in, line {number}: this check does not know "
                                 f"{rule!r}; teach _manifest it")
    return chosen


@pytest.mark.skipif(not (SOURCE / ".git").exists() or shutil.which("git") is None,
                    reason="not a git checkout (the tests of a source distribution)")
def test_the_source_distribution_holds_every_tracked_file_its_tests_need():
    """What git tracks under tests/, c45/ (code and package data), examples/, docs/
    and benchmarks/ is in the sdist, so that the sdist's own tests run: a data file
    the rules miss (tests/data/r8-random.tar.xz was one) stops them at collection."""
    tracked = subprocess.run(
        ["git", "ls-files", "tests", "c45", "examples", "docs", "benchmarks"],
        cwd=SOURCE, capture_output=True, text=True, check=True).stdout.split()
    assert tracked
    missing = sorted(f for f in set(tracked) - _manifest(SOURCE)
                     if (SOURCE / f).is_file())   # not deleted in the worktree
    assert not missing, f"MANIFEST.in leaves out files git tracks: {missing}"


@pytest.mark.parametrize("name", ["c45", "c45.io", "c45.datasets", "c45.rules", "c45.dask"])
def test_public_modules_list_only_their_api(name):
    """dir() of a public module, what tab completion shows, lists its API and
    nothing it merely imported (numpy as np, os, csv...): every name without a
    leading underscore is in __all__ or is a public submodule of c45."""
    import importlib
    import types
    module = importlib.import_module(name)
    for sub in ("c45.io", "c45.datasets", "c45.rules", "c45.dask"):
        importlib.import_module(sub)       # loaded submodules are attributes too
    extra = [n for n in dir(module) if not n.startswith("_") and n not in module.__all__
             and not (isinstance(getattr(module, n), types.ModuleType)
                      and getattr(module, n).__name__ == f"{name}.{n}")]
    assert not extra, f"dir({name}) lists names that are not its API: {extra}"
