# Large scratch blocks (the case-sized buffers of a fit) outside glibc's heap.
#
# glibc raises its mmap threshold to the size of any mmapped block freed (up to
# 32 MB), so after the first fit every later fit's buffers come from the heap,
# where blocks grown, shrunk and freed in turn leave resident holes between the
# fitted trees: 20 bagged fits held half as much again as one fit needs. Blocks
# of at least C45_BIG_MIN bytes are mapped directly instead (grown in place or
# moved by mremap, unmapped when freed), as glibc does for the first fit. Other C
# libraries already map large blocks themselves: there these are malloc's.
cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__GLIBC__) && !defined(C45_NO_BIG_MAPS)
    #include <malloc.h>
    #include <string.h>
    #include <sys/mman.h>
    #define C45_BIG_MAPS 1
    #endif
    #ifdef C45_BIG_MAPS
    #define C45_MAPS_BIG_BLOCKS 1
    #else
    #define C45_MAPS_BIG_BLOCKS 0
    #endif
    #ifndef C45_BIG_MIN
    #define C45_BIG_MIN ((size_t)1 << 17)
    #endif
    #define C45_BIG_HEAD ((size_t)64)      /* the block's size, keeps 64-byte alignment */

    #ifdef C45_BIG_MAPS
    static CYTHON_INLINE void* c45_map(size_t n) {
        void* p;
        if (n > (size_t)-1 - C45_BIG_HEAD - 4096) return NULL;
        p = mmap(NULL, n + C45_BIG_HEAD, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
        if (p == MAP_FAILED) return NULL;
        *(size_t*)p = n + C45_BIG_HEAD;
        return (char*)p + C45_BIG_HEAD;
    }
    /* A block's total mapped size; 0: it came from malloc. */
    static CYTHON_INLINE size_t c45_mapped(void* q) {
        return *(size_t*)((char*)q - C45_BIG_HEAD);
    }
    #endif

    /* n bytes, mapped when n >= least (zeroed then); from the heap otherwise,
       zeroed if zero. */
    static CYTHON_INLINE void* c45_block_alloc(size_t n, size_t least, int zero) {
    #ifdef C45_BIG_MAPS
        char* p;
        if (n >= least) return c45_map(n);
        p = (char*)(zero ? calloc(1, n + C45_BIG_HEAD) : malloc(n + C45_BIG_HEAD));
        if (p == NULL) return NULL;
        *(size_t*)p = 0;                 /* not mapped */
        return p + C45_BIG_HEAD;
    #else
        (void)least;
        return zero ? calloc(1, n ? n : 1) : malloc(n ? n : 1);
    #endif
    }

    static CYTHON_INLINE void c45_big_free(void* q) {
    #ifdef C45_BIG_MAPS
        size_t total;
        if (q == NULL) return;
        total = c45_mapped(q);
        if (total) munmap((char*)q - C45_BIG_HEAD, total);
        else free((char*)q - C45_BIG_HEAD);
    #else
        free(q);
    #endif
    }

    /* The first n bytes of q in a block of n bytes (NULL: q is left as it was);
       bytes past q's old size are not zeroed. */
    static CYTHON_INLINE void* c45_block_realloc(void* q, size_t n, size_t least) {
    #ifdef C45_BIG_MAPS
        size_t total, old;
        char* p;
        void* r;
        if (q == NULL) return c45_block_alloc(n, least, 0);
        total = c45_mapped(q);
        if (total && n >= least) {
    #ifdef MREMAP_MAYMOVE
            if (n > (size_t)-1 - C45_BIG_HEAD - 4096) return NULL;
            r = mremap((char*)q - C45_BIG_HEAD, total, n + C45_BIG_HEAD, MREMAP_MAYMOVE);
            if (r == MAP_FAILED) return NULL;
            *(size_t*)r = n + C45_BIG_HEAD;
            return (char*)r + C45_BIG_HEAD;
    #endif
        }
        if (!total && n < least) {
            p = (char*)realloc((char*)q - C45_BIG_HEAD, n + C45_BIG_HEAD);
            return p == NULL ? NULL : p + C45_BIG_HEAD;
        }
        /* between the heap and a mapping: copy */
        old = total ? total - C45_BIG_HEAD : malloc_usable_size((char*)q - C45_BIG_HEAD)
                                             - C45_BIG_HEAD;
        r = c45_block_alloc(n, least, 0);
        if (r == NULL) return NULL;
        memcpy(r, q, old < n ? old : n);
        c45_big_free(q);
        return r;
    #else
        (void)least;
        return realloc(q, n ? n : 1);
    #endif
    }

    /* The case-sized buffers of a fit: n bytes, zeroed. */
    static CYTHON_INLINE void* c45_big_alloc(size_t n) {
        return c45_block_alloc(n, C45_BIG_MIN, 1);
    }
    static CYTHON_INLINE void* c45_big_realloc(void* q, size_t n) {
        return c45_block_realloc(q, n, C45_BIG_MIN);
    }
    """
    bint C45_MAPS_BIG_BLOCKS           # these functions map large blocks (glibc)
    size_t C45_BIG_MIN
    void* c45_block_alloc(size_t n, size_t least, bint zero) noexcept nogil
    void* c45_block_realloc(void* q, size_t n, size_t least) noexcept nogil
    void* c45_big_alloc(size_t n) noexcept nogil
    void* c45_big_realloc(void* q, size_t n) noexcept nogil
    void c45_big_free(void* q) noexcept nogil
