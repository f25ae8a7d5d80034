# Shared C-level pieces of the search kernels (included by _klondike.pyx and _spider.pyx):
# a 64-bit mixer for Zobrist keys and column hashes, and the fixed-size transposition table.
#
# The table stores 64-bit state keys in buckets of 4 slots, open addressing on the bucket
# index. When a bucket is full an entry is overwritten: memory never grows past the size
# chosen at start. Forgetting an entry only costs time (the state may be searched again);
# it never changes a verdict, because a state is only ever stored as "being searched or
# searched without a win" and re-searching it finds the same answer. Keys are salted per
# search, so an earlier search's entries never match: starting afresh needs no clearing, their
# slots are simply overwritten. The one theoretical hazard is two different states sharing a
# 64-bit key (probability about n^2 / 2^65 for n stored states, below 1e-7 for 10^6 states);
# we accept and document it.

from libc.stdint cimport uint64_t, uint8_t, int8_t, uint16_t, int16_t, int32_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memmove, memset, memcpy

cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* start loading the cache line at p (nothing where the compiler has no such builtin) */
    #if defined(__GNUC__) || defined(__clang__)
    #define kabale_prefetch(p) __builtin_prefetch(p)
    #else
    #define kabale_prefetch(p) ((void)(p))
    #endif
    /* zeroed memory for a table of ``bytes``; with ``huge`` (Linux only) mapped directly
       and marked for transparent huge pages */
    static void* kabale_table_alloc(size_t bytes, int huge) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (huge) {
            void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
            if (p == MAP_FAILED) return NULL;
            madvise(p, bytes, MADV_HUGEPAGE);
            return p;
        }
    #endif
        return calloc(bytes, 1);
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
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (huge) {
            munmap(p, bytes);
            return;
        }
    #endif
        free(p);
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


cdef struct Table:
    uint64_t* keys
    uint64_t mask
    uint64_t stored
    uint64_t salt   # changed to start an empty table without clearing memory
    int huge        # allocated for huge pages (see table_init)


cdef int table_init(Table* t, uint64_t max_bytes, bint huge=False) noexcept nogil:
    """Allocate the largest power-of-two bucket array within max_bytes. 0 on success.
    ``huge`` asks for transparent huge pages (Linux): a probe is a random access, and with
    4 KiB pages nearly every one also misses the TLB (Spiderette: 10M positions in 4.6-4.9 s
    instead of 5.8-6.7 s). It suits long searches only: the kernel zeroes a whole 2 MiB
    page at its first touch, which quadrupled Klondike's median of 10 ms (Klondike moves
    its table there only for a long search: table_rehome)."""
    cdef uint64_t buckets = 1024
    while buckets * 2 * 32 <= max_bytes:
        buckets *= 2
    t.keys = <uint64_t*>kabale_table_alloc(buckets * 4 * sizeof(uint64_t), huge)
    if t.keys == NULL:
        return -1
    t.huge = huge
    t.mask = buckets - 1
    t.stored = 0
    t.salt = 0
    return 0


cdef inline void table_forget(Table* t) noexcept nogil:
    """Start an empty table for a new search: change the salt, so no old entry matches."""
    t.salt = mix64(t.salt + <uint64_t>0x9E3779B97F4A7C15ULL)


cdef inline uint64_t table_bytes(Table* t) noexcept nogil:
    """The size of the table's bucket array."""
    return (t.mask + 1) * 4 * sizeof(uint64_t)


cdef int table_rehome(Table* t, bint huge) noexcept nogil:
    """Move the table to memory allocated as ``huge`` says, of the same size, forgetting its
    entries (only ever costs time, see above). -1, with the table as it was, when no such
    memory is to be had."""
    cdef uint64_t nbytes = table_bytes(t)
    cdef uint64_t* keys
    if t.huge == huge:
        return 0
    keys = <uint64_t*>kabale_table_alloc(nbytes, huge)
    if keys == NULL:
        return -1
    kabale_table_release(t.keys, nbytes, t.huge)
    t.keys = keys
    t.huge = huge
    t.stored = 0
    return 0


cdef void table_free(Table* t) noexcept nogil:
    if t.keys != NULL:
        kabale_table_release(t.keys, table_bytes(t), t.huge)
        t.keys = NULL


cdef inline void table_prefetch(Table* t, uint64_t key) noexcept nogil:
    """Start loading key's bucket, so that probes of several keys overlap."""
    key = mix64(key ^ t.salt) | 1
    kabale_prefetch(t.keys + ((key >> 2) & t.mask) * 4)


cdef inline bint table_seen(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored (the table is left as it was)."""
    key = mix64(key ^ t.salt) | 1
    cdef uint64_t* b = t.keys + ((key >> 2) & t.mask) * 4
    cdef int i
    for i in range(4):
        if b[i] == key:
            return True
    return False


cdef inline bint table_seen_or_add(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored; otherwise store it (evicting one entry of a full bucket)."""
    key = mix64(key ^ t.salt) | 1  # 0 marks an empty slot
    cdef uint64_t* b = t.keys + ((key >> 2) & t.mask) * 4
    cdef int i
    for i in range(4):
        if b[i] == key:
            return True
        if b[i] == 0:
            b[i] = key
            t.stored += 1
            return False
    b[(key >> 60) & 3] = key
    return False


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
