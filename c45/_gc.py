"""Pausing Python's cyclic garbage collector over work that makes many containers
and no cycles: each collection walks every container alive, so a few hundred
thousand of them (the lists of a CSV's rows, of a model file's document) make it
scan them again and again, slowly and deaf to Ctrl-C while it runs."""
import contextlib
import gc


@contextlib.contextmanager
def paused():
    """The collector off within, as it was before after (left off if it was: a
    caller's gc.disable() holds). The process's other threads are paused too;
    what is made within is freed by reference counting as always."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
