"""c45's readers beside pandas.read_csv on the same data: CPU time and peak RSS.

The script writes one data set as a CSV, as C4.5's .names/.data and as ARFF (or
reads --file, a CSV of your own), then reads it several times, each read in a
fresh Python process of its own: the process imports pandas and c45, collects
garbage, resets the peak RSS (Linux: /proc/self/clear_refs) and reads its RSS
(the baseline), reads the file, and reports the CPU time of the read and the
peak RSS above the baseline (VmHWM). Printed: each reader's median over
--repeat runs, and c45's figures as ratios to pandas.read_csv's on the CSV.

Data sets (--kind, several allowed): ``numeric`` (float columns with 5
decimals, nearly all distinct, and a two-class column), ``mixed`` (as many
float columns as categorical ones of 8 words), ``unknowns`` (mixed with 5% of
the values '?', which pandas is told is NaN).

Declarations (--declaration, several allowed), each of --width names:
``header`` a CSV header of that many columns and one row of 1s (c45 refuses
more than c45.io.MAX_COLUMNS; pandas reads any); ``nominal`` an ARFF nominal
list ``@attribute a {v0,v1,...}`` and the same value list in a .names file,
with two data rows (pandas reads neither format: no ratio).

    python benchmarks/bench_io.py [--rows 300000] [--columns 10] [--repeat 3]
                                  [--kind numeric mixed unknowns] [--readers csv c45 arff]
    python benchmarks/bench_io.py --file data.csv [--target COL]
    python benchmarks/bench_io.py --declaration header nominal [--width 3000000]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

CHILD = r"""
import gc, json, os, sys, time

def status_mb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) / 1024.0

path, reader, target = sys.argv[1], sys.argv[2], sys.argv[3] or None
import pandas
import c45.io
gc.collect()
try:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
base = max(status_mb("VmRSS"), status_mb("VmHWM"))
start, cpu = time.perf_counter(), time.process_time()
try:
    if reader == "csv":
        X, y = c45.io.read_csv(path, target)
    elif reader == "c45":
        X, y = c45.io.read_c45(path)
    elif reader == "arff":
        X, y = c45.io.read_arff(path)
    else:
        X = pandas.read_csv(path, na_values=["?"])
    shape = list(X.shape)
except c45.io.DataFileError as exc:       # a declaration beyond a limit
    shape = "refused: " + exc.reason[:60]
cpu, seconds = time.process_time() - cpu, time.perf_counter() - start
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": status_mb("VmHWM") - base,
                  "shape": shape}))
"""

WORDS = [f"w{k}" for k in range(8)]


def make_rows(kind, rows, columns, seed=0):
    """Yield blocks of rows, each a list of lists of field strings (the class last)."""
    rng = np.random.default_rng(seed)
    n_cat = 0 if kind == "numeric" else columns // 2
    for lo in range(0, rows, 50_000):
        m = min(50_000, rows - lo)
        num = rng.normal(size=(m, columns - n_cat)).round(5)
        fields = [[repr(v) for v in r] for r in num.tolist()]
        if n_cat:
            cats = rng.integers(0, len(WORDS), size=(m, n_cat))
            for f, r in zip(fields, cats.tolist()):
                f.extend(WORDS[k] for k in r)
        if kind == "unknowns":
            holes = rng.random(size=(m, columns)) < 0.05
            for f, h in zip(fields, holes.tolist()):
                for j in np.flatnonzero(h):
                    f[j] = "?"
        for f, c in zip(fields, num[:, 0] > 0):
            f.append("yes" if c else "no")
        yield fields


def names(kind, columns):
    n_cat = 0 if kind == "numeric" else columns // 2
    return [f"x{j}" for j in range(columns - n_cat)] + [f"s{j}" for j in range(n_cat)]


def write_files(stem, kind, rows, columns):
    """stem.csv, stem.names + stem.data and stem.arff of the same rows."""
    cols = names(kind, columns)
    with open(stem + ".names", "w") as fh:
        fh.write("yes, no.\n")
        for c in cols:
            spec = "continuous" if c.startswith("x") else ", ".join(WORDS)
            fh.write(f"{c}: {spec}.\n")
    with open(stem + ".csv", "w") as csv, open(stem + ".data", "w") as data, \
            open(stem + ".arff", "w") as arff:
        csv.write(",".join(cols) + ",cls\n")
        arff.write("@relation bench\n")
        for c in cols:
            spec = "numeric" if c.startswith("x") else "{" + ",".join(WORDS) + "}"
            arff.write(f"@attribute {c} {spec}\n")
        arff.write("@attribute cls {yes,no}\n@data\n")
        for block in make_rows(kind, rows, columns):
            text = "".join(",".join(f) + "\n" for f in block)
            csv.write(text)
            data.write(text)
            arff.write(text)


def write_declaration(stem, kind, width):
    """The files of one declaration of width names: reader -> path."""
    if kind == "header":
        with open(stem + ".csv", "w") as fh:
            fh.write(",".join(f"c{j}" for j in range(width)) + "\n")
            fh.write(",".join("1" * width) + "\n")
        return {"pandas": stem + ".csv", "csv": stem + ".csv"}
    values = ",".join(f"v{j}" for j in range(width))
    with open(stem + ".arff", "w") as fh:
        fh.write("@relation r\n@attribute a {" + values + "}\n@attribute cls {x,y}\n"
                 "@data\nv0,x\nv1,y\n")
    with open(stem + ".names", "w") as fh:
        fh.write("x, y.\na: " + values.replace(",", ", ") + ".\n")
    with open(stem + ".data", "w") as fh:
        fh.write("v0,x\nv1,y\n")
    return {"arff": stem + ".arff", "c45": stem}


def measure(path, reader, target):
    done = subprocess.run([sys.executable, "-c", CHILD, path, reader, target or ""],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench(files, readers, repeat, target):
    """Each reader's median figures, and ratios to pandas' when it reads the
    file; files: reader -> path."""
    results = {}
    for reader in (["pandas"] if "pandas" in files else []) + readers:
        size_mb = sum(os.path.getsize(f) for f in _paths(files[reader])) / 2**20
        runs = [measure(files[reader], reader, target) for _ in range(repeat)]
        results[reader] = r = {k: statistics.median(r[k] for r in runs)
                               for k in ("cpu", "seconds", "peak_mb")}
        p = results.get("pandas")
        label = "pandas" if reader == "pandas" else f"c45 {reader}"
        ratios = ("", "") if p is None else (
            f" ({r['cpu'] / p['cpu']:4.1f}x)", f"{r['peak_mb'] / max(p['peak_mb'], 1e-9):4.2f}x; ")
        print(f"  {label:9s} cpu {r['cpu']:6.2f} s{ratios[0]}  "
              f"wall {r['seconds']:6.2f} s  peak +{r['peak_mb']:6.1f} MiB "
              f"({ratios[1]}{r['peak_mb'] / size_mb:.1f}x the file)  shape {runs[0]['shape']}")
    return results


def _paths(path):
    """The files a reader reads: a CSV or ARFF file, or a stem's .names and .data."""
    return [path] if os.path.exists(path) else [path + ".names", path + ".data"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--columns", type=int, default=10, help="features (besides the class)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kind", nargs="+", default=["numeric", "mixed", "unknowns"],
                    choices=["numeric", "mixed", "unknowns"])
    ap.add_argument("--readers", nargs="+", default=["csv", "c45", "arff"],
                    choices=["csv", "c45", "arff"],
                    help="c45's read_csv, read_c45 (.names/.data), read_arff")
    ap.add_argument("--file", help="read this CSV instead (read_csv only)")
    ap.add_argument("--target", help="its class column (default: the last)")
    ap.add_argument("--declaration", nargs="+", choices=["header", "nominal"],
                    help="read one long declaration of each kind instead")
    ap.add_argument("--width", type=int, default=3_000_000,
                    help="names in a --declaration (default 3,000,000)")
    args = ap.parse_args()
    if not os.path.exists("/proc/self/status"):
        sys.exit("bench_io needs Linux /proc for the peak RSS")
    print(f"each read in a fresh process, median of {args.repeat}; ratios to "
          f"pandas.read_csv of the same rows")
    if args.file:
        print(f"{args.file}: {os.path.getsize(args.file) / 2**20:.1f} MiB")
        bench({"pandas": args.file, "csv": args.file}, ["csv"], args.repeat, args.target)
        return
    if args.declaration:
        with tempfile.TemporaryDirectory() as tmp:
            for kind in args.declaration:
                files = write_declaration(os.path.join(tmp, kind), kind, args.width)
                print(f"{kind}: {args.width} names")
                bench(files, [r for r in files if r != "pandas"], args.repeat, None)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kind:
            stem = os.path.join(tmp, kind)
            write_files(stem, kind, args.rows, args.columns)
            size_mb = os.path.getsize(stem + ".csv") / 2**20
            print(f"{kind}: {args.rows} rows, {args.columns} features + class, "
                  f"{size_mb:.1f} MiB of CSV")
            bench({"pandas": stem + ".csv", "csv": stem + ".csv", "c45": stem,
                   "arff": stem + ".arff"}, args.readers, args.repeat, None)


if __name__ == "__main__":
    main()
