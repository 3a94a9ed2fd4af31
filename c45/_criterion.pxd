# Information measures of C4.5 Release 8 over class-count tables (spec §0.4, §3, §6, §8.1).
#
# Every function takes `f32`: when true, each result is rounded to binary32 exactly
# where C4.5 Release 8 stores a C float, which makes precision="float32" bit-identical
# to the reference program. Values are carried in doubles: an operation on two
# binary32 numbers computed in binary64 and then rounded to binary32 gives the
# correctly rounded binary32 result, so no float type is needed. With f32 false the
# same steps run in plain double precision.
from libc.math cimport log, exp, sqrt

cdef extern from *:
    """
    #define C45_EPSILON 1e-3
    #define C45_LN2 0.69314718055994530942
    """
    const double EPSILON "C45_EPSILON"   # C4.5's epsilon: unusable marker, gain and collapse slack
    const double LN2 "C45_LN2"


cdef inline double rnd(bint f32, double x) noexcept nogil:
    """Store x: round to binary32 in float32 mode."""
    if f32:
        return <double>(<float>x)
    return x


cdef inline double unusable(bint f32) noexcept nogil:
    """The -epsilon gain that marks an attribute as unusable."""
    return rnd(f32, -EPSILON)


cdef inline double log2_of(bint f32, double x) noexcept nogil:
    """L(x) of §0.2: log2 of the stored argument, 0 for x <= 0."""
    if x <= 0:
        return 0.0
    return log(rnd(f32, x)) / LN2


cdef inline double n_log2_n(bint f32, double n, const double* table,
                            Py_ssize_t table_n) noexcept nogil:
    """n * L(n), looked up for whole counts up to table_n (table[i] holds exactly
    i * L(i), so the lookup changes no bit), computed otherwise."""
    cdef Py_ssize_t i
    if table != NULL and 0 <= n <= table_n:
        i = <Py_ssize_t> n
        if <double> i == n:
            return table[i]
    return n * log2_of(f32, n)


cdef inline double total_info(bint f32, const double* counts, Py_ssize_t m,
                              Py_ssize_t stride, const double* table,
                              Py_ssize_t table_n) noexcept nogil:
    """TI (§0.4): T log2 T - sum n log2 n over counts[0], counts[stride], ..."""
    cdef double s = 0.0, t = 0.0, n
    cdef Py_ssize_t j
    for j in range(m):
        n = counts[j * stride]
        s = rnd(f32, s + n_log2_n(f32, n, table, table_n))
        t = rnd(f32, t + n)
    return rnd(f32, n_log2_n(f32, t, table, table_n) - s)


cdef inline double split_gain(bint f32, const double* freq, const double* totals,
                              Py_ssize_t n_outcomes, Py_ssize_t k, double known,
                              double unknown_frac, double base,
                              double min_objs, const double* table,
                              Py_ssize_t table_n) noexcept nogil:
    """Gain over outcomes 1..n_outcomes (§3): freq is (n_outcomes+1) x k, row 0 unknown,
    totals[v] the outcome weights V_v. Unusable (-eps) unless two outcomes reach MINOBJS."""
    cdef Py_ssize_t v, reasonable = 0
    cdef double info = 0.0
    if known == 0:
        return unusable(f32)
    for v in range(1, n_outcomes + 1):
        if totals[v] >= min_objs:
            reasonable += 1
    if reasonable < 2:
        return unusable(f32)
    for v in range(1, n_outcomes + 1):
        info = rnd(f32, info + total_info(f32, freq + v * k, k, 1, table, table_n))
    return rnd(f32, rnd(f32, 1.0 - unknown_frac)
               * rnd(f32, base - rnd(f32, info / known)))


cdef inline double worth(bint f32, double info, double gain,
                         double threshold) noexcept nogil:
    """Gain ratio if the gain reaches threshold - eps and the split info exceeds eps (§6)."""
    if gain >= threshold - EPSILON and info > EPSILON:
        return rnd(f32, gain / info)
    return unusable(f32)


cdef inline double pessimistic_coeff(bint f32, double cf) noexcept nogil:
    """z^2 for confidence cf, by C4.5's interpolation in a normal table (§8.1)."""
    cdef double val[9]
    cdef double dev[9]
    cdef int i = 0
    cdef double z
    val[:] = [0, .001, .005, .01, .05, .10, .20, .40, 1.00]
    dev[:] = [4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00]
    for i in range(9):
        val[i] = rnd(f32, val[i])
        dev[i] = rnd(f32, dev[i])
    i = 0
    while i < 8 and cf > val[i]:
        i += 1
    if i == 0:
        z = dev[0]
    else:
        z = rnd(f32, dev[i - 1] + rnd(f32, rnd(f32, rnd(f32, dev[i] - dev[i - 1])
                                                 * rnd(f32, cf - val[i - 1]))
                                        / rnd(f32, val[i] - val[i - 1])))
    return rnd(f32, z * z)


cdef inline double extra_errors(bint f32, double n, double e, double cf,
                                double coeff) noexcept nogil:
    """U(N, E) of §8.1: the extra errors a leaf of weight n with e errors is charged."""
    cdef double u0, u1, e1, p
    if n <= 0:
        return 0.0
    if e < 1e-6:
        return rnd(f32, n * (1.0 - exp(log(cf) / n)))
    if e < 0.9999:
        u0 = rnd(f32, n * (1.0 - exp(log(cf) / n)))
        u1 = extra_errors(f32, n, 1.0, cf, coeff)
        return rnd(f32, u0 + rnd(f32, e * rnd(f32, u1 - u0)))
    if e + 0.5 >= n:
        return rnd(f32, 0.67 * rnd(f32, n - e))
    e1 = e + 0.5
    p = rnd(f32, (e1 + rnd(f32, coeff / 2) + sqrt(coeff * (e1 * (1.0 - e1 / n)
                                                         + rnd(f32, coeff / 4))))
            / rnd(f32, n + coeff))
    return rnd(f32, rnd(f32, n * p) - e)
