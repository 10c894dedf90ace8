"""Nauticus rules: `new_game`, `legal_moves` and `apply`, pure functions over frozen state.

`apply` validates the whole move before it builds anything, so a refused move leaves nothing
behind; the new state reuses every player, ship and tuple the move did not touch.
"""

from __future__ import annotations

from typing import Any

from engine.common import move_type_parser
from engine.errors import IllegalMove
from engine.nauticus import data
from engine.nauticus import events as ev
from engine.nauticus.frozen import maker
from engine.nauticus.state import (
    Pending,
    Player,
    Ship,
    State,
    Turn,
    evolve,
    evolve_state,
    freeze,
    make_ship,
    make_state,
    make_turn,
    new_ship,
    storage_units,
    thaw_player,
    thaw_turn,
)
from engine.rng import shuffled

Move = dict[str, Any]
# A parsed destination: ("storage",) | ("new",) | ("end", ship, "front"|"back") | ("tile", ship, i)
Dest = tuple[Any, ...]

MOVE_TYPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields)
    "choose_action": (frozenset({"space"}), frozenset()),
    "take_bonus": (frozenset({"item"}), frozenset()),
    "buy": (frozenset({"item", "to"}), frozenset()),
    "take_free_tile": (frozenset({"item"}), frozenset()),
    "transport": (frozenset({"item", "to"}), frozenset()),
    "money": (frozenset({"workers"}), frozenset()),
    "crowns": (frozenset({"workers"}), frozenset()),
    "deliver": (frozenset({"ship"}), frozenset()),
    "reward": (frozenset({"kind"}), frozenset({"goods"})),
    "extra": (frozenset({"action"}), frozenset()),
    "end_extra": (frozenset(), frozenset()),
    "pass": (frozenset(), frozenset()),
    "end_turn": (frozenset(), frozenset()),
}
ACTION_MOVE = {
    "hulls": "buy",
    "masts": "buy",
    "sails": "buy",
    "goods": "buy",
    "transport": "transport",
    "money": "money",
    "deliver": "deliver",
    "crowns": "crowns",
}


# The events apply builds, through engine/nauticus/frozen.py `maker`: the same objects about three
# times faster than the classes' own __init__ (a move builds three or four).
_ActionChosen = maker(ev.ActionChosen)
_BonusReceived = maker(ev.BonusReceived)
_Bought = maker(ev.Bought)
_CrownsScored = maker(ev.CrownsScored)
_Delivered = maker(ev.Delivered)
_ExtraEnded = maker(ev.ExtraEnded)
_ExtraStarted = maker(ev.ExtraStarted)
_FreeTileEarned = maker(ev.FreeTileEarned)
_GameEnded = maker(ev.GameEnded)
_MoneyTaken = maker(ev.MoneyTaken)
_PassTileFlipped = maker(ev.PassTileFlipped)
_Passed = maker(ev.Passed)
_PhaseEnded = maker(ev.PhaseEnded)
_RewardTaken = maker(ev.RewardTaken)
_RoundEnded = maker(ev.RoundEnded)
_RoundPenalty = maker(ev.RoundPenalty)
_ShipFinished = maker(ev.ShipFinished)
_TalerGained = maker(ev.TalerGained)
_TalerPaid = maker(ev.TalerPaid)
_TileLost = maker(ev.TileLost)
_TileNotReceived = maker(ev.TileNotReceived)
_TilePlaced = maker(ev.TilePlaced)
_TileStored = maker(ev.TileStored)
_Transported = maker(ev.Transported)
_TurnEnded = maker(ev.TurnEnded)
_VPGained = maker(ev.VPGained)
_WorkersGained = maker(ev.WorkersGained)
_WorkersUsed = maker(ev.WorkersUsed)


# The turn every seat starts with, for each number of blue workers: a new turn is always
# Turn(seat, blue) with the other fields at their defaults, and it is frozen, so the states share
# these few objects (as they share an unchanged player) instead of building one at each turn.
_FRESH_TURNS: tuple[tuple[Turn, ...], ...] = tuple(
    tuple(make_turn(seat, blue) for blue in range(max(data.WHEEL) + 1))
    for seat in range(data.MAX_PLAYERS)
)


def _fresh_turn(seat: int, blue: int) -> Turn:
    """Turn(seat, blue): shared from `_FRESH_TURNS` (a damaged save's odd seat gets a new one)."""
    if seat < data.MAX_PLAYERS and 0 <= blue <= max(data.WHEEL):
        return _FRESH_TURNS[seat][blue]
    return make_turn(seat, blue)


# --- new game --------------------------------------------------------------------------------


def new_game(players: int, seed: int) -> State:
    """Set up a game (N-SETUP): seat 0 is the first start player, seats follow clockwise.

    Raises:
        IllegalMove: code "bad_players" unless 2 <= players <= 4.
    """
    if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise IllegalMove(
            "bad_players",
            f"Nauticus is played by 2 to 4 players, not {players!r}.",
            players=players,
        )
    if type(seed) is not int:
        raise IllegalMove("bad_seed", f"The seed must be a whole number, not {seed!r}.")
    bonus = data.SEAT_BONUS[players]
    return State(
        seed=seed,
        draws=1,
        players=tuple(
            Player(
                score=data.START_SCORE,
                workers=data.START_WORKERS + bonus[i][1],
                taler=data.START_TALER + bonus[i][0],
                extra=True,
                passes=0,
                storage=(),
                ships=(),
                delivered=(0,) * len(data.GOODS),
            )
            for i in range(players)
        ),
        supply=tuple(data.SUPPLY[item] for item in data.ITEMS),
        round=1,
        phase=1,
        anchor=0,
        tiles=shuffled(seed, 0, data.ACTIONS),
        chosen=(),
        start=0,
        step="choose",
    )


# --- helpers ---------------------------------------------------------------------------------


def _supply(state: State, item: str) -> int:
    return state.supply[data.ITEM_INDEX[item]]


def _dest_json(dest: Dest) -> Any:
    if dest[0] == "storage":
        return "storage"
    if dest[0] == "new":
        return {"ship": "new"}
    if dest[0] == "end":
        return {"ship": dest[1], "end": dest[2]}
    return {"ship": dest[1], "tile": dest[2]}


def dest_text(dest: Any) -> str:
    """Player-facing words for a JSON destination."""
    if dest == "storage":
        return "storage"
    if isinstance(dest, dict):
        if dest.get("ship") == "new":
            return "a new ship"
        n = dest.get("ship")
        if "end" in dest:
            return f"ship #{n + 1 if isinstance(n, int) else n} ({dest['end']})"
        if "tile" in dest:
            t = dest["tile"]
            tile = t + 1 if isinstance(t, int) else t
            return f"ship #{n + 1 if isinstance(n, int) else n}, tile {tile}"
    return repr(dest)


def _is_int(v: Any) -> bool:
    return type(v) is int


def _performance(state: State) -> tuple[str | None, bool]:
    """The action being performed now and whether it is the extra action."""
    turn = state.turn
    assert turn is not None
    if turn.extra is not None:
        return turn.extra, True
    if turn.passed or turn.closed:
        return None, False
    return state.action, False


def _available_workers(state: State) -> tuple[int, int]:
    turn = state.turn
    assert turn is not None
    blue = 0 if turn.extra is not None else turn.blue
    return blue, state.players[turn.seat].workers


def _price(state: State, item: str) -> int:
    turn = state.turn
    assert turn is not None
    if item in turn.bought:
        return data.REPEAT_PRICE
    if turn.extra is not None:
        return data.EXTRA_PRICE
    space = state.space
    assert space is not None
    return data.PRICES[space][data.TILE_ITEMS[state.tiles[space]].index(item)]


def price_of(state: State, item: str) -> int:
    """What the next copy of `item` costs the acting player now (N-BUY-1, N-EXTRA-2)."""
    return _price(state, item)


def _regular_crest_ok(ship: Ship, crest: str) -> bool:
    return crest == data.CROWN or ship.crest in (None, crest)


# _dock_dests's answers, by ships tuple then item. A player's ships tuple is shared by every
# state until they place a tile, so the buy and transport menus of the many states between two
# placements, and apply's check of the chosen destination, all read one computation. Keyed by
# the tuple's id, one int (a (tuple, item) key is built and hashed at every look-up, four times
# a menu); each value holds its tuple, so the id stays that tuple's while the value exists.
# Each value: (ships, {item key: (ships, destinations, the destinations' JSON forms)}), the
# JSON forms shared, so copied before handed out.
_Entry = tuple[tuple[Ship, ...], tuple[Dest, ...], tuple[dict[str, Any], ...]]
_DESTS: dict[int, tuple[tuple[Ship, ...], dict[str, _Entry]]] = {}
_DESTS_MAX = 4096  # then the cache starts again empty: bounded memory, whatever runs
# The four goods go to the same places (any hull tile without a good): one entry for all four.
_DEST_KEY: dict[str, str] = {
    item: data.GOODS[0] if item in data.GOODS else item for item in data.ITEMS
}


def _dock_dests(player: Player, item: str) -> tuple[Dest, ...]:
    """Every shipyard place `item` may go now (N-YARD-1..7), in a tuple: it is shared."""
    return _dock_entry(player.ships, item)[1]


def shipyard_destinations(player: Player, item: str) -> list[Any]:
    """Where `item` may go in `player`'s shipyard now (N-YARD-1..7), each as a move's `to`
    takes it; new objects, the caller's to keep (the AI's move heuristics read them)."""
    return [_dest_json(d) for d in _dock_dests(player, item)]


def _dock_json(player: Player, item: str) -> tuple[dict[str, Any], ...]:
    """`_dest_json` of each of `_dock_dests`: shared dicts, to COPY into a move (`.copy()`)."""
    return _dock_entry(player.ships, item)[2]


def _dock_entry(ships: tuple[Ship, ...], item: str) -> _Entry:
    items = _dock_items(ships)
    return items.get(_DEST_KEY.get(item, item)) or _dock_find(ships, item, items)


def _dock_items(ships: tuple[Ship, ...]) -> dict[str, _Entry]:
    """The cached entries of `ships`, by item key (an empty dict, now cached, if none yet)."""
    hit = _DESTS.get(id(ships))
    if hit is not None and hit[0] is ships:
        return hit[1]
    if len(_DESTS) >= _DESTS_MAX:
        _DESTS.clear()
    items: dict[str, _Entry] = {}
    _DESTS[id(ships)] = (ships, items)
    return items


def _dock_find(ships: tuple[Ship, ...], item: str, items: dict[str, _Entry]) -> _Entry:
    """Compute `item`'s entry for `ships` and cache it in `items`, `_dock_items(ships)`."""
    dests = tuple(_find_dests(ships, item))
    # The JSON forms from a memo of every destination seen (a few dozen): shared, to copy.
    get = _JSON_OF.get
    entry = (ships, dests, tuple([get(d) or _json_of(d) for d in dests]))
    items[_DEST_KEY.get(item, item)] = entry
    return entry


# The JSON form of each destination found so far: shared, to COPY (see _dock_json).
_JSON_OF: dict[Dest, dict[str, Any]] = {}


def _json_of(dest: Dest) -> dict[str, Any]:
    out: dict[str, Any] = _dest_json(dest)  # a shipyard destination's form is a dict
    _JSON_OF[dest] = out
    return out


def _finished(ship: Ship) -> bool:
    """Ship.finished (N-YARD-6) in a plain function: the property reads three more properties,
    and Python 3.11 runs each getter in an interpreter loop of its own."""
    hulls = ship.hulls
    return (
        hulls[0] in ("bow", "one_ship")
        and hulls[-1] in ("stern", "one_ship")
        and None not in ship.masts
        and None not in ship.sails
    )


def _crest_ok(ship: Ship, crest: str) -> bool:
    """`ship.crest in (None, crest)`: Ship.crest's loop in a plain function, which Python 3.11
    calls in the same interpreter loop (a property's getter runs in a nested one)."""
    crown = data.CROWN
    for c in ship.masts:
        if c is not None and c != crown:
            return c == crest
    for c in ship.sails:
        if c is not None and c != crown:
            return c == crest
    return True


def _find_dests(ships: tuple[Ship, ...], item: str) -> list[Dest]:
    out: list[Dest] = []
    if item in data.HULLS:
        out.append(("new",))
        if item == "one_ship":
            return out
        # Ship.front_open, back_open and middles spelt out (this runs for every new shipyard).
        for i, ship in enumerate(ships):
            hulls = ship.hulls
            if item == "bow":
                if hulls[0] not in ("bow", "one_ship"):
                    out.append(("end", i, "front"))
            elif item == "stern":
                if hulls[-1] not in ("stern", "one_ship"):
                    out.append(("end", i, "back"))
            elif hulls.count("middle") < data.MAX_MIDDLES:
                if hulls[0] not in ("bow", "one_ship"):
                    out.append(("end", i, "front"))
                if hulls[-1] not in ("stern", "one_ship"):
                    out.append(("end", i, "back"))
        return out
    if item.startswith("mast_"):
        crest = item[5:]
        crown = crest == data.CROWN
        for i, ship in enumerate(ships):
            # `None in` first: most ships of a yard have no free place left for it.
            masts = ship.masts
            if None in masts and (crown or _crest_ok(ship, crest)):  # _regular_crest_ok
                out.extend([("tile", i, j) for j, m in enumerate(masts) if m is None])
        return out
    if item.startswith("sail_"):
        crest = item[5:]
        crown = crest == data.CROWN
        for i, ship in enumerate(ships):
            if None in ship.sails and (crown or _crest_ok(ship, crest)):
                out.extend(
                    [
                        ("tile", i, j)
                        for j, (m, s) in enumerate(zip(ship.masts, ship.sails, strict=True))
                        if m is not None and s is None
                    ]
                )
        return out
    for i, ship in enumerate(ships):
        if None in ship.goods:
            out.extend([("tile", i, j) for j, g in enumerate(ship.goods) if g is None])
    return out


def _room(player: Player, item: str) -> bool:
    return _units(player.storage) + data.item_units(item) <= data.STORAGE_UNITS


# --- move parsing ----------------------------------------------------------------------------


# Nauticus's refusals do not list the optional fields (its messages are pinned as they are).
_parse_type = move_type_parser(MOVE_TYPES, name_optional=False)
# The keys of a well-formed move of each type without its optional fields (see apply).
_EXACT_KEYS = {t: required | {"type"} for t, (required, _) in MOVE_TYPES.items()}


def _parse_item(value: Any, allowed: tuple[str, ...] | list[str], what: str) -> str:
    if not isinstance(value, str) or value not in data.ITEM_INDEX:
        raise IllegalMove(
            "unknown_item",
            f"{value!r} is not an item; {what} can be: {', '.join(allowed) or 'nothing now'}.",
            item=repr(value),
            allowed=list(allowed),
        )
    return value


_TO_STORAGE: Dest = ("storage",)


def _parse_dest(value: Any, item: str) -> Dest:
    # The forms the menus make, checked first without building a set of the keys: a dict of
    # exactly two keys, "ship" a whole number and "end" or "tile" as the item needs.
    if type(value) is dict and len(value) == 2:
        ship = value.get("ship")
        if type(ship) is int:
            if item in data.HULLS:
                end = value.get("end")
                if end == "front" or end == "back":
                    return ("end", ship, end)
            else:
                tile = value.get("tile")
                if type(tile) is int:
                    return ("tile", ship, tile)
    hull = item in data.HULLS
    shape = (
        "'storage', {'ship': 'new'} or {'ship': n, 'end': 'front'|'back'}"
        if hull
        else "'storage' or {'ship': n, 'tile': i}"
    )
    if value == "storage":
        return ("storage",)
    if isinstance(value, dict):
        keys = set(value)
        if hull and keys == {"ship"} and value["ship"] == "new":
            return ("new",)
        if (
            hull
            and keys == {"ship", "end"}
            and _is_int(value["ship"])
            and value["end"] in ("front", "back")
        ):
            return ("end", value["ship"], value["end"])
        if (
            not hull
            and keys == {"ship", "tile"}
            and _is_int(value["ship"])
            and _is_int(value["tile"])
        ):
            return ("tile", value["ship"], value["tile"])
    raise IllegalMove(
        "bad_destination",
        f"{value!r} is not a place for a {data.item_name(item)}; use {shape}.",
        to=repr(value),
        item=item,
    )


def _parse_count(value: Any, available: int, what: str) -> int:
    if not _is_int(value) or value < 1 or value > available:
        if available < 1:
            raise IllegalMove(
                "no_workers",
                f"You have no worker left to use for {what}.",
                workers=repr(value),
            )
        raise IllegalMove(
            "bad_count",
            f"{value!r} is not a number of workers you can use for {what}; choose 1 to "
            f"{available}.",
            workers=repr(value),
            available=available,
        )
    return int(value)


# --- legal moves -----------------------------------------------------------------------------


def _allowed_types(state: State, seat: int) -> list[str]:
    """Move types the seat may make now, in the order a menu shows them."""
    # `state.current` spelt out step by step: this runs in every legal_moves and every apply.
    step = state.step
    if step != "turn":  # most states are in a turn
        if step == "choose":
            return ["choose_action"] if seat == state.start else []
        if step == "bonus":
            return ["take_bonus"] if seat == state.start else []
        return []
    turn = state.turn
    if turn is None or seat != turn.seat:
        return []
    if turn.pending:
        return ["reward" if turn.pending[0].kind == "reward" else "take_free_tile"]
    # `_performance` spelt out: the extra action, else the phase's action unless used up.
    if turn.extra is not None:
        return [ACTION_MOVE[turn.extra], "end_extra"]
    out: list[str] = []
    if not turn.passed and not turn.closed:
        out.append(ACTION_MOVE[state.tiles[state.chosen[-1]]])
    if turn.uses == 0 and not turn.passed:
        out.append("pass")
    if state.players[seat].extra:
        out.append("extra")
    out.append("end_turn")
    return out


def _bonus_items(state: State, space: int) -> list[str]:
    """Bonus tiles of `space` still in the supply (the space of the phase, or the one being
    chosen)."""
    kind = data.SPACE_BONUS[space].tile
    if kind == "mast":
        cands = [f"mast_{c}" for c in data.CRESTS]
    elif kind == "sail":
        cands = [f"sail_{c}" for c in data.CRESTS]
    elif kind == "good":
        cands = list(data.GOODS)
    else:
        cands = []
    return [i for i in cands if _supply(state, i) > 0]


def _goods_choices(state: State, player: Player) -> list[tuple[str, ...]]:
    """Allowed `goods` lists of a "2 different goods" reward (N-REW-1, N-SETUP-5)."""
    kinds = [g for g in data.GOODS if _supply(state, g) > 0]
    if len(kinds) == 1:
        return [(kinds[0],)]
    free = data.STORAGE_UNITS - player.storage_used
    pairs: list[tuple[str, ...]] = []
    for a in kinds:
        for b in kinds:
            if a == b:
                continue
            # Order decides which good is kept only when exactly one fits; otherwise one
            # canonical order so that each distinct outcome is one move.
            if free == 1 or data.GOODS.index(a) < data.GOODS.index(b):
                pairs.append((a, b))
    return pairs


def _reward_moves(state: State, player: Player, pending: Pending) -> list[Move]:
    out: list[Move] = []
    for kind in data.REWARD_KINDS:
        if pending.taken.count(kind) >= data.REWARD_MAX_PER_SHIP:
            continue
        if kind in ("crown_mast", "crown_sail"):
            if _supply(state, f"{kind[6:]}_crown") > 0:
                out.append({"type": "reward", "kind": kind})
        elif kind == "goods":
            out.extend(
                {"type": "reward", "kind": "goods", "goods": list(g)}
                for g in _goods_choices(state, player)
            )
        else:
            out.append({"type": "reward", "kind": kind})
    return out


# The last menu legal_moves computed: (state, seat, allowed move types). apply is usually called
# on the state whose menu was just shown (a player's or the AI's choice from it), and then reads
# the allowed types from here instead of working them out again. It holds one state at most.
_LAST_MENU: tuple[State | None, int, list[str]] = (None, -1, [])

# Move types with no field: one move each.
_BARE_TYPES = frozenset(
    t for t, (required, optional) in MOVE_TYPES.items() if not required | optional
)


# Menu entries as templates, copied (`{**m}`) into each menu: a copy of a dict costs about half of
# building the same dict from its keys and values. Each menu gets new dicts, its caller's own.
_EXTRA_MOVES = tuple({"type": "extra", "action": a} for a in data.ACTIONS)
_CHOOSE_MOVES = tuple({"type": "choose_action", "space": s} for s in range(data.SPACES))
_MAX_COUNT_MOVES = 40
_COUNT_MOVES = {
    t: tuple({"type": t, "workers": k} for k in range(1, _MAX_COUNT_MOVES + 1))
    for t in ("money", "crowns")
}
_BUY_STORAGE = {item: {"type": "buy", "item": item, "to": "storage"} for item in data.ITEMS}


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move `seat` may make now, destinations and counts included; [] if not their turn."""
    global _LAST_MENU
    moves: list[Move] = []
    allowed = _allowed_types(state, seat)
    _LAST_MENU = (state, seat, allowed)
    for mtype in allowed:
        # The types of most menus first (pass, end_turn, end_extra; then buy and extra), and
        # list comprehensions rather than generators: this runs for every state.
        if mtype in _BARE_TYPES:
            moves.append({"type": mtype})
        elif mtype == "buy":
            moves += _buy_moves(state, seat)
        elif mtype == "extra":
            moves += [{**m} for m in _EXTRA_MOVES]
        elif mtype == "choose_action":
            chosen = state.chosen
            moves += [{**m} for m in _CHOOSE_MOVES if m["space"] not in chosen]
        elif mtype == "take_bonus":
            moves += [
                {"type": "take_bonus", "item": i} for i in _bonus_items(state, state.chosen[-1])
            ]
        elif mtype == "reward":
            assert state.turn is not None
            moves += _reward_moves(state, state.players[seat], state.turn.pending[0])
        elif mtype == "take_free_tile":
            assert state.turn is not None
            moves += [
                {"type": "take_free_tile", "item": i}
                for i in state.turn.pending[0].items
                if _supply(state, i) > 0
            ]
        elif mtype == "transport":
            player = state.players[seat]
            if sum(_available_workers(state)) >= 1:
                # _dock_json(player, item) for each kind in storage, the ships' entries read once.
                ships = player.ships
                hit = _DESTS.get(id(ships))
                cached = hit[1] if hit is not None and hit[0] is ships else _dock_items(ships)
                for item in _kinds(player.storage):
                    entry = cached.get(_DEST_KEY[item]) or _dock_find(ships, item, cached)
                    moves += [
                        {"type": "transport", "item": item, "to": to.copy()} for to in entry[2]
                    ]
        elif mtype in ("money", "crowns"):
            turn = state.turn
            assert turn is not None
            # sum(_available_workers(state)), spelt out: the turn's seat is `seat` here.
            n = (0 if turn.extra is not None else turn.blue) + state.players[seat].workers
            if n <= _MAX_COUNT_MOVES:
                moves += [{**m} for m in _COUNT_MOVES[mtype][:n]]
            else:  # more workers than any game has seen: the same moves, built
                moves += [{"type": mtype, "workers": k} for k in range(1, n + 1)]
        else:
            assert mtype == "deliver", mtype
            n = sum(_available_workers(state))
            for i, ship in enumerate(state.players[seat].ships):
                # Ship.finished and size without the properties (goods_count: finished only).
                size = len(ship.hulls)
                if _finished(ship) and ship.goods_count() == size and size <= n:
                    moves.append({"type": "deliver", "ship": i})
    return moves


def _buy_moves(state: State, seat: int) -> list[Move]:
    # Runs for every state of a buy phase (the menu shows buys beside pass and end turn) and
    # every AI node: `_performance`, `_available_workers`, `_price` and `_room` spelt out once
    # for the tile's 4 items.
    turn = state.turn
    assert turn is not None
    player = state.players[seat]
    extra = turn.extra
    if (0 if extra is not None else turn.blue) + player.workers < 1:
        return []
    if extra is not None:
        action, prices = extra, None
    else:
        space = state.chosen[-1]
        action, prices = state.tiles[space], data.PRICES[space]
    bought, taler = turn.bought, player.taler
    free = data.STORAGE_UNITS - _units(player.storage)
    supply, index, units = state.supply, data.ITEM_INDEX, data.ITEM_UNITS
    ships = player.ships
    dest_key = _DEST_KEY
    # _dock_items(ships), its look-up spelt out: the item's entries are then one dict away.
    hit = _DESTS.get(id(ships))
    cached = hit[1] if hit is not None and hit[0] is ships else _dock_items(ships)
    out: list[Move] = []
    append = out.append
    to_storage = _BUY_STORAGE
    for k, item in enumerate(data.TILE_ITEMS[action]):
        if supply[index[item]] <= 0:
            continue
        if item in bought:
            price = data.REPEAT_PRICE
        elif prices is None:
            price = data.EXTRA_PRICE
        else:
            price = prices[k]
        if price > taler:
            continue
        if price == 0 or units[item] <= free:
            append({**to_storage[item]})
            if price == 0:
                continue
        # A loop, not a comprehension: most items have 0 to 2 places, and a comprehension is
        # a function call of its own.
        # _dock_json(player, item), its cache look-up spelt out (two calls an item saved).
        entry = cached.get(dest_key[item]) or _dock_find(ships, item, cached)
        for to in entry[2]:
            append({"type": "buy", "item": item, "to": to.copy()})
    return out


# Storage units used, per storage tuple (see Player.storage_used): a player's storage tuple is
# shared by every state until it changes, and the buy menu and apply read it for each of them.
_UNITS: dict[int, tuple[tuple[str, ...], int]] = {}


def _units(storage: tuple[str, ...]) -> int:
    hit = _UNITS.get(id(storage))
    if hit is not None and hit[0] is storage:
        return hit[1]
    used = storage_units(storage)
    if len(_UNITS) >= _DESTS_MAX:
        _UNITS.clear()
    _UNITS[id(storage)] = (storage, used)
    return used


# The kinds of item in a storage tuple, in data.ITEMS order (the transport menu's order), per
# storage tuple: shared, like the units above, by every state until the storage changes.
_KINDS: dict[int, tuple[tuple[str, ...], list[str]]] = {}


def _kinds(storage: tuple[str, ...]) -> list[str]:
    """`sorted(set(storage), key=data.ITEM_INDEX.__getitem__)`, shared: not to be changed."""
    hit = _KINDS.get(id(storage))
    if hit is not None and hit[0] is storage:
        return hit[1]
    kinds = sorted(set(storage), key=data.ITEM_INDEX.__getitem__)
    if len(_KINDS) >= _DESTS_MAX:
        _KINDS.clear()
    _KINDS[id(storage)] = (storage, kinds)
    return kinds


# --- apply -----------------------------------------------------------------------------------


class _Ctx:
    """Builds the next state; thrown away whole if a check fails part-way.

    A move changes the mover's Player and the Turn several times (pay, spend workers, store,
    place...). Rather than build a new frozen object at each step, the context makes ONE private
    mutable copy of each on the first change (`thaw`) and changes that copy in place afterwards;
    `build` freezes it into the new state. The copy is seen by nobody until then, so every state
    anyone holds stays unchanged, and a refused move leaves the old objects untouched. The
    players and the supply are copied into lists only when a move changes them.
    """

    __slots__ = (
        "_own_me",
        "_own_turn",
        "events",
        "me",
        "players",
        "seat",
        "state",
        "supply",
        "turn",
    )

    # No __init__: `apply` fills a new context directly (a class call is not cheap, and it runs
    # for every move). The fields, as apply sets them:
    state: State
    seat: int
    players: tuple[Player, ...] | list[Player]  # a list once a move changes a player
    supply: tuple[int, ...] | list[int]  # a list once a move takes from the supply
    me: Player  # the mover, then their private (mutable) copy
    turn: Turn | None  # the turn, then its private (mutable) copy
    events: list[ev.Event]
    _own_me: bool  # self.me is this context's private (mutable) copy
    _own_turn: bool  # self.turn is this context's private (mutable) copy

    def mine(self) -> Any:
        """The mover's private copy, to change with attribute writes (`me.taler -= 2`)."""
        if self._own_me:
            return self.me
        me = self.me = thaw_player(self.me)
        self._own_me = True
        return me

    def my_turn(self) -> Any:
        """The turn's private copy, to change with attribute writes."""
        if self._own_turn:
            return self.turn
        assert self.turn is not None
        turn = self.turn = thaw_turn(self.turn)
        self._own_turn = True
        return turn

    def set_me(self, **changes: Any) -> None:
        me = self.mine()
        for name, value in changes.items():
            setattr(me, name, value)

    def set_turn(self, **changes: Any) -> None:
        turn = self.my_turn()
        for name, value in changes.items():
            setattr(turn, name, value)

    def new_turn(self, turn: Turn | None) -> None:
        """Replace the turn by a new object."""
        self.turn = turn
        self._own_turn = False

    def all_players(self) -> list[Player]:
        """The players as a list, the mover's changes so far included: for a change to every
        player (the end of a round). The mover's copy is frozen: later changes copy it again."""
        players = list(self.players)
        if self._own_me:
            players[self.seat] = self.me = freeze(self.me)
            self._own_me = False
        self.players = players
        return players

    def take(self, item: str) -> None:
        supply = self.supply
        if isinstance(supply, tuple):
            supply = self.supply = list(supply)
        supply[data.ITEM_INDEX[item]] -= 1

    def store(self, item: str, reason: str, fits: bool | None = None) -> None:
        """Receive `item` into storage from the supply, or lose it if it does not fit.

        `fits`: whether it fits, when the caller has already checked (saves a second count).
        """
        if _room(self.me, item) if fits is None else fits:
            self.take(item)
            me = self.mine()
            me.storage = tuple(sorted((*me.storage, item)))
            self.events.append(_TileStored(self.seat, item, reason))
        else:
            self.events.append(_TileLost(self.seat, item, reason))

    def spend_workers(self, n: int) -> None:
        """Use `n` workers, blue ones first (N-ACT-2)."""
        turn: Any = self.turn  # the turn, then its private (mutable) copy
        assert turn is not None
        if turn.extra is not None:
            blue = 0
        else:
            if not self._own_turn:  # self.my_turn(), spelt out (a move or two in three)
                turn = self.turn = thaw_turn(turn)
                self._own_turn = True
            blue = turn.blue if turn.blue < n else n
            turn.blue -= blue
            turn.uses += n
        own = n - blue
        if own:
            self.mine().workers -= own
        self.events.append(_WorkersUsed(self.seat, blue, own))

    def place(self, item: str, dest: Dest) -> None:
        """Put `item` (already taken) in the shipyard at a checked destination."""
        me = self.me
        ships = list(me.ships)
        rigged = False  # a mast or sail placed
        if dest[0] == "new":
            ships.append(new_ship(item))
            i, tile, created = len(ships) - 1, 0, True
        else:
            i, created = dest[1], False
            ship = ships[i]
            if dest[0] == "end":
                if dest[2] == "front":
                    ship = make_ship(
                        (item, *ship.hulls),
                        (None, *ship.masts),
                        (None, *ship.sails),
                        (None, *ship.goods),
                    )
                    tile = 0
                else:
                    ship = make_ship(
                        (*ship.hulls, item),
                        (*ship.masts, None),
                        (*ship.sails, None),
                        (*ship.goods, None),
                    )
                    tile = len(ship.hulls) - 1
            else:
                tile = dest[2]
                if item.startswith("mast_"):
                    ship = make_ship(
                        ship.hulls, _put(ship.masts, tile, item[5:]), ship.sails, ship.goods
                    )
                    rigged = True
                elif item.startswith("sail_"):
                    ship = make_ship(
                        ship.hulls, ship.masts, _put(ship.sails, tile, item[5:]), ship.goods
                    )
                    rigged = True
                else:
                    ship = make_ship(
                        ship.hulls, ship.masts, ship.sails, _put(ship.goods, tile, item)
                    )
            ships[i] = ship
        self.mine().ships = tuple(ships)
        self.events.append(_TilePlaced(self.seat, item, i, tile, created))
        # Only a mast or a sail can finish a ship: a new hull tile comes without a mast, and a
        # good changes nothing N-YARD-6 reads. The mast or sail went on a free place (checked),
        # so the ship was not finished before.
        if rigged and _finished(ship):
            size = len(ship.hulls)
            self.events.append(_ShipFinished(self.seat, i, size, size))
            assert self.turn is not None
            self.set_turn(pending=(*self.turn.pending, Pending("reward", ship=i, left=size)))

    def build(self, step: str | None = None, **changes: Any) -> State:
        """The new state; `step` the new step if it changes (positional: the keyword
        `changes` go through evolve_state, several times slower than make_state)."""
        # `freeze` spelt out (the private copies are a Player's and a Turn's twins), and the
        # players and supply made tuples only if they were copied into lists: once a move.
        players = self.players
        if self._own_me:
            players = list(players)
            me = self.me
            me.__class__ = Player
            players[self.seat] = me
            players = tuple(players)
        elif isinstance(players, list):
            players = tuple(players)
        supply = self.supply
        if isinstance(supply, list):
            supply = tuple(supply)
        turn = self.turn
        if self._own_turn:
            turn.__class__ = Turn
        state = self.state
        if changes:
            if step is not None:
                changes["step"] = step
            return evolve_state(state, players=players, supply=supply, turn=turn, **changes)
        # The common case, positionally in State's field order (seed, draws, players, supply,
        # round, phase, anchor, tiles, chosen, start, step, turn).
        return make_state(
            state.seed,
            state.draws,
            players,
            supply,
            state.round,
            state.phase,
            state.anchor,
            state.tiles,
            state.chosen,
            state.start,
            state.step if step is None else step,
            turn,
        )


def _with_mover(players: tuple[Player, ...], ctx: _Ctx) -> tuple[Player, ...]:
    """`players` with the mover's working copy frozen in, if the move made one: what
    `ctx.build` gives for the players when no one but the mover can have changed (a bonus, a
    pass tile), for the paths that build the new state directly."""
    if not ctx._own_me:
        return players
    changed = list(players)
    me = ctx.me
    me.__class__ = Player  # freeze(me), as build does
    changed[ctx.seat] = me
    return tuple(changed)


def _put(row: tuple[str | None, ...], i: int, value: str) -> tuple[str | None, ...]:
    return (*row[:i], value, *row[i + 1 :])


# How a refusal names each move type ("You can't take money now; you can: buy or pass").
MOVE_WORDS = {
    "choose_action": "choose an action",
    "take_bonus": "take a bonus tile",
    "buy": "buy",
    "take_free_tile": "take a free tile",
    "transport": "transport",
    "money": "take money",
    "crowns": "score crowns",
    "deliver": "deliver",
    "reward": "choose a reward",
    "extra": "start the extra action",
    "end_extra": "end the extra action",
    "pass": "pass",
    "end_turn": "end your turn",
}


def _not_now(state: State, seat: int, mtype: str) -> IllegalMove:
    allowed = _allowed_types(state, seat)
    words = [MOVE_WORDS[t] for t in allowed]
    options = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return IllegalMove(
        "not_now",
        f"You can't {MOVE_WORDS[mtype]} now; you can: {options}.",
        type=mtype,
        allowed=allowed,
    )


def apply(state: State, seat: int, move: Move) -> tuple[State, list[ev.Event]]:
    """Play `move` for `seat`; return the new state and what happened.

    Never changes `state`; a refused move changes nothing.

    Raises:
        IllegalMove: the move is malformed, out of turn or against the rules.
    """
    if type(seat) is not int or not 0 <= seat < len(state.players):  # _is_int, inlined
        raise IllegalMove(
            "bad_seat",
            f"There is no seat {seat!r}; seats are 0 to {len(state.players) - 1}.",
            seat=repr(seat),
        )
    if state.step == "over":
        raise IllegalMove("game_over", "The game is over; no more moves can be made.")
    # _parse_type's own fast path, inlined (it runs for every move): a dict whose keys are
    # exactly its type's; anything else goes through it for the check and the refusal.
    mtype = move.get("type") if type(move) is dict else None
    if type(mtype) is not str or move.keys() != _EXACT_KEYS.get(mtype):
        mtype = _parse_type(move)
    last = _LAST_MENU  # one read: another thread may set it meanwhile
    allowed = last[2] if last[0] is state and last[1] == seat else _allowed_types(state, seat)
    if mtype not in allowed:
        # Nothing is allowed to a seat whose decision it is not (and always something to the
        # one whose it is), so the turn is checked here, where a move is refused anyway.
        current = state.current
        if seat != current:
            raise IllegalMove(
                "not_your_turn",
                f"It is not seat {seat + 1}'s turn; seat "
                f"{current + 1 if current is not None else '?'} must decide now.",
                seat=seat,
                current=current,
            )
        raise _not_now(state, seat, mtype)
    if mtype == "end_turn":
        # A third of all moves: the end of a turn that used or passed the phase's action and
        # hands over to the next seat changes nothing but the turn, so the new state is built
        # here, without a context (the same state and event _h_end_turn would make).
        turn = state.turn
        assert turn is not None
        if turn.uses or turn.passed:
            nxt = seat + 1
            if nxt == len(state.players):
                nxt = 0
            if nxt != state.start:
                space = state.chosen[-1]
                # State's fields in order (seed, draws, players, supply, round, phase, anchor,
                # tiles, chosen, start, step, turn); the turn as _end_turn makes it.
                new = make_state(
                    state.seed,
                    state.draws,
                    state.players,
                    state.supply,
                    state.round,
                    state.phase,
                    state.anchor,
                    state.tiles,
                    state.chosen,
                    state.start,
                    state.step,
                    # _fresh_turn(nxt, state.blue_on(space)), spelt out (nxt is a real seat).
                    _FRESH_TURNS[nxt][data.WHEEL[(space - state.anchor) % data.SPACES]]
                    if nxt < data.MAX_PLAYERS
                    else _fresh_turn(nxt, data.WHEEL[(space - state.anchor) % data.SPACES]),
                )
                return new, [_TurnEnded(seat, turn.uses)]
    # A new context (see _Ctx: no __init__, so the class call runs no Python code; it is cheaper
    # than object.__new__(_Ctx), which parses its arguments first).
    ctx = _Ctx()
    ctx.state = state
    ctx.seat = seat
    ctx.players = players = state.players
    ctx.supply = state.supply
    ctx.me = players[seat]
    ctx.turn = state.turn
    events: list[ev.Event] = []
    ctx.events = events
    ctx._own_me = False
    ctx._own_turn = False
    return _HANDLERS[mtype](ctx, move), events


# --- handlers --------------------------------------------------------------------------------


def _h_choose(ctx: _Ctx, move: Move) -> State:
    state = ctx.state
    space = move["space"]
    # The free spaces are listed only to word a refusal (`_is_int` inlined).
    if type(space) is not int or not 0 <= space < data.SPACES or space in state.chosen:
        free = [s for s in range(data.SPACES) if s not in state.chosen]
        flipped = _is_int(space) and 0 <= space < data.SPACES
        raise IllegalMove(
            "space_taken" if flipped else "bad_space",
            f"Space {space!r} "
            + ("has already been played this round" if flipped else "does not exist")
            + f"; you can choose: {', '.join(str(s) for s in free)}.",
            space=repr(space),
            allowed=free,
        )
    bonus = data.SPACE_BONUS[space]
    blue = state.blue_on(space)
    ctx.events.append(_ActionChosen(ctx.seat, space, state.tiles[space], blue))
    if bonus.workers or bonus.taler or bonus.vp:
        me = ctx.mine()
        me.workers += bonus.workers
        me.taler += bonus.taler
        me.score += bonus.vp
        ctx.events.append(_BonusReceived(ctx.seat, space, bonus.workers, bonus.taler, bonus.vp))
    if bonus.tile is not None and _bonus_items(state, space):
        step = "bonus"
    else:
        step = "turn"
        if bonus.tile is not None:
            ctx.events.append(_TileNotReceived(ctx.seat, "bonus"))
    # ctx.build(chosen=..., step=...) spelt out: only the mover may have changed (a bonus).
    players = _with_mover(state.players, ctx)
    return make_state(
        state.seed,
        state.draws,
        players,
        state.supply,
        state.round,
        state.phase,
        state.anchor,
        state.tiles,
        (*state.chosen, space),
        state.start,
        step,
        _fresh_turn(ctx.seat, blue),
    )


def _h_take_bonus(ctx: _Ctx, move: Move) -> State:
    allowed = _bonus_items(ctx.state, ctx.state.chosen[-1])
    item = _parse_item(move["item"], allowed, "the bonus")
    if item not in allowed:
        if item in ("mast_crown", "sail_crown"):
            raise IllegalMove(
                "crown_not_allowed",
                f"A {data.item_name(item)} can't be a bonus (only a reward); "
                f"choose one of: {', '.join(allowed)}.",
                item=item,
                allowed=allowed,
            )
        raise _item_refused(ctx.state, item, allowed, "the bonus")
    ctx.store(item, "bonus")
    return ctx.build("turn")


def _item_refused(state: State, item: str, allowed: list[str], what: str) -> IllegalMove:
    if item in data.ITEM_INDEX and _supply(state, item) == 0:
        return IllegalMove(
            "empty_stack",
            f"The {data.item_name(item)} stack is empty; {what} can be: "
            f"{', '.join(allowed) or 'nothing'}.",
            item=item,
            allowed=allowed,
        )
    return IllegalMove(
        "wrong_item",
        f"{data.item_name(item)} is not possible for {what}; it can be: "
        f"{', '.join(allowed) or 'nothing'}.",
        item=item,
        allowed=allowed,
    )


def _check_dest(ctx: _Ctx, item: str, dest: Dest) -> None:
    """Refuse a shipyard destination that N-YARD does not allow, saying what would fit."""
    me = ctx.me
    legal = _dock_dests(me, item)
    if dest in legal:
        return
    options = ", ".join(dest_text(_dest_json(d)) for d in legal) or "no place in your shipyard"
    name = data.item_name(item)
    if dest[0] == "new":
        raise IllegalMove(
            "bad_destination", f"A {name} can't start a ship; it can go on: {options}."
        )
    n = dest[1]
    if not 0 <= n < len(me.ships):
        raise IllegalMove(
            "bad_destination",
            f"You have no ship #{n + 1}; a {name} can go on: {options}.",
            ship=n,
        )
    ship = me.ships[n]
    if dest[0] == "end":
        end = dest[2]
        open_end = ship.front_open if end == "front" else ship.back_open
        if not open_end:
            raise IllegalMove(
                "hull_closed",
                f"Ship #{n + 1} is closed at the {end}; a {name} can go on: {options}.",
                ship=n,
                end=end,
            )
        if item == "middle":
            raise IllegalMove(
                "too_many_middles",
                f"Ship #{n + 1} already has {data.MAX_MIDDLES} middles; a {name} can go on: "
                f"{options}.",
                ship=n,
            )
        raise IllegalMove(
            "bad_destination",
            f"A {name} can't go at the {end} of a ship; it can go on: {options}.",
            ship=n,
            end=end,
        )
    tile = dest[2]
    if not 0 <= tile < ship.size:
        raise IllegalMove(
            "bad_destination",
            f"Ship #{n + 1} has no tile {tile + 1}; a {name} can go on: {options}.",
            ship=n,
            tile=tile,
        )
    if item.startswith(("mast_", "sail_")):
        crest = item[5:]
        if not _regular_crest_ok(ship, crest):
            raise IllegalMove(
                "wrong_crest",
                f"You can't place a {name} on ship #{n + 1}: its crest is "
                f"{data.CREST_NAMES[ship.crest or '']} (one crest per ship, crowns excepted). "
                f"It can go on: {options}.",
                ship=n,
                crest=ship.crest,
                item=item,
            )
        if item.startswith("sail_") and ship.masts[tile] is None:
            raise IllegalMove(
                "no_mast",
                f"Tile {tile + 1} of ship #{n + 1} has no mast to carry a sail; "
                f"it can go on: {options}.",
                ship=n,
                tile=tile,
            )
    raise IllegalMove(
        "tile_occupied",
        f"Tile {tile + 1} of ship #{n + 1} already has a "
        f"{'mast' if item.startswith('mast_') else 'sail' if item.startswith('sail_') else 'good'}"
        f"; a {name} can go on: {options}.",
        ship=n,
        tile=tile,
    )


def _need_workers(ctx: _Ctx, n: int, what: str) -> None:
    blue, own = _available_workers(ctx.state)
    if blue + own < n:
        raise IllegalMove(
            "no_workers",
            f"{what} needs {n} worker{'s' if n > 1 else ''}; you have {blue} blue and {own} own.",
            needed=n,
            blue=blue,
            own=own,
        )


def _h_buy(ctx: _Ctx, move: Move) -> State:
    state = ctx.state
    turn = state.turn
    assert turn is not None
    # _performance, spelt out: the extra action, else the phase's action unless used up.
    action = turn.extra
    if action is None and not (turn.passed or turn.closed):
        action = state.tiles[state.chosen[-1]]  # State.action in a turn, without its properties
    assert action is not None
    tile_items = data.TILE_ITEMS[action]
    item = move["item"]
    if item not in tile_items:  # a string of the tile is an item: parsed
        item = _parse_item(item, tile_items, data.ACTION_NAMES[action])
        tile_list = list(tile_items)
        if item in ("mast_crown", "sail_crown"):
            raise IllegalMove(
                "crown_not_allowed",
                f"Crown masts and sails can't be bought, only received as rewards; "
                f"{data.ACTION_NAMES[action]} sells: {', '.join(tile_list)}.",
                item=item,
                allowed=tile_list,
            )
        raise IllegalMove(
            "wrong_item",
            f"{data.ACTION_NAMES[action]} doesn't sell {data.item_name(item)}; "
            f"it sells: {', '.join(tile_list)}.",
            item=item,
            allowed=tile_list,
        )
    to = move["to"]
    # Most buys go to storage: that place parsed here, the others by _parse_dest.
    dest = _TO_STORAGE if to == "storage" else _parse_dest(to, item)
    if state.supply[data.ITEM_INDEX[item]] <= 0:  # _supply, spelt out
        stocked = [i for i in tile_items if _supply(state, i) > 0]
        raise _item_refused(state, item, stocked, data.ACTION_NAMES[action])
    # _price, spelt out.
    if item in turn.bought:
        price = data.REPEAT_PRICE
    elif turn.extra is not None:
        price = data.EXTRA_PRICE
    else:
        space = state.chosen[-1]
        price = data.PRICES[space][tile_items.index(item)]
    if price > ctx.me.taler:
        raise IllegalMove(
            "cannot_afford",
            f"A {data.item_name(item)} costs {price} taler here and you have {ctx.me.taler}.",
            item=item,
            price=price,
            taler=ctx.me.taler,
        )
    if (0 if turn.extra is not None else turn.blue) + ctx.me.workers < 1:  # _need_workers' test
        _need_workers(ctx, 1, "Buying")
    if dest[0] == "storage":
        if price > 0 and not _room(ctx.me, item):
            raise IllegalMove(
                "storage_full",
                f"Your storage has {ctx.me.storage_used}/{data.STORAGE_UNITS} units used: no "
                f"room for a {data.item_name(item)}. Place it in your shipyard instead: "
                + (
                    ", ".join(dest_text(_dest_json(d)) for d in _dock_dests(ctx.me, item))
                    or "no place fits"
                )
                + ".",
                item=item,
                used=ctx.me.storage_used,
            )
    elif price == 0:
        raise IllegalMove(
            "free_to_storage",
            f"A {data.item_name(item)} bought for 0 taler is free and must go to storage "
            "(the golden rule).",
            item=item,
        )
    else:
        # _check_dest's test first, without its calls: it words the refusal.
        if dest not in _dock_entry(ctx.me.ships, item)[1]:
            _check_dest(ctx, item, dest)
    # The move is legal. A fifth of a game's time goes here, so the context's steps are spelt
    # out for a new context (it owns no copy yet): mine(), spend_workers(1), store() and
    # my_turn(), in the same order, making the same copies and events.
    seat = ctx.seat
    events = ctx.events
    first = item not in turn.bought
    events.append(_Bought(seat, item, price, 1 if first else 2))
    me: Any = ctx.me  # the mover, then their private (mutable) copy
    if price:
        me = ctx.me = thaw_player(me)
        ctx._own_me = True
        me.taler -= price
        events.append(_TalerPaid(seat, price))
    blue = 0
    if turn.extra is None or first:  # the turn changes: its copy, now rather than twice
        my_turn = ctx.turn = thaw_turn(turn)
        ctx._own_turn = True
        if turn.extra is None:
            blue = turn.blue if turn.blue < 1 else 1
            my_turn.blue -= blue
            my_turn.uses += 1
        if first:
            my_turn.bought = (*turn.bought, item)
    if blue != 1:  # an own worker
        if not ctx._own_me:
            me = ctx.me = thaw_player(me)
            ctx._own_me = True
        me.workers -= 1 - blue
    events.append(_WorkersUsed(seat, blue, 1 - blue))
    if dest[0] == "storage":
        # Room was checked above if paid; a free tile that does not fit is lost (N-GOLD).
        if price or _units(me.storage) + data.ITEM_UNITS[item] <= data.STORAGE_UNITS:
            supply = ctx.supply = list(state.supply)
            supply[data.ITEM_INDEX[item]] -= 1
            if not ctx._own_me:
                me = ctx.me = thaw_player(me)
                ctx._own_me = True
            me.storage = tuple(sorted((*me.storage, item)))
            events.append(_TileStored(seat, item, "buy"))
        else:
            events.append(_TileLost(seat, item, "buy"))
    else:
        ctx.take(item)
        ctx.place(item, dest)
    assert ctx.turn is not None
    if len(ctx.turn.bought) == len(tile_items) and not ctx.turn.free_earned:
        ctx.set_turn(free_earned=True)
        ctx.events.append(_FreeTileEarned(ctx.seat))
        if any(ctx.supply[data.ITEM_INDEX[i]] > 0 for i in tile_items):
            ctx.set_turn(pending=(*ctx.turn.pending, Pending("free_tile", items=tuple(tile_items))))
        else:
            ctx.events.append(_TileNotReceived(ctx.seat, "free_tile"))
    return ctx.build()


def _h_free_tile(ctx: _Ctx, move: Move) -> State:
    assert ctx.turn is not None
    pending = ctx.turn.pending[0]
    allowed = [i for i in pending.items if _supply(ctx.state, i) > 0]
    item = _parse_item(move["item"], allowed, "the free tile")
    if item not in allowed:
        raise _item_refused(ctx.state, item, allowed, "the free tile")
    ctx.store(item, "free_tile")
    ctx.set_turn(pending=ctx.turn.pending[1:])
    return ctx.build()


def _h_transport(ctx: _Ctx, move: Move) -> State:
    item = move["item"]
    if item not in ctx.me.storage:  # a string in storage is an item: parsed
        stored = sorted(set(ctx.me.storage), key=data.ITEM_INDEX.__getitem__)
        item = _parse_item(item, stored, "transported")
        raise IllegalMove(
            "not_in_storage",
            f"You have no {data.item_name(item)} in storage; you can transport: "
            f"{', '.join(stored) or 'nothing'}.",
            item=item,
            allowed=stored,
        )
    dest = _parse_dest(move["to"], item)
    if dest[0] == "storage":
        raise IllegalMove(
            "bad_destination",
            f"Transport moves a {data.item_name(item)} from storage into your shipyard, not "
            "back to storage.",
            item=item,
        )
    turn = ctx.turn
    assert turn is not None
    # The helpers' tests first, without their calls: they word the refusals.
    if (0 if turn.extra is not None else turn.blue) + ctx.me.workers < 1:
        _need_workers(ctx, 1, "Transport")
    if dest not in _dock_entry(ctx.me.ships, item)[1]:
        _check_dest(ctx, item, dest)
    me = ctx.mine()
    storage = list(me.storage)
    storage.remove(item)
    me.storage = tuple(storage)
    ctx.spend_workers(1)
    ctx.events.append(_Transported(ctx.seat, item))
    ctx.place(item, dest)
    return ctx.build()


def _h_money(ctx: _Ctx, move: Move) -> State:
    n = _parse_count(move["workers"], sum(_available_workers(ctx.state)), "Money")
    ctx.spend_workers(n)
    ctx.mine().taler += 2 * n
    ctx.events.append(_MoneyTaken(ctx.seat, n, 2 * n))
    return ctx.build()


def _h_crowns(ctx: _Ctx, move: Move) -> State:
    n = _parse_count(move["workers"], sum(_available_workers(ctx.state)), "Crowns")
    crowns = ctx.me.crowns
    assert ctx.turn is not None
    raw = crowns * n
    vp = min(raw, data.CROWN_CAP - ctx.turn.crown_vp)
    ctx.spend_workers(n)
    ctx.mine().score += vp
    ctx.my_turn().crown_vp += vp
    ctx.events.append(_CrownsScored(ctx.seat, crowns, n, raw, vp))
    return ctx.build()


def _h_deliver(ctx: _Ctx, move: Move) -> State:
    me = ctx.me
    i = move["ship"]
    ready = [k for k, s in enumerate(me.ships) if s.finished and s.goods_count() == s.size]
    ready_text = ", ".join(f"#{k + 1}" for k in ready) or "none"
    if not _is_int(i) or not 0 <= i < len(me.ships):
        raise IllegalMove(
            "bad_ship",
            f"You have no ship {i!r}; ships ready to deliver: {ready_text}.",
            ship=repr(i),
        )
    ship = me.ships[i]
    if not ship.finished:
        raise IllegalMove(
            "not_finished",
            f"Ship #{i + 1} is not finished, so it can't deliver; ships ready: {ready_text}.",
            ship=i,
        )
    if ship.goods_count() < ship.size:
        raise IllegalMove(
            "missing_goods",
            f"Ship #{i + 1} has {ship.goods_count()} goods for {ship.size} hull tiles; every "
            f"tile needs a good. Ships ready: {ready_text}.",
            ship=i,
        )
    _need_workers(ctx, ship.size, f"Delivering ship #{i + 1}")
    goods = tuple(g for g in ship.goods if g is not None)
    delivered = list(me.delivered)
    for g in goods:
        delivered[data.GOODS.index(g)] += 1
    ships = list(me.ships)
    ships[i] = evolve(ship, goods=(None,) * ship.size)
    ctx.spend_workers(ship.size)
    ctx.set_me(ships=tuple(ships), delivered=tuple(delivered))
    ctx.events.append(_Delivered(ctx.seat, i, goods))
    return ctx.build()


def _h_reward(ctx: _Ctx, move: Move) -> State:
    assert ctx.turn is not None
    pending = ctx.turn.pending[0]
    legal = _reward_moves(ctx.state, ctx.me, pending)
    kinds = list(dict.fromkeys(m["kind"] for m in legal))
    kind = move["kind"]
    if kind not in data.REWARD_KINDS:
        raise IllegalMove(
            "unknown_reward",
            f"{kind!r} is not a reward; you can choose: {', '.join(kinds)}.",
            kind=repr(kind),
            allowed=kinds,
        )
    if kind not in kinds:
        if pending.taken.count(kind) >= data.REWARD_MAX_PER_SHIP:
            raise IllegalMove(
                "reward_limit",
                f"{data.REWARD_NAMES[kind]} was already chosen twice for this ship; "
                f"you can choose: {', '.join(kinds)}.",
                kind=kind,
                allowed=kinds,
            )
        raise IllegalMove(
            "empty_stack",
            f"{data.REWARD_NAMES[kind]} can't be supplied: its stack is empty. "
            f"You can choose: {', '.join(kinds)}.",
            kind=kind,
            allowed=kinds,
        )
    goods: tuple[str, ...] = ()
    if kind == "goods":
        choices = [tuple(m["goods"]) for m in legal if m["kind"] == "goods"]
        raw = move.get("goods")
        if not isinstance(raw, list) or tuple(raw) not in choices:
            raise IllegalMove(
                "bad_goods",
                f"{raw!r} is not a choice of goods for this reward; choose one of: "
                + "; ".join("+".join(c) for c in choices)
                + " (when only one fits in storage, the first is kept).",
                goods=repr(raw),
                allowed=[list(c) for c in choices],
            )
        goods = tuple(raw)
    elif "goods" in move:
        raise IllegalMove(
            "malformed", f"Only the goods reward takes 'goods'; {kind!r} does not.", kind=kind
        )
    ctx.events.append(_RewardTaken(ctx.seat, pending.ship, kind, goods))
    if kind in ("crown_mast", "crown_sail"):
        ctx.store(f"{kind[6:]}_crown", "reward")
    elif kind == "vp":
        ctx.set_me(score=ctx.me.score + data.REWARD_VP)
        ctx.events.append(_VPGained(ctx.seat, data.REWARD_VP, "reward"))
    elif kind == "taler":
        ctx.set_me(taler=ctx.me.taler + data.REWARD_TALER)
        ctx.events.append(_TalerGained(ctx.seat, data.REWARD_TALER, "reward"))
    elif kind == "workers":
        ctx.set_me(workers=ctx.me.workers + data.REWARD_WORKERS)
        ctx.events.append(_WorkersGained(ctx.seat, data.REWARD_WORKERS, "reward"))
    else:
        for g in goods:
            ctx.store(g, "reward")
    left = pending.left - 1
    rest = ctx.turn.pending[1:]
    if left:
        rest = (evolve(pending, left=left, taken=(*pending.taken, kind)), *rest)
    ctx.set_turn(pending=rest)
    return ctx.build()


def _h_extra(ctx: _Ctx, move: Move) -> State:
    action = move["action"]
    if action not in data.ACTIONS:
        raise IllegalMove(
            "unknown_action",
            f"{action!r} is not an action; choose one of: {', '.join(data.ACTIONS)}.",
            action=repr(action),
        )
    assert ctx.turn is not None
    turn = ctx.turn
    ctx.set_me(extra=False, workers=ctx.me.workers + data.EXTRA_WORKERS)
    ctx.events.append(_ExtraStarted(ctx.seat, action))
    ctx.events.append(_WorkersGained(ctx.seat, data.EXTRA_WORKERS, "extra"))
    # N-EXTRA-1: after a use of (or a pass on) the phase's action, the extra action closes it.
    ctx.set_turn(
        extra=action,
        closed=turn.closed or turn.uses > 0 or turn.passed,
        bought=(),
        free_earned=False,
        crown_vp=0,
    )
    return ctx.build()


def _h_end_extra(ctx: _Ctx, move: Move) -> State:
    assert ctx.turn is not None
    action = ctx.turn.extra
    assert action is not None
    ctx.events.append(_ExtraEnded(ctx.seat, action))
    ctx.set_turn(extra=None, bought=(), free_earned=False, crown_vp=0)
    return ctx.build()


def _flip_pass_tile(ctx: _Ctx) -> None:
    ctx.events.append(_Passed(ctx.seat))
    n = ctx.me.passes
    if n < len(data.PASS_TILES):
        ctx.mine().passes = n + 1
        ctx.events.append(_PassTileFlipped(ctx.seat, data.PASS_TILES[n]))


def _h_pass(ctx: _Ctx, move: Move) -> State:
    # _flip_pass_tile(ctx) and my_turn() spelt out for a new context (it owns no copy yet).
    seat = ctx.seat
    ctx.events.append(_Passed(seat))
    n = ctx.me.passes
    if n < len(data.PASS_TILES):
        me = ctx.me = thaw_player(ctx.me)
        ctx._own_me = True
        me.passes = n + 1
        ctx.events.append(_PassTileFlipped(seat, data.PASS_TILES[n]))
    assert ctx.turn is not None
    turn = ctx.turn = thaw_turn(ctx.turn)
    ctx._own_turn = True
    turn.passed = True
    if ctx.me.extra:
        return ctx.build()  # they may still take their extra action, then end the turn
    return _end_turn(ctx)


def _h_end_turn(ctx: _Ctx, move: Move) -> State:
    turn = ctx.turn
    assert turn is not None
    if turn.uses == 0 and not turn.passed:
        _flip_pass_tile(ctx)  # N-ACT-3: no use of the phase's action is a pass
    return _end_turn(ctx)


def _end_turn(ctx: _Ctx) -> State:
    state = ctx.state
    turn = ctx.turn
    assert turn is not None
    ctx.events.append(_TurnEnded(ctx.seat, turn.uses))
    n = len(state.players)
    nxt = (ctx.seat + 1) % n
    space = state.chosen[-1]
    if nxt != state.start:
        # ctx.new_turn(_fresh_turn(nxt, state.blue_on(space))), spelt out.
        ctx.turn = _fresh_turn(nxt, data.WHEEL[(space - state.anchor) % data.SPACES])
        ctx._own_turn = False
        return ctx.build()
    ctx.new_turn(None)
    ctx.events.append(_PhaseEnded(state.round, state.phase, space, state.tiles[space]))
    start = (state.start + 1) % n
    if state.phase < data.PHASES_PER_ROUND:
        # ctx.build(step="choose", phase=..., start=...) spelt out: a pass or an end of turn
        # takes nothing from the supply and changes no player but the mover (a pass tile).
        assert type(ctx.players) is tuple and type(ctx.supply) is tuple
        players = _with_mover(state.players, ctx)
        return make_state(
            state.seed,
            state.draws,
            players,
            state.supply,
            state.round,
            state.phase + 1,
            state.anchor,
            state.tiles,
            state.chosen,
            start,
            "choose",
            None,
        )
    return _end_round(ctx, start)


def _end_round(ctx: _Ctx, start: int) -> State:
    state = ctx.state
    players = ctx.all_players()
    for seat, p in enumerate(players):
        penalty = sum(data.PASS_TILES[p.passes :])
        players[seat] = evolve(p, score=p.score - penalty, passes=0)
        ctx.events.append(_RoundPenalty(seat, penalty))
    if state.round < state.rounds:
        anchor = state.chosen[0]
        ctx.events.append(_RoundEnded(state.round, anchor))
        return ctx.build(
            step="choose",
            round=state.round + 1,
            phase=1,
            start=start,
            anchor=anchor,
            chosen=(),
            tiles=shuffled(state.seed, state.draws, data.ACTIONS),
            draws=state.draws + 1,
        )
    ctx.events.append(_RoundEnded(state.round, state.anchor))
    final = ctx.build(step="over", start=start)
    from engine.nauticus.scoring import final_scores  # scoring imports rules' state helpers

    scores = final_scores(final)
    ctx.events.append(_GameEnded(tuple(s.seat for s in scores if s.rank == 1)))
    return final


_HANDLERS = {
    "choose_action": _h_choose,
    "take_bonus": _h_take_bonus,
    "buy": _h_buy,
    "take_free_tile": _h_free_tile,
    "transport": _h_transport,
    "money": _h_money,
    "crowns": _h_crowns,
    "deliver": _h_deliver,
    "reward": _h_reward,
    "extra": _h_extra,
    "end_extra": _h_end_extra,
    "pass": _h_pass,
    "end_turn": _h_end_turn,
}
