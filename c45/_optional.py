"""Importing an optional package, with the command that installs it when missing."""
import importlib

# package to import -> (what pip installs, c45's extra that brings it in)
_INSTALL = {
    "pandas": ("pandas", None),
    "matplotlib": ("matplotlib", "plot"),
    "dask": ("dask[dataframe] distributed", "dask"),
    "distributed": ("distributed", "dask"),
    "dask_ml": ("dask-ml", "dask"),
}


def require(module, what):
    """``importlib.import_module(module)``; if it is missing, an ImportError that
    says what needed it and the pip command that installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        if exc.name is None or exc.name.split(".")[0] != top:
            raise                      # something else is missing: do not mask it
        package, extra = _INSTALL.get(top, (top, None))
        hint = f'pip install {package}'
        if extra:
            hint += f' (or pip install "c45[{extra}]")'
        raise ImportError(f"{what} needs {top}, which is not installed: {hint}") from None
