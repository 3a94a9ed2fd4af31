"""Reading data files: C4.5's ``.names``/``.data``/``.test``, CSV and ARFF.

Each reader returns ``(X, y)``: X a pandas DataFrame (float64 columns for
continuous attributes, NaN unknown; pandas Categoricals for discrete ones, whose
categories are the branches of C4.5's tests) and y a Categorical Series of the
classes, ready for ``C45Classifier().fit(X, y)``. Each file is read once, as a
stream; malformed input raises :class:`DataFileError` (a ``ValueError``) whose
message names the file, the line and the attribute or column. A file of more
than ``max_columns`` columns (``MAX_COLUMNS``, 250,000, by default) is refused
after its header, before any column is made: each costs the DataFrame about
1 KiB, which no multiple of the file's bytes bounds.

>>> from c45.io import read_c45                      # doctest: +SKIP
>>> X, y = read_c45("tests/data/reference/golf")     # golf.names + golf.data
"""
from c45.io._arff import read_arff
from c45.io._c45format import Attribute, C45Files, Names, read_c45, read_names
from c45.io._common import MAX_COLUMNS, DataFileError
from c45.io._csv import MISSING, read_csv

__all__ = ["read_c45", "read_names", "read_csv", "read_arff", "C45Files", "Names",
           "Attribute", "DataFileError", "MISSING", "MAX_COLUMNS"]
