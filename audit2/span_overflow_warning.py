"""A column spanning float64's range: fit printed numpy's "RuntimeWarning:
overflow encountered in scalar subtract" (the check for columns on a tiny scale
computed max - min). Expected: no warning. Run with -W error to see it fail.
"""
import warnings
import numpy as np
from c45 import C45Classifier

warnings.simplefilter("error")
C45Classifier(min_samples_leaf=1).fit(np.array([[-1.7e308], [-1.0], [1.0], [1.7e308]]), [0, 0, 1, 1])
print("no warning")
