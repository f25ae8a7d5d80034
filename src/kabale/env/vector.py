"""KlondikeVectorEnv: many Klondike-family games stepped at once in compiled code.

It behaves exactly as ``gymnasium.vector.SyncVectorEnv`` over ``KabaleEnv``s of the same
variant in gymnasium's default "next step" autoreset mode (tests/env/test_vector.py compares
the two step by step): ``reset(seed=s)`` deals numbers s, s+1, ..., each game then draws its
next deal numbers from its own generator as ``KabaleEnv`` does, the observations are the same
arrays stacked, the rewards, terminations and truncations the same. What it leaves out:
``infos`` carries ``action_mask`` (and ``outcome``: 0 playing, 1 won, 2 lost) but not the
legal moves' notation (``env.actions.moves[a]`` names any action).

The rules run in ``_klondike_batch`` (Cython), a restatement of core's Klondike rules that the
tests hold to core on random games; Spider and Spiderette have no batch kernel yet.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space

from ..core.deal import MAX_SEED
from ..core.errors import KabaleError
from ..core.game import Game
from ..core.klondike import KlondikeRules
from ..core.state import FOUNDATION, STOCK, WASTE, State
from .actions import MAX_RUN, ActionTable
from .environment import DEFAULT_MAX_MOVES, KabaleEnv
from .view import card_code

try:
    from ._klondike_batch import KlondikeBatch
except ModuleNotFoundError as error:  # kabale was built without a C compiler (setup.py)
    if error.name != f"{__package__}._klondike_batch":
        raise
    raise ModuleNotFoundError(
        "KlondikeVectorEnv is not compiled (kabale was installed without a C compiler or "
        "Python's headers): install them (Debian, Ubuntu: apt-get install build-essential "
        "python3-dev), then reinstall kabale with pip install --force-reinstall "
        "--no-cache-dir; KabaleEnv works without it", name=error.name) from None

KINDS = {"col_f": 0, "waste_f": 1, "col_col": 2, "waste_col": 3, "f_col": 4, "stock": 5}


class KlondikeVectorEnv(gym.vector.VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` games of a Klondike variant: ``KlondikeVectorEnv(256, "klondike", draw=3)``.

    Keywords as :class:`KabaleEnv` (``max_moves``, ``shaped``, the variant's options).
    """

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 64, variant: str = "klondike", *,
                 max_moves: int | None = DEFAULT_MAX_MOVES, shaped: bool = False,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise KabaleError(f"bad num_envs {num_envs!r}: a whole number >= 1")
        self.single = KabaleEnv(variant, max_moves=max_moves, shaped=shaped, **options)
        rules = self.single.rules
        if not isinstance(rules, KlondikeRules):
            raise KabaleError(f"no batch kernel for {str(self.single.variant)!r}: "
                              "KlondikeVectorEnv plays the Klondike family only")
        self.rules: KlondikeRules = rules
        self.variant = self.single.variant
        self.actions: ActionTable = self.single.actions
        self.num_envs = num_envs
        self.max_moves = max_moves
        self.shaped = shaped
        self.single_observation_space = self.single.observation_space
        self.single_action_space = self.single.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        view = self.single.view
        n, c, f = num_envs, rules.n_columns, rules.n_foundations
        self._state = {
            "cols": np.zeros((n, c, view.depth), np.int8),
            "length": np.zeros((n, c), np.int8), "down": np.zeros((n, c), np.int8),
            "stock": np.zeros((n, view.stock_size), np.int8),
            "waste": np.zeros((n, view.stock_size), np.int8),
            "found": np.zeros((n, f), np.int8),
            **{name: np.zeros(n, np.int32) for name in
               ("stock_n", "waste_n", "passes_used", "score")},
        }
        self._kernel = KlondikeBatch(n, dict(self.variant.options), self._state,
                                     _tables(self.actions, c, f))
        self._out = {name: np.zeros((n, *space.shape), space.dtype)
                     for name, space in self.single_observation_space.items()}
        self._masks = np.zeros((n, len(self.actions)), np.uint8)
        self._outcome = np.zeros(n, np.int8)
        self._done = np.zeros(n, np.int8)
        self._reward = np.zeros(n, np.float64)
        self._steps = np.zeros(n, np.int32)
        self._rngs: list[np.random.Generator] = []

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                             dict[str, Any]]:
        """Deal every game: game i deals number ``seed + i`` (as SyncVectorEnv seeds its
        envs), else a number from its own generator; ``options={"games": [...]}`` starts
        from one Game of the variant per env instead (positions in play too)."""
        games = (options or {}).get("games")
        if set(options or {}) - {"games"} or (games is not None and (
                len(games) != self.num_envs or not all(isinstance(g, Game) for g in games))):
            raise KabaleError(f"bad reset options {sorted(options or {})!r}: only 'games', "
                              f"a list of {self.num_envs} kabale Games")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise KabaleError(f"{len(seeds)} seeds for {self.num_envs} games")
        if not self._rngs or seed is not None:
            self._rngs = [seeding.np_random(s)[0] for s in seeds]
        for b, number in enumerate(seeds):
            if games is None:
                self._deal(b, number)
            elif games[b].variant != self.variant:
                raise KabaleError(f"game {b}'s variant {str(games[b].variant)!r} is not this "
                                  f"env's {str(self.variant)!r}")
            else:
                self.single.view.check_fits(games[b].state)
                self._load(b, games[b].state)
        self._done[:] = 0
        return self._observation(), self._info()

    def _deal(self, b: int, number: int | None) -> None:
        if number is None:
            number = int(self._rngs[b].integers(MAX_SEED // 2))
        else:
            self._rngs[b] = seeding.np_random(number)[0]
        if number > MAX_SEED:
            raise KabaleError(f"bad seed {number!r}: a deal number is 0..{MAX_SEED}")
        self._load(b, Game.new(self.variant, number).state)

    def _load(self, b: int, state: State) -> None:
        s = self._state
        s["cols"][b] = 0
        for i, pile in enumerate(state.columns):
            s["cols"][b, i, :len(pile)] = [card_code(card) for card in pile]
        s["length"][b] = [len(pile) for pile in state.columns]
        s["down"][b] = state.down
        for name in ("stock", "waste"):
            pile = getattr(state, name)
            s[name][b] = 0
            s[name][b, :len(pile)] = [card_code(card) for card in pile]
            s[f"{name}_n"][b] = len(pile)
        s["found"][b] = [len(pile) for pile in state.foundations]
        s["passes_used"][b] = state.passes_used
        s["score"][b] = state.score
        self._steps[b] = 0
        self._outcome[b] = self._kernel.refresh(b, self._masks)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """One step of every game; a game whose episode ended last step is dealt again
        instead (reward 0, not done), as gymnasium's next-step autoreset does."""
        if not self._rngs:
            raise KabaleError("step() before reset(): call reset() first")
        chosen = np.asarray(actions, dtype=np.int64)
        if chosen.shape != (self.num_envs,) or chosen.min() < 0 or chosen.max() >= len(
                self.actions):
            raise KabaleError(f"bad actions {actions!r}: {self.num_envs} integers "
                              f"0..{len(self.actions) - 1}")
        restart = np.flatnonzero(self._done)
        self._kernel.step(chosen, self._masks, self._outcome, self._done, self._reward,
                          1.0 if self.shaped else 0.0)
        self._steps += 1
        for b in restart:
            self._deal(int(b), None)
        terminated = self._outcome != 0
        if self.max_moves is None:
            truncated = np.zeros(self.num_envs, bool)
        else:
            truncated = ~terminated & (self._steps >= self.max_moves)
        self._done[:] = terminated | truncated
        return (self._observation(), self._reward.copy(), terminated, truncated,
                self._info())

    def _observation(self) -> dict[str, np.ndarray]:
        self._kernel.observe(self._out)
        self._out["steps"][:, 0] = self._steps
        return {name: array.copy() for name, array in self._out.items()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._masks.astype(bool), "outcome": self._outcome.copy()}

    def action_masks(self) -> np.ndarray:
        """Every game's legal actions, shape (num_envs, actions)."""
        return self._masks.astype(bool)


def _tables(actions: ActionTable, n_columns: int, n_found: int) -> dict[str, Any]:
    """The action catalogue decoded for the kernel: per action its kind, source, target and
    count, and the action number of each (kind, place) the move generator writes."""
    size = len(actions)
    kind, src, dst, cnt = (np.zeros(size, np.int32) for _ in range(4))
    col_f = np.zeros(n_columns, np.int32)
    waste_col = np.zeros(n_columns, np.int32)
    col_col = np.zeros((n_columns, n_columns, MAX_RUN + 1), np.int32)
    f_col = np.zeros((n_found, n_columns), np.int32)
    tables: dict[str, Any] = {"kind": kind, "src": src, "dst": dst, "cnt": cnt, "col_f": col_f,
                              "waste_col": waste_col, "col_col": col_col, "f_col": f_col}
    for a, move in enumerate(actions.moves):
        cnt[a] = move.count
        if move.source == STOCK:
            kind[a] = KINDS["stock"]
            tables["stock"] = a
        elif move.target == FOUNDATION:
            if move.source == WASTE:
                kind[a] = KINDS["waste_f"]
                tables["waste_f"] = a
            else:
                kind[a], src[a] = KINDS["col_f"], int(move.source) - 1
                col_f[src[a]] = a
        else:
            dst[a] = int(move.target) - 1
            if move.source == WASTE:
                kind[a] = KINDS["waste_col"]
                waste_col[dst[a]] = a
            elif move.source.startswith("f"):
                kind[a], src[a] = KINDS["f_col"], int(move.source[1:]) - 1
                f_col[src[a], dst[a]] = a
            else:
                kind[a], src[a] = KINDS["col_col"], int(move.source) - 1
                col_col[src[a], dst[a], move.count] = a
    return tables
