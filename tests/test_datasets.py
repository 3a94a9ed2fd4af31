"""c45.datasets: the nine Release 8 data sets ship with the package, as C4.5 reads
them, so that the guide's examples run wherever c45 is installed."""
from pathlib import Path

import pandas as pd
import pytest

from c45.datasets import load_r8, write_r8
from c45.io import read_c45, read_names

REFERENCE = Path(__file__).resolve().parent / "data" / "reference"
SETS = {"golf": False, "labor-neg": True, "vote": True, "monk1": True, "monk2": True,
        "monk3": True, "crx": True, "hypo": True, "soybean": False}   # name: has .test


@pytest.mark.parametrize("name", SETS)
def test_load_r8_reads_the_release_8_files(name):
    """The bundled set is the reference one, read in its declared orders."""
    parts = ["data", "test"] if SETS[name] else ["data"]
    for part in parts:
        X, y = load_r8(name, part)
        Xr, yr = read_c45(REFERENCE / name, part)
        pd.testing.assert_frame_equal(X, Xr)
        pd.testing.assert_series_equal(y, yr)
    names = read_names(REFERENCE / f"{name}.names")
    assert list(y.cat.categories) == list(names.classes)
    for a in names.attributes:
        if a.kind == "discrete" and a.max_values is None:
            assert list(X[a.name].cat.categories) == list(a.values), a.name


@pytest.mark.parametrize("name", SETS)
def test_write_r8_writes_the_files_the_command_reads(name, tmp_path):
    stem = write_r8(name, tmp_path / "sets")
    assert stem == str(tmp_path / "sets" / name)
    parts = ["names", "data"] + (["test"] if SETS[name] else [])
    assert sorted(p.name for p in (tmp_path / "sets").iterdir()) == sorted(
        f"{name}.{p}" for p in parts)
    for part in parts:
        assert (tmp_path / "sets" / f"{name}.{part}").read_bytes() == \
            (REFERENCE / f"{name}.{part}").read_bytes()


def test_a_wrong_name_or_part_says_what_there_is():
    with pytest.raises(ValueError, match="no Release 8 data set 'iris'; the sets are "
                                         "'golf', 'labor-neg', 'vote'"):
        load_r8("iris")
    with pytest.raises(ValueError, match=r"part must be one of 'data' for 'soybean', got "
                                         r"'test' \(soybean has no test cases\)"):
        load_r8("soybean", "test")
    with pytest.raises(ValueError, match="part must be one of 'data', 'test' for 'vote'"):
        load_r8("vote", "names")
    with pytest.raises(ValueError, match="no Release 8 data set 'Vote'"):
        write_r8("Vote")
