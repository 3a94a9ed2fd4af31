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
    /* Blocks freed during a phase that frees and maps blocks over and over (the
       task lists of growing and pruning, numpy's temporaries) are kept for reuse
       until the phase ends: a fresh mapping costs a page fault per page. Each
       module has its own cache; blocks above C45_CACHE_MAX are not kept. */
    #define C45_CACHE_SLOTS 32
    #define C45_CACHE_MAX ((size_t)1 << 22)
    #define C45_CACHE_BYTES ((size_t)1 << 24)
    static char* c45_cached[C45_CACHE_SLOTS];
    static size_t c45_cached_total[C45_CACHE_SLOTS];
    static size_t c45_cached_bytes = 0;
    static int c45_caching = 0;          /* phases in progress */
    static char c45_cache_busy = 0;

    static CYTHON_INLINE void c45_cache_lock(void) {
        while (__atomic_test_and_set(&c45_cache_busy, __ATOMIC_ACQUIRE)) {}
    }
    static CYTHON_INLINE void c45_cache_unlock(void) {
        __atomic_clear(&c45_cache_busy, __ATOMIC_RELEASE);
    }

    /* A cached mapping of at least total bytes, the smallest (NULL: none). */
    static CYTHON_INLINE char* c45_cache_take(size_t total, size_t* got) {
        int i, best = -1;
        char* p = NULL;
        c45_cache_lock();
        for (i = 0; i < C45_CACHE_SLOTS; i++)
            if (c45_cached[i] && c45_cached_total[i] >= total
                    && (best < 0 || c45_cached_total[i] < c45_cached_total[best]))
                best = i;
        if (best >= 0) {
            p = c45_cached[best];
            *got = c45_cached_total[best];
            c45_cached[best] = NULL;
            c45_cached_bytes -= *got;
        }
        c45_cache_unlock();
        return p;
    }

    /* Keep a freed mapping if a phase is in progress and there is room. */
    static CYTHON_INLINE int c45_cache_keep(char* p, size_t total) {
        int i, kept = 0;
        if (total > C45_CACHE_MAX) return 0;
        c45_cache_lock();
        if (c45_caching > 0 && c45_cached_bytes + total <= C45_CACHE_BYTES)
            for (i = 0; i < C45_CACHE_SLOTS && !kept; i++)
                if (!c45_cached[i]) {
                    c45_cached[i] = p;
                    c45_cached_total[i] = total;
                    c45_cached_bytes += total;
                    kept = 1;
                }
        c45_cache_unlock();
        return kept;
    }

    static CYTHON_INLINE void c45_big_phase_begin(void) {
        c45_cache_lock();
        c45_caching++;
        c45_cache_unlock();
    }

    /* The last phase to end unmaps the cache. */
    static CYTHON_INLINE void c45_big_phase_end(void) {
        int i;
        char* p[C45_CACHE_SLOTS];
        size_t total[C45_CACHE_SLOTS];
        c45_cache_lock();
        c45_caching--;
        for (i = 0; i < C45_CACHE_SLOTS; i++) {
            p[i] = c45_caching == 0 ? c45_cached[i] : NULL;
            total[i] = c45_cached_total[i];
            if (p[i]) c45_cached[i] = NULL;
        }
        if (c45_caching == 0) c45_cached_bytes = 0;
        c45_cache_unlock();
        for (i = 0; i < C45_CACHE_SLOTS; i++)
            if (p[i]) munmap(p[i], total[i]);
    }

    static CYTHON_INLINE void* c45_map(size_t n, int zero) {
        size_t total, got;
        char* p;
        if (n > (size_t)-1 - C45_BIG_HEAD - 8192) return NULL;
        total = (n + C45_BIG_HEAD + 4095) & ~(size_t)4095;
        p = c45_cache_take(total, &got);
        if (p != NULL) {
            if (got > total && mremap(p, got, total, 0) != MAP_FAILED)
                got = total;            /* the tail's pages go back at once */
            if (zero) memset(p + C45_BIG_HEAD, 0, n);
        } else {
            p = (char*)mmap(NULL, total, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == (char*)MAP_FAILED) return NULL;
            got = total;
        }
        *(size_t*)p = got;
        return p + C45_BIG_HEAD;
    }
    /* A block's total mapped size; 0: it came from malloc. */
    static CYTHON_INLINE size_t c45_mapped(void* q) {
        return *(size_t*)((char*)q - C45_BIG_HEAD);
    }
    #else
    static CYTHON_INLINE void c45_big_phase_begin(void) {}
    static CYTHON_INLINE void c45_big_phase_end(void) {}
    #endif

    /* n bytes, mapped when n >= least (zeroed then); from the heap otherwise,
       zeroed if zero. */
    static CYTHON_INLINE void* c45_block_alloc(size_t n, size_t least, int zero) {
    #ifdef C45_BIG_MAPS
        char* p;
        if (n >= least) return c45_map(n, zero);
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
        if (!total) free((char*)q - C45_BIG_HEAD);
        else if (!c45_cache_keep((char*)q - C45_BIG_HEAD, total))
            munmap((char*)q - C45_BIG_HEAD, total);
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
            if (n > (size_t)-1 - C45_BIG_HEAD - 8192) return NULL;
            old = (n + C45_BIG_HEAD + 4095) & ~(size_t)4095;
            r = mremap((char*)q - C45_BIG_HEAD, total, old, MREMAP_MAYMOVE);
            if (r == MAP_FAILED) return NULL;
            *(size_t*)r = old;
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
    void c45_big_phase_begin() noexcept nogil  # keep freed blocks for reuse ...
    void c45_big_phase_end() noexcept nogil    # ... until the last phase ends
    void* c45_big_realloc(void* q, size_t n) noexcept nogil
    void c45_big_free(void* q) noexcept nogil
