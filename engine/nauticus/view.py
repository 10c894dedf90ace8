"""What a seat may see, as plain JSON-able data, for pictures and messages.

Nauticus hides nothing (N-SETUP-7), so every view holds the whole public game; it also spells out
what a reader would otherwise compute (blue workers, prices on each space, crests, finished
ships, storage units), so renderers never re-implement a rule.
"""

from __future__ import annotations

from typing import Any

from engine.nauticus import data
from engine.nauticus.scoring import final_scores
from engine.nauticus.state import ENGINE_VERSION, Player, Ship, State, to_dict


def _ship(i: int, s: Ship) -> dict[str, Any]:
    return {
        "index": i,
        "tiles": [
            {"hull": h, "mast": m, "sail": sl, "good": g}
            for h, m, sl, g in zip(s.hulls, s.masts, s.sails, s.goods, strict=True)
        ],
        "size": s.size,
        "closed": s.closed,
        "finished": s.finished,
        "crest": s.crest,
    }


def _player(seat: int, p: Player) -> dict[str, Any]:
    return {
        "seat": seat,
        "score": p.score,
        "workers": p.workers,
        "taler": p.taler,
        "extra": "ready" if p.extra else "used",
        "pass_tiles": [
            {"value": -v, "flipped": i < p.passes} for i, v in enumerate(data.PASS_TILES)
        ],
        "crowns": p.crowns,
        "storage": {
            "items": list(p.storage),
            "used": p.storage_used,
            "capacity": data.STORAGE_UNITS,
        },
        "ships": [_ship(i, s) for i, s in enumerate(p.ships)],
        "delivered": dict(zip(data.GOODS, p.delivered, strict=True)),
    }


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The game as `seat` sees it (None: the public view). Plain data, safe to keep."""
    space = state.space
    spaces = []
    for i in range(data.SPACES):
        action = state.tiles[i]
        bonus = data.SPACE_BONUS[i]
        items = data.TILE_ITEMS.get(action, ())
        spaces.append(
            {
                "index": i,
                "bonus": {
                    "workers": bonus.workers,
                    "taler": bonus.taler,
                    "vp": bonus.vp,
                    "tile": bonus.tile,
                },
                "bonus_text": data.bonus_text(bonus),
                "blue": state.blue_on(i),
                "action": action,
                "paid": action in data.PAID_ACTIONS,
                "flipped": i in state.chosen and i != space,
                "current": i == space,
                "items": [
                    {"item": it, "price": data.PRICES[i][slot]} for slot, it in enumerate(items)
                ],
            }
        )
    turn = state.turn
    return {
        "game": "nauticus",
        "engine_version": ENGINE_VERSION,
        "viewer": seat,
        "players_count": len(state.players),
        "round": state.round,
        "rounds": state.rounds,
        "phase": state.phase,
        "phases": data.PHASES_PER_ROUND,
        "step": state.step,
        "start_player": state.start,
        "current": state.current,
        "wheel_anchor": state.anchor,
        # N-ROUND-3: the anchor tile marks the first space only once that phase is over.
        "anchor_tile": state.chosen[0]
        if len(state.chosen) > 1 or (state.chosen and state.step == "choose")
        else None,
        "space": space,
        "action": state.action,
        "spaces": spaces,
        "supply": dict(zip(data.ITEMS, state.supply, strict=True)),
        "players": [_player(i, p) for i, p in enumerate(state.players)],
        "turn": None
        if turn is None
        else {
            "seat": turn.seat,
            # N-EXTRA-2: no blue workers while the extra action is being performed.
            "blue_left": 0 if turn.extra else turn.blue,
            "uses": turn.uses,
            "passed": turn.passed,
            "extra": turn.extra,
            "pending": [
                {"kind": p.kind, "ship": p.ship, "left": p.left, "taken": list(p.taken)}
                for p in turn.pending
            ],
        },
        "final": [s.to_dict() for s in final_scores(state)] if state.step == "over" else None,
        # Nauticus hides nothing, so the whole state is part of every seat's view: the bot's
        # words for this game read it from here instead of ever being handed a state.
        "state": to_dict(state),
    }
