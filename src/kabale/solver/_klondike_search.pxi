# Klondike kernel, the depth-first search loop (included by _klondike.pyx after the kernel
# class): do/undo on the kernel's one state, a frame of generated moves per depth, the
# table turning away positions seen before.

cdef int scout(KlondikeKernel k, Frame* fr) noexcept nogil:
    """Make and take back each move of the frame, noting the key of the position it leads
    to (and whether that is won), and start loading those keys' table buckets: the probes
    then find them in cache, and a move to a position seen before is never made again.
    -1 when memory runs out."""
    cdef int i, rc
    cdef Scout* grown
    cdef Scout* sc
    if k.scap < k.mlen:
        grown = <Scout*>realloc(k.scouts, k.mcap * sizeof(Scout))
        if grown == NULL:
            return -1
        k.scouts = grown
        k.scap = k.mcap
    for i in range(fr.start, fr.end):
        sc = &k.scouts[i]
        rc = k.nops
        if k._do(k.mbuf[i]) != 0:
            return -1
        sc.nops = k.nops - rc
        sc.won = won(k) or trivially_won(k)
        if not sc.won:
            sc.key = k._key(&sc.plain)
            table_prefetch(&k.table, sc.key)
            if sc.plain != 0:
                table_prefetch(&k.table, sc.plain)
        k._undo_to(rc)
    return 0


cdef tuple search(KlondikeKernel k, long long max_nodes, double max_seconds):
    """Search from the kernel's position. Returns (status, ops): status 1 solved,
    0 unsolvable, -1 node or time limit (or halt), -2 memory limit; ops the winning line as
    (kind, a, b, n, draws) tuples. The search runs without the GIL."""
    cdef double deadline = kabale_now() + max_seconds if max_seconds > 0 else 1e300
    cdef int status
    with nogil:
        status = search_loop(k, max_nodes, deadline)
    return status, (k._line() if status == 1 else [])


cdef int search_loop(KlondikeKernel k, long long max_nodes, double deadline) noexcept nogil:
    """The loop of search: its status; a win leaves the kernel there, its line on the ops
    stack."""
    cdef int depth = 0, rc, i
    cdef long long steps = 0
    cdef Frame* fr
    cdef Frame* grown
    cdef Scout* sc
    cdef uint64_t used
    k.cut = 0
    if buried(k):
        return 0
    if k._do_root() != 0:
        return -2
    if won(k) or trivially_won(k):
        if finish(k) != 0:
            return -2
        return 1
    table_seen_or_add(&k.table, k._hash())
    k.frames[0].start = k.mlen
    k.frames[0].ops_base = k.nops
    if gen_moves(k) != 0:
        return -2
    k.frames[0].next = k.frames[0].start
    k.frames[0].end = k.mlen
    if scout(k, &k.frames[0]) != 0:
        return -2
    while True:
        fr = &k.frames[depth]
        if fr.next >= fr.end:
            if depth == 0:
                return -1 if k.cut else 0
            k.mlen = fr.start
            depth -= 1
            k._undo_to(k.frames[depth + 1].ops_base)
            continue
        i = fr.next
        fr.next += 1
        sc = &k.scouts[i]
        k.mbuf[i].done = 1 if sc.nops == 1 else 2  # rule 14
        k.nodes += 1
        if sc.won:
            if k._do(k.mbuf[i]) != 0 or finish(k) != 0:
                return -2
            return 1
        steps += 1
        if (steps & 1023) == 0:
            # counted on every position, seen or not: a stretch of table hits is no pause
            if k._past(deadline):
                return -1
            used = (<uint64_t>k.cap_ops + k.mcap) * sizeof(KMove) + \
                <uint64_t>k.scap * sizeof(Scout) + <uint64_t>k.cap_frames * sizeof(Frame)
            if used > k.mem_limit:
                return -2
        if sc.plain != 0 and table_seen(&k.table, sc.plain):
            continue  # the same position without the pending card's limits was seen
        if table_seen_or_add(&k.table, sc.key):
            continue
        if max_nodes > 0 and k.nodes >= max_nodes:
            return -1
        if k.max_depth > 0 and depth + 1 >= k.max_depth:
            k.cut = 1  # rule 10: too deep, back up; no "unsolvable" from this run
            continue
        rc = k.nops
        if k._do(k.mbuf[i]) != 0:
            return -2
        depth += 1
        if depth == k.cap_frames:
            grown = <Frame*>realloc(k.frames, 2 * k.cap_frames * sizeof(Frame))
            if grown == NULL:
                return -2
            k.frames = grown
            k.cap_frames *= 2
        fr = &k.frames[depth]
        fr.ops_base = rc
        fr.start = k.mlen
        if gen_moves(k) != 0:
            return -2
        fr.next = fr.start
        fr.end = k.mlen
        if k.commute:
            drop_commuted(k, &k.frames[depth - 1], fr)
        if scout(k, fr) != 0:
            return -2
