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
