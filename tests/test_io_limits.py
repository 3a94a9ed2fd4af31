"""Bounded resources on hostile or large input: per-row paths (apply,
decision_path), the CSV reader's memory, lines without end, UTF-16 files, test
classes unseen in training, the CLI's one-line errors and atomic writes.

Memory is measured in a fresh interpreter: the peak RSS an operation adds to
the RSS before it (the peak is reset first where Linux allows), against
generous bounds."""
import io
import os
import re
import stat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier, cli
from c45._files import atomic_write
from c45.io import DataFileError, read_arff, read_c45, read_csv, read_names
from c45.io._common import MAX_LINE_CHARS
from c45_process import run, run_python

REFERENCE = Path(__file__).parent / "data" / "reference"
LINUX = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")

GROWTH = """
import gc

def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def _peak_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024

def growth_mb(fn):
    gc.collect()
    try:                # reset the peak to the current RSS (Linux 4.0+)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    base = max(_rss_mb(), _peak_mb())
    fn()
    return _peak_mb() - base
"""


def growth(setup, op):
    """MiB the peak RSS grows by in `op`, after `setup`, in a fresh process."""
    done = run_python("import os\n" + GROWTH + setup +
                      f"\nprint('GROWTH', growth_mb(lambda: {op}))\n", timeout=300)
    assert done.returncode == 0, done.stderr
    return float(done.stdout.split("GROWTH")[1].split()[0])


# -- apply and decision_path --------------------------------------------------
TREE = """
import numpy as np
from c45 import C45Classifier
rng = np.random.default_rng(0)
X = rng.uniform(size=(30000, 2))
y = ((np.floor(X[:, 0] * 40) % 5) + 5 * (np.floor(X[:, 1] * 20) % 2)).astype(int)
clf = C45Classifier(pruning=None, min_samples_leaf=1).fit(X, y)
assert clf.tree_.node_count > 1500, clf.tree_.node_count
unknown = np.full((6000, 2), np.nan)       # each row reaches every node
"""


@LINUX
def test_apply_on_rows_that_reach_every_node_takes_no_path_memory():
    # 6,000 rows x 1,603 nodes: paths of 9.6 million visits took +250 MB or more.
    assert growth(TREE, "clf.apply(unknown)") < 40


@LINUX
def test_decision_path_memory_is_its_output():
    # The output: 9.6 million entries of 5 bytes (int32 index, int8 value), 46 MiB;
    # the growing path sink and its copies took +400 MB.
    assert growth(TREE, "clf.decision_path(unknown)") < 46 * 1.5 + 30


def test_apply_keeps_its_leaf_of_largest_share():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                      "c": pd.Categorical(list("pqpqppq"))})
    y = ["a", "a", "a", "b", "b", "b", "b"]
    clf = C45Classifier(min_samples_leaf=1, pruning=None).fit(X, y)
    rows = pd.DataFrame({"x": [np.nan, 1.0, np.nan, 6.5],
                         "c": pd.Categorical([None, "p", "q", None], categories=["p", "q"])})
    path = clf.decision_path(rows).toarray().astype(bool)
    leaves = clf.apply(rows)
    t = clf.tree_
    for r in range(len(rows)):
        reached = np.flatnonzero(path[r] & (t.kind == 0))
        assert leaves[r] in reached
        if len(reached) == 1:
            assert leaves[r] == reached[0]


# -- read_csv memory ----------------------------------------------------------
@LINUX
def test_read_csv_of_numbers_keeps_floats_not_strings(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150_000, 8)).round(5)
    path = tmp_path / "n.csv"
    with open(path, "w") as f:
        f.write(",".join(f"x{i}" for i in range(8)) + ",cls\n")
        for row in X.tolist():
            f.write(",".join(map(str, row)) + ",a\n")
    mb = path.stat().st_size / 2**20            # 10 MiB of text
    # The frame is 9 MiB; every distinct string kept took 13x the file (+130 MiB).
    grown = growth(f"from c45.io import read_csv\nimport pandas", f"read_csv({str(path)!r})")
    assert grown < 4 * mb + 40, (grown, mb)


def test_a_column_with_a_late_word_is_read_again_as_strings(tmp_path):
    body = "".join(f"{i}.0,{i},{'p' if i % 2 else 'q'}\n" for i in range(3000))
    text = "a,b,cls\n" + body + "7,w,p\n"
    path = tmp_path / "late.csv"
    path.write_text(text)
    X, y = read_csv(path, chunk_rows=500)
    assert X["a"].dtype == np.float64
    cats = list(X["b"].cat.categories)
    assert cats[:3] == ["0", "1", "10"] and cats[-1] == "w" and len(cats) == 3001
    assert X["b"].iloc[2999] == "2999" and X["b"].iloc[3000] == "w"

    class Pipe(io.RawIOBase):          # a stream that cannot seek back
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buf):
            return self.data.readinto(buf)

    X2, y2 = read_csv(io.BufferedReader(Pipe(text.encode())), chunk_rows=500)
    pd.testing.assert_frame_equal(X, X2)
    pd.testing.assert_series_equal(y, y2)


def test_continuous_column_errors_still_name_the_first_bad_row(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("a,cls\n" + "1,p\n" * 700 + "x,p\n1e999,q\n")
    with pytest.raises(DataFileError, match=r"line 702, column 'a': 'x' is not a number"):
        read_csv(path, continuous=["a"], chunk_rows=600)
    path.write_text("a,cls\n" + "1,p\n" * 700 + "1e999,q\n")
    with pytest.raises(DataFileError, match=r"line 702, column 'a': '1e999' is beyond"):
        read_csv(path, chunk_rows=600)


@LINUX
def test_long_strings_are_not_widened_in_fit():
    setup = """
import numpy as np, pandas as pd
from c45 import C45Classifier
vals = [str(i) * 10_000_000 for i in range(4)]          # 4 distinct 10-MB strings
X = pd.DataFrame({"s": pd.Series([vals[i % 4] for i in range(40)], dtype=object),
                  "x": np.arange(40.0)})
y = np.array(["a", "b"] * 20)
"""
    # Each row's string copied to Arrow and back: +1.1 GB.
    assert growth(setup, "C45Classifier().fit(X, y)") < 200


# -- declarations: nominal lists, class lists, headers ---------------------------
def _declaration(tmp_path, kind, n):
    """A file whose one declaration lists n values: (path to read, reader)."""
    values = [f"v{j}" for j in range(n)]
    if kind.startswith("arff"):
        quoted = [f"'{v}'" for v in values] if kind == "arff quoted" else values
        path = tmp_path / "d.arff"
        path.write_text("@relation r\n@attribute a {" + ",".join(quoted) + "}\n"
                        "@attribute cls {x,y}\n@data\nv5,x\nv7,y\n")
        return path, "read_arff"
    (tmp_path / "d.data").write_text("v5,x\nv7,y\n" if kind == "names values" else
                                     "1,v5\n2,v7\n")
    path = tmp_path / "d.names"
    if kind == "names values":
        path.write_text("x, y.\na: " + ", ".join(values) + ".\n")
    else:                                       # the class list
        path.write_text(", ".join(values) + ".\na: continuous.\n")
    return tmp_path / "d", "read_c45"


@LINUX
@pytest.mark.parametrize("kind", ["arff", "arff quoted", "names values", "names classes"])
def test_a_long_declaration_costs_a_bounded_multiple_of_its_bytes(tmp_path, kind):
    # A value costs its string (~50 bytes: what the categories hold) against
    # ~9 bytes in the file, plus one hash table: 16-19x the file. Tuples, sets
    # and dicts of str -> code beside it took 28-37x (a 26 MB list: +800 MB).
    path, reader = _declaration(tmp_path, kind, 1_000_000)
    mb = sum(f.stat().st_size for f in tmp_path.iterdir()) / 2**20      # 8-10 MiB
    grown = growth(f"from c45.io import {reader}\nimport pandas",
                   f"{reader}({str(path)!r})")
    assert grown < 24 * mb, (grown, mb)


def test_a_header_beyond_max_columns_is_refused_at_the_cost_of_its_line(tmp_path):
    import tracemalloc

    from c45.io import MAX_COLUMNS
    n = MAX_COLUMNS + 1
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{j}" for j in range(n)) + "\n" + "1," * (n - 1) + "1\n")
    tracemalloc.start()
    try:
        with pytest.raises(DataFileError, match=rf"line 1: the header has more than "
                                                rf"{MAX_COLUMNS:,} columns"):
            read_csv(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The line read and a copy or two; read, the frame's columns cost ~1 KiB each
    # (pandas.read_csv: 1.1 GB for 1M columns), its names ~60 bytes each.
    assert peak < 6 * path.stat().st_size, (peak, path.stat().st_size)


@pytest.mark.parametrize("fmt", ["csv", "quoted csv", "arff", "names"])
def test_max_columns_is_the_number_of_columns_read(tmp_path, fmt):
    names = [f"a{j}" for j in range(9)] + ["cls"]
    if fmt.endswith("csv"):
        header = ",".join(f'"{h}"' if fmt == "quoted csv" else h for h in names)
        path = tmp_path / "t.csv"
        path.write_text(header + "\n" + "1," * 9 + "p\n")
        read, line = read_csv, 1
    elif fmt == "arff":
        path = tmp_path / "t.arff"
        path.write_text("".join(f"@attribute {h} numeric\n" for h in names[:-1]) +
                        "@attribute cls {p,q}\n@data\n" + "1," * 9 + "p\n")
        read, line = read_arff, 10
    else:
        (tmp_path / "t.data").write_text("1," * 9 + "p\n")
        path = tmp_path / "t.names"
        path.write_text("p, q.\n" + "".join(f"{h}: continuous.\n" for h in names[:-1]))
        read, line = read_c45, 10
    what = "header has" if fmt.endswith("csv") else "file declares"
    # The class counts among a file's columns (a .names' class list does not).
    limit = 9 if fmt == "names" else 10
    with pytest.raises(DataFileError, match=rf"line {line}: the {what} more than "
                                            rf"{limit - 1} columns"):
        read(path, max_columns=limit - 1)
    X, y = read(path, max_columns=limit)
    assert X.shape == (1, 9) and list(y) == ["p"]


def test_the_cli_takes_max_columns(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("a,b,cls\n" + "".join(f"{i},{i % 3},{'pq'[i % 2]}\n" for i in range(20)))
    assert cli.main(["fit", "--csv", str(path), "--max-columns", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and re.search(r"t.csv, line 1: the header has more than 2 "
                                         r"columns.*--max-columns", err), err
    assert cli.main(["fit", "--csv", str(path), "--max-columns", "3"]) == 0


def test_repeats_in_a_declaration_name_their_line(tmp_path):
    path = tmp_path / "r.names"
    path.write_text("p,\nq, r,\n p.\na: x, y,\n z, y.\n")
    with pytest.raises(DataFileError, match=r"line 3: class 'p' is listed twice"):
        read_names(path)
    path.write_text("p, q.\na: x, y,\n z, y.\n")
    with pytest.raises(DataFileError, match=r"line 3, attribute 'a': value 'y' is listed "
                                            r"twice"):
        read_names(path)
    path.write_text("p, q.\na: x, x,\n , y.\n")        # the first error of the list
    with pytest.raises(DataFileError, match=r"line 2, attribute 'a': value 'x' is listed"):
        read_names(path)
    path = tmp_path / "r.arff"
    path.write_text("@attribute a {x, 'y', \"y\"}\n@attribute c {p}\n@data\nx,p\n")
    with pytest.raises(DataFileError, match=r"line 1, attribute 'a': nominal value 'y' is "
                                            r"listed twice"):
        read_arff(path)


# -- lines without end --------------------------------------------------------
class Endless(io.RawIOBase):
    """A stream of one byte repeated, without end; counts the bytes read."""

    def __init__(self, byte):
        self.byte, self.count = byte, 0

    def readable(self):
        return True

    def readinto(self, buf):
        buf[:] = self.byte * len(buf)
        self.count += len(buf)
        return len(buf)


@pytest.mark.parametrize("reader", [read_csv, read_arff, read_names])
def test_a_stream_without_line_breaks_stops_at_the_line_bound(reader):
    raw = Endless(b"y")
    with pytest.raises(DataFileError, match=r"line 1: is longer than 67108864 characters"):
        reader(io.BufferedReader(raw))
    assert raw.count < MAX_LINE_CHARS + (4 << 20)


@pytest.mark.parametrize("reader", [read_csv, read_arff, read_names])
def test_a_stream_of_nul_bytes_stops_at_once(reader):
    raw = Endless(b"\0")
    with pytest.raises(DataFileError, match=r"line 1: holds a NUL byte"):
        reader(io.BufferedReader(raw))
    assert raw.count < 4 << 20


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv, words", [
    (["predict", "--model", "/dev/zero", "-f", str(REFERENCE / "golf")],
     "/dev/zero is not a c45 model: it holds NUL bytes"),
    (["fit", "--csv", "/dev/zero"], "/dev/zero, line 1: holds a NUL byte"),
    (["fit", "--arff", "/dev/zero"], "/dev/zero, line 1: holds a NUL byte"),
])
def test_cli_on_dev_zero_is_a_one_line_error(argv, words):
    done = run(["-m", "c45", *argv], timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("c45: error: ") and done.stderr.count("\n") == 1
    assert words in done.stderr and "Traceback" not in done.stderr


ENDLESS_MODEL = """
import os, resource, sys, threading
from c45 import cli
read, write = os.pipe()
def feed():                     # a model that never ends: '{"format": "aaaa...
    os.write(write, b'{"format": "')
    block = b"a" * (1 << 20)
    try:
        while True:
            os.write(write, block)
    except OSError:
        pass
threading.Thread(target=feed, daemon=True).start()
if "WHICH" == "memory":         # memory runs out before the stream bound
    import contextlib, io, tempfile     # first a whole predict, so that all is loaded
    saved = os.path.join(tempfile.mkdtemp(), "golf.json")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["fit", "-f", "GOLF", "--save", saved])
        cli.main(["predict", "--model", saved, "-f", "GOLF"])
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    room = ADDRESS_SPACE + (256 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (room if hard == resource.RLIM_INFINITY
                                            else min(room, hard), hard))
else:
    cli.MODEL_STREAM_LIMIT = 8 << 20
sys.exit(cli.main(["predict", "--model", f"/dev/fd/{read}", "-f", "GOLF"]))
"""


@pytest.mark.skipif(not os.path.exists("/dev/fd"), reason="needs /dev/fd")
@pytest.mark.parametrize("limit, words", [
    ("stream", "more than 8 MiB read from a stream that is not a regular file"),
    ("memory", "out of memory reading the model /dev/fd/"),
])
def test_cli_model_from_an_endless_pipe_is_a_one_line_error(limit, words):
    """A model piped in without end stops at the stream bound or, when memory
    runs out first, says so and how much it read: it ended with "out of memory"
    alone (a list of blocks joined at the end needed twice what was read)."""
    code = ENDLESS_MODEL.replace("WHICH", limit).replace("GOLF", str(REFERENCE / "golf"))
    code = code.replace("ADDRESS_SPACE", "int(open('/proc/self/statm').read().split()[0])"
                                         " * os.sysconf('SC_PAGE_SIZE')")
    done = run_python(code, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("c45: error: ") and done.stderr.count("\n") == 1
    assert words in done.stderr and "Traceback" not in done.stderr, done.stderr
    if limit == "memory":
        assert "does it end?" in done.stderr


@pytest.mark.parametrize("exc, status", [(MemoryError(), 1),
                                         (RuntimeError("two\nlines"), 1),
                                         (KeyError("k"), 1)])
def test_every_cli_failure_is_one_line(monkeypatch, capsys, exc, status):
    def boom(*args, **kwargs):
        raise exc
    monkeypatch.setattr(cli, "read_data", boom)
    assert cli.main(["fit", "-f", str(REFERENCE / "golf")]) == status
    err = capsys.readouterr().err
    assert err.startswith("c45: error: ") and err.count("\n") == 1, err


# -- UTF-16 and UTF-32 ----------------------------------------------------------
GOLF_CSV = ("outlook,temp,windy,play\nsunny,85,false,no\nrain,70,true,no\n"
            "overcast,83,false,yes\nsunny,69,false,yes\n")
GOLF_ARFF = ("@relation golf\n@attribute outlook {sunny,overcast,rain}\n"
             "@attribute temp numeric\n@attribute windy {true,false}\n"
             "@attribute play {yes,no}\n@data\nsunny,85,false,no\nrain,70,true,no\n"
             "overcast,83,false,yes\nsunny,69,false,yes\n")
NAMES = "yes, no.\noutlook: sunny, overcast, rain.\ntemp: continuous.\nwindy: true, false.\n"
DATA = "sunny,85,false,no\nrain,70,true,no\novercast,83,false,yes\nsunny,69,false,yes\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-8-sig"])
def test_every_reader_reads_utf16_and_utf32(tmp_path, capsys, encoding):
    def put(name, text):
        p = tmp_path / name
        p.write_bytes(text.encode(encoding))
        return p
    X, y = read_csv(put("g.csv", GOLF_CSV), "play", encoding=encoding)
    assert list(X.columns) == ["outlook", "temp", "windy"] and list(X["temp"]) == [85, 70, 83, 69]
    assert list(y) == ["no", "no", "yes", "yes"]
    Xa, ya = read_arff(put("g.arff", GOLF_ARFF), encoding=encoding)
    assert list(ya) == list(y) and list(Xa["temp"]) == [85, 70, 83, 69]
    put("g.names", NAMES)
    put("g.data", DATA)
    put("g.test", DATA)
    Xc, yc = read_c45(tmp_path / "g", encoding=encoding)
    assert list(yc) == list(y) and list(Xc["outlook"]) == ["sunny", "rain", "overcast", "sunny"]
    Xt, _ = read_c45(tmp_path / "g", "test", encoding=encoding)
    assert len(Xt) == 4
    for argv in (["-f", str(tmp_path / "g"), "-u"],
                 ["--csv", str(tmp_path / "g.csv"), "--target", "play",
                  "--test", str(tmp_path / "g.csv")],
                 ["--arff", str(tmp_path / "g.arff")]):
        # In this process: a fresh interpreter per command cost 12 imports of
        # scikit-learn for the 4 encodings; the command reads the same way here.
        status = cli.main(["fit", *argv, "--encoding", encoding, "-m", "1"])
        out, err = capsys.readouterr()
        assert status == 0, err
        assert "Read 4 cases (3 attributes)" in out


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_every_reader_reads_lines_ended_by_a_lone_carriage_return(tmp_path, encoding):
    """Classic Mac OS line ends ("\r" alone), as Python's universal newlines and
    pandas read them: the files were one line ("not valid CSV: new-line
    character seen in unquoted field", an ARFF "file is empty", a .names
    "found an attribute 'no.\ra'")."""
    def read_all(nl):
        def put(name, text):
            p = tmp_path / f"{len(nl)}-{name}"
            p.write_bytes(text.replace("\n", nl).encode(encoding))
            return p
        put("g.names", NAMES)
        put("g.data", DATA)
        return [*read_csv(put("g.csv", GOLF_CSV), "play", encoding=encoding),
                *read_arff(put("g.arff", GOLF_ARFF), encoding=encoding),
                *read_c45(tmp_path / f"{len(nl)}-g", encoding=encoding)]
    for got, want in zip(read_all("\r"), read_all("\n")):
        assert got.equals(want)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("nl", ["\r", "\r\n", "\n"])
def test_a_line_end_across_a_read_block_is_one_line_end(encoding, nl):
    from c45.io._common import READ_BLOCK, text_lines
    bom = len("".encode(encoding))
    unit = len("x".encode(encoding)) - bom
    first = "c" * ((READ_BLOCK - bom) // unit - 1)      # its "\r" ends the first block
    text = nl.join([first, "a", "", "b"]) + nl
    lines = list(text_lines(io.BytesIO(text.encode(encoding)), "p", encoding))
    assert [line.rstrip("\r\n") for line in lines] == [first, "a", "", "b"]
    assert all(line.endswith("\r\n" if "\r" in nl else "\n") for line in lines)


@pytest.mark.parametrize("reader", [read_csv, read_arff, read_names])
def test_a_codec_refusing_the_stream_itself_names_the_file(tmp_path, reader):
    # UTF-16 without a byte order mark: the codec raises a UnicodeError (not a
    # UnicodeDecodeError), which left the reader as "UTF-16 stream does not
    # start with BOM", naming no file (the command's error too).
    p = tmp_path / "plain.txt"
    p.write_bytes(b"a,b,cls\n1,x,p\n")
    with pytest.raises(DataFileError, match=r"plain.txt, line 1: cannot be decoded as "
                                             r"utf-16 \(UTF-16 stream does not start"):
        reader(p, encoding="utf-16")


def test_undecodable_bytes_name_their_line_and_byte(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_bytes(b"a,cls\n1,p\n22,\xff\n")
    with pytest.raises(DataFileError, match=r"line 3: cannot be decoded as utf-8 \(byte 4 "
                                             r"of the line is b'\\xff'\)"):
        read_csv(p)
    p.write_bytes("a,cls\n1,p\n".encode("utf-16") + b"\x00\xd8")    # a lone surrogate
    with pytest.raises(DataFileError, match=r"line 3: cannot be decoded as utf-16"):
        read_csv(p, encoding="utf-16")


# -- test classes unseen in training --------------------------------------------
def _unseen_files(tmp_path):
    (tmp_path / "tr.csv").write_text("a,cls\n1,x\n2,x\n3,y\n4,y\n5,x\n6,y\n")
    (tmp_path / "te.csv").write_text("a,cls\n1,x\n5,z\n6,z\n")
    (tmp_path / "tr.arff").write_text("@relation r\n@attribute a numeric\n"
                                      "@attribute c {x,y}\n@data\n1,x\n2,x\n3,y\n4,y\n")
    (tmp_path / "te.arff").write_text("@relation r\n@attribute a numeric\n"
                                      "@attribute c {x,y,z}\n@data\n1,x\n5,z\n6,z\n")


@pytest.mark.parametrize("argv", [
    ["fit", "--csv", "tr.csv", "--target", "cls", "--test", "te.csv"],
    ["rules", "--csv", "tr.csv", "--target", "cls", "--test", "te.csv"],
    ["fit", "--arff", "tr.arff", "--test", "te.arff"],
    ["rules", "--arff", "tr.arff", "--test", "te.arff"],
])
def test_a_test_class_unseen_in_training_counts_as_errors(tmp_path, capsys, argv):
    _unseen_files(tmp_path)
    argv = [str(tmp_path / a) if a.endswith((".csv", ".arff")) else a for a in argv]
    assert cli.main([*argv, "-m", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 test cases had classes unseen in training (z), each counted as an error" in out
    assert re.search(r"\(c\): class z", out)


# -- atomic writes ------------------------------------------------------------------
def test_atomic_write_keeps_the_old_file_on_failure(tmp_path):
    path = tmp_path / "model.json"
    path.write_text("old")
    os.chmod(path, 0o640)
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(path) as fh:
            fh.write("half a new mod")
            raise KeyboardInterrupt
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["model.json"]
    with atomic_write(path) as fh:
        fh.write("new")
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["model.json"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    link = tmp_path / "link.json"
    link.symlink_to(path)
    with atomic_write(link) as fh:
        fh.write("through the link")
    assert link.is_symlink() and path.read_text() == "through the link"
    if os.path.exists("/dev/null"):
        with atomic_write("/dev/null") as fh:      # a device is written in place
            fh.write("x")
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fit_save_failing_mid_write_keeps_the_old_model(tmp_path, capsys, monkeypatch):
    import c45
    path = tmp_path / "m.json"
    path.write_text("the old model")
    # A lone surrogate cannot be written as UTF-8: the write fails half way.
    monkeypatch.setattr(c45, "to_json", lambda clf: '{"format": "c45"' + " " * 10000
                        + "\ud800}")
    assert cli.main(["fit", "-f", str(REFERENCE / "golf"), "--save", str(path)]) == 2
    assert path.read_text() == "the old model" and os.listdir(tmp_path) == ["m.json"]


def test_the_library_and_cli_write_files_only_atomically():
    """Every file c45 writes goes through atomic_write (a plain open(..., "w")
    truncates the old file before the new one is whole)."""
    root = Path(cli.__file__).parent
    writes = re.compile(r"""\bopen\([^)]*["'][wax]b?\+?["']""")
    found = [f"{p.relative_to(root)}:{n}" for p in root.rglob("*.py") if p.name != "_files.py"
             for n, line in enumerate(p.read_text().splitlines(), 1) if writes.search(line)]
    assert found == []


@pytest.mark.parametrize("encoding", ["base64", "rot13", "zlib"])
def test_a_codec_that_is_not_a_text_encoding_is_refused(tmp_path, encoding):
    p = tmp_path / "g.csv"
    p.write_text(GOLF_CSV)
    with pytest.raises(DataFileError, match=f"'{encoding}' is not a text encoding"):
        read_csv(p, encoding=encoding)
