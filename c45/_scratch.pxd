# Growable scratch arrays: resizing with the failure handled one way, whatever
# the growth policy (the node buffer, task lists, the pruner, the walkers' path).
from libc.stdlib cimport free, realloc
from libc.string cimport memset


cdef inline Py_ssize_t doubled(Py_ssize_t cap, Py_ssize_t need) noexcept nogil:
    """The capacity for need elements, doubling from cap (64 at first)."""
    cap = cap * 2 if cap > 0 else 64
    while cap < need:
        cap *= 2
    return cap


cdef inline int resize(void** data, Py_ssize_t old_n, Py_ssize_t n, size_t elem,
                       bint zero) noexcept nogil:
    """Resize *data from old_n to n elements of elem bytes (with zero, the new
    ones zeroed); -1 when memory runs out, *data then unchanged and still valid."""
    cdef void* grown = realloc(data[0], n * elem)
    if grown == NULL:
        return -1
    if zero and n > old_n:
        memset(<char*> grown + old_n * elem, 0, (n - old_n) * elem)
    data[0] = grown
    return 0


cdef inline int room_for(void** data, Py_ssize_t count, Py_ssize_t extra, Py_ssize_t* cap,
                         size_t elem, Py_ssize_t first) noexcept nogil:
    """Room for extra more elements after count, the capacity growing to
    2 x cap + first (or to what is needed); -1 when memory runs out."""
    cdef Py_ssize_t grown
    if count + extra <= cap[0]:
        return 0
    grown = 2 * cap[0] + first
    if grown < count + extra:
        grown = count + extra
    if resize(data, cap[0], grown, elem, False) < 0:
        return -1
    cap[0] = grown
    return 0


# Blocks whose pages go back to the system when they shrink or are freed: the
# buffers of a fit that grow with the cases or the nodes (the case lists, the
# node buffers, the work's and pruning's tables by case, their scratch).
# glibc serves them from its heap once a large free has raised its mmap
# threshold, and keeps a freed or shrunk heap block's pages resident, so they
# would add to the fit's peak while later buffers take fresh pages beside them;
# a worker thread's heap keeps its free top resident even through malloc_trim.
# On Linux a block of 1 MiB or more is its own mapping (one made smaller moves
# to a mapping when it grows past that): mremap grows and shrinks it in place
# or moves its pages without a copy, and pages never written cost nothing. A
# 16-byte header holds the block's size, odd for a block that malloc holds
# instead: a smaller one (a mapping would cost a small fit more than its heap
# pages), or one whose mapping failed (the process's count of mappings is
# capped). Elsewhere, realloc.
cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <stdint.h>
    #include <sys/mman.h>
    #define C45_BIG_HEADER 16
    #define C45_BIG_MIN ((size_t) 1 << 20)
    /* Before a heap block of n bytes at p is freed: its whole pages back to the
       system (glibc keeps a freed block's pages resident, so the next fresh
       pages would add to the peak beside them; reused, they come back zeroed). */
    #define C45_GIVE_MIN ((size_t) 1 << 16)
    static inline void c45_give_back(void* p, size_t n) {
        uintptr_t lo = ((uintptr_t) p + 4095) & ~(uintptr_t) 4095;
        uintptr_t hi = ((uintptr_t) p + n) & ~(uintptr_t) 4095;
        if (p != NULL && n >= C45_GIVE_MIN && hi > lo)
            madvise((void*) lo, hi - lo, MADV_DONTNEED);
    }
    static inline void* c45_big_resize(void* p, size_t n) {
        size_t want = (n + C45_BIG_HEADER + 4095) & ~(size_t) 4095, have = 0;
        char* base = NULL;
        char* moved;
        if (p != NULL) {
            base = (char*) p - C45_BIG_HEADER;
            have = *(size_t*) base;
        }
        if (base == NULL && n < C45_BIG_MIN) have = 1;   /* small: malloc's */
        if ((have & 1) && n >= C45_BIG_MIN && n + C45_BIG_HEADER > (have & ~(size_t) 1)) {
            /* malloc's, grown to a big block: a mapping of its own from now on
               (one copy of less than the new size; kept in the heap if mapping fails) */
            moved = (char*) mmap(NULL, want, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (moved != MAP_FAILED) {
                memcpy(moved + C45_BIG_HEADER, p, (have & ~(size_t) 1) - C45_BIG_HEADER);
                c45_give_back(base, have & ~(size_t) 1);
                free(base);
                *(size_t*) moved = want;
                return moved + C45_BIG_HEADER;
            }
        }
        if (have & 1) {                              /* malloc's */
            moved = (char*) realloc(base, n + C45_BIG_HEADER);
            if (moved == NULL) return n + C45_BIG_HEADER < have ? p : NULL;
            *(size_t*) moved = (n + C45_BIG_HEADER) | 1;
            return moved + C45_BIG_HEADER;
        }
        if (want == have) return p;
        moved = (char*) (base == NULL
            ? mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            : mremap(base, have, want, MREMAP_MAYMOVE));
        if (moved == MAP_FAILED) {
            if (want < have) return p;               /* keeps the larger block */
            moved = (char*) malloc(n + C45_BIG_HEADER);
            if (moved == NULL) return NULL;
            if (base != NULL) {
                memcpy(moved + C45_BIG_HEADER, p, have - C45_BIG_HEADER);
                munmap(base, have);
            }
            *(size_t*) moved = (n + C45_BIG_HEADER) | 1;
            return moved + C45_BIG_HEADER;
        }
        *(size_t*) moved = want;
        return moved + C45_BIG_HEADER;
    }
    /* A big block of n zero bytes: from C45_BIG_MIN a fresh mapping, whose pages
       cost nothing until written (calloc's from the heap may be cleared, and so
       resident, at once), else calloc's. */
    static inline void* c45_big_zeroed(size_t n) {
        char* made;
        if (n >= C45_BIG_MIN) {
            size_t want = (n + C45_BIG_HEADER + 4095) & ~(size_t) 4095;
            made = (char*) mmap(NULL, want, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (made != MAP_FAILED) {
                *(size_t*) made = want;
                return made + C45_BIG_HEADER;
            }
        }
        made = (char*) calloc(1, n + C45_BIG_HEADER);
        if (made == NULL) return NULL;
        *(size_t*) made = (n + C45_BIG_HEADER) | 1;
        return made + C45_BIG_HEADER;
    }
    /* The bytes a big block holds from p (0 for NULL). */
    static inline size_t c45_big_bytes(const void* p) {
        return p == NULL ? 0
            : (*(const size_t*) ((const char*) p - C45_BIG_HEADER) & ~(size_t) 1) - C45_BIG_HEADER;
    }
    static inline void c45_big_free(void* p) {
        if (p != NULL) {
            char* base = (char*) p - C45_BIG_HEADER;
            size_t have = *(size_t*) base;
            if (have & 1) {
                c45_give_back(base, have & ~(size_t) 1);
                free(base);
            }
            else munmap(base, have);
        }
    }
    /* A mapped block that is written whole soon: in 2 MB pages where the system
       allows (one page fault, not 512; as numpy's large arrays). */
    static inline void c45_big_advise_huge(void* p) {
    #if defined(MADV_HUGEPAGE)
        if (p != NULL) {
            char* base = (char*) p - C45_BIG_HEADER;
            size_t have = *(size_t*) base;
            if (!(have & 1)) madvise(base, have, MADV_HUGEPAGE);
        }
    #endif
    }
    #else
    #define c45_give_back(p, n) ((void) (p))
    #define c45_big_resize(p, n) realloc((p), (n))
    #define c45_big_free(p) free(p)
    #define c45_big_zeroed(n) calloc(1, (n))
    #define c45_big_bytes(p) ((size_t) 0)
    #define c45_big_advise_huge(p) ((void) (p))
    #endif
    """
    void* c45_big_resize(void* p, size_t n) noexcept nogil
    void c45_big_free(void* p) noexcept nogil
    void* c45_big_zeroed(size_t n) noexcept nogil
    size_t c45_big_bytes(const void* p) noexcept nogil
    void c45_give_back(void* p, size_t n) noexcept nogil
    void c45_big_advise_huge(void* p) noexcept nogil

