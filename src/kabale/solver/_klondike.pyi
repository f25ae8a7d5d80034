"""Type stub of the compiled Klondike kernel (_klondike.pyx)."""

class Halt:
    def set(self) -> None: ...
    def is_set(self) -> bool: ...

class KlondikeKernel:
    nodes: int
    halt: Halt | None
    back: bool
    commute: bool
    max_depth: int
    restart_depth: int

    def __init__(self, draw: int, passes: int, decks: int, back: bool, empty_any: bool,
                 columns: list[list[int]], down: list[int], stock: list[int],
                 waste: list[int], found: list[int], passes_used: int, table_mb: int) -> None: ...
    def run(self, max_nodes: int, max_seconds: float,
            noise: int = 0) -> tuple[int, list[tuple[int, int, int, int, int]]]: ...
    def relax(self, on: bool) -> None: ...
    def huge_table(self) -> None: ...
