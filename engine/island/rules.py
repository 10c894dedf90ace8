"""Nautilus Island rules: `new_game`, `legal_moves` and `apply`, pure functions over frozen state.

`apply` validates the whole move before it builds anything, so a refused move leaves nothing
behind; the new state reuses every player, stack and tuple the move did not touch.

A turn is two or three decisions, each one move: where the pawn goes (`place` in the first
round, `move` later), then `collect`, `store` (or `idle` in the one [fixed here] case), and after
a store that could close the collection, `close` or `keep_open`.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from engine.common import move_type_parser
from engine.errors import IllegalMove
from engine.island import data
from engine.island import events as ev
from engine.island.state import (
    COLUMN_STACKS,
    EMPTY_COLLECTION,
    FACE_UP,
    Collection,
    Pawn,
    Player,
    State,
    column_cards,
)
from engine.rng import shuffled

Move = dict[str, Any]

MOVE_TYPES: dict[str, frozenset[str]] = {
    # type: its fields besides "type" (all required)
    "place": frozenset({"column"}),
    "move": frozenset({"column"}),
    "collect": frozenset(),
    "store": frozenset({"category", "objects"}),
    "close": frozenset(),
    "keep_open": frozenset(),
    "idle": frozenset(),
}
MOVE_WORDS = {
    "place": "place your pawn",
    "move": "move your pawn",
    "collect": "collect",
    "store": "store cards",
    "close": "close the collection",
    "keep_open": "keep the collection open",
    "idle": "do nothing",
}


# --- new game ------------------------------------------------------------------------------------


def new_game(players: int, seed: int, *, first: int | None = None) -> State:
    """Set up a game (I-SETUP): deal the stacks, reveal the camp, sort the portholes.

    `first` is the first player's seat (the host's choice); None draws it from the seed.

    Raises:
        IllegalMove: "bad_players", "bad_seed" or "bad_first".
    """
    if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise IllegalMove(
            "bad_players",
            f"Nautilus Island is played by 2 to 4 players, not {players!r}.",
            players=repr(players),
        )
    if type(seed) is not int:
        raise IllegalMove("bad_seed", f"The seed must be a whole number, not {seed!r}.")
    if first is not None and (type(first) is not int or not 0 <= first < players):
        raise IllegalMove(
            "bad_first",
            f"The first player must be a seat from 0 to {players - 1}, not {first!r}.",
            first=repr(first),
        )
    deck = shuffled(seed, data.DRAW_DECK, range(data.CARD_COUNT))
    n_stacks = sum(data.COLUMNS[players])
    per = data.CARDS_PER_STACK
    stacks = tuple(tuple(deck[i * per : (i + 1) * per]) for i in range(n_stacks))
    box = tuple(sorted(deck[n_stacks * per :]))
    mix = [t for t in data.TOKENS for _ in range(data.TOKEN_MIX[t])]
    tokens = shuffled(seed, data.DRAW_TOKENS, mix)
    if first is None:
        first = shuffled(seed, data.DRAW_FIRST, range(players))[0]
    empty = tuple(EMPTY_COLLECTION for _ in data.STORABLE)
    return State(
        seed=seed,
        draws=data.SETUP_DRAWS,
        players=tuple(Player((), (), empty, Pawn()) for _ in range(players)),
        stacks=stacks,
        box=box,
        camp=tuple(tokens[: data.CAMP_SPACES]),
        reserve=tuple(tokens[data.CAMP_SPACES :]),
        portholes=(0,) * len(data.PORTHOLE_SIZES),
        first=first,
        round=1,
        step="place",
        current=first,
    )


# --- helpers -------------------------------------------------------------------------------------


def _is_int(v: Any) -> bool:
    return type(v) is int


def _columns(state: State) -> int:
    return len(state.layout)


def _options_text(words: list[str]) -> str:
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def column_choices(state: State, seat: int) -> list[int]:
    """I-TURN-1, I-TURN-2, I-TURN-4, I-END-1: the columns `seat`'s pawn may face now.

    Not the column faced last round, not one another pawn faces on the side the pawn goes to,
    and not an empty column, except in the last round by a player who can store (a storable
    card of a collection that is not closed): an empty column may be faced only to store there.
    If every otherwise allowed column is empty (two columns ran out in one round, or the last
    round leaves only empty ones), the empty ones are allowed: a pawn always has somewhere to
    go, and at an empty column it stores if it can, else does nothing (`idle`, I-TURN-4).
    """
    pawn = state.players[seat].pawn
    side = state.side
    taken = {
        p.pawn.column for i, p in enumerate(state.players) if i != seat and p.pawn.side == side
    }
    base = [c for c in range(_columns(state)) if c != pawn.column and c not in taken]
    if state.last_round and _can_store(state, seat):
        return base
    full = [c for c in base if column_cards(state, c) > 0]
    return full or base


def porthole_next(state: State, size: int) -> int | None:
    """The value on top of the porthole pile for `size` cards, or None (I-PORT-2)."""
    pile = data.PORTHOLES.get(size)
    if pile is None:
        return None
    taken = state.portholes[data.PORTHOLE_SIZES.index(size)]
    return pile[taken] if taken < len(pile) else None


def _hand_objects(hand: tuple[int, ...], category: int) -> dict[str, int]:
    """How many cards of each object of `category` a hand holds (objects in data order)."""
    counts: dict[str, int] = {}
    for c in hand:
        if data.CARD_CATEGORY_INDEX[c] == category:
            o = data.CARD_OBJECT[c]
            counts[o] = counts.get(o, 0) + 1
    return counts


def store_limit(state: State, seat: int) -> int:
    """I-TURN-4: at most as many cards as the faced column has stacks."""
    column = state.players[seat].pawn.column
    assert column is not None
    return state.layout[column]


def store_options(state: State, seat: int) -> list[Move]:
    """Every store move: per open storable category, every multiset of 1..N held objects."""
    player = state.players[seat]
    limit = store_limit(state, seat)
    out: list[Move] = []
    # Copies of one object per object number (card // COPIES: category * 4 + object), in one
    # pass over the hand rather than one per category.
    per_object = [0] * (len(data.CATEGORIES) * data.OBJECTS_PER_CATEGORY)
    for c in player.hand:
        per_object[c // data.COPIES] += 1
    for k, category in enumerate(data.STORABLE):
        if player.collections[k].closed:
            continue
        first = k * data.OBJECTS_PER_CATEGORY
        held = tuple(
            (o, per_object[first + j])
            for j, o in enumerate(data.OBJECTS[category])
            if per_object[first + j]
        )
        if not held:
            continue
        out.extend(
            {"type": "store", "category": category, "objects": dict(chosen)}
            for chosen in _store_choices(held, limit)
        )
    return out


@functools.lru_cache(maxsize=4096)
def _store_choices(
    held: tuple[tuple[str, int], ...], limit: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every multiset of 1..`limit` objects of `held` ((object, count held), data order), as
    (object, count) pairs in data order; sizes ascending, each size in the order
    `combinations_with_replacement` gives. A hand's counts recur across a search's thousands of
    moves, so each (counts, limit) is worked out once; callers copy the pairs into new dicts."""
    counts = dict(held)
    objs = [o for o, _ in held]
    out: list[tuple[tuple[str, int], ...]] = []
    for n in range(1, limit + 1):
        for combo in itertools.combinations_with_replacement(objs, n):
            chosen: dict[str, int] = {}
            for o in combo:
                chosen[o] = chosen.get(o, 0) + 1
            if all(chosen[o] <= counts[o] for o in chosen):
                out.append(tuple(chosen.items()))
    return tuple(out)


def _facing_empty(state: State, seat: int) -> bool:
    column = state.players[seat].pawn.column
    return column is not None and column_cards(state, column) == 0


def _can_store(state: State, seat: int) -> bool:
    player = state.players[seat]
    for k in range(len(data.STORABLE)):
        if not player.collections[k].closed and any(
            data.CARD_CATEGORY_INDEX[c] == k for c in player.hand
        ):
            return True
    return False


def allowed_types(state: State, seat: int) -> list[str]:
    """Move types `seat` may make now, in the order a menu shows them."""
    if state.step == "over" or seat != state.current:
        return []
    if state.step in ("place", "move"):
        return [state.step]
    if state.step == "close":
        return ["close", "keep_open"]
    out: list[str] = []
    empty = _facing_empty(state, seat)
    if not empty:
        out.append("collect")
    can_store = _can_store(state, seat)
    if can_store:
        out.append("store")
    if empty and not can_store:
        out.append("idle")
    return out


# --- legal moves ---------------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move `seat` may make now; [] when it is not their decision or the game is over."""
    moves: list[Move] = []
    for mtype in allowed_types(state, seat):
        if mtype in ("place", "move"):
            moves.extend({"type": mtype, "column": c} for c in column_choices(state, seat))
        elif mtype == "store":
            moves.extend(store_options(state, seat))
        else:
            moves.append({"type": mtype})
    return moves


# --- move parsing --------------------------------------------------------------------------------


# Island moves have no optional field; the wording is Island's own (pinned by its tests).
_parse_type = move_type_parser(
    {t: (fields, frozenset()) for t, fields in MOVE_TYPES.items()},
    no_fields="no other field",
    quote_extra=True,
)


def _not_now(state: State, seat: int, mtype: str) -> IllegalMove:
    allowed = allowed_types(state, seat)
    return IllegalMove(
        "not_now",
        f"You can't {MOVE_WORDS[mtype]} now; you can: "
        f"{_options_text([MOVE_WORDS[t] for t in allowed])}.",
        type=mtype,
        allowed=allowed,
    )


# --- apply ---------------------------------------------------------------------------------------


class _Ctx:
    """Builds the next state; thrown away whole if a check fails part-way."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.players = list(state.players)
        self.events: list[ev.Event] = []

    @property
    def me(self) -> Player:
        return self.players[self.seat]

    def set_me(self, **changes: Any) -> None:
        # Built field by field rather than with `replace`, which reads the dataclass fields on
        # every call: the AI's search applies thousands of moves per decision.
        p = self.players[self.seat]
        get = changes.get
        self.players[self.seat] = Player(
            get("hand", p.hand),
            get("known", p.known),
            get("collections", p.collections),
            get("pawn", p.pawn),
        )

    def build(self, **changes: Any) -> State:
        # The fields a move changes; seed, box and first never change after setup.
        s = self.state
        get = changes.get
        return State(
            s.seed,
            get("draws", s.draws),
            tuple(self.players),
            get("stacks", s.stacks),
            s.box,
            get("camp", s.camp),
            get("reserve", s.reserve),
            get("portholes", s.portholes),
            s.first,
            get("round", s.round),
            get("step", s.step),
            get("current", s.current),
            get("moved", s.moved),
            get("end_triggered", s.end_triggered),
            get("last_round", s.last_round),
            get("stored", s.stored),
        )


def apply(state: State, seat: int, move: Move) -> tuple[State, list[ev.Event]]:
    """Play `move` for `seat`; return the new state and what happened.

    Never changes `state`; a refused move changes nothing.

    Raises:
        IllegalMove: the move is malformed, out of turn or against the rules.
    """
    n = len(state.players)
    if not _is_int(seat) or not 0 <= seat < n:
        raise IllegalMove(
            "bad_seat",
            f"There is no seat {seat!r}; seats are 0 to {n - 1}.",
            seat=repr(seat),
        )
    if state.step == "over":
        raise IllegalMove("game_over", "The game is over; no more moves can be made.")
    mtype = _parse_type(move)
    current = state.current
    assert current is not None
    if seat != current:
        raise IllegalMove(
            "not_your_turn",
            f"It is not seat {seat + 1}'s turn; seat {current + 1} must decide now.",
            seat=seat,
            current=current,
        )
    step = state.step
    if step == "act":
        if mtype not in ("collect", "store", "idle"):
            raise _not_now(state, seat, mtype)
        _check_act_type(state, seat, mtype)
    elif step in ("place", "move"):
        if mtype != step:
            raise _not_now(state, seat, mtype)
    elif mtype not in ("close", "keep_open"):
        raise _not_now(state, seat, mtype)
    ctx = _Ctx(state, seat)
    new_state = _HANDLERS[mtype](ctx, move)
    return new_state, ctx.events


def _check_act_type(state: State, seat: int, mtype: str) -> None:
    column = state.players[seat].pawn.column
    assert column is not None
    if mtype == "collect" and _facing_empty(state, seat):
        allowed = [MOVE_WORDS[t] for t in allowed_types(state, seat)]
        raise IllegalMove(
            "collect_empty",
            f"Column {column} has no cards left to collect; facing an empty column you may "
            f"only store; you can: {_options_text(allowed)}.",
            column=column,
        )
    if mtype == "idle" and "idle" not in allowed_types(state, seat):
        allowed = [MOVE_WORDS[t] for t in allowed_types(state, seat)]
        raise IllegalMove(
            "cannot_idle",
            "You may do nothing only when you face an empty column and have nothing you may "
            f"store; you can: {_options_text(allowed)}.",
        )
    # "store" is checked field by field by its handler, which says what is wrong.


# --- handlers ------------------------------------------------------------------------------------


def _parse_column(state: State, seat: int, value: Any) -> int:
    choices = column_choices(state, seat)
    allowed = ", ".join(str(c) for c in choices)
    ncols = _columns(state)
    if not _is_int(value) or not 0 <= value < ncols:
        raise IllegalMove(
            "bad_column",
            f"{value!r} is not a column; columns are 0 (bow) to {ncols - 1} (stern); "
            f"you may choose: {allowed}.",
            column=repr(value),
            allowed=choices,
        )
    if value in choices:
        return int(value)
    pawn = state.players[seat].pawn
    if value == pawn.column:
        raise IllegalMove(
            "same_column",
            f"Your pawn faced column {value} last round; choose another: {allowed}.",
            column=value,
            allowed=choices,
        )
    for i, p in enumerate(state.players):
        if i != seat and p.pawn.side == state.side and p.pawn.column == value:
            raise IllegalMove(
                "column_taken",
                f"Seat {i + 1}'s pawn already faces column {value} {state.side} the Nautilus; "
                f"choose a free column: {allowed}.",
                column=value,
                by=i,
                allowed=choices,
            )
    if state.last_round:
        # I-TURN-4, I-END-1: in the last round an empty column is faced only to store there.
        raise IllegalMove(
            "empty_column_no_store",
            f"Column {value} has no cards left, and in the last round a pawn may face an empty "
            f"column only to store, but you hold no card you may store; choose a column with "
            f"cards: {allowed}.",
            column=value,
            allowed=choices,
        )
    raise IllegalMove(
        "empty_column",
        f"Column {value} has no cards left, and only in the last round may a pawn face an empty "
        f"column; choose one with cards: {allowed}.",
        column=value,
        allowed=choices,
    )


def _h_place(ctx: _Ctx, move: Move) -> State:
    column = _parse_column(ctx.state, ctx.seat, move["column"])
    ctx.set_me(pawn=Pawn(data.FIRST_SIDE, column, None))
    ctx.events.append(ev.PawnPlaced(ctx.seat, column, data.FIRST_SIDE))
    return ctx.build(step="act")


def _h_move(ctx: _Ctx, move: Move) -> State:
    column = _parse_column(ctx.state, ctx.seat, move["column"])
    old = ctx.me.pawn.column
    assert old is not None
    side = ctx.state.side
    ctx.set_me(pawn=Pawn(side, column, old))
    ctx.events.append(ev.PawnMoved(ctx.seat, column, side, old))
    return ctx.build(step="act")


def _h_collect(ctx: _Ctx, move: Move) -> State:
    state = ctx.state
    n = len(state.players)
    column = ctx.me.pawn.column
    assert column is not None
    stacks = list(state.stacks)
    taken: list[int] = []
    known: list[int] = []
    for s in COLUMN_STACKS[n][column]:
        stack = stacks[s]
        if not stack:
            continue
        card = stack[-1]
        stacks[s] = stack[:-1]
        taken.append(card)
        if FACE_UP[n][s]:
            known.append(card)
            # Public: the object everyone saw, not which copy of it (data.public_id).
            ctx.events.append(ev.CardTaken(ctx.seat, column, s, "up", data.PUBLIC_IDS[card]))
        else:
            # I-TURN-5: the table sees that a card was taken, only the taker sees which.
            ctx.events.append(ev.CardTaken(ctx.seat, column, s, "down", None))
            ctx.events.append(
                ev.CardDrawn(ctx.seat, column, s, data.CARD_IDS[card], private_to=ctx.seat)
            )
    me = ctx.me
    ctx.set_me(
        hand=tuple(sorted((*me.hand, *taken))),
        known=tuple(sorted((*me.known, *known))) if known else me.known,
    )
    changes: dict[str, Any] = {"stacks": tuple(stacks)}
    if all(not stacks[s] for s in COLUMN_STACKS[n][column]):
        ctx.events.append(ev.ColumnEmptied(column, not state.end_triggered))
        changes["end_triggered"] = True
    return _end_turn(ctx, **changes)


def _parse_category(ctx: _Ctx, value: Any) -> int:
    me = ctx.me
    open_ = [c for k, c in enumerate(data.STORABLE) if not me.collections[k].closed]
    if not isinstance(value, str) or value not in data.CATEGORIES:
        raise IllegalMove(
            "unknown_category",
            f"{value!r} is not a category; the categories you may store are: "
            f"{', '.join(open_) or 'none'}.",
            category=repr(value),
            allowed=open_,
        )
    if value == data.TREASURE:
        raise IllegalMove(
            "treasure_not_storable",
            "Treasure cards are never stored: they score from your hand at the end; store "
            f"one of: {', '.join(open_) or 'none'}.",
            allowed=open_,
        )
    k = data.STORABLE.index(value)
    if me.collections[k].closed:
        raise IllegalMove(
            "collection_closed",
            f"Your {value} collection is closed and takes no more cards; open collections: "
            f"{', '.join(open_) or 'none'}.",
            category=value,
            allowed=open_,
        )
    return k


def _parse_objects(ctx: _Ctx, category: str, k: int, value: Any) -> dict[str, int]:
    names = data.OBJECTS[category]
    limit = store_limit(ctx.state, ctx.seat)
    shape = (
        f"give 'objects' as {{object: count}} with objects of {category} "
        f"({', '.join(names)}), counts from 1, {limit} card{'s' if limit != 1 else ''} at most"
    )
    if not isinstance(value, dict) or not value:
        raise IllegalMove(
            "bad_objects",
            f"{value!r} is not a set of cards to store; {shape}.",
            objects=repr(value),
        )
    for name, count in value.items():
        if not isinstance(name, str) or name not in names:
            raise IllegalMove(
                "bad_objects",
                f"{name!r} is not an object of {category}; {shape}.",
                objects=repr(value),
            )
        if not _is_int(count) or count < 1:
            raise IllegalMove(
                "bad_objects",
                f"{count!r} is not a number of {name} cards; {shape}.",
                objects=repr(value),
            )
    total = sum(value.values())
    column = ctx.me.pawn.column
    if total > limit:
        raise IllegalMove(
            "too_many_cards",
            f"Column {column} has {limit} stack{'s' if limit != 1 else ''}, so you may store "
            f"1 to {limit} cards, not {total}.",
            count=total,
            limit=limit,
        )
    held = _hand_objects(ctx.me.hand, k)
    for name, count in value.items():
        if held.get(name, 0) < count:
            have = ", ".join(f"{o} ×{held[o]}" for o in names if o in held) or "none"
            raise IllegalMove(
                "not_in_hand",
                f"You hold {held.get(name, 0)} {name} card{'s' if held.get(name, 0) != 1 else ''}"
                f", not {count}; your {category} cards: {have}.",
                object=name,
                count=count,
                held=held.get(name, 0),
            )
    return {str(k_): int(v) for k_, v in value.items()}


def _h_store(ctx: _Ctx, move: Move) -> State:
    state = ctx.state
    k = _parse_category(ctx, move["category"])
    category = data.STORABLE[k]
    objects = _parse_objects(ctx, category, k, move["objects"])
    me = ctx.me
    # Copies of one object play alike; cards everyone saw taken go first, then the lowest ids,
    # so that each store move has exactly one outcome.
    known = set(me.known)
    chosen: list[int] = []
    for name, count in objects.items():
        copies = [c for c in me.hand if data.CARD_OBJECT[c] == name]
        copies.sort(key=lambda c: (c not in known, c))
        chosen += copies[:count]
    chosen.sort()
    gone = set(chosen)
    col = me.collections[k]
    new_col = Collection(tuple(sorted((*col.cards, *chosen))), col.tokens, col.porthole)
    ctx.events.append(
        ev.CardsStored(
            ctx.seat, category, tuple(data.PUBLIC_IDS[c] for c in chosen), len(new_col.cards)
        )
    )
    # I-TURN-6: camp token first, then the refill check, then the optional closing.
    camp = list(state.camp)
    token = camp[k]
    if token is not None:
        new_col = Collection(new_col.cards, (*new_col.tokens, token), new_col.porthole)
        camp[k] = None
        ctx.events.append(ev.TokenTaken(ctx.seat, category, token))
    cols = list(me.collections)
    cols[k] = new_col
    ctx.set_me(
        hand=tuple(c for c in me.hand if c not in gone),
        known=tuple(c for c in me.known if c not in gone),
        collections=tuple(cols),
    )
    changes: dict[str, Any] = {}
    if token is not None:
        changes.update(_refill(state, camp, ctx.events))
    if porthole_next(state, len(new_col.cards)) is not None:
        return ctx.build(step="close", stored=k, **changes)
    return _end_turn(ctx, **changes)


def _refill(state: State, camp: list[str | None], events: list[ev.Event]) -> dict[str, Any]:
    """I-BONUS-2: with one token left in the camp, refill every empty space from the reserve."""
    if sum(t is not None for t in camp) > data.REFILL_AT or not state.reserve:
        return {"camp": tuple(camp)}
    reserve = list(state.reserve)
    empty = [i for i, t in enumerate(camp) if t is None]
    draws = state.draws
    if len(reserve) < len(empty):
        # [fixed here]: too few tokens go to empty spaces chosen by the game's seeded RNG.
        empty = sorted(shuffled(state.seed, draws, empty)[: len(reserve)])
        draws += 1
    placed: list[tuple[str, str]] = []
    for i in empty:
        token = reserve.pop()
        camp[i] = token
        placed.append((data.STORABLE[i], token))
    events.append(ev.CampRefilled(tuple(placed), len(reserve)))
    return {"camp": tuple(camp), "reserve": tuple(reserve), "draws": draws}


def _h_close(ctx: _Ctx, move: Move) -> State:
    state = ctx.state
    k = state.stored
    assert k is not None
    col = ctx.me.collections[k]
    size = len(col.cards)
    value = porthole_next(state, size)
    assert value is not None
    cols = list(ctx.me.collections)
    cols[k] = Collection(col.cards, col.tokens, value)
    ctx.set_me(collections=tuple(cols))
    portholes = list(state.portholes)
    portholes[data.PORTHOLE_SIZES.index(size)] += 1
    ctx.events.append(ev.CollectionClosed(ctx.seat, data.STORABLE[k], size, value))
    return _end_turn(ctx, portholes=tuple(portholes))


def _h_keep_open(ctx: _Ctx, move: Move) -> State:
    k = ctx.state.stored
    assert k is not None
    size = len(ctx.me.collections[k].cards)
    ctx.events.append(ev.KeptOpen(ctx.seat, data.STORABLE[k], size))
    return _end_turn(ctx)


def _h_idle(ctx: _Ctx, move: Move) -> State:
    column = ctx.me.pawn.column
    assert column is not None
    ctx.events.append(ev.Idled(ctx.seat, column))
    return _end_turn(ctx)


def _stern_most(players: list[Player], seats: list[int]) -> int:
    """I-TURN-3: of `seats`, the one whose pawn is nearest the stern (highest column)."""
    return max(seats, key=lambda s: players[s].pawn.column or 0)


def _end_turn(ctx: _Ctx, **changes: Any) -> State:
    state = ctx.state
    n = len(state.players)
    ctx.events.append(ev.TurnEnded(ctx.seat, len(ctx.me.hand)))
    changes["stored"] = None
    moved = (*state.moved, ctx.seat)
    if len(moved) < n:
        if state.round == 1:
            nxt = (state.first + len(moved)) % n  # I-TURN-1: clockwise from the first player
        else:
            nxt = _stern_most(ctx.players, [s for s in range(n) if s not in moved])
        step = "place" if state.round == 1 else "move"
        return ctx.build(step=step, current=nxt, moved=moved, **changes)
    # I-TURN-3: every pawn is on this round's side; the round is over.
    end_triggered = changes.get("end_triggered", state.end_triggered)
    if state.last_round:
        ctx.events.append(ev.RoundEnded(state.round, state.side, False))
        final = ctx.build(step="over", current=None, moved=moved, **changes)
        from engine.island.scoring import final_scores

        scores = final_scores(final)
        ctx.events.append(
            ev.GameEnded(tuple(s.seat for s in scores if s.rank == 1), tuple(s.vp for s in scores))
        )
        return final
    ctx.events.append(ev.RoundEnded(state.round, state.side, end_triggered))
    nxt = _stern_most(ctx.players, list(range(n)))
    return ctx.build(
        step="move",
        current=nxt,
        moved=(),
        round=state.round + 1,
        last_round=end_triggered,
        **changes,
    )


_HANDLERS = {
    "place": _h_place,
    "move": _h_move,
    "collect": _h_collect,
    "store": _h_store,
    "close": _h_close,
    "keep_open": _h_keep_open,
    "idle": _h_idle,
}
