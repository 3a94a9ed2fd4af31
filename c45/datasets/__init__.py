"""Small data sets bundled with c45.

- golf: the 14-case play/don't-play example distributed with C4.5 Release 8
  (UCI Machine Learning Repository), with C4.5's declared value and class order.
- loan: the 16-case loan application data of Li Hang's textbook
  (Statistical Learning Methods): age group, has a job, owns a house, credit rating -> loan granted.
- weather: the 12-case weather example of the C4.5 tutorial (a Chinese C4.5
  tutorial): wind direction, humidity, UV index (discrete), temperature
  (continuous, degrees C) and the weather class, labels in Chinese as published.
"""
import csv
from importlib import resources

import numpy as np

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
    with resources.files(__name__).joinpath("data", spec["file"]).open(
            encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
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
                if h in spec["discrete"] else np.asarray(columns[h], dtype=np.float64))
            for h in features})
        y = pd.Series(pd.Categorical(columns[spec["target"]], categories=spec["classes"]),
                      name=spec["target"])
        return X, y
    X = np.empty((len(body), len(features)), dtype=object)
    for j, h in enumerate(features):
        X[:, j] = (columns[h] if h in spec["discrete"]
                   else np.asarray(columns[h], dtype=np.float64))
    return X, np.asarray(columns[spec["target"]], dtype=object)


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
