"""The weather, loan and Titanic examples run (as scripts, as ``python
examples/<name>.py`` runs them, and through their ``main``) and print what they
compute; their results are their sources' own where the sources state them."""
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name):
    sys.path.insert(0, str(EXAMPLES))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def run_script(name, capsys, monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", [str(EXAMPLES / f"{name}.py"), *args])
    runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    return capsys.readouterr().out


def test_weather_cost_complexity(capsys, monkeypatch):
    r = load("weather_cost_complexity").main(verbose=False)
    # The tutorial's hand-worked root gains (before Release 8's MDL penalty).
    assert r["gains"] == {"风向": 0.126, "湿度": 0.150, "紫外线指数": 0.667, "温度": 0.541}
    assert r["ratios"]["紫外线指数"] == r["ratios"]["温度"] == 0.667
    # The tutorial's printed run: 9 leaves, 4 after pruning at alpha 2.5, accuracy
    # 0.8333, and its four predictions.
    assert (r["leaves_before"], r["leaves_after"]) == (9, 4)
    assert r["accuracy"] == pytest.approx(10 / 12)
    assert r["predictions"] == ["雨天", "晴天", "晴天", "雨天"]
    assert r["grown"].startswith("温度 > 30.5 : 晴天 (3.0)\n温度 <= 30.5 :\n")
    out = run_script("weather_cost_complexity", capsys, monkeypatch)
    assert "leaves before pruning: 9, after: 4" in out
    assert "training accuracy: 0.8333" in out
    assert "new sample ['东', '潮湿', '弱', 20]: 雨天" in out
    assert r["pruned"] in out and r["r8"] in out


def test_loan_id3_against_c45(capsys, monkeypatch):
    r = load("loan_id3_vs_c45").main(verbose=False)
    tree = ("有自己的房子 = 是: 是 (6.0)\n有自己的房子 = 否:\n"
            "|   有工作 = 否: 否 (7.0)\n|   有工作 = 是: 是 (3.0)\n")
    assert r["id3"] == tree and r["c45"] == tree
    assert r["id3_root"] == r["c45_root"] == "有自己的房子"
    assert r["c45_dict"] == {"有自己的房子": {"否": {"有工作": {"否": "否", "是": "是"}},
                                           "是": "是"}}
    h = lambda *c: -sum(x / sum(c) * np.log2(x / sum(c)) for x in c if x)
    assert r["gain"]["有自己的房子"] == round(h(9, 7) - 10 / 16 * h(3, 7), 3)
    assert r["training_accuracy"]["id3"] == r["training_accuracy"]["c45"] == 1.0
    assert r["predictions"]["c45"] == ["是", "否"]
    out = run_script("loan_id3_vs_c45", capsys, monkeypatch)
    assert "ID3 tree (criterion='gain'):\n" + tree in out
    assert "applicant ['青年', '是', '否', '好']: id3 是, c45 是, r8 是" in out


def test_titanic_missing_values(capsys, monkeypatch, tmp_path):
    lab = load("titanic_missing_values")
    X, y = lab.make_titanic()
    assert X.shape == (891, 8) and set(y.unique()) == {0, 1}
    assert X["Age"].isna().sum() == 178                    # the lab's 20%
    assert X["Embarked"].isna().any() and X["Deck"].isna().any()
    plot = tmp_path / "titanic.png"
    out = run_script("titanic_missing_values", capsys, monkeypatch, "--plot", str(plot))
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = lab.main(verbose=False)
    assert (r["n_train"], r["n_test"]) == (712, 179)
    assert r["confusion"].sum() == 179
    tn, fp, fn, tp = r["confusion"].ravel()
    assert r["precision"] == pytest.approx(tp / (tp + fp))
    assert r["recall"] == pytest.approx(tp / (tp + fn))
    assert r["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    assert 0.6 < r["auc"] <= 1.0 and 0.6 < r["accuracy"] <= 1.0
    assert sum(r["importances"].values()) == pytest.approx(1.0)
    assert max(r["importances"], key=r["importances"].get) == "Sex"   # the lab's rules
    assert len(r["cv_accuracy"]) == 5 and len(r["learning_curve"][0]) == 5
    assert r["loaded_same"]
    assert f"ROC AUC {r['auc']:.3f}" in out
    assert "the loaded model gives the same probabilities: True" in out
