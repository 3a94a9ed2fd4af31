# Sums of float64 arrays as numpy adds them, for compiled loops that must give
# numpy's numbers without a numpy call (each call on a tree's arrays gives the
# GIL up: a switch interval beside a busy Python thread).
from libc.math cimport copysign


cdef inline double pairwise(const double* a, Py_ssize_t n) noexcept nogil:
    """a[0] + ... + a[n-1] as numpy's sum of a float64 array (or of each row of a
    C-contiguous matrix) adds it: its pairwise summation, runs of fewer than 8
    in order, blocks of up to 128 in 8 partial sums, longer runs halved at a
    multiple of 8 (tests/test_variants.py checks it against np.sum)."""
    cdef double res
    cdef double r[8]
    cdef Py_ssize_t i, j, end, half
    if n < 8:
        res = copysign(0.0, -1.0)
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for j in range(8):
            r[j] = a[j]
        end = n - n % 8
        for i in range(8, end, 8):
            for j in range(8):
                r[j] += a[i + j]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for i in range(end, n):
            res += a[i]
        return res
    half = n // 2
    half -= half % 8
    return pairwise(a, half) + pairwise(a + half, n - half)


cdef inline double run_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """A run's sum as np.add.reduceat gives it: its first value, then the
    rest's pairwise sum added (n >= 1)."""
    return a[0] + pairwise(a + 1, n - 1) if n > 1 else a[0]
