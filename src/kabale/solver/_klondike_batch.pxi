# Klondike kernel, many positions in one call (included by _klondike.pyx after the kernel
# class): klondike.serial's lane with a node budget and no clock, run in C on one kernel and
# one table for every position, so that no Python runs between the searches.

cdef struct Plan:
    # the lane's shares and counts (klondike.py and driver.py hold their values)
    double without_back   # share of the budget for the search that never brings cards back
    int restarts          # shuffled restarts of the exhaustive search (driver.drive)
    int restarts_with_back  # ... after a search without cards brought back
    double relaxed        # share for the draw-one relaxation (0: none)
    double forecast       # share for its forecast
    double restart_share  # at most this share of the budget goes to restarts
    long long first_budget  # the first restart's positions (each next one doubles it)
    int noise             # the restarts' priority noise


cdef int plan_run(KlondikeKernel k, long long budget, int noise, bint signals) noexcept nogil:
    """KlondikeKernel.run(budget, 0.0, noise): a fresh search of at most ``budget`` positions.
    A win leaves the kernel there (its line on the stack); anything else ends the search."""
    cdef int status
    abandon(k)
    table_forget(k.table)
    k.noise = noise
    k.rng = mix64(<uint64_t>noise + 12345)
    k.live.max_nodes = k.nodes + budget if budget > 0 else 0
    k.live.deadline = 1e300
    k.live.active = 1
    status = search_begin(k)
    if status == 2:
        status = search_loop(k, 1e300, signals)
    if status != SOLVED:
        abandon(k)
    return status


cdef int plan_drive(KlondikeKernel k, Plan* p, long long max_nodes, int restarts,
                    bint signals) noexcept nogil:
    """driver.drive(kernel, 0.0, max_nodes, restarts): the restarts, then the exhaustive
    search until the kernel's node count reaches ``max_nodes``. MEMORY becomes LIMIT."""
    cdef long long restart_nodes = <long long>(max_nodes * p.restart_share)
    cdef long long budget = p.first_budget
    cdef int attempt, status
    for attempt in range(1, restarts + 1):
        budget = min(budget, restart_nodes - k.nodes)
        if budget < p.first_budget // 4:
            break
        k.max_depth = k.restart_depth
        status = plan_run(k, budget, p.noise + attempt, signals)
        if status == SOLVED or status == LOST or status == INTERRUPTED:
            return status
        if status == MEMORY:
            return LIMIT
        budget *= 2
    k.max_depth = 0
    status = plan_run(k, max(max_nodes - k.nodes, 1), 0, signals)
    return LIMIT if status == MEMORY else status


cdef inline long long share_of(KlondikeKernel k, double share, long long max_nodes) noexcept nogil:
    """klondike._share's node count: ``share`` of what is left of ``max_nodes``."""
    return k.nodes + max(<long long>((max_nodes - k.nodes) * share), 1)


cdef int plan_relaxation(KlondikeKernel k, Plan* p, long long max_nodes,
                         bint signals) noexcept nogil:
    """klondike.relaxation_loses without a clock: LOST if the relaxation proves the position
    lost, INTERRUPTED on Ctrl-C, else LIMIT. The kernel is back on the variant's rules."""
    cdef bint back = k.back
    cdef int status = LOST
    relax_rules(k, True)
    if back and p.forecast > 0:
        k.back = False
        status = plan_drive(k, p, share_of(k, p.forecast, max_nodes), 0, signals)
        abandon(k)
        k.back = True
    if status == LOST:
        status = plan_drive(k, p, share_of(k, p.relaxed, max_nodes), 0, signals)
    abandon(k)  # a win of the relaxation proves nothing: back to the position, then the rules
    k.back = back
    relax_rules(k, False)
    return status if status == LOST or status == INTERRUPTED else LIMIT


cdef int plan_serial(KlondikeKernel k, Plan* p, long long max_nodes, bint signals) noexcept nogil:
    """klondike.serial(game, 0.0, max_nodes, ...) on the loaded position: the search without
    cards brought back, the relaxation, then the exhaustive search (after restarts)."""
    cdef int restarts = p.restarts, status
    if won(k):
        return SOLVED
    if k.back and p.without_back > 0:
        k.back = False
        status = plan_drive(k, p, max(<long long>(max_nodes * p.without_back), 1), restarts,
                            signals)
        k.back = True
        if status == SOLVED or status == INTERRUPTED:
            return status
        restarts = p.restarts_with_back
    if k.nodes >= max_nodes:
        return LIMIT
    if p.relaxed > 0 and (k.rules_draw > 1 or k.rules_passes > 0):
        status = plan_relaxation(k, p, max_nodes, signals)
        if status == LOST or status == INTERRUPTED:
            return status
    if k.nodes >= max_nodes:
        return LIMIT
    return plan_drive(k, p, max_nodes, restarts, signals)


def solve_many(KlondikeKernel k, states, long long max_nodes, bint lines, tuple plan):
    """Decide each core State of ``states`` (positions of the kernel's variant) with
    klondike.serial's lane within ``max_nodes`` positions, on this one kernel and its table:
    a list of (status, nodes, line) with status 1, 0 or -1 (a limit) and the line (see
    line_of) only when solved and ``lines`` asks for it. ``plan``: the lane's Plan, in its
    fields' order. The kernel's position afterwards is the last one's."""
    cdef Plan p
    cdef int status
    cdef bint signals = PyThread_get_thread_ident() == MAIN_THREAD
    cdef list out = [], line
    (p.without_back, p.restarts, p.restarts_with_back, p.relaxed, p.forecast,
     p.restart_share, p.first_budget, p.noise) = plan
    if max_nodes <= 0:
        raise ValueError("solve_many needs a positive node budget")
    for state in states:
        k.load_state(state)
        k.nodes = 0
        with nogil:
            status = plan_serial(k, &p, max_nodes, signals)
        line = []
        if status == SOLVED and lines and k.nops > 0:
            line = line_of(k)
        abandon(k)
        if status == INTERRUPTED:
            raise_set()
        out.append((status, k.nodes, line))
    return out
