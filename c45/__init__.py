"""c45: Quinlan's C4.5 Release 8 decision tree, in Cython, for scikit-learn."""
from c45._classifier import C45Classifier
from c45._export import export_text

__version__ = "0.1.0"
__all__ = ["C45Classifier", "export_text", "__version__"]
