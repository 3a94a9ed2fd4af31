"""The readers' block paths: lines of plain values split many at a time and a
column's numbers parsed by one numpy call. They must read what the line-by-line
paths (the csv module, C4.5's tokens, ARFF's row splitter) read, and leave every
error to them, with its line and column.

Each test writes the same rows twice: plain (the block path), and with something
only the line-by-line path reads (quotes, comments) on every line.
"""
import numpy as np
import pandas as pd
import pytest

from c45.io import DataFileError, read_arff, read_c45, read_csv

N = 3000        # rows: more than a chunk's per-value threshold (512)


def rows(seed=0, n=N):
    """Numbers (some unknown, some in exponent form), a nominal and a class."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        x = "?" if i % 97 == 5 else f"{rng.normal() * 10.0 ** rng.integers(-3, 4):.6g}"
        z = "?" if i % 89 == 7 else str(rng.choice(["u", "v", "w"]))
        out.append([x, f"{rng.integers(0, 1000)}", z, str(rng.choice(["yes", "no"]))])
    return out


def same(a, b):
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_series_equal(a[1], b[1])
    for c in a[0].columns:              # bit for bit, -0.0 included
        if a[0][c].dtype == np.float64:
            assert np.array_equal(a[0][c].to_numpy().view(np.int64),
                                  b[0][c].to_numpy().view(np.int64))


def write_csv(path, data, quoted=False, nl="\n", space=""):
    q = '"' if quoted else ""
    lines = ["x,n,z,cls"] + [(","+space).join(f"{q}{v}{q}" for v in r) for r in data]
    path.write_bytes((nl.join(lines) + nl).encode())
    return path


@pytest.mark.parametrize("nl,space", [("\n", ""), ("\r\n", ""), ("\n", " ")])
def test_csv_blocks_read_what_the_csv_module_reads(tmp_path, nl, space):
    data = rows()
    data[10][0] = "-0"
    data[11][0] = "1e-320"                      # subnormal
    data[12][0] = "5."
    plain = read_csv(write_csv(tmp_path / "p.csv", data, nl=nl, space=space))
    quoted = read_csv(write_csv(tmp_path / "q.csv", data, quoted=True, nl=nl, space=space))
    same(plain, quoted)
    assert plain[0]["x"].dtype == np.float64 and plain[0]["x"].isna().sum() == 31
    assert np.signbit(plain[0]["x"].iloc[10]) and plain[0]["x"].iloc[11] == 1e-320


def test_csv_blocks_and_rows_mixed(tmp_path):
    """A quoted row, a blank line and CR LF in some blocks only."""
    data = rows(1, 60_000)
    lines = ["x,n,z,cls"] + [",".join(r) for r in data]
    lines[100] = '"' + lines[100].replace(",", '","') + '"'
    lines[30_000] = ""
    lines[45_000] += "\r"
    path = tmp_path / "m.csv"
    path.write_text("\n".join(lines) + "\n")
    quoted = write_csv(tmp_path / "q.csv", data[:29_999] + data[30_000:], quoted=True)
    same(read_csv(path), read_csv(quoted))
    del lines[30_000]
    path.write_text("\n".join(lines) + "\n")
    same(read_csv(path, chunk_rows=7_000), read_csv(quoted))


# "\uff11" (a full-width 1): float() reads it, C's strtod does not.
@pytest.mark.parametrize("bad", ["1.2.3", "inf", "1_0", "-", "1e", "0x1", "\uff11"])
def test_a_bad_number_in_a_bulk_parsed_column_names_its_line(tmp_path, bad):
    data = rows()
    data[2500][0] = bad
    path = write_csv(tmp_path / "b.csv", data)
    with pytest.raises(DataFileError, match=rf"b.csv, line 2502, column 'x': "
                                            rf"{bad!r} is not a number"):
        read_csv(path, continuous=["x"])
    X, _ = read_csv(path)                       # else the column holds words
    assert X["x"].dtype == "category" and X["x"].iloc[2500] == bad


def test_a_number_beyond_a_double_in_a_bulk_parsed_column(tmp_path):
    data = rows()
    data[2000][1] = "2e308"
    with pytest.raises(DataFileError, match=r"line 2002, column 'n': '2e308' is beyond"):
        read_csv(write_csv(tmp_path / "h.csv", data))


def test_a_word_in_the_first_chunk_gives_the_categories_of_a_late_word(tmp_path):
    data = rows()
    early, late = [r[:] for r in data], [r[:] for r in data]
    early[3][1], late[2900][1] = "many", "many"
    X1, _ = read_csv(write_csv(tmp_path / "e.csv", early), chunk_rows=1000)
    X2, _ = read_csv(write_csv(tmp_path / "l.csv", late), chunk_rows=1000)
    assert X1["n"].dtype == X2["n"].dtype == "category"
    assert set(X1["n"].cat.categories) - {"many"} >= {r[1] for r in data[4:2900]}
    assert X1["n"].iloc[3] == X2["n"].iloc[2900] == "many"


NAMES = "yes, no.\nx: continuous.\nn: continuous.\nz: u, v, w.\n"


def write_c45(tmp_path, stem, data, names=NAMES, comment=False, end=""):
    (tmp_path / f"{stem}.names").write_text(names)
    tail = " | a comment" if comment else ""
    (tmp_path / f"{stem}.data").write_text(
        "".join(",".join(r) + end + tail + "\n" for r in data))
    return tmp_path / stem


@pytest.mark.parametrize("end", ["", "."])
def test_c45_blocks_read_what_the_tokens_read(tmp_path, end):
    data = rows(2)
    data[3] = [" " + v + "  " for v in data[3]]
    plain = read_c45(write_c45(tmp_path, "p", data, end=end))
    commented = read_c45(write_c45(tmp_path, "c", data, comment=True, end=end))
    same(plain, commented)
    assert plain[0]["z"].cat.categories.tolist() == ["u", "v", "w"]


@pytest.mark.parametrize("where,value,message", [
    (0, "1.2.3", r"line 2501, attribute 'x': '1.2.3' is not a number"),
    (1, "1e999", r"line 2501, attribute 'n': '1e999' is beyond"),
    (2, "q", r"line 2501, attribute 'z': value 'q' is not declared"),
    (3, "maybe", r"line 2501: class 'maybe' is not declared"),
    (3, "?", r"line 2501: the class is unknown"),
])
def test_c45_errors_in_a_block_name_their_line(tmp_path, where, value, message):
    data = rows(3)
    data[2500][where] = value
    with pytest.raises(DataFileError, match=message):
        read_c45(write_c45(tmp_path, "e", data))


def test_c45_discrete_n_over_blocks(tmp_path):
    names = NAMES.replace("z: u, v, w.", "z: discrete 3.")
    data = rows(4)
    a = read_c45(write_c45(tmp_path, "d", data, names=names))
    b = read_c45(write_c45(tmp_path, "k", data, names=names, comment=True))
    same(a, b)
    first = [r[2] for r in data if r[2] != "?"]
    assert a[0]["z"].cat.categories.tolist() == list(dict.fromkeys(first))
    data[2700][2] = "t"
    with pytest.raises(DataFileError, match=r"line 2701, attribute 'z': declared "
                                            r"'discrete 3' but 't' would be value 4"):
        read_c45(write_c45(tmp_path, "d", data, names=names))


ARFF_HEAD = ("@relation r\n@attribute x numeric\n@attribute n real\n"
             "@attribute z {u,v,w}\n@attribute cls {yes,no}\n@data\n")


def write_arff(path, data, comment=False):
    tail = " % a comment" if comment else ""
    path.write_text(ARFF_HEAD + "".join(",".join(r) + tail + "\n" for r in data))
    return path


def test_arff_blocks_read_what_the_row_splitter_reads(tmp_path):
    data = rows(5)
    data[3] = [" " + v + "\t" for v in data[3]]
    same(read_arff(write_arff(tmp_path / "p.arff", data)),
         read_arff(write_arff(tmp_path / "c.arff", data, comment=True)))


@pytest.mark.parametrize("where,value,message", [
    (0, "x1", r"line 2507, attribute 'x': 'x1' is not a number"),
    (2, "q", r"line 2507, attribute 'z': value 'q' is not declared"),
    (3, "?", r"line 2507, attribute 'cls': the class is unknown"),
])
def test_arff_errors_in_a_block_name_their_line(tmp_path, where, value, message):
    data = rows(6)
    data[2500][where] = value
    with pytest.raises(DataFileError, match=message):
        read_arff(write_arff(tmp_path / "e.arff", data))
