"""Python access to the information measures, for tests and for curious users.

The implementations live in _criterion.pxd as inline C functions; these wrappers
only convert arguments.
"""
import numpy as np


def _is_f32(precision):
    if precision not in ("float32", "float64"):
        raise ValueError(f"precision must be 'float32' or 'float64', got {precision!r}")
    return precision == "float32"


def info_bits(counts, precision="float64"):
    """TI of a list of counts: T*log2(T) - sum(n*log2(n)), i.e. T times the entropy."""
    cdef double[::1] c = np.ascontiguousarray(counts, dtype=np.float64)
    cdef bint f32 = _is_f32(precision)
    if f32:
        c = np.asarray(c, dtype=np.float32).astype(np.float64)
    return total_info(f32, &c[0], c.shape[0], 1, NULL, 0) if c.shape[0] else 0.0


def entropy(counts, precision="float64"):
    """Entropy in bits of a class-count list."""
    cdef bint f32 = _is_f32(precision)
    counts = np.asarray(counts, dtype=np.float64)
    total = float(counts.sum())
    if total <= 0:
        return 0.0
    return rnd(f32, info_bits(counts, precision) / total)


def confidence_coefficient(confidence, precision="float64"):
    """z**2 that C4.5 derives from the pruning confidence CF (§8.1)."""
    cdef bint f32 = _is_f32(precision)
    return pessimistic_coeff(f32, rnd(f32, confidence))


def pessimistic_extra_errors(n, e, confidence=0.25, precision="float64"):
    """U(N, E): the extra errors C4.5 charges a leaf of weight N with E errors (§8.1)."""
    cdef bint f32 = _is_f32(precision)
    cdef double cf = rnd(f32, confidence)
    return extra_errors(f32, rnd(f32, n), rnd(f32, e), cf, pessimistic_coeff(f32, cf))
