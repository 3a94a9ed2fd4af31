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
    # -g0 and -Wl,-S: release builds carry no debug information (Python's own
    # CFLAGS often hold -g, which would make the wheel's modules several MB).
    compile_args = ["-O2", "-ffp-contract=off", "-g0"]
    link_args = ["-Wl,-S"]
else:
    # -ffp-contract=off: no fused multiply-add, so binary32 arithmetic rounds after
    # every operation as C4.5 Release 8's does (precision="float32" is bit-exact).
    # -g0 and -s: no debug information or symbol table in release builds.
    compile_args = ["-O2", "-ffp-contract=off", "-fopenmp", "-g0"]
    link_args = ["-fopenmp", "-s"]
    if DEBUG:
        compile_args = ["-O1", "-g", "-ffp-contract=off", "-fopenmp",
                        "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        link_args = ["-fopenmp", "-fsanitize=address,undefined"]

modules = ["_interrupt", "_fresh", "_bulk", "_criterion", "_splitter", "_nodes", "_tasks", "_presorted",
           "_tree_checks", "_tree", "_prune", "_pruning", "_ranks", "_grown", "_soft", "_split",
           "rules._match"]
extensions = [
    Extension(
        f"c45.{name}",
        [f"c45/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in modules
]

# Compile the modules in parallel (pip builds a wheel with build_ext's defaults,
# one module at a time otherwise).
setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            nthreads=os.cpu_count() or 1),
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
