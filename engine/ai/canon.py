"""The canonical position of a seat: one full state per information set, whatever the secrets.

`Rules.determinize(state, seat, rng)` draws a state consistent with `view(state, seat)`, and its
*distribution* depends on the view only. But a given `rng` draws a sample that still depends on
where the real secrets sit (the engines shuffle or relabel the cards they find in the state), so
two states a seat cannot tell apart would, with the same seed, start the search from different
samples. `canonical` removes that: it returns the same state for every state with the same view,
and the search then draws all its determinizations from it.

It never looks at the true state except through `rules.determinize` (and `rules.view`, to check
the contract):

1. `d0 = rules.determinize(state, seat, random)`: a random member of the information set. Its
   secrets are random, so reading them tells nothing about the real ones.
2. `rules.determinize(d0, seat, rng)` again, with an `rng` that does not shuffle at random but
   puts the unseen cards in a fixed order:
   - games whose determinize deals a pool of unseen cards back into their places (Nautilus
     Island) get `_SortingRandom`: every shuffle sorts, so the pool is dealt in card order;
   - Nautilus duel relabels the unseen cards by a permutation; `_DuelRandom` picks the
     permutation that maps the cards, in the order they sit in `d0`, to the sorted unseen cards.
   - a game with nothing hidden (Nauticus) returns its state unchanged either way.
3. The view of the result must equal the view of `state`, or `ContractError` is raised.

A game not listed in `_ORDERERS` gets `_SortingRandom`; the tests check the canonical state of
every listed game is the same for all states of one information set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, MutableSequence
from typing import Any

from engine.api import Rules


class ContractError(RuntimeError):
    """The engine's `determinize` broke its contract (the seat's view changed)."""


def _key(item: object) -> tuple[int, int, str]:
    # A total order on any mix of cards: ints and strings are never compared with each other.
    return (0, item, "") if isinstance(item, int) else (1, 0, repr(item))


class _SortingRandom(random.Random):
    """An rng whose shuffles sort and whose random bits are zero: a fixed deal."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = sorted(x, key=_key)

    def getrandbits(self, k: int, /) -> int:
        return 0

    def random(self) -> float:
        return 0.0


class _DuelRandom(_SortingRandom):
    """Duel's determinize relabels the unseen divers, then specials, by `dict(zip(u, shuffled(u)))`.

    For each of those two shuffles this rng returns the relabelling that sends the unseen cards,
    in the order they are found in `d0` (the other hand, the decks, cards in flight), to the
    unseen cards in sorted order; so the other hand always holds the lowest unseen cards, the deck
    the next ones in order, and so on. Later shuffles (the domain deck) sort.
    """

    def __init__(self, d0: Any, seat: int) -> None:
        super().__init__(0)
        other = d0.hands[1 - seat]
        divers: list[int] = [*other.divers, *d0.diver_deck, *d0.module]
        if d0.deck_top is not None:
            divers.append(d0.deck_top[1])
        if d0.harpooned is not None:
            divers.append(d0.harpooned)
        specials: list[str] = [*d0.special_deck, *d0.aside, *d0.drawn]
        if other.special is not None:
            specials.insert(0, other.special)
        self._places: list[list[Any]] = [divers, specials]
        self._calls = 0

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if self._calls < len(self._places):
            x[:] = _relabel(x, self._places[self._calls])
        else:
            super().shuffle(x)
        self._calls += 1


def _relabel(unseen: MutableSequence[Any], places: Iterable[Any]) -> list[Any]:
    """`shuffled` such that `zip(unseen, shuffled)` maps the i-th unseen card met to the i-th
    smallest unseen card."""
    pool = set(unseen)
    met: list[Any] = []
    for card in places:
        if card in pool and card not in met:
            met.append(card)
    met += sorted((c for c in pool if c not in met), key=_key)
    target = dict(zip(met, sorted(pool, key=_key), strict=True))
    return [target[c] for c in unseen]


_ORDERERS: dict[str, Callable[[Any, int], random.Random]] = {
    "duel": _DuelRandom,
}


def canonical(rules: Rules, state: Any, seat: int, seed: int) -> Any:
    """The one state `search` starts from: the same for every state with this seat's view.

    Raises:
        ContractError: the engine's determinize changed `view(·, seat)`.
    """
    d0 = rules.determinize(state, seat, random.Random(f"ai-canon/{seed}"))
    make = _ORDERERS.get(rules.name)
    orderer = _SortingRandom(0) if make is None else make(d0, seat)
    out = rules.determinize(d0, seat, orderer)
    if rules.view(out, seat) != rules.view(state, seat):
        raise ContractError(f"{rules.name}: determinize changed seat {seat + 1}'s view")
    return out
