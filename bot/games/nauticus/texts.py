"""Nauticus's words in the channel: pings, done lines, phase summaries, status and results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.texts import MAX_MESSAGE, PLAYER_MARKS, fit, legend, mention, name, plural
from engine.nauticus import State, data, final_scores
from engine.nauticus.rules import price_of


def item(it: str) -> str:
    return data.item_name(it) if it in data.ITEM_INDEX else it


def action(act: str | None) -> str:
    return data.ACTION_NAMES.get(act or "", act or "?")


_VERBS = {
    "hulls": "buy",
    "masts": "buy",
    "sails": "buy",
    "goods": "buy",
    "transport": "transport",
    "money": "take money",
    "deliver": "deliver",
    "crowns": "score crowns",
}


def must_decide(state: State, *, you: bool = True) -> str:
    """What the seat that must act has to decide now, in a few words.

    `you` words it for the acting player ("end your turn"); `you=False` for anyone else
    ("end their turn"), as in status lines and out-of-turn refusals.
    """
    your, you_ = ("your", "you") if you else ("their", "they")
    if state.step == "over":
        return "nothing: the game is over"
    if state.step == "choose":
        return "choose an action (the start player gets the space's bonus)"
    if state.step == "bonus":
        space = state.space
        kind = data.SPACE_BONUS[space].tile if space is not None else None
        return f"take the bonus {kind or 'tile'} of {your} choice"
    turn = state.turn
    assert turn is not None
    if turn.pending:
        p = turn.pending[0]
        if p.kind == "reward":
            return f"choose {plural(p.left, 'reward')} for finished ship #{p.ship + 1}"
        return f"take {your} free tile ({you_} bought all 4)"
    if turn.extra is not None:
        return f"use {your} extra action ({action(turn.extra)}) or end it"
    if turn.passed or turn.closed:
        return f"end {your} turn (or take {your} extra action)"
    act = state.action
    verb = _VERBS.get(act or "", "act")
    blue = plural(turn.blue, "blue worker")
    if turn.uses:
        return f"{action(act)}: {verb} more or end {your} turn ({blue} left)"
    if you:
        return f"{action(act)}, your turn: {verb} or pass ({blue})"
    return f"{action(act)}: {verb} or pass ({blue})"


def turn_ping(state: State, names: Sequence[str], user_id: int) -> str:
    """The one ping the acting player gets for their turn in a phase."""
    seat = state.current
    assert seat is not None
    head = f"{PLAYER_MARKS[seat].emoji} {mention(user_id)}"
    if state.step == "choose":
        return fit(
            f"Round {state.round}/{state.rounds} · Phase {state.phase}/{data.PHASES_PER_ROUND}"
            f" — {head}, you are start player: {must_decide(state)}."
        )
    return fit(f"{head} — {must_decide(state)}.")


# --- what a player did, from the engine's events -----------------------------------------------


def _landing(evs: list[dict[str, Any]], i: int, it: str) -> str:
    """Where the tile of the event at `i` ended up: the next placement event for that item."""
    for e in evs[i + 1 :]:
        if e["kind"] in ("tile_placed", "tile_stored", "tile_lost") and e["item"] == it:
            return _where(e)
        if e["kind"] in ("bought", "transported"):
            break
    return "?"


def _where(e: dict[str, Any]) -> str:
    if e["kind"] == "tile_placed":
        ship = f"ship #{e['ship'] + 1}"
        return f"new {ship}" if e["new_ship"] else ship
    if e["kind"] == "tile_stored":
        return "storage"
    if e["kind"] == "tile_lost":
        return "lost (storage full)"
    return "?"


def did(events: Iterable[dict[str, Any]]) -> str:
    """One seat's doings in a phase, in order, with what it cost: 'bought bow 1 → new ship #2 ·
    4 taler, 2 workers'."""
    evs = list(events)
    parts: list[str] = []
    paid = 0
    blue = own = 0
    i = 0
    while i < len(evs):
        e = evs[i]
        k = e["kind"]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if k == "bonus_received":
            bits = []
            if e["vp"]:
                bits.append(f"+{e['vp']} VP")
            if e["workers"]:
                bits.append(f"+{plural(e['workers'], 'worker')}")
            if e["taler"]:
                bits.append(f"+{e['taler']} taler")
            parts.append(" ".join(bits) + " bonus")
        elif k == "tile_stored" and e["reason"] == "bonus":
            parts.append(f"bonus {item(e['item'])} → storage")
        elif k == "tile_lost" and e["reason"] in ("bonus", "reward", "free_tile"):
            parts.append(f"{item(e['item'])} lost (storage full)")
        elif k == "tile_not_received":
            parts.append(f"no {e['reason'].replace('_', ' ')}: stacks empty")
        elif k == "bought":
            where = _landing(evs, i, e["item"])
            parts.append(f"bought {item(e['item'])} {e['price']} → {where}")
        elif k == "tile_stored" and e["reason"] == "free_tile":
            parts.append(f"free {item(e['item'])} → storage")
        elif k == "transported":
            where = _landing(evs, i, e["item"])
            parts.append(f"moved {item(e['item'])} → {where}")
        elif k == "money_taken":
            parts.append(f"Money: {plural(e['workers'], 'worker')} → {e['taler']} taler")
        elif k == "crowns_scored":
            capped = f" (capped from {e['vp_before_cap']})" if e["vp"] < e["vp_before_cap"] else ""
            parts.append(
                f"Crowns: {plural(e['workers'], 'worker')} × {plural(e['crowns'], 'crown')} → "
                f"{e['vp']} VP{capped}"
            )
        elif k == "delivered":
            parts.append(f"delivered ship #{e['ship'] + 1} ({', '.join(e['goods'])})")
        elif k == "ship_finished":
            parts.append(f"finished ship #{e['ship'] + 1} (size {e['size']})")
        elif k == "reward_taken":
            if e["reward"] == "goods":
                parts.append("reward " + " + ".join(e["goods"]))
            else:
                parts.append("reward " + data.REWARD_NAMES.get(e["reward"], e["reward"]))
        elif k == "extra_started":
            parts.append(f"extra action: {action(e['action'])}")
        elif k == "passed":
            flipped = nxt["value"] if nxt and nxt["kind"] == "pass_tile_flipped" else None
            parts.append(
                f"passed (−{flipped} tile flipped)" if flipped else "passed (no pass tile left)"
            )
        elif k == "taler_paid":
            paid += e["amount"]
        elif k == "workers_used":
            blue += e["blue"]
            own += e["own"]
        i += 1
    if not parts:
        parts.append("nothing")
    text = " · ".join(parts)
    costs = [f"{paid} taler"] if paid else []
    if blue or own:
        workers = plural(blue + own, "worker")
        if blue and own:
            workers += f" ({blue} blue)"
        elif blue:
            workers += " (blue)"
        costs.append(workers)
    if costs:
        text += " · " + ", ".join(costs)
    return text


def done_line(state_before_turn: State | None, raw_name: str, seat: int, events: Any) -> str:
    """What a pinged player's message becomes once they have acted."""
    act = action(state_before_turn.action) if state_before_turn is not None else None
    head = f"✓ {PLAYER_MARKS[seat].emoji} {name(raw_name)}"
    if act and act != "?":
        head += f" — {act}"
    return fit(f"{head}: {did(events)}")


def phase_summary(
    names: Sequence[str],
    header: Mapping[str, Any],
    by_seat: Mapping[int, list[dict[str, Any]]],
    order: Sequence[int],
    round_end: Mapping[int, int] | None = None,
) -> str:
    """The post after an action phase: what each player did with its costs, then the legend.

    `header` holds round, phase, space, action and blue (from the phase's action_chosen event);
    `round_end` maps seat -> pass-tile penalty when this phase ended a round.
    """
    space = int(header["space"])
    bonus = data.bonus_text(data.SPACE_BONUS[space])
    head = (
        f"**Round {header['round']} · Phase {header['phase']} · {action(header['action'])}** "
        f"on space {space} (bonus {bonus}, {plural(int(header['blue']), 'blue worker')})"
    )
    tail = []
    if round_end is not None:
        lost = [f"{name(names[s])} −{v} VP" for s, v in sorted(round_end.items()) if v]
        tail.append(
            f"Round {header['round']} ends · pass tiles cost: {', '.join(lost) or 'nobody'}"
        )
    tail.append(legend(names))
    # Player lines share what the header and the legend leave, so neither is ever cut.
    fixed = len(head) + sum(len(t) + 1 for t in tail) + len(order) + 1
    budget = max(80, (MAX_MESSAGE - fixed) // max(1, len(order)))
    lines = [head]
    for seat in order:
        line = f"{PLAYER_MARKS[seat].emoji} {name(names[seat])} — {did(by_seat.get(seat, []))}"
        lines.append(fit(line, budget))
    return fit("\n".join([*lines, *tail]))


def status_line(state: State, names: Sequence[str]) -> str:
    """Whose turn it is and what they must decide (no mention: status never pings)."""
    head = f"Round {state.round}/{state.rounds} · Phase {state.phase}/{data.PHASES_PER_ROUND}"
    if state.step == "over":
        return fit(f"{head} · the game is over.")
    seat = state.current
    assert seat is not None
    who = f"{PLAYER_MARKS[seat].emoji} {name(names[seat])} (seat {seat + 1})"
    return fit(f"{head} · {who} must {must_decide(state, you=False)}.")


def scores_line(state: State, names: Sequence[str]) -> str:
    return " · ".join(
        f"{PLAYER_MARKS[i].emoji} {name(n)} {p.score} VP, {p.taler} taler, "
        f"{plural(p.workers, 'worker')}"
        for i, (n, p) in enumerate(zip(names, state.players, strict=True))
    )


def final_result(state: State, names: Sequence[str]) -> str:
    """The end of the game: ranking, the winner(s) and the tie-break if one decided anything."""
    scores = final_scores(state)
    ranked = sorted(scores, key=lambda s: (s.rank, s.seat))
    winners = [s for s in ranked if s.rank == 1]
    lines = ["**Game over!**"]
    if len(winners) == 1:
        w = winners[0]
        lines.append(f"🏆 {name(names[w.seat])} wins with {w.vp} VP.")
    else:
        who = " and ".join(name(names[w.seat]) for w in winners)
        lines.append(
            f"🏆 {who} share the win with {winners[0].vp} VP "
            "(same VP, same leftovers: the tie-break could not split them)."
        )
    for s in ranked:
        lines.append(
            f"{s.rank}. {PLAYER_MARKS[s.seat].emoji} {name(names[s.seat])} — {s.vp} VP "
            f"(track {s.track}, goods {sum(s.goods_vp)}, ships {s.ships_vp}, leftovers "
            f"{s.leftover_vp} from {s.total_taler} taler)"
        )
    # N-END-4: only ties on VP need the tie-break explained.
    by_vp: dict[int, list[Any]] = {}
    for s in ranked:
        by_vp.setdefault(s.vp, []).append(s)
    for vp, group in by_vp.items():
        if len(group) < 2 or len({g.tiebreak for g in group}) == 1:
            continue
        first = group[0]
        others = ", ".join(name(names[g.seat]) for g in group[1:])
        if any(g.tiebreak[0] != first.tiebreak[0] for g in group[1:]):
            why = (
                f"more taler left over after scoring leftovers ({first.tiebreak[0]} "
                f"vs {', '.join(str(g.tiebreak[0]) for g in group[1:])})"
            )
        else:
            why = (
                f"the higher leftover total ({first.tiebreak[1]} "
                f"vs {', '.join(str(g.tiebreak[1]) for g in group[1:])})"
            )
        lines.append(
            f"Tie-break at {vp} VP: {name(names[first.seat])} ranks ahead of {others} with {why}."
        )
    lines.append(legend(names))
    return fit("\n".join(lines))


def confirmation_needed(state: State, seat: int, move: dict[str, Any]) -> str | None:
    """Why this move needs the player's confirmation first, or None."""
    turn = state.turn
    mtype = move.get("type") if isinstance(move, dict) else None
    if state.step != "turn" or turn is None or turn.seat != seat:
        return None
    act = action(state.action)
    if mtype == "end_turn" and turn.extra is None:
        if turn.uses == 0 and not turn.passed:
            return f"You haven't used {act} this turn, so ending it now is a pass."
        if turn.blue > 0 and not turn.passed:
            return (
                f"You still have {plural(turn.blue, 'blue worker')} for {act}; "
                "they are lost when your turn ends."
            )
    if mtype == "buy" and move.get("to") == "storage":
        it = move.get("item")
        if isinstance(it, str) and it in data.ITEM_INDEX:
            player = state.players[seat]
            full = player.storage_used + data.item_units(it) > data.STORAGE_UNITS
            if full and price_of(state, it) == 0:
                # N-BUY-5: legal, but the tile is lost; the worker is spent all the same.
                return (
                    f"Your storage has no room for the {item(it)}: it costs 0 taler but "
                    "would be lost, and the worker is spent all the same."
                )
    if mtype == "pass" and seat == state.start:
        return (
            f"You chose {act} and took its bonus; if you pass you don't perform it yourself "
            "(the others still may)."
        )
    return None
