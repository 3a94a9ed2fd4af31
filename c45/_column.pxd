import numpy as np

# The element type of a table of continuous values (Dataset.cont's, cont's of
# c45/_encode.py): a float32 fit holds its values as float32 numbers (they are
# so: the encoding rounds them; c45/_encode.py's fit_values_dtype decides), 4
# bytes a value, float64's as double; a reader widens each value it reads
# (exactly: the same double as before).
ctypedef fused cont_t:
    float
    double

# A continuous column of the caller's X as the fit reads it in place: a 1-D
# float64 or float32 array of any stride (c45/_encode.py's sources).
cdef struct Column:
    const char* data
    Py_ssize_t stride
    bint single        # float32 values


cdef inline double column_value(const Column* c, Py_ssize_t i) noexcept nogil:
    if c.single:
        return (<const float*> (c.data + i * c.stride))[0]
    return (<const double*> (c.data + i * c.stride))[0]


cdef inline double fit_value(const Column* c, Py_ssize_t i) noexcept nogil:
    """The value a float64 fit reads: -0.0 as 0.0 (one zero whatever the rows'
    order), float32 values exactly widened, NaN (unknown) as it is."""
    return column_value(c, i) + 0.0


cdef inline double value32(double x) noexcept nogil:
    """A value as a float32 fit reads it: rounded to float32, -0.0 as 0.0
    (c45/_bulk.pyx: fill_columns; a value so already gives the same bits)."""
    return <double> (<float> x) + 0.0


cdef inline int set_column(Column* c, a, Py_ssize_t n) except -1:
    """Point c at the 1-D float64 or float32 array a of n values."""
    cdef const double[:] d64
    cdef const float[:] d32
    if a.ndim != 1 or a.shape[0] != n:
        raise ValueError("c45: a column that does not fit")
    c.single = a.dtype == np.float32
    if c.single:
        d32 = a
        c.data = <const char*> &d32[0] if n else NULL
        c.stride = d32.strides[0]
    else:
        d64 = a
        c.data = <const char*> &d64[0] if n else NULL
        c.stride = d64.strides[0]
    return 0
