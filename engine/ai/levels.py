"""The strength levels of the search player: one table, budgets counted in `rules.apply` calls.

A budget in calls rather than seconds makes a decision a pure function of (view, level, seed):
the same position and seed give the same move on any machine, however loaded. The figures were
chosen so that on the project's 2-core machine a `normal` decision takes under 1 s and a `hard`
one under 5 s of CPU at the 95th percentile in every game, game knowledge (engine/ai/evaluate.py)
included (see engine/ai/README.md and `python bench/ai_bench.py`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """How hard one level searches.

    `budget`: calls to `rules.apply` per decision (tree walk and rollouts together); the search
    stops at the first iteration that starts with the budget spent. `game_budgets`: (game name,
    budget) pairs that replace `budget` for a game whose decisions are cheap enough to search
    more within the level's time goal. `rollout_depth`: moves played at random after the tree
    before the position is scored with `final_scores` (the game's end comes first when it is
    nearer). `exploration`: the UCT constant.
    """

    name: str
    budget: int
    rollout_depth: int
    exploration: float
    game_budgets: tuple[tuple[str, int], ...] = ()

    def budget_for(self, game: str) -> int:
        """The apply calls a decision of `game` (a `rules.name`) may spend at this level."""
        return dict(self.game_budgets).get(game, self.budget)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", budget=800, rollout_depth=16, exploration=0.7),
    "normal": Level("normal", budget=4_000, rollout_depth=24, exploration=0.7),
    # Nauticus at hard: its rollouts are a third as long (engine/ai/evaluate.py), so 16,000
    # applies took a CPU median of 0.54 s and p95 0.72 s and hard won 24 of 40 against normal,
    # at the goal's edge; with three times as many it won 62 of 80 (fresh seeds, median 1.6 s,
    # p95 2.2 s against the goal's 5 s; engine/ai/README.md).
    "hard": Level(
        "hard",
        budget=16_000,
        rollout_depth=32,
        exploration=0.7,
        game_budgets=(("nauticus", 48_000),),
    ),
}


def level(name: str) -> Level:
    """The level called `name`.

    Raises:
        ValueError: no such level (the message lists the levels there are).
    """
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"no AI level {name!r}; the levels are {', '.join(LEVELS)}") from None
