"""Build the Cython core of c45.

Set C45_DEBUG=1 to compile with Cython bounds checks on and AddressSanitizer/UBSan
(for the fuzz and property tests); the default build is optimised.
"""
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("C45_DEBUG", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
}

# OpenMP runs the n_jobs threads; without it (Apple clang) they run one at a time.
if sys.platform == "win32":
    compile_args = ["/O2", "/fp:strict", "/openmp"]
    link_args = []
elif sys.platform == "darwin":
    compile_args = ["-O2", "-ffp-contract=off"]
    link_args = []
else:
    # -ffp-contract=off: no fused multiply-add, so binary32 arithmetic rounds after
    # every operation as C4.5 Release 8's does (precision="float32" is bit-exact).
    compile_args = ["-O2", "-ffp-contract=off", "-fopenmp"]
    link_args = ["-fopenmp"]
    if DEBUG:
        compile_args = ["-O1", "-g", "-ffp-contract=off", "-fopenmp",
                        "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        link_args = ["-fopenmp", "-fsanitize=address,undefined"]

modules = ["_criterion", "_splitter", "_tree", "_prune", "_ranks"]
extensions = [
    Extension(
        f"c45.{name}",
        [f"c45/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in modules
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
