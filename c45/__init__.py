"""c45: Quinlan's C4.5 Release 8 decision tree, in Cython, for scikit-learn."""
from c45._classifier import C45Classifier
from c45._export import evaluation_table, export_text
from c45._scores import split_scores

__version__ = "0.1.0"
__all__ = ["C45Classifier", "export_text", "evaluation_table", "split_scores",
           "__version__"]
