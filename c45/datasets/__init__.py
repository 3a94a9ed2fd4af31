"""Small data sets bundled with c45.

- load_r8(name, part="data"): the nine data sets distributed with C4.5 Release 8
  (UCI Machine Learning Repository) as C4.5 reads them, in their declared value
  and class order; write_r8(name, directory) writes their files for the command.

- golf: the 14-case play/don't-play example distributed with C4.5 Release 8
  (UCI Machine Learning Repository), with C4.5's declared value and class order.
- loan: the 16-case loan application data of Li Hang's textbook
  (Statistical Learning Methods): age group, has a job, owns a house, credit rating -> loan granted.
- weather: the 12-case weather example of the C4.5 tutorial (a Chinese C4.5
  tutorial): wind direction, humidity, UV index (discrete), temperature
  (continuous, degrees C) and the weather class, labels in Chinese as published.
"""
import csv as _csv
from importlib import resources as _resources
from pathlib import Path as _Path

import numpy as _np

from c45._files import atomic_write as _atomic_write

__all__ = ["load_golf", "load_weather", "load_loan", "load_r8", "write_r8"]

# Release 8's nine sets: name -> the parts it has (.names is always there).
_R8 = {"golf": ("data",), "labor-neg": ("data", "test"), "vote": ("data", "test"),
       "monk1": ("data", "test"), "monk2": ("data", "test"),
       "monk3": ("data", "test"), "crx": ("data", "test"),
       "hypo": ("data", "test"), "soybean": ("data",)}

_GOLF = dict(
    file="golf.csv",
    discrete={"outlook": ["sunny", "overcast", "rain"], "windy": ["true", "false"]},
    continuous=["temperature", "humidity"],
    target="play", classes=["Play", "Don't Play"],
)
_WEATHER = dict(
    file="weather.csv",
    discrete={"风向": ["东", "南", "西", "北"], "湿度": ["干燥", "潮湿", "适中"],
              "紫外线指数": ["强", "弱"]},
    continuous=["温度"],
    target="类别标签", classes=["晴天", "阴天", "雨天"],
)

_LOAN = dict(
    file="loan.csv",
    discrete={"年龄段": ["青年", "中年", "老年"], "有工作": ["否", "是"],
              "有自己的房子": ["否", "是"], "信贷情况": ["一般", "好", "非常好"]},
    continuous=[],
    target="是否给贷款", classes=["否", "是"],
)


def _read(spec):
    with _resources.files(__name__).joinpath("data", spec["file"]).open(
            encoding="utf-8", newline="") as fh:
        rows = list(_csv.reader(fh))
    header, body = rows[0], rows[1:]
    return header, body


def _load(spec, as_frame):
    header, body = _read(spec)
    columns = {h: [r[i] for r in body] for i, h in enumerate(header)}
    features = [h for h in header if h != spec["target"]]
    if as_frame:
        from c45._optional import require
        pd = require("pandas", "the bundled data as a DataFrame (as_frame=True)")
        X = pd.DataFrame({
            h: (pd.Categorical(columns[h], categories=spec["discrete"][h])
                if h in spec["discrete"] else _np.asarray(columns[h], dtype=_np.float64))
            for h in features})
        y = pd.Series(pd.Categorical(columns[spec["target"]], categories=spec["classes"]),
                      name=spec["target"])
        return X, y
    X = _np.empty((len(body), len(features)), dtype=object)
    for j, h in enumerate(features):
        X[:, j] = (columns[h] if h in spec["discrete"]
                   else _np.asarray(columns[h], dtype=_np.float64))
    return X, _np.asarray(columns[spec["target"]], dtype=object)


def load_golf(as_frame=True):
    """The golf data of C4.5 Release 8: (X, y).

    With ``as_frame=True`` (needs pandas) X is a DataFrame whose discrete columns
    are Categoricals in C4.5's declared order and y a Categorical with classes
    ``["Play", "Don't Play"]``; else an object array and a string array.
    """
    return _load(_GOLF, as_frame)


def load_weather(as_frame=True):
    """The 12-case weather data of a Chinese C4.5 tutorial (labels kept): (X, y).

    Features 风向 (wind direction), 湿度 (humidity), 紫外线指数 (UV index) are
    discrete, 温度 (temperature) is continuous; the classes are 晴天 (sunny),
    阴天 (overcast), 雨天 (rain).
    """
    return _load(_WEATHER, as_frame)


def load_loan(as_frame=True):
    """The 16-case loan data of Li Hang's textbook (Chinese labels kept): (X, y).

    Features 年龄段 (age group: 青年 young, 中年 middle-aged, 老年 old), 有工作
    (has a job), 有自己的房子 (owns a house), 信贷情况 (credit: 一般 fair, 好 good,
    非常好 excellent), all discrete; the class 是否给贷款 (loan granted: 否 no, 是 yes).
    """
    return _load(_LOAN, as_frame)


def _r8_parts(name, part=None):
    """The parts of R8 set ``name``, after checking ``name`` (and ``part``)."""
    if name not in _R8:
        raise ValueError(f"no Release 8 data set {name!r}; the sets are "
                         f"{', '.join(map(repr, _R8))}")
    parts = _R8[name]
    if part is not None and part not in parts:
        raise ValueError(f"part must be one of {', '.join(map(repr, parts))} for "
                         f"{name!r}, got {part!r}"
                         + ("" if "test" in parts else f" ({name} has no test cases)"))
    return parts


def load_r8(name, part="data"):
    """One of the nine data sets distributed with C4.5 Release 8: (X, y).

    ``name`` is one of ``"golf"``, ``"labor-neg"``, ``"vote"``, ``"monk1"``,
    ``"monk2"``, ``"monk3"``, ``"crx"``, ``"hypo"``, ``"soybean"``; ``part`` is
    ``"data"`` (the training cases, ``NAME.data``) or ``"test"`` (``NAME.test``;
    all but golf and soybean have one). They are read as
    :func:`c45.io.read_c45` reads C4.5's files: X a DataFrame (float64 columns
    with NaN for ``?``, discrete ones Categoricals in the order ``NAME.names``
    declares), y a Categorical of the declared classes.
    """
    _r8_parts(name, part)
    from c45.io import read_c45
    with _resources.as_file(_resources.files(__name__).joinpath("data", "r8")) as d:
        return read_c45(_Path(d) / name, part)


def write_r8(name, directory="."):
    """Write R8 set ``name``'s ``.names``, ``.data`` (and ``.test``) files into
    ``directory`` (made if missing), for the ``c45`` command's ``-f STEM``;
    returns the stem (``directory/name``)."""
    parts = ("names",) + _r8_parts(name)
    directory = _Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    source = _resources.files(__name__).joinpath("data", "r8")
    for part in parts:
        # latin-1 both ways: the bytes as they are; atomic: no half-written file
        text = source.joinpath(f"{name}.{part}").read_bytes().decode("latin-1")
        with _atomic_write(directory / f"{name}.{part}", encoding="latin-1",
                           newline="") as dst:
            dst.write(text)
    return str(directory / name)
