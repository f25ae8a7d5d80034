"""Type stub of the compiled Spider-family kernel (_spider.pyx)."""

class SpiderKernel:
    nodes: int
    max_depth: int

    def __init__(self, strict: bool, total: int, columns: list[list[int]], down: list[int],
                 stock: list[int], removed: int, table_mb: int) -> None: ...
    def run(self, max_nodes: int, max_seconds: float,
            noise: int = 0) -> tuple[int, list[tuple[int, int, int, int]]]: ...
