# The search kernels' transposition table (included by _common.pxi).
#
# The table stores 64-bit state keys in buckets of 4 slots, open addressing on the bucket
# index. When a bucket is full an entry is overwritten: memory never grows past the size
# chosen at start. Forgetting an entry only costs time (the state may be searched again);
# it never changes a verdict, because a state is only ever stored as "being searched or
# searched without a win" and re-searching it finds the same answer.
#
# A key's low bits choose its bucket; the entry stored is the high 48 bits of the mixed key
# with the table's generation in the low 16. Starting afresh (table_forget) moves to the
# next generation, and a slot of another generation counts as empty, so no memory is
# cleared (only when the 16 bits wrap around, once in 65535 searches). The one theoretical
# hazard is two states of one bucket sharing those 48 bits: about p / 2^46 for p probes
# (below 1e-5 for a billion); we accept and document it.
#
# A freed table's memory is kept, up to SPARE_BYTES, for the next table of the same
# size (the spares): fresh memory costs the system a page clear at its first touch, which
# on a virtual machine took up to a third of a long search. Tables are made and freed with
# the GIL held (in __init__, __dealloc__ and def methods), which guards the spares.

DEF GEN_BITS = 16
DEF SPARES = 8
DEF SPARE_BYTES = 1 << 29  # in each kernel module

cdef struct Table:
    uint64_t* keys
    uint64_t mask
    uint64_t gen    # the current search's generation, 1 .. 2^GEN_BITS - 1
    int huge        # allocated for huge pages (see table_init)


cdef struct Spare:
    uint64_t* keys
    uint64_t bytes
    uint64_t gen
    int huge


cdef Spare spares[SPARES]
cdef int nspares = 0


cdef inline uint64_t table_bytes(Table* t) noexcept nogil:
    """The size of the table's bucket array."""
    return (t.mask + 1) * 4 * sizeof(uint64_t)


cdef inline void table_forget(Table* t) noexcept nogil:
    """Start an empty table for a new search: move to the next generation, so no old entry
    matches or holds a slot (clearing the memory when the generations wrap around)."""
    t.gen += 1
    if t.gen >> GEN_BITS:
        memset(t.keys, 0, table_bytes(t))
        t.gen = 1


cdef int table_take(Table* t, uint64_t nbytes, bint huge) noexcept:
    """Point t at an empty table of nbytes: a spare of that size (on huge pages if ``huge``
    asks for them; a spare on huge pages serves either request, its pages are all there),
    or fresh memory allocated as ``huge`` says. 0 on success, -1 (t unchanged) when no
    memory is to be had."""
    global nspares
    cdef int i
    cdef uint64_t* keys
    for i in range(nspares - 1, -1, -1):
        if spares[i].bytes == nbytes and (spares[i].huge or not huge):
            t.keys = spares[i].keys
            t.gen = spares[i].gen
            t.huge = spares[i].huge
            spares[i] = spares[nspares - 1]
            nspares -= 1
            break
    else:
        keys = <uint64_t*>kabale_table_alloc(nbytes, huge)
        if keys == NULL:
            return -1
        t.keys = keys
        t.gen = 0  # fresh memory is zero: generation 0, never a current one
        t.huge = huge
    t.mask = nbytes // (4 * sizeof(uint64_t)) - 1
    table_forget(t)
    return 0


cdef void table_give(uint64_t* keys, uint64_t nbytes, uint64_t gen, bint huge) noexcept:
    """Keep a table's memory as a spare, handing the oldest spares back to the system to
    stay within SPARES and SPARE_BYTES (or this one, if it alone is larger)."""
    global nspares
    cdef uint64_t kept = nbytes
    cdef int i
    if nbytes > SPARE_BYTES:
        kabale_table_release(keys, nbytes, huge)
        return
    for i in range(nspares):
        kept += spares[i].bytes
    while nspares == SPARES or kept > SPARE_BYTES:
        kabale_table_release(spares[0].keys, spares[0].bytes, spares[0].huge)
        kept -= spares[0].bytes
        for i in range(1, nspares):
            spares[i - 1] = spares[i]
        nspares -= 1
    spares[nspares].keys = keys
    spares[nspares].bytes = nbytes
    spares[nspares].gen = gen
    spares[nspares].huge = huge
    nspares += 1


def spare_sizes():
    """The sizes in bytes of the spare tables kept now, oldest first."""
    return [spares[i].bytes for i in range(nspares)]


def release_spares():
    """Hand every spare table back to the system (kabale.solver.release_memory)."""
    global nspares
    while nspares:
        nspares -= 1
        kabale_table_release(spares[nspares].keys, spares[nspares].bytes,
                             spares[nspares].huge)


cdef int table_init(Table* t, uint64_t max_bytes, bint huge=False) noexcept:
    """An empty table: the largest power-of-two bucket array within max_bytes. 0 on
    success. ``huge`` asks for transparent huge pages (Linux): a probe is a random access,
    and with 4 KiB pages nearly every one also misses the TLB (Spiderette: 10M positions in
    4.6-4.9 s instead of 5.8-6.7 s). It suits long searches only: the kernel zeroes a whole
    2 MiB page at its first touch, which quadrupled Klondike's median of 10 ms (Klondike
    moves its table there only for a long search: table_rehome)."""
    cdef uint64_t buckets = 1024
    while buckets * 2 * 32 <= max_bytes:
        buckets *= 2
    return table_take(t, buckets * 4 * sizeof(uint64_t), huge)


cdef int table_rehome(Table* t) noexcept:
    """Move the table onto huge pages, of the same size, forgetting its entries (only ever
    costs time, see above); its old memory goes back to the system (the new table, kept as
    a spare, will serve the next table of its size). -1, with the table as it was, when no
    such memory is to be had."""
    cdef Table old = t[0]
    if t.huge:
        return 0
    if table_take(t, table_bytes(&old), True) != 0:
        return -1
    kabale_table_release(old.keys, table_bytes(&old), old.huge)
    return 0


cdef void table_free(Table* t) noexcept:
    """Give the table's memory to the spares (t is left empty)."""
    if t.keys != NULL:
        table_give(t.keys, table_bytes(t), t.gen, t.huge)
        t.keys = NULL


cdef inline uint64_t* table_bucket(Table* t, uint64_t key) noexcept nogil:
    """Key's bucket (keys are sums of random 64-bit values: their low bits are uniform)."""
    return t.keys + (key & t.mask) * 4


cdef inline uint64_t table_entry(Table* t, uint64_t key) noexcept nogil:
    """What the table stores for key in this generation."""
    return (mix64(key) & ~((<uint64_t>1 << GEN_BITS) - 1)) | t.gen


cdef inline void table_prefetch(Table* t, uint64_t key) noexcept nogil:
    """Start loading key's bucket, so that probes of several keys overlap."""
    kabale_prefetch(table_bucket(t, key))


cdef inline bint table_seen(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored (the table is left as it was)."""
    cdef uint64_t e = table_entry(t, key)
    cdef uint64_t* b = table_bucket(t, key)
    return b[0] == e or b[1] == e or b[2] == e or b[3] == e


cdef inline bint table_seen_or_add(Table* t, uint64_t key) noexcept nogil:
    """True if key is stored; otherwise store it (evicting one entry of a full bucket).
    The entries of the current generation fill each bucket from its first slot (none is
    ever removed but by another), so the first slot of another generation ends the look."""
    cdef uint64_t e = table_entry(t, key), gen_mask = (<uint64_t>1 << GEN_BITS) - 1
    cdef uint64_t* b = table_bucket(t, key)
    cdef int i
    for i in range(4):
        if b[i] == e:
            return True
        if (b[i] & gen_mask) != t.gen:
            b[i] = e
            return False
    b[(e >> 62) & 3] = e
    return False
