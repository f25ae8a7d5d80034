"""The 95% interval of a share (the win chance, the analysis tables); no solver needed."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a binomial share; (0, 1) for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    low = 0.0 if successes <= 0 else max(0.0, (centre - spread) / scale)
    high = 1.0 if successes >= trials else min(1.0, (centre + spread) / scale)
    return low, high
