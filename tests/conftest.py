"""Shared pytest setup for the c45 test suite.

Makes the helper modules in this directory (``c45_files``, ``r8_output``) importable
by their plain names, whether or not ``tests`` is run as a package.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
