"""c45: Quinlan's C4.5 Release 8 decision tree, in Cython, for scikit-learn."""
from c45._classifier import C45Classifier
from c45._export import evaluation_table, export_text
from c45._scores import split_scores
from c45._rules import C45RulesClassifier, export_rules
from c45._graph import export_graphviz, plot_tree
from c45._serialize import dict_predict, dict_predict_proba, from_json, to_dict, to_json

__version__ = "0.1.0"
__all__ = ["C45Classifier", "export_text", "evaluation_table", "split_scores",
           "C45RulesClassifier", "export_rules",
           "export_graphviz", "plot_tree", "to_dict", "dict_predict",
           "dict_predict_proba", "to_json", "from_json",
           "__version__"]
