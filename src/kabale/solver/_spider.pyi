"""Type stub of the compiled Spider-family kernel (_spider.pyx)."""

from typing import Any

Ops = list[tuple[int, int, int, int]]

def release_spares() -> None: ...
def spare_sizes() -> list[int]: ...

class Halt:
    def set(self) -> None: ...
    def is_set(self) -> bool: ...

class SpiderBoard:
    nodes: int
    cards_up: bool
    dead_ends: bool
    whole_runs: bool
    halt: Halt | None

    @property
    def stock_left(self) -> int: ...
    def dead(self) -> bool: ...

class SpiderKernel(SpiderBoard):
    max_depth: int
    endgame_budget: int

    @property
    def left_out(self) -> bool: ...
    def __init__(self, strict: bool, total: int, columns: list[list[int]], down: list[int],
                 stock: list[int], removed: int, found: list[int] | None,
                 table_mb: int) -> None: ...
    def run(self, max_nodes: int, max_seconds: float, noise: int = 0) -> tuple[int, Ops]: ...
    def sweep(self, max_nodes: int, max_seconds: float, budget: int,
              max_moves: int) -> tuple[int, Ops]: ...

class SpiderPhases(SpiderBoard):
    exhaustive: bool
    w_empty: int
    w_hidden: int
    w_suited: int
    w_natural: int
    w_break: int
    w_up: int
    w_len: int
    last_factor: int

    def __init__(self, strict: bool, total: int, columns: list[list[int]], down: list[int],
                 stock: list[int], removed: int, found: list[int] | None, table_mb: int,
                 pool_mb: int) -> None: ...
    def new_round(self) -> None: ...
    def start(self) -> bytes: ...
    def search(self, state: bytes, deal_first: bool, budget: int, want: int, max_nodes: int,
               max_seconds: float) -> tuple[int, Any]: ...
