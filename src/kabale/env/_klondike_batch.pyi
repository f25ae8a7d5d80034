"""Type stub of the compiled batch of Klondike games (_klondike_batch.pyx)."""

from typing import Any

import numpy as np

class KlondikeBatch:
    n: int
    n_columns: int
    n_found: int
    depth: int
    stock_size: int

    def __init__(self, n: int, options: dict[str, Any], arrays: dict[str, np.ndarray],
                 tables: dict[str, Any]) -> None: ...
    def refresh(self, b: int, masks: np.ndarray) -> int: ...
    def step(self, actions: np.ndarray, masks: np.ndarray, outcome: np.ndarray,
             done: np.ndarray, reward: np.ndarray, shaped: float) -> None: ...
    def observe(self, out: dict[str, np.ndarray]) -> None: ...
