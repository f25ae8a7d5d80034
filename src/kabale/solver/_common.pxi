# Shared C-level pieces of the search kernels (included by _klondike.pyx and _spider.pyx):
# a 64-bit mixer for Zobrist keys and column hashes, the transposition table (_table.pxi),
# a clock and the Halt flag that threads share.

from libc.stdint cimport uint64_t, uint8_t, int8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memmove, memset, memcpy

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(_WIN32)
    #include <malloc.h>
    #endif
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* start loading the cache line at p (nothing where the compiler has no such builtin) */
    #if defined(__GNUC__) || defined(__clang__)
    #define kabale_prefetch(p) __builtin_prefetch(p)
    #else
    #define kabale_prefetch(p) ((void)(p))
    #endif
    /* zeroed memory for a table of ``bytes``, aligned to a cache line (a bucket never
       straddles two): from the allocator below 1 MiB, else mapped directly (its pages are
       zeroed at their first touch, and handed back whole); with ``huge`` (Linux only) mapped
       and marked for transparent huge pages */
    #define KABALE_MAP_MIN (1u << 20)
    static void* kabale_table_alloc(size_t bytes, int huge) {
    #if defined(__linux__)
        if (huge || bytes >= KABALE_MAP_MIN) {
            void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
            if (p == MAP_FAILED) return NULL;
    #if defined(MADV_HUGEPAGE)
            if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    #endif
            return p;
        }
    #endif
        void* q = NULL;
    #if defined(_WIN32)
        q = _aligned_malloc(bytes, 64);
        if (q == NULL) return NULL;
    #else
        if (posix_memalign(&q, 64, bytes) != 0) return NULL;
    #endif
        memset(q, 0, bytes);
        return q;
    }
    /* seconds on a monotonic clock (the one time.perf_counter reads), callable without
       the GIL */
    #if defined(_WIN32)
    #include <windows.h>
    static inline double kabale_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static inline double kabale_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    #endif
    /* read a flag another thread may set (never cached in a register) */
    static inline int kabale_load(const int* p) { return *(const volatile int*)p; }
    static void kabale_table_release(void* p, size_t bytes, int huge) {
    #if defined(__linux__)
        if (huge || bytes >= KABALE_MAP_MIN) {
            munmap(p, bytes);
            return;
        }
    #endif
    #if defined(_WIN32)
        _aligned_free(p);
    #else
        free(p);
    #endif
    }
    """
    void* kabale_table_alloc(size_t bytes, int huge) nogil
    void kabale_table_release(void* p, size_t bytes, int huge) nogil
    void kabale_prefetch(const void* p) nogil
    double kabale_now() nogil
    int kabale_load(const int* p) nogil


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64 finaliser: a bijection that spreads every input bit over the output."""
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111ebULL
    return z ^ (z >> 31)


cdef inline uint64_t zkey(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    """A fixed pseudo-random Zobrist key for a (kind, position, card) triple."""
    return mix64(mix64(mix64(a + <uint64_t>0x9e3779b97f4a7c15ULL) ^ b) ^ (c * <uint64_t>0x2545F4914F6CDD1DULL + 1))


include "_table.pxi"


cdef class Halt:
    """A flag that searches running at once (in threads) share: once raised, each of them
    stops at its next look at the clock, as at its time limit."""

    cdef int raised

    def set(self):
        """Raise the flag."""
        self.raised = 1

    def is_set(self):
        """Whether the flag was raised."""
        return self.raised != 0


cdef class Haltable:
    """A kernel whose searches a Halt flag can stop (the searches call _past)."""

    cdef Halt halt_ref      # the flag, if any
    cdef int* halt_flag     # its raised field, read without the GIL (NULL: none)

    @property
    def halt(self):
        """The Halt flag that stops this kernel's searches (None: only their limits do)."""
        return self.halt_ref

    @halt.setter
    def halt(self, Halt flag):
        self.halt_ref = flag
        self.halt_flag = NULL if flag is None else &flag.raised

    cdef inline bint _past(self, double deadline) noexcept nogil:
        """Whether a search must stop: past ``deadline`` (kabale_now's clock) or halted."""
        return kabale_now() >= deadline or \
            (self.halt_flag != NULL and kabale_load(self.halt_flag) != 0)
