# The table stores 64-bit state keys in buckets of 8 slots (one cache line), open
# addressing on the bucket index. A key goes into its home bucket, or when that is full into
# the first of the next three buckets with room, marked with its distance; when all four are
# full an entry of the home bucket is overwritten. Forgetting an entry only costs time (the state
# may be searched again); it never changes a verdict, because a state is only ever stored as
# "being searched or searched without a win" and re-searching it finds the same answer.
#
# A key's low bits choose its bucket (keys are sums of random 64-bit values: every bit is
# uniform); the entry stored is the key with its low byte replaced by the distance and the
# table's generation. A table has at least 2^8 buckets, so the bucket index holds the bits
# the entry lacks: a probe matches only the very key stored. The one hazard left is two
# different states with equal 64-bit keys (about n^2 / 2^65 for n states), which every
# keyed search shares. Starting afresh (table_forget) moves to the next generation, and a
# slot of another generation counts as empty, so no memory is cleared (only when the
# generations wrap around, once in 63 searches).
#
# A table may grow: it starts small (table_init's ``start_bytes``) and doubles once it holds
# as many entries as half its slots, up to its limit (at that load about one bucket in 20 is
# full, and a few insertions in a million find four in a row full and overwrite an entry,
# which only costs a repeated search; docs/solver.md says why not a lower load). Doubling
# re-enters each entry of the current generation into the home bucket that one more bit of
# its key chooses, which the entry holds (the index already has 8 bits or more), and the
# distance says which bucket it came from; the new slots are zero (generation 0, never a current one) or a spare
# cleared first. So a search touches memory in proportion to the positions it searched, not
# to its limit: fresh memory costs the system a page clear at its first touch (256 MiB took
# 0.19 s here, 0.86 s on huge pages). A growth that the last one's cost per byte says would
# end past the search's deadline waits (the search evicts instead), so a time limit holds
# with any memory budget.
#
# Two kernels searching at once may share one table (the Klondike kernel's share_table).
# Its slab (the bucket array with its size) is reached through one pointer, loaded anew by
# every probe and swapped in one store by a growth, so a probe always sees a matching array
# and size; a slab replaced while the table is shared is kept until the table is freed, as
# the other kernel may still be probing it. Entries the other kernel writes into the old
# slab during a growth are lost, which only costs time. Only one growth runs at a time
# (an atomic flag; the other kernel goes on evicting meanwhile).
#
# A freed table's slab is kept, up to SPARE_BYTES, for the next slab of the same size (the
# spares): fresh memory's page clears took up to a third of a long search on a virtual
# machine. The spares are guarded by a lock, as growths take and give them without the GIL.

DEF GEN_BITS = 6
DEF GEN_MASK = 0x3F
DEF AWAY = 0x40              # an entry's distance from its home bucket, in these units
DEF REACH = 4                # the buckets a key may lie in: its home and the next three
DEF LOW_MASK = 0xFF          # the bits of an entry that are not its key's
DEF MIN_BUCKETS = 256        # 2^8: the index holds the key's low byte
DEF SLOTS = 8                # a bucket's: 64 bytes, one cache line
DEF SPARES = 8
DEF SPARE_BYTES = 1 << 29    # in each kernel module
DEF SPARE_MIN = 1 << 20      # smaller slabs go straight back to the allocator
DEF FIRST_COST = 2e-9        # seconds per byte a first growth is assumed to cost
DEF HUGE_BYTES = 1 << 24     # a table grown this large moves onto huge pages (table_grow)

cdef extern from *:
    """
    #define kabale_load_ptr(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
    #define kabale_store_ptr(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
    #define kabale_try_flag(p) (__atomic_exchange_n((p), 1, __ATOMIC_ACQUIRE) == 0)
    #define kabale_clear_flag(p) __atomic_store_n((p), 0, __ATOMIC_RELEASE)
    """
    void* kabale_load_ptr(void** p) nogil
    void kabale_store_ptr(void** p, void* v) nogil
    bint kabale_try_flag(int* p) nogil
    void kabale_clear_flag(int* p) nogil

from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)


cdef struct Slab:
    uint64_t* keys
    uint64_t mask      # buckets - 1
    uint64_t gen       # the highest generation written into it
    int huge
    Slab* next         # the table's retired slabs, or nothing


cdef struct Table:
    Slab* slab
    uint64_t gen       # the current search's generation, 1 .. 2^GEN_BITS - 1
    uint64_t count     # entries added in this generation (approximate while shared)
    uint64_t grow_at   # count at which to try growing next
    uint64_t max_mask  # the limit: the largest slab's mask
    double cost        # seconds per byte of the last growth
    int shared         # another kernel may probe it: replaced slabs are retired, not freed
    int huge_growth    # a growth to HUGE_BYTES or more asks for huge pages (table_init)
    int growing        # a growth is under way
    Slab* retired


cdef Slab* spares[SPARES]
cdef int nspares = 0
cdef PyThread_type_lock spares_lock = PyThread_allocate_lock()


cdef inline uint64_t slab_bytes(Slab* s) noexcept nogil:
    """The size of the slab's bucket array."""
    return (s.mask + 1) * SLOTS * sizeof(uint64_t)


cdef Slab* slab_new(uint64_t nbytes, bint huge) noexcept nogil:
    """A slab of nbytes of zeroed buckets (generation 0), or NULL."""
    cdef Slab* s = <Slab*>malloc(sizeof(Slab))
    if s == NULL:
        return NULL
    s.keys = <uint64_t*>kabale_table_alloc(nbytes, huge)
    if s.keys == NULL:
        free(s)
        return NULL
    s.mask = nbytes // (SLOTS * sizeof(uint64_t)) - 1
    s.gen = 0
    s.huge = huge
    s.next = NULL
    return s


cdef void slab_release(Slab* s) noexcept nogil:
    """Hand the slab back to the system."""
    kabale_table_release(s.keys, slab_bytes(s), s.huge)
    free(s)


cdef Slab* slab_take(uint64_t nbytes, bint huge) noexcept nogil:
    """A spare slab of nbytes (on huge pages if ``huge`` asks for them; a spare on huge
    pages serves either request, its pages are all there), with stale entries of its
    generations up to s.gen; else a fresh one; NULL when no memory is to be had."""
    global nspares
    cdef int i
    cdef Slab* s = NULL
    PyThread_acquire_lock(spares_lock, WAIT_LOCK)
    for i in range(nspares - 1, -1, -1):
        if slab_bytes(spares[i]) == nbytes and (spares[i].huge or not huge):
            s = spares[i]
            spares[i] = spares[nspares - 1]
            nspares -= 1
            break
    PyThread_release_lock(spares_lock)
    if s != NULL:
        return s
    return slab_new(nbytes, huge)


cdef void slab_give(Slab* s) noexcept nogil:
    """Keep a slab as a spare, handing the oldest spares back to the system to stay within
    SPARES and SPARE_BYTES (a slab that is too small or too large goes back at once)."""
    global nspares
    cdef uint64_t kept = slab_bytes(s)
    cdef int i
    if kept > SPARE_BYTES or kept < SPARE_MIN:
        slab_release(s)
        return
    PyThread_acquire_lock(spares_lock, WAIT_LOCK)
    for i in range(nspares):
        kept += slab_bytes(spares[i])
    while nspares == SPARES or kept > SPARE_BYTES:
        kept -= slab_bytes(spares[0])
        slab_release(spares[0])
        for i in range(1, nspares):
            spares[i - 1] = spares[i]
        nspares -= 1
    spares[nspares] = s
    nspares += 1
    PyThread_release_lock(spares_lock)


def spare_sizes():
    """The sizes in bytes of the spare tables kept now, oldest first."""
    PyThread_acquire_lock(spares_lock, WAIT_LOCK)
    sizes = [slab_bytes(spares[i]) for i in range(nspares)]
    PyThread_release_lock(spares_lock)
    return sizes


def release_spares():
    """Hand every spare table back to the system (kabale.solver.release_memory)."""
    global nspares
    PyThread_acquire_lock(spares_lock, WAIT_LOCK)
    while nspares:
        nspares -= 1
        slab_release(spares[nspares])
    PyThread_release_lock(spares_lock)


cdef inline uint64_t bucket_bytes(uint64_t max_bytes) noexcept nogil:
    """The largest power-of-two bucket array within max_bytes (MIN_BUCKETS at least)."""
    cdef uint64_t buckets = MIN_BUCKETS
    while buckets * 2 * SLOTS * sizeof(uint64_t) <= max_bytes:
        buckets *= 2
    return buckets * SLOTS * sizeof(uint64_t)


cdef inline void table_forget(Table* t) noexcept nogil:
    """Start an empty table for a new search: move to the next generation, so no old entry
    matches or holds a slot (clearing the memory when the generations wrap around)."""
    cdef Slab* s = t.slab
    t.gen += 1
    if t.gen >> GEN_BITS:
        memset(s.keys, 0, slab_bytes(s))
        t.gen = 1
    s.gen = t.gen
    t.count = 0
    t.grow_at = (s.mask + 1) * SLOTS // 2 if s.mask < t.max_mask else <uint64_t>-1


cdef int table_init(Table* t, uint64_t max_bytes, bint huge=False,
                    uint64_t start_bytes=0) noexcept:
    """An empty table that may grow up to the largest power-of-two bucket array within
    max_bytes, starting at the one within start_bytes (0: at its limit, a table that never
    grows). ``huge`` asks for transparent huge pages (Linux): a probe is a random access,
    and with 4 KiB pages nearly every one also misses the TLB (Spiderette: 10M positions in
    4.6-4.9 s instead of 5.8-6.7 s), but the kernel zeroes a whole 2 MiB page at its first
    touch: it suits long searches only. 0 on success, -1 when no memory is to be had."""
    cdef uint64_t top = bucket_bytes(max_bytes)
    cdef uint64_t first = top if start_bytes == 0 else min(bucket_bytes(start_bytes), top)
    cdef Slab* s = slab_take(first, huge)
    if s == NULL:
        return -1
    t.slab = s
    t.gen = s.gen
    t.max_mask = top // (SLOTS * sizeof(uint64_t)) - 1
    t.cost = FIRST_COST
    t.shared = 0
    t.huge_growth = start_bytes != 0
    t.growing = 0
    t.retired = NULL
    table_forget(t)
    return 0


cdef void table_free(Table* t) noexcept nogil:
    """Give the table's slab to the spares and its retired slabs back (t is left empty)."""
    cdef Slab* s
    if t.slab != NULL:
        t.slab.gen = t.gen
        slab_give(t.slab)
        t.slab = NULL
    while t.retired != NULL:
        s = t.retired
        t.retired = s.next
        slab_release(s)


cdef int table_grow(Table* t, double deadline) noexcept nogil:
    """Double the table (see the file's comment) unless it is at its limit, another growth
    runs, no memory is to be had, or the last growth's cost per byte says this one would
    end past ``deadline`` (then it is tried again after an eighth more entries). 1 if it
    grew, else 0."""
    cdef Slab* old
    cdef Slab* new
    cdef uint64_t nbytes, i, e, gen = t.gen, n, home
    cdef uint64_t* src
    cdef int j, bit
    cdef double start
    if not kabale_try_flag(&t.growing):
        return 0
    # the slab is read only once the flag is held: one read before it could be a slab that
    # another kernel's growth has just replaced, and growing that one again would retire it
    # twice (freed twice with the table) and drop the other growth's slab
    old = <Slab*>kabale_load_ptr(<void**>&t.slab)
    if old.mask >= t.max_mask:
        kabale_clear_flag(&t.growing)
        return 0
    nbytes = 2 * slab_bytes(old)
    start = kabale_now()
    if start + t.cost * nbytes > deadline:
        t.grow_at = t.count + (old.mask + 1) // 2
        kabale_clear_flag(&t.growing)
        return 0
    new = slab_take(nbytes, old.huge or (t.huge_growth and nbytes >= HUGE_BYTES))
    if new == NULL:
        t.grow_at = <uint64_t>-1
        kabale_clear_flag(&t.growing)
        return 0
    if new.gen != 0:
        memset(new.keys, 0, nbytes)  # a spare: its stale entries may carry any generation
    new.gen = gen
    n = old.mask + 1
    bit = 0
    while (<uint64_t>1 << bit) < n:
        bit += 1
    for i in range(n):
        src = old.keys + i * SLOTS
        for j in range(SLOTS):
            e = src[j]
            if (e & GEN_MASK) != gen:
                continue
            home = (i - ((e >> GEN_BITS) & 3)) & old.mask
            place(new, (home | (((e >> bit) & 1) << bit)), e & ~(<uint64_t>(3 * AWAY)), gen)
    kabale_store_ptr(<void**>&t.slab, new)
    if t.shared:
        old.next = t.retired
        t.retired = old
    else:
        old.gen = gen
        slab_give(old)
    t.cost = (kabale_now() - start) / nbytes
    t.grow_at = (new.mask + 1) * SLOTS // 2 if new.mask < t.max_mask else <uint64_t>-1
    kabale_clear_flag(&t.growing)
    return 1


cdef inline bint table_wants_room(Table* t) noexcept nogil:
    """Whether the table holds enough entries to try growing (table_grow)."""
    return t.count >= t.grow_at


cdef inline uint64_t table_size(Table* t) noexcept nogil:
    """The bytes of the table's bucket array now."""
    return slab_bytes(<Slab*>kabale_load_ptr(<void**>&t.slab))


cdef inline uint64_t* table_bucket(Slab* s, uint64_t key) noexcept nogil:
    """Key's bucket in slab s."""
    return s.keys + (key & s.mask) * SLOTS


cdef inline uint64_t table_entry(Table* t, uint64_t key) noexcept nogil:
    """What the table stores for key in this generation."""
    return (key & ~(<uint64_t>LOW_MASK)) | t.gen


cdef inline void table_prefetch(Table* t, uint64_t key) noexcept nogil:
    """Start loading key's bucket, so that probes of several keys overlap."""
    kabale_prefetch(table_bucket(<Slab*>kabale_load_ptr(<void**>&t.slab), key))


cdef inline bint table_seen(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored (the table is left as it was)."""
    cdef Slab* s = <Slab*>kabale_load_ptr(<void**>&t.slab)
    cdef uint64_t e = table_entry(t, key), gen = t.gen, home = key & s.mask
    cdef uint64_t* b
    cdef int i, d
    for d in range(REACH):
        b = s.keys + ((home + d) & s.mask) * SLOTS
        for i in range(SLOTS):
            if b[i] == e:
                return True
            if (b[i] & GEN_MASK) != gen:
                return False  # a bucket's entries fill it from its first slot, and a key
                              # lies beyond its home only when the buckets before were full
        e += AWAY
    return False


cdef inline bint place(Slab* s, uint64_t home, uint64_t e, uint64_t gen) noexcept nogil:
    """Store entry e (at distance 0) in bucket ``home`` of s, or in the first of the next
    REACH - 1 that has room, at its distance; when all are full, overwrite an entry of the
    home bucket. False if it overwrote."""
    cdef uint64_t* b
    cdef int i, d
    for d in range(REACH):
        b = s.keys + ((home + d) & s.mask) * SLOTS
        for i in range(SLOTS):
            if (b[i] & GEN_MASK) != gen:
                b[i] = e + d * AWAY
                return True
    s.keys[home * SLOTS + ((e >> 61) & (SLOTS - 1))] = e
    return False


cdef inline bint table_seen_or_add(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored; otherwise store it (see place). The entries of the current
    generation fill each bucket from its first slot (none is ever removed but by another),
    so the first slot of another generation ends the look."""
    cdef Slab* s = <Slab*>kabale_load_ptr(<void**>&t.slab)
    cdef uint64_t e = table_entry(t, key), gen = t.gen, home = key & s.mask
    cdef uint64_t* b
    cdef int i, d
    for d in range(REACH):
        b = s.keys + ((home + d) & s.mask) * SLOTS
        for i in range(SLOTS):
            if b[i] == e:
                return True
            if (b[i] & GEN_MASK) != gen:
                b[i] = e
                t.count += 1
                return False
        e += AWAY
    s.keys[home * SLOTS + ((key >> 61) & (SLOTS - 1))] = e - REACH * AWAY
    t.count += 1
    return False
