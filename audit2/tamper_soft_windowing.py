"""Damaged models with soft thresholds or windowing that load (issue 25.6 class).

Each case edits a model fitted with soft_thresholds=True (or trials=2) on golf,
as a format-2 model file resealed by the documented checksum rule
(tests/model_files.sealed) or as a pickle, and loads it. Expected: refused at
load naming the field, or a model that predicts and prints as the original.
Prints, per case, LOADS (and what then goes wrong) or REFUSED.
Run: PYTHONPATH=. python audit2/tamper_soft_windowing.py [CASE]
"""
import json, pickle, sys, warnings
import numpy as np
sys.path.insert(0, "tests")
import c45
from model_files import sealed
from c45.datasets import load_golf

warnings.simplefilter("ignore")
X, y = load_golf()
soft = c45.C45Classifier(soft_thresholds=True).fit(X, y)
hard = c45.C45Classifier().fit(X, y)
win = c45.C45Classifier(trials=2).fit(X, y)
import pandas as pd
Xq = pd.concat([X] + [X.assign(humidity=h) for h in (72.0, 78.0)], ignore_index=True)
Xq["outlook"] = Xq["outlook"].cat.set_categories(X["outlook"].cat.categories)

def doc_of(clf):
    return json.loads(c45.to_json(clf))

def node_of_cont(d):
    t = d["trees"]["final"]
    return next(i for i, k in enumerate(t["kind"]) if t["lower"][i] is not None)

def j_drop_bounds(d):          # soft model, its bounds gone, params still say soft
    for w in ("final", "grown"):
        d["trees"][w].pop("lower", None); d["trees"][w].pop("upper", None)

def j_bounds_on_hard_params(d):   # params say soft_thresholds=False, trees soft
    d["params"]["soft_thresholds"] = False

def j_extreme_bounds(d):        # finite bounds, lower <= threshold <= upper
    t = d["trees"]["final"]; i = node_of_cont(d)
    t["lower"][i] = -1.7e308; t["threshold"][i] = 1.7e308; t["upper"][i] = 1.7e308

def j_params_trials_model(d):   # a windowed model's file says trials=2 (it is: fine?)
    pass

JSON = {"drop_bounds": (soft, j_drop_bounds),
        "bounds_on_hard_params": (soft, j_bounds_on_hard_params),
        "extreme_bounds": (soft, j_extreme_bounds)}

def p_trials_junk(s):
    s["trials_"] = "junk"

def p_best_trial_out_of_range(s):
    s["best_trial_"] = 7

def p_trials_on_plain(s):
    s["trials_"] = [object()]; s["best_trial_"] = 0

def p_soft_tree_hard_params(s):
    s["tree_"] = soft.tree_

def p_hard_tree_soft_params(s):
    s["soft_thresholds"] = True

PICKLE = {"trials_junk": (win, p_trials_junk),
          "best_trial_out_of_range": (win, p_best_trial_out_of_range),
          "trials_on_plain_model": (hard, p_trials_on_plain),
          "soft_tree_hard_params": (hard, p_soft_tree_hard_params),
          "hard_tree_soft_params": (hard, p_hard_tree_soft_params)}

def after(clf, ref):
    out = []
    try:
        P = clf.predict_proba(Xq)
        if np.isnan(P).any(): out.append("NaN probabilities")
        elif not np.allclose(P, ref.predict_proba(Xq)): out.append("other probabilities")
    except Exception as e:
        out.append(f"predict: {type(e).__name__}: {e}"[:120])
    try:
        c45.export_text(clf)
    except Exception as e:
        out.append(f"export_text: {type(e).__name__}: {e}"[:120])
    if getattr(clf, "trials_", None) is not None:
        try:
            from c45._export_windowing import trials_evaluation_table
            trials_evaluation_table(clf, X, y)
        except Exception as e:
            out.append(f"trials table: {type(e).__name__}: {e}"[:120])
    return "; ".join(out) or "predicts as the original"

want = sys.argv[1:]
for name, (model, edit) in JSON.items():
    if want and name not in want: continue
    d = doc_of(model); edit(d)
    try:
        clf = c45.from_json(sealed(d))
        print(f"json {name}: LOADS -> {after(clf, model)}")
    except Exception as e:
        print(f"json {name}: REFUSED ({type(e).__name__}: {str(e)[:100]})")
for name, (model, edit) in PICKLE.items():
    if want and name not in want: continue
    s = model.__getstate__(); edit(s)
    obj = c45.C45Classifier.__new__(c45.C45Classifier)
    try:
        obj.__setstate__(s)
        print(f"pickle {name}: LOADS -> {after(obj, model)}")
    except Exception as e:
        print(f"pickle {name}: REFUSED ({type(e).__name__}: {str(e)[:100]})")
