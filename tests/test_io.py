"""c45.io: the readers of C4.5's .names/.data/.test files, CSV and ARFF.

The C4.5 reader is checked against the test suite's own reader (tests/c45_files.py,
written separately from the format description) on the nine reference data sets and
on random texts; every reader must refuse malformed input with a DataFileError
naming the file and the line, and read each file once.
"""
import io
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import c45_files
from c45 import C45Classifier, export_text
from c45.io import (C45Files, DataFileError, read_arff, read_c45, read_csv,
                    read_names)
from c45.io._c45format import tokens

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "reference")
DATASETS = ["golf", "labor-neg", "vote", "monk1", "monk2", "monk3", "crx", "hypo",
            "soybean"]

GOLF_NAMES = """Play, Don't Play.

outlook: sunny, overcast, rain.
temperature: continuous.
humidity: continuous.
windy: true, false.
"""
GOLF_ROWS = [
    ("sunny", 85, 85, "false", "Don't Play"), ("sunny", 80, 90, "true", "Don't Play"),
    ("overcast", 83, 78, "false", "Play"), ("rain", 70, 96, "false", "Play"),
    ("rain", 68, 80, "false", "Play"), ("rain", 65, 70, "true", "Don't Play"),
    ("overcast", 64, 65, "true", "Play"), ("sunny", 72, 95, "false", "Don't Play"),
    ("sunny", 69, 70, "false", "Play"), ("rain", 75, 80, "false", "Play"),
    ("sunny", 75, 70, "true", "Play"), ("overcast", 72, 90, "true", "Play"),
    ("overcast", 81, 75, "false", "Play"), ("rain", 71, 80, "true", "Don't Play")]
GOLF_DATA = "".join(", ".join(map(str, r)) + "\n" for r in GOLF_ROWS)
GOLF_CSV = "outlook,temperature,humidity,windy,play\n" + "".join(
    ",".join(map(str, r)) + "\n" for r in GOLF_ROWS)


def write(tmp_path, name, text):
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def c45_stem(tmp_path, names=GOLF_NAMES, data=GOLF_DATA, test=None, stem="s"):
    write(tmp_path, f"{stem}.names", names)
    write(tmp_path, f"{stem}.data", data)
    if test is not None:
        write(tmp_path, f"{stem}.test", test)
    return str(tmp_path / stem)


def assert_same_frame(X, y, X2, y2):
    assert list(X.columns) == list(X2.columns)
    for c in X.columns:
        a, b = X[c], X2[c]
        if isinstance(b.dtype, pd.CategoricalDtype):
            assert isinstance(a.dtype, pd.CategoricalDtype), c
            assert list(a.cat.categories) == list(b.cat.categories), c
            np.testing.assert_array_equal(a.cat.codes.to_numpy(), np.asarray(b.cat.codes))
        else:
            np.testing.assert_array_equal(a.to_numpy(), np.asarray(b, dtype=float))
    y2 = pd.Categorical(y2)
    assert list(y.cat.categories) == list(y2.categories)
    np.testing.assert_array_equal(y.cat.codes.to_numpy(), y2.codes)


# -- C4.5 files -----------------------------------------------------------------
@pytest.mark.parametrize("stem", DATASETS)
def test_read_c45_equals_the_test_reader(stem):
    path = os.path.join(REFERENCE, stem)
    for part in ("data", "test"):
        if not os.path.exists(f"{path}.{part}"):
            continue
        X, y = read_c45(path, part)
        assert_same_frame(X, y, *c45_files.load_c45(path, part))


def test_golf_fits_to_the_readme_tree():
    X, y = read_c45(os.path.join(REFERENCE, "golf"))
    text = export_text(C45Classifier().fit(X, y))
    assert text.splitlines()[:3] == ["outlook = overcast: Play (4.0/1.2)",
                                     "outlook = sunny:",
                                     "|   humidity <= 75 : Play (2.0/1.0)"]


_ALPHABET = st.sampled_from(list("ab .,:|\\\n\t ?1x") + ["  ", ". ", ".\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_tokens_equal_the_reference_tokenizer(text):
    lines = list(enumerate(io.StringIO(text).readlines(), 1))
    ours = [(t.text, t.delim, t.line) for t in tokens(lines)]
    ref = [(t.text, "\n" if t.delim == c45_files.EOF else t.delim, t.line)
           for t in c45_files.tokenize(text)]
    assert ours == ref


def test_names_syntax(tmp_path):
    names = write(tmp_path, "x.names", (
        "| a comment line\n"
        "yes,   no.   | classes\n"
        "\n"
        "size :  small, medium,\n"
        "        large.\n"
        "weight\\: kg: continuous.\n"
        "id: ignore.\n"
        "colour: discrete 3.\n"
        "two  spaces  name: a, b\n"))
    n = read_names(names)
    assert n.classes == ["yes", "no"]
    assert [(a.name, a.kind) for a in n.attributes] == [
        ("size", "discrete"), ("weight: kg", "continuous"), ("id", "ignore"),
        ("colour", "discrete"), ("two spaces name", "discrete")]
    assert n.attributes[0].values == ["small", "medium", "large"]
    assert n.attributes[3].max_values == 3 and n.attributes[3].values == []


def test_ignore_discrete_n_and_unknowns(tmp_path):
    names = "yes, no.\na: continuous.\nid: ignore.\nc: discrete 3.\n"
    data = "1.5, 7, red, yes\n?, 8, blue, no.\n2.5e1,9,?,yes | comment\n"
    test = "3, 1, green, no\n"
    stem = c45_stem(tmp_path, names, data, test)
    X, y = read_c45(stem)
    assert list(X.columns) == ["a", "c"]
    np.testing.assert_array_equal(X["a"].to_numpy(), [1.5, np.nan, 25.0])
    assert list(X["c"].cat.categories) == ["red", "blue"]
    assert X["c"].isna().tolist() == [False, False, True]
    assert y.tolist() == ["yes", "no", "yes"]
    files = C45Files(stem)
    files.read("data")
    Xt, _ = files.read("test")
    assert list(Xt["c"].cat.categories) == ["red", "blue", "green"]
    Xt2, _ = read_c45(stem, "test")          # reads .data first for discrete N
    assert list(Xt2["c"].cat.categories) == ["red", "blue", "green"]


def test_a_case_may_continue_on_the_next_line(tmp_path):
    stem = c45_stem(tmp_path, data="sunny, 85,\n  85, false, Don't Play\n"
                    "rain, 70, 96, false, Play.\n")
    X, y = read_c45(stem)
    assert len(X) == 2 and y.tolist() == ["Don't Play", "Play"]


BAD_C45 = {
    "missing class line": (GOLF_NAMES.split("\n", 1)[1], GOLF_DATA, "s.names", 2,
                           "class list"),
    "undeclared value": (GOLF_NAMES, GOLF_DATA.replace("rain, 68", "snow, 68"), "s.data",
                         5, "'snow' is not declared"),
    "undeclared class": (GOLF_NAMES, GOLF_DATA.replace("81, 75, false, Play",
                                                       "81, 75, false, Maybe"),
                         "s.data", 13, "class 'Maybe' is not declared"),
    "too many fields": (GOLF_NAMES, GOLF_DATA.replace("72, 95, false,", "72, 95, 1, false,"),
                        "s.data", 8, "more than 5 values"),
    "too few fields": (GOLF_NAMES, GOLF_DATA.replace("64, 65, true,", "64, true,"),
                       "s.data", 7, "4 values, expected 5"),
    "non-numeric continuous": (GOLF_NAMES, GOLF_DATA.replace("69, 70", "69, humid"),
                               "s.data", 9, "'humid' is not a number"),
    "unknown class": (GOLF_NAMES, GOLF_DATA.replace("75, 70, true, Play", "75, 70, true, ?"),
                      "s.data", 11, "class is unknown"),
    "empty names": ("", GOLF_DATA, "s.names", 1, "empty"),
    "empty data": (GOLF_NAMES, "", "s.data", 1, "no cases"),
    "comments only": (GOLF_NAMES, "| nothing\n\n", "s.data", 1, "no cases"),
    "binary names": (bytes(range(128, 256)) * 3, GOLF_DATA, "s.names", 1, "decoded"),
    "binary data": (GOLF_NAMES, GOLF_DATA.encode() + b"\x89PNG\r\n\x1a\n\xff\xfe",
                    "s.data", 15, "decoded"),
    "nul byte": (GOLF_NAMES, GOLF_DATA.replace("rain, 75", "rain\x00, 75"), "s.data", 10,
                 "NUL"),
    "single value": (GOLF_NAMES.replace("true, false", "true"), GOLF_DATA, "s.names", 6,
                     "single value"),
    "discrete N overflow": ("a, b.\nc: discrete 2.\n", "x, a\ny, b\nz, a\n", "s.data", 3,
                            "'z' would be value 3"),
    "attribute twice": (GOLF_NAMES + "windy: continuous.\n", GOLF_DATA, "s.names", 7,
                        "declared twice"),
}


@pytest.mark.parametrize("case", sorted(BAD_C45))
def test_malformed_c45_files_name_the_line(tmp_path, case):
    names, data, where, line, words = BAD_C45[case]
    stem = c45_stem(tmp_path, names, data)
    with pytest.raises(DataFileError) as info:
        read_c45(stem)
    e = info.value
    assert os.path.basename(e.path) == where
    assert e.line == line, str(e)
    assert f"{where}, line {line}" in str(e)
    assert words in str(e)


def test_a_bad_value_names_the_attribute(tmp_path):
    stem = c45_stem(tmp_path, data=GOLF_DATA.replace("69, 70", "69, humid"))
    with pytest.raises(DataFileError, match=r"s\.data, line 9, attribute 'humidity': "):
        read_c45(stem)


def test_missing_file(tmp_path):
    with pytest.raises(DataFileError, match="no such file"):
        read_c45(str(tmp_path / "nothing"))


# -- CSV ------------------------------------------------------------------------
def test_csv_types_and_missing_values(tmp_path):
    p = write(tmp_path, "t.csv", "a,b,c,cls\n1,x,10,p\n?,y,2,q\n3.5,,NA,p\n\n-4e1,x,7,q\n")
    X, y = read_csv(p, "cls")
    assert X["a"].dtype == np.float64 and X["c"].dtype == np.float64
    np.testing.assert_array_equal(X["a"].to_numpy(), [1, np.nan, 3.5, -40])
    assert list(X["b"].cat.categories) == ["x", "y"] and X["b"].isna().sum() == 1
    assert y.name == "cls" and y.tolist() == ["p", "q", "p", "q"]
    X2, y2 = read_csv(p, "cls", discrete=["c"], ignore=["a"])
    assert list(X2.columns) == ["b", "c"]
    assert list(X2["c"].cat.categories) == ["2", "7", "10"]      # by number


def test_csv_equals_c45_files_for_golf(tmp_path):
    X, y = read_csv(write(tmp_path, "golf.csv", GOLF_CSV), "play")
    Xc, yc = read_c45(os.path.join(REFERENCE, "golf"))
    a = C45Classifier(precision="float32").fit(X, y)
    b = C45Classifier(precision="float32").fit(Xc, yc)
    # Same tree up to the order of branches and classes (CSV sorts, .names declares).
    assert a.tree_.node_count == b.tree_.node_count == 8
    assert (a.predict(X).astype(object) == np.asarray(y, dtype=object)).all()
    assert (a.predict(Xc.astype({"outlook": object, "windy": object})).astype(object)
            == b.predict(Xc).astype(object)).all()


def test_csv_chunks_give_the_same_result(tmp_path):
    rng = np.random.default_rng(3)
    rows = ["f,g,h,k"] + [f"{rng.normal():.4f},{rng.choice(['u', 'v', '?'])},"
                          f"{rng.integers(5)},{rng.choice(['a', 'b'])}" for _ in range(500)]
    p = write(tmp_path, "r.csv", "\n".join(rows) + "\n")
    X1, y1 = read_csv(p, chunk_rows=7)
    X2, y2 = read_csv(p)
    pd.testing.assert_frame_equal(X1, X2)
    pd.testing.assert_series_equal(y1, y2)


class CountingFile(io.RawIOBase):
    """A binary file that counts the bytes handed out and refuses to seek."""

    def __init__(self, data):
        self.data, self.pos, self.bytes_read = data, 0, 0
        self.name = "counted.csv"

    def readable(self):
        return True

    def readinto(self, b):
        chunk = self.data[self.pos:self.pos + len(b)]
        b[:len(chunk)] = chunk
        self.pos += len(chunk)
        self.bytes_read += len(chunk)
        return len(chunk)

    def seekable(self):
        return False


def test_csv_is_read_once_in_one_pass(tmp_path):
    rng = np.random.default_rng(0)
    n = 20_000
    text = "x,y,z,label\n" + "".join(
        f"{a:.3f},{b},{c},{'yes' if a + b > 3 else 'no'}\n"
        for a, b, c in zip(rng.normal(size=n), rng.integers(0, 6, n),
                           rng.choice(["r", "g", "b"], n)))
    data = text.encode()
    fh = io.BufferedReader(CountingFile(data))
    X, y = read_csv(fh, "label", chunk_rows=4096)
    assert fh.raw.bytes_read == len(data)            # every byte, once, no seeking
    assert X.shape == (n, 3) and len(y) == n
    assert X["x"].dtype == np.float64 and X["y"].dtype == np.float64
    # Columns are stored compactly: no object column of strings survives.
    assert all(X[c].dtype != object for c in X.columns)


BAD_CSV = {
    "empty file": ("", 1, "empty"),
    "header only": ("a,b,c\n", 1, "no data rows"),
    "too many fields": ("a,b,c\n1,2,x\n3,4,5,y\n", 3, "4 fields, expected 3"),
    "too few fields": ("a,b,c\n1,2,x\n3,y\n", 3, "2 fields, expected 3"),
    "missing class": ("a,b,c\n1,2,x\n3,4,\n", 3, "class is missing"),
    "duplicate column": ("a,a,c\n1,2,x\n", 1, "appears twice"),
    "binary garbage": (b"a,b,c\n1,2,x\n\x00\xff\xfe\x9c\x80", 3, None),
    "unterminated quote": ('a,b,c\n1,2,"x\n', 2, None),
}


@pytest.mark.parametrize("case", sorted(BAD_CSV))
def test_malformed_csv_names_the_line(tmp_path, case):
    text, line, words = BAD_CSV[case]
    p = write(tmp_path, "bad.csv", text)
    with pytest.raises(DataFileError) as info:
        read_csv(p)
    assert info.value.line == line, str(info.value)
    assert f"bad.csv, line {line}" in str(info.value)
    if words:
        assert words in str(info.value)


def test_csv_continuous_column_names_line_and_column(tmp_path):
    p = write(tmp_path, "t.csv", 'a,b,c\n1,2,x\n"3,\n4",5,y\n7,eight,x\n')
    X, _ = read_csv(p)            # b mixes numbers and words: discrete
    assert isinstance(X["b"].dtype, pd.CategoricalDtype)
    with pytest.raises(DataFileError, match=r"t\.csv, line 5, column 'b': 'eight' is "
                                            r"not a number"):
        read_csv(p, continuous=["b"])


def test_csv_target_and_features(tmp_path):
    p = write(tmp_path, "t.csv", "a,b,c\n1,2,x\n3,4,y\n")
    with pytest.raises(DataFileError, match="target column 'z'"):
        read_csv(p, "z")
    X, y = read_csv(p, "a", features=["c", "b"])
    assert list(X.columns) == ["c", "b"] and y.tolist() == ["1", "3"]
    X, y = read_csv(p, "nope", features=["b"])
    assert y is None and list(X.columns) == ["b"]
    with pytest.raises(DataFileError, match="feature column 'q'"):
        read_csv(p, features=["q"])


# -- ARFF -----------------------------------------------------------------------
GOLF_ARFF = """% the golf data
@RELATION golf

@ATTRIBUTE outlook {sunny, overcast, rain}
@attribute temperature numeric
@attribute 'humidity' REAL
@attribute windy {true, false}
@attribute play {Play, 'Don\\'t Play'}

@data
""" + "".join(
    ",".join(str(v) if not isinstance(v, str) or "'" not in v else '"' + v + '"'
             for v in r) + "\n" for r in GOLF_ROWS[:-1]) + (
    "{0 rain, 1 71, 2 80, 3 true, 4 \"Don't Play\"}\n")


def test_arff_golf_equals_c45_golf(tmp_path):
    X, y = read_arff(write(tmp_path, "golf.arff", GOLF_ARFF))
    assert_same_frame(X, y, *c45_files.load_c45(os.path.join(REFERENCE, "golf")))


def test_arff_sparse_string_and_target(tmp_path):
    text = ("@relation r\n@attribute n numeric\n@attribute s string\n"
            "@attribute k {a, b}\n@data\n{1 hello, 2 b}\n{0 2.5}\n3, 'x y', a % c\n")
    X, y = read_arff(write(tmp_path, "r.arff", text))
    np.testing.assert_array_equal(X["n"].to_numpy(), [0.0, 2.5, 3.0])
    assert X["s"].isna().tolist() == [False, True, False]
    assert list(X["s"].cat.categories) == ["hello", "x y"]
    assert y.tolist() == ["b", "a", "a"]           # omitted nominal: its first value
    X2, y2 = read_arff(write(tmp_path, "r.arff", text), "k", features=["s", "n"])
    assert list(X2.columns) == ["s", "n"] and y2.tolist() == ["b", "a", "a"]
    assert read_arff(write(tmp_path, "r.arff", text), features=["n"])[1] is None
    with pytest.raises(DataFileError, match=r"r\.arff, line 7, attribute 's': the class "
                                            r"is unknown"):
        read_arff(write(tmp_path, "r.arff", text), target="s")


BAD_ARFF = {
    "empty": ("", 1, "empty"),
    "no data section": ("@relation r\n@attribute a numeric\n", 2, "no @data"),
    "wrong field count": ("@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
                          "@data\n1,x\n2,y,3\n", 6, "3 values, expected 2"),
    "undeclared value": ("@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
                         "@data\n1,x\n2,z\n", 6, "'z' is not declared"),
    "non-numeric": ("@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
                    "@data\n1,x\nabc,y\n", 6, "'abc' is not a number"),
    "date attribute": ("@relation r\n@attribute d date\n@attribute c {x,y}\n@data\n", 2,
                       "not supported"),
    "binary": (b"@relation r\n\xff\xd8\xff\xe0", 2, "decoded"),
    "numeric class": ("@relation r\n@attribute c {x,y}\n@attribute a numeric\n"
                      "@data\nx,1\n", 3, "numeric"),
}


@pytest.mark.parametrize("case", sorted(BAD_ARFF))
def test_malformed_arff_names_the_line(tmp_path, case):
    text, line, words = BAD_ARFF[case]
    p = write(tmp_path, "bad.arff", text)
    with pytest.raises(DataFileError) as info:
        read_arff(p)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)


# -- issue 17: further attacks ------------------------------------------------

def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    """An editor's BOM became part of the first class (then "class 'Play' is not
    declared"), of the first CSV column's name and of ARFF's @relation line."""
    bom = "\ufeff"
    X, y = read_c45(c45_stem(tmp_path, names=bom + GOLF_NAMES))
    assert y.cat.categories[0] == "Play"
    X, _ = read_csv(write(tmp_path, "g.csv", bom + GOLF_CSV), "play")
    assert list(X.columns)[0] == "outlook"
    arff = ("@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n")
    X, y = read_arff(write(tmp_path, "g.arff", bom + arff))
    assert list(y) == ["p", "q"]


@pytest.mark.parametrize("reader", ["c45", "csv", "arff"])
def test_a_number_beyond_float64_names_the_line(tmp_path, reader):
    """1e999 was read as inf and refused by fit without file or line."""
    if reader == "c45":
        stem = c45_stem(tmp_path, data=GOLF_DATA + "sunny, 1e999, 85, false, Play\n")
        read = lambda: read_c45(stem)
        where = "s.data, line 15, attribute 'temperature'"
    elif reader == "csv":
        path = write(tmp_path, "g.csv", GOLF_CSV + "sunny,1e999,85,false,Play\n")
        read = lambda: read_csv(path, "play")
        where = "g.csv, line 16, column 'temperature'"
    else:
        path = write(tmp_path, "g.arff", "@relation r\n@attribute a numeric\n"
                     "@attribute c {p,q}\n@data\n1,p\n1e999,q\n")
        read = lambda: read_arff(path)
        where = "g.arff, line 6, attribute 'a'"
    with pytest.raises(DataFileError, match=f"{where}: '1e999' is beyond the range"):
        read()


@pytest.mark.parametrize("reader", ["csv", "arff"])
@pytest.mark.parametrize("huge", ["9" * 250 + "e60", "1" * 320, ".5e309", "18e+307"])
def test_a_number_beyond_float64_in_a_block_is_found(tmp_path, reader, huge):
    """A block of lines is parsed at once, and only where its texts can be beyond
    float64 (an exponent and a length that add up past 308) are the values
    looked at for infinities (may_overflow): numbers without an exponent, or
    with a small one, can be too, and small exponents elsewhere in the block
    (as pandas writes 3.4e-05) do not hide them."""
    rows = [f"{i / 7:.6f},{'p' if i % 2 else 'q'}" for i in range(3000)]
    rows[5] = "3.4e-05,p"
    rows[2000] = f"{huge},q"
    if reader == "csv":
        path = write(tmp_path, "b.csv", "a,c\n" + "\n".join(rows) + "\n")
        read, where = lambda: read_csv(path, "c"), "b.csv, line 2002, column 'a'"
    else:
        path = write(tmp_path, "b.arff", "@relation r\n@attribute a numeric\n"
                     "@attribute c {p,q}\n@data\n" + "\n".join(rows) + "\n")
        read, where = lambda: read_arff(path), "b.arff, line 2005, attribute 'a'"
    with pytest.raises(DataFileError, match=f"{where}: .* is beyond the range"):
        read()


def test_may_overflow_is_never_wrong_about_an_infinity():
    """may_overflow(texts) is True whenever numpy reads one of them as inf."""
    from c45.io._common import may_overflow
    rng = np.random.default_rng(5)
    for _ in range(3000):
        texts = []
        for _ in range(rng.integers(1, 4)):
            mantissa = "".join(rng.choice(list("0123456789"), rng.integers(1, 320)))
            if rng.random() < 0.3:
                cut = rng.integers(0, len(mantissa) + 1)
                mantissa = mantissa[:cut] + "." + mantissa[cut:]
            exponent = "" if rng.random() < 0.3 else (
                rng.choice(["e", "E"]) + rng.choice(["", "+", "-"])
                + str(rng.integers(0, 400)))
            texts.append(mantissa + exponent)
        if np.isinf(np.array(texts, dtype=np.float64)).any():
            assert may_overflow(texts), texts


def test_an_unknown_encoding_and_a_bad_separator_are_value_errors(tmp_path):
    """LookupError and csv's TypeError before (tracebacks from the CLI)."""
    path = write(tmp_path, "g.csv", GOLF_CSV)
    with pytest.raises(DataFileError, match="unknown text encoding 'bogus'"):
        read_csv(path, "play", encoding="bogus")
    with pytest.raises(DataFileError, match="unknown text encoding 'bogus'"):
        read_c45(c45_stem(tmp_path), encoding="bogus")
    for sep in ("", "ab", "\n", '"'):
        with pytest.raises(ValueError, match="sep must be one character"):
            read_csv(path, "play", sep=sep)


def test_names_with_many_classes_and_values_read_in_linear_time(tmp_path):
    """Duplicate checks against lists: 200,000 declared values took minutes."""
    import time
    values = ", ".join(f"v{i}" for i in range(200_000))
    names = f"p, q.\na: {values}.\nb: continuous.\n"
    stem = c45_stem(tmp_path, names=names, data="v1, 1, p\nv2, 2, q\n")
    start = time.process_time()         # (CPU: a loaded machine's waits do not count)
    X, _ = read_c45(stem)
    assert len(X["a"].cat.categories) == 200_000
    assert time.process_time() - start < 20


def test_arff_nominal_value_listed_twice_names_the_line(tmp_path):
    """pandas refused the categories without file or line."""
    path = write(tmp_path, "d.arff", "@relation r\n@attribute a {x, x, y}\n"
                 "@attribute c {p,q}\n@data\nx,p\ny,q\n")
    with pytest.raises(DataFileError, match="d.arff, line 2, attribute 'a': nominal "
                                            "value 'x' is listed twice"):
        read_arff(path)


def test_wide_arff_and_csv_read_in_linear_time(tmp_path):
    """Attribute lookups in lists: 100,000 ARFF attributes took 46 s. (CPU time,
    5-6 s here, so that a loaded machine's waits do not count.)"""
    import time
    n = 100_000
    arff = write(tmp_path, "w.arff", "@relation r\n" + "".join(
        f"@attribute a{i} numeric\n" for i in range(n)) + "@attribute c {p,q}\n@data\n"
        + ",".join(["1"] * n) + ",p\n")
    csv_path = write(tmp_path, "w.csv", ",".join(f"a{i}" for i in range(n)) + ",c\n"
                     + ",".join(["1"] * n) + ",p\n")
    start = time.process_time()
    X, _ = read_arff(arff)
    read_arff(arff, features=list(X.columns))
    read_csv(csv_path, "c", features=list(X.columns))
    assert time.process_time() - start < 30
