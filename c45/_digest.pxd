# The training data's digest (c45/_bulk.pyx's digest): two 64-bit lanes over
# 8-byte words, a check that prune(X, y) is given fit's data again, not a
# defence against a forger. Here so that the ranks (c45/_ranks.pyx) can take a
# sorted column's lanes where they sort it.
from libc.stdint cimport uint64_t
from c45._types cimport Interrupt
from c45._interrupt cimport interrupted

cdef extern from *:
    """
    #define C45_DIGEST_P1 0x9E3779B185EBCA87ULL
    #define C45_DIGEST_P2 0xC2B2AE3D27D4EB4FULL
    #define C45_DIGEST_P3 0x165667B19E3779F9ULL
    #define C45_DIGEST_P4 0x85EBCA77C2B2AE63ULL
    """
    const uint64_t P1 "C45_DIGEST_P1"
    const uint64_t P2 "C45_DIGEST_P2"
    const uint64_t P3 "C45_DIGEST_P3"
    const uint64_t P4 "C45_DIGEST_P4"

cdef enum:
    DIGEST_LOOK_EVERY = 1 << 16     # words between two looks for Ctrl-C


cdef inline uint64_t rotl(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))


cdef inline uint64_t mix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= P2
    h ^= h >> 29
    h *= P3
    h ^= h >> 32
    return h


cdef inline void feed_words(const unsigned char* p, Py_ssize_t words, uint64_t* lane_a,
                            uint64_t* lane_b, Interrupt* intr,
                            Py_ssize_t step=8) noexcept nogil:
    """words 8-byte words from p, step bytes apart (0: p's one word, words times:
    the digest of an array of stride 0, c45/_bulk.pyx's unit_weights)."""
    cdef Py_ssize_t i
    cdef uint64_t a = lane_a[0], b = lane_b[0], w
    for i in range(words):
        w = (<const uint64_t*> (p + step * i))[0]
        a = rotl(a + w * P2, 31) * P1
        b = rotl(b ^ (w * P3), 27) * P4 + P1
        if i % DIGEST_LOOK_EVERY == DIGEST_LOOK_EVERY - 1 and interrupted(intr):
            break
    lane_a[0] = a
    lane_b[0] = b


cdef inline void feed_end(const unsigned char* p, Py_ssize_t nbytes, Py_ssize_t q,
                          uint64_t* lane_a, uint64_t* lane_b) noexcept nogil:
    """An array's last bytes short of a word, its size and its place q."""
    cdef Py_ssize_t i
    cdef uint64_t w = 0
    for i in range(8 * (nbytes // 8), nbytes):
        w = (w << 8) | p[i]
    lane_a[0] = rotl(lane_a[0] + (w ^ <uint64_t> nbytes) * P2, 31) * P1
    lane_b[0] = rotl(lane_b[0] ^ ((w + <uint64_t> q) * P3), 27) * P4 + P1


cdef inline void sorted_row_lanes(const double* v, Py_ssize_t n, uint64_t* lanes,
                                  Interrupt* intr) noexcept nogil:
    """lanes[0], lanes[1]: the digest's lanes of one row of float64's sorted
    values (n of them) alone, as a one-array digest has them before its shape."""
    lanes[0] = P1
    lanes[1] = P4
    feed_words(<const unsigned char*> v, n, &lanes[0], &lanes[1], intr)
    feed_end(<const unsigned char*> v, 8 * n, 0, &lanes[0], &lanes[1])
