# Klondike kernel, the depth-first search loop (included by _klondike.pyx after the kernel
# class): do/undo on the kernel's one state, a frame of generated moves per depth, the
# table turning away positions seen before. A search may pause and go on later (run,
# resume): its frames and operations stay on the kernel's stacks meanwhile.

import threading

cdef extern from "Python.h":
    # declared without an exception value: the caller leaves the exception set and returns
    # INTERRUPTED itself (Cython would otherwise report and drop it in a noexcept function)
    int check_signals "PyErr_CheckSignals" ()

# the thread whose Python code handles signals: a search there looks for them (Ctrl-C)
cdef unsigned long MAIN_THREAD = threading.main_thread().ident
from cpython.pythread cimport PyThread_get_thread_ident


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
    cdef int emptied = k._emptied()
    cdef KMove* m
    for i in range(fr.start, fr.end):
        sc = &k.scouts[i]
        m = &k.mbuf[i]
        # rule 16: after emptying the only empty column, only moves into it
        sc.unused = emptied >= 0 and not (m.b == emptied and
                                          (m.kind == T2T or m.kind == W2T or m.kind == F2T))
        if sc.unused:
            continue
        rc = k.nops
        if k._do(m[0]) != 0:
            return -1
        sc.nops = k.nops - rc
        sc.won = won(k) or trivially_won(k)
        sc.transient = False
        if not sc.won:
            sc.key = k._key(&sc.plain)
            sc.transient = k._emptied() >= 0
            table_prefetch(k.table, sc.key)
            if sc.plain != 0:
                table_prefetch(k.table, sc.plain)
        k._undo_to(rc)
    return 0


cdef int search_begin(KlondikeKernel k) noexcept nogil:
    """Start a search from the kernel's position: the root's safe moves, its table entry
    and its frame. A status when that already decides (the root's line on the ops stack
    when SOLVED), else 2: search_loop goes on from there."""
    k.cut = 0
    if buried(k):
        return LOST
    if k._do_root() != 0:
        return MEMORY
    if won(k) or trivially_won(k):
        if finish(k) != 0:
            return MEMORY
        return SOLVED
    table_seen_or_add(k.table, k._hash())
    k.frames[0].start = k.mlen
    k.frames[0].ops_base = k.nops
    if gen_moves(k) != 0:
        return MEMORY
    k.frames[0].next = k.frames[0].start
    k.frames[0].end = k.mlen
    if scout(k, &k.frames[0]) != 0:
        return MEMORY
    k.live.depth = 0
    k.live.steps = 0
    return 2


cdef int search_loop(KlondikeKernel k, double pause_at, bint signals) noexcept nogil:
    """Go on with the search in progress until it decides, reaches a limit of k.live, or
    ``pause_at`` comes (PAUSED: the search stays, to go on later); with ``signals`` it
    also looks for Ctrl-C (INTERRUPTED, the exception set). A win leaves the kernel there,
    its line on the ops stack."""
    cdef int depth = k.live.depth, rc, i, status
    cdef long long steps = k.live.steps
    cdef long long max_nodes = k.live.max_nodes
    cdef double deadline = k.live.deadline, now
    cdef Frame* fr
    cdef Frame* grown
    cdef Scout* sc
    cdef uint64_t used
    while True:
        fr = &k.frames[depth]
        if fr.next >= fr.end:
            if depth == 0:
                return LIMIT if k.cut else LOST
            k.mlen = fr.start
            depth -= 1
            k._undo_to(k.frames[depth + 1].ops_base)
            continue
        steps += 1
        if (steps & 1023) == 0:
            # counted on every position, seen or not: a stretch of table hits is no pause
            now = kabale_now()
            if now >= deadline or (k.halt_flag != NULL and kabale_load(k.halt_flag) != 0):
                return LIMIT
            used = (<uint64_t>k.cap_ops + k.mcap) * sizeof(KMove) + \
                <uint64_t>k.scap * sizeof(Scout) + <uint64_t>k.cap_frames * sizeof(Frame)
            if used > k.mem_limit:
                return MEMORY
            if signals:
                with gil:
                    status = INTERRUPTED if check_signals() != 0 else 0
                if status:
                    return INTERRUPTED
            if now >= pause_at:
                k.live.depth = depth
                k.live.steps = steps - 1  # this step is taken again on resuming
                return PAUSED
        i = fr.next
        fr.next += 1
        sc = &k.scouts[i]
        if sc.unused:
            continue  # rule 16
        # rule 14; a move to a transient position (rule 16) never counts as made alone
        k.mbuf[i].done = 1 if sc.nops == 1 and not sc.transient else 2
        k.nodes += 1
        if sc.won:
            if k._do(k.mbuf[i]) != 0 or finish(k) != 0:
                return MEMORY
            return SOLVED
        if sc.plain != 0 and table_seen(k.table, sc.plain):
            continue  # the same position without the pending card's limits was seen
        if sc.transient:
            if table_seen(k.table, sc.key):
                continue  # rule 16: searched whole before, or on the current path
        elif table_seen_or_add(k.table, sc.key):
            continue
        if table_wants_room(k.table):
            table_grow(k.table, deadline)
        if max_nodes > 0 and k.nodes >= max_nodes:
            return LIMIT
        if k.max_depth > 0 and depth + 1 >= k.max_depth:
            k.cut = 1  # rule 10: too deep, back up; no "unsolvable" from this run
            continue
        rc = k.nops
        if k._do(k.mbuf[i]) != 0:
            return MEMORY
        depth += 1
        if depth == k.cap_frames:
            grown = <Frame*>realloc(k.frames, 2 * k.cap_frames * sizeof(Frame))
            if grown == NULL:
                return MEMORY
            k.frames = grown
            k.cap_frames *= 2
        fr = &k.frames[depth]
        fr.ops_base = rc
        fr.start = k.mlen
        if gen_moves(k) != 0:
            return MEMORY
        fr.next = fr.start
        fr.end = k.mlen
        if k.commute:
            drop_commuted(k, &k.frames[depth - 1], fr)
        if scout(k, fr) != 0:
            return MEMORY


cdef void abandon(KlondikeKernel k) noexcept nogil:
    """End the search in progress, if any: the kernel is back at its loaded position."""
    k._undo_to(0)
    k.mlen = 0
    k.live.active = 0


cdef int raise_set() except -1:
    """Let the exception a signal handler set (INTERRUPTED) propagate."""
    return -1


cdef tuple go_on(KlondikeKernel k, double pause):
    """Run the search in progress on (search_loop) with a pause ``pause`` seconds from now
    (0: none): (status, line) as KlondikeKernel.run."""
    cdef double pause_at = kabale_now() + pause if pause > 0 else 1e300
    cdef bint signals = PyThread_get_thread_ident() == MAIN_THREAD
    cdef int status
    cdef list line
    with nogil:
        status = search_loop(k, pause_at, signals)
    return finish_run(k, status)


cdef tuple finish_run(KlondikeKernel k, int status):
    """(status, line) for a search that returned ``status``: unless it paused, the search
    ends and the kernel is back at its loaded position; the line (see line_of) if it won."""
    cdef list line = []
    if status == PAUSED:
        return status, line
    if status == SOLVED:
        line = line_of(k)
    abandon(k)
    if status == INTERRUPTED:
        raise_set()
    return status, line
