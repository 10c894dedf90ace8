"""The contract every game engine fulfils, so the platform and the AI can play any game.

A game engine is a module-like object (`engine.<game>.RULES`) with the members of `Rules`.
Nothing here does I/O. The bot, the offline runner and the search player (`engine/ai`) only
ever talk to a game through this contract, which is why it names no game.

Hidden information has one rule: `view(state, seat)` is everything `seat` may know, and every
event says who may read it (`private_to`: `None` for everyone, or one seat). An engine whose
move reveals a secret to one seat emits two events: a public one without the secret (what the
table saw: "seat 2 took a card from stack 3") and a private one with it, for that seat only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Move = dict[str, Any]


class EventLike(Protocol):
    """A typed event: what one move did. `private_to` is None (public) or the only seat told."""

    @property
    def kind(self) -> str: ...

    @property
    def private_to(self) -> int | None: ...

    def to_dict(self) -> dict[str, Any]: ...


class ScoreLike(Protocol):
    """One seat's final result: its points, its rank (1 = winner, ties share) and a breakdown."""

    @property
    def seat(self) -> int: ...

    @property
    def vp(self) -> int: ...

    @property
    def rank(self) -> int: ...

    def to_dict(self) -> Mapping[str, object]: ...


class Rules(Protocol):
    """The pure rules of one game.

    `State` is the engine's own frozen type; the platform treats it as opaque (`Any`) and only
    passes it back. Seats are 0-based in every engine; players see "seat 1..n".
    """

    name: str  # registry key: "nauticus", "island", "duel"
    engine_version: str  # stored with every game; bumped when a stored game replays differently
    min_players: int
    max_players: int

    def new_game(self, players: int, seed: int) -> Any:
        """A new game for `players` seats; the same seed and moves always give the same game.

        Raises:
            IllegalMove: `bad_players` or `bad_seed`.
        """
        ...

    def current(self, state: Any) -> int | None:
        """The one seat that must decide now, or None once the game is over."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Every move `seat` may make now; complete against `apply`; [] when not its decision."""
        ...

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, Sequence[EventLike]]:
        """Play one move; never mutates or half-applies.

        Raises:
            IllegalMove: with a stable code, and nothing changed.
        """
        ...

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        """Plain JSON-able data of what `seat` may see (None: the public view)."""
        ...

    def final_scores(self, state: Any) -> Sequence[ScoreLike]:
        """Every seat's result with its breakdown, in seat order (valid mid-game too)."""
        ...

    def to_json(self, state: Any) -> str: ...

    def from_json(self, text: str) -> Any:
        """Load a saved game.

        Raises:
            IllegalMove: `bad_state` for anything that is not a saved game of this version.
        """
        ...

    def describe(self, move: Move, state: Any | None = None) -> str:
        """One plain English line for a move (never naming another seat's secret)."""
        ...

    def determinize(self, state: Any, seat: int | None, rng: random.Random) -> Any:
        """A full state consistent with `view(state, seat)`: unseen cards re-dealt by `rng`.
        Seat None re-deals everything the table cannot see (every hand): the platform checks
        with it that nothing shown to everyone depends on a secret.

        The result must be a function of `view(state, seat)` and `rng` only: two states that
        differ only in what `seat` cannot see give equal results for equal `rng`s (deal the
        unseen cards from a fixed order, by place; never shuffle them in the order they really
        lie). The AI relies on it to decide the same whatever the hidden cards are. A game with
        no hidden information returns `state` itself.
        """
        ...
