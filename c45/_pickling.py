"""Big arrays in pickles: in parts, with Python code between them.

numpy pickles an array as one bytes object, made and written (and at load
copied back) by C calls during which the interpreter handles no signal: at
thousands of classes a tree's class weights are hundreds of MB, and
pickle.dumps, pickle.loads and copy.deepcopy of such a model were deaf to
Ctrl-C for up to 0.8 s. An array of 2 x PART_BYTES or more pickles instead as
an empty array of its shape and type and its bytes in parts of PART_BYTES,
each made by a Python call of its own (_Part.__reduce__) and copied in at
load by another (_fill): signals are handled between them. Pickle's memo
keeps the parts' bytes during a load beside the array, as it kept numpy's one
bytes object, so a load's peak is what it was.
"""
import numpy as np

from c45._fresh import TOUCH_BYTES

# A part's bytes object is fresh memory, written in one C call (c45/_fresh.pyx).
PART_BYTES = TOUCH_BYTES

# The types an array in parts may have (a tree's fields).
_TYPES = frozenset(np.dtype(t).str for t in (np.float64, np.float32, np.int64, np.int32,
                                            np.int16, np.int8, np.uint8, np.bool_))


def pickled(a, copy):
    """What a tree's __reduce__ hands pickle for the array a: copy(a) for an
    array under 2 x PART_BYTES, otherwise the array in parts."""
    if a is None or a.nbytes < 2 * PART_BYTES or a.dtype.str not in _TYPES:
        return None if a is None else copy(a)
    return _InParts(np.ascontiguousarray(a))


class _InParts:
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __reduce__(self):
        a = self.array
        flat = a.reshape(-1).view(np.uint8)
        into = _Empty(tuple(int(n) for n in a.shape), a.dtype.str)
        parts = tuple(_Part(into, start, flat[start:start + PART_BYTES])
                      for start in range(0, flat.size, PART_BYTES))
        return (_joined, (into, parts))


class _Empty:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype

    def __reduce__(self):
        return (_empty, (self.shape, self.dtype))


class _Part:
    __slots__ = ("into", "start", "view")

    def __init__(self, into, start, view):
        self.into, self.start, self.view = into, start, view

    def __reduce__(self):
        return (_fill, (self.into, self.start, self.view.tobytes()))


def _error(what):
    return ValueError(f"c45: the pickled model is corrupted: an array in parts {what}")


def _empty(shape, dtype):
    if not (isinstance(dtype, str) and dtype in _TYPES and isinstance(shape, tuple)
            and 1 <= len(shape) <= 2
            and all(type(n) is int and 0 <= n < 1 << 40 for n in shape)):
        raise _error(f"has shape {shape!r:.60} and type {dtype!r:.20}")
    # (not faulted in here: a damaged pickle may claim any size its parts lack)
    return np.empty(shape, dtype=np.dtype(dtype))


def _fill(into, start, data):
    """data copied into the array `into` from byte `start`: (start, its length)."""
    if not (type(into) is np.ndarray and into.flags.c_contiguous and type(start) is int
            and type(data) is bytes and 0 <= start <= into.nbytes - len(data)):
        raise _error(f"has a part at byte {start!r:.30} outside it")
    dest = into.reshape(-1).view(np.uint8)[start:start + len(data)]
    dest[:] = 0         # its fresh pages faulted in by a call of its own, after the
                        # part's (pickle's) and before the copy (c45/_fresh.pyx)
    dest[:] = np.frombuffer(data, np.uint8)
    return start, len(data)


def _joined(into, parts):
    """The array its parts filled, once they cover it in order."""
    at = 0
    for part in parts:
        if not (isinstance(part, tuple) and len(part) == 2 and part[0] == at):
            raise _error("misses bytes or repeats them")
        at += part[1]
    if type(into) is not np.ndarray or at != into.nbytes:
        raise _error(f"covers {at} bytes of {getattr(into, 'nbytes', 0)}")
    return into
