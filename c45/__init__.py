"""c45: Quinlan's C4.5 Release 8 decision tree, in Cython, for scikit-learn.

The public names are imported on first use, so that ``c45 --help`` and
``import c45.io`` do not load scikit-learn.
"""
from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec
from os import path as _path

__version__ = "0.1.0"

if _find_spec(__name__ + "._tree") is None:
    _here = _path.dirname(_path.abspath(__file__))
    raise ImportError(
        f"c45's compiled modules are not built in {_here} (this is the source "
        f"checkout, which shadows an installed c45). Either build them here with "
        f"`pip install -e .` (or `python setup.py build_ext --inplace`), or run "
        f"Python from another directory so that the installed c45 is imported.")

from c45._openmp import load_core_passive as _load_core_passive
_load_core_passive()            # libgomp loads now, with its waits passive

_PUBLIC = {
    "C45Classifier": "c45._classifier",
    "export_text": "c45._export",
    "evaluation_table": "c45._export",
    "split_scores": "c45._scores",
    "C45RulesClassifier": "c45.rules",
    "export_rules": "c45.rules",
    "export_graphviz": "c45._graph",
    "plot_tree": "c45._graph",
    "to_dict": "c45._serialize",
    "dict_predict": "c45._serialize",
    "dict_predict_proba": "c45._serialize",
    "to_json": "c45._serialize",
    "from_json": "c45._serialize",
    "InactiveParameterWarning": "c45._params",
}
__all__ = list(_PUBLIC) + ["__version__"]


def __getattr__(name):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'c45' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
