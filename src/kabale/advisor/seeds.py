"""Deal numbers as the commands take them (``--seeds 1-100,117``); no solver needed."""

from __future__ import annotations

from ..core import KabaleError

#: the most deals one command takes
MAX_SEEDS = 1_000_000


def parse_seeds(text: str) -> list[int]:
    """Deal numbers from ``A-B`` ranges and single numbers, comma separated."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise KabaleError(f"bad --seeds {text!r}: write ranges and numbers such as "
                              "1-100 or 3,17,20-25") from None
        if first < 0 or last < first:
            raise KabaleError(f"bad --seeds range {part.strip()!r}: A-B with 0 <= A <= B")
        seeds.extend(range(first, last + 1))
        if len(seeds) > MAX_SEEDS:
            raise KabaleError(f"bad --seeds {text!r}: at most {MAX_SEEDS} deals")
    return seeds
