"""Nauticus's words in the channel: pings, done lines, phase summaries, status and results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.nauticus import words
from bot.games.nauticus.words import counted as plural
from bot.i18n import N_, tr, trn
from bot.texts import MAX_MESSAGE, PLAYER_MARKS, fit, legend, mention, name
from engine.nauticus import State, data, final_scores
from engine.nauticus.rules import price_of


def item(it: str) -> str:
    return words.item_label(it)


def action(act: str | None) -> str:
    return words.action_label(act) if act else "?"


# What a seat does with the phase's action, in its own words: the first use, then another one.
_VERBS = {
    "hulls": (N_("buy hulls"), N_("buy more hulls")),
    "masts": (N_("buy masts"), N_("buy more masts")),
    "sails": (N_("buy sails"), N_("buy more sails")),
    "goods": (N_("buy goods"), N_("buy more goods")),
    "transport": (N_("transport a tile"), N_("transport another tile")),
    "money": (N_("take money"), N_("take more money")),
    "deliver": (N_("deliver a ship"), N_("deliver another ship")),
    "crowns": (N_("score crowns"), N_("score more crowns")),
}
# The bonus tile a start player chooses, as a whole phrase (French: "le mât", "la voile").
_BONUS_CHOICE = {
    "mast": (N_("choose the mast of your bonus"), N_("choose the mast of their bonus")),
    "sail": (N_("choose the sail of your bonus"), N_("choose the sail of their bonus")),
    "good": (N_("choose the good of your bonus"), N_("choose the good of their bonus")),
}


def must_decide(state: State, *, you: bool = True) -> str:
    """What the seat that must act has to decide now, in a few words.

    `you` words it for the acting player ("end your turn"); `you=False` for anyone else
    ("end their turn"), as in status lines and out-of-turn refusals.
    """
    # Infinitive phrases in the player's words ("buy masts or pass"): they follow "must"
    # ("doit") in status lines and stand alone in pings, so they carry no label of their own.
    if state.step == "over":
        return tr("nothing: the game is over")
    if state.step == "choose":
        return tr("choose an action (the start player gets the space's bonus)")
    if state.step == "bonus":
        space = state.space
        kind = data.SPACE_BONUS[space].tile if space is not None else None
        phrases = _BONUS_CHOICE.get(kind or "")
        if phrases is not None:
            return tr(phrases[0] if you else phrases[1])
        if you:
            return tr("choose the tile of your bonus")
        return tr("choose the tile of their bonus")
    turn = state.turn
    assert turn is not None
    if turn.pending:
        p = turn.pending[0]
        if p.kind == "reward":
            return tr(
                "choose {rewards} for finished ship #{n}",
                rewards=plural(p.left, "reward"),
                n=p.ship + 1,
            )
        if you:
            return tr("take your free tile (you bought all 4)")
        return tr("take their free tile (they bought all 4)")
    if turn.extra is not None:
        if you:
            return tr("use your extra action ({action}) or end it", action=action(turn.extra))
        return tr("use their extra action ({action}) or end it", action=action(turn.extra))
    if turn.passed or turn.closed:
        if you:
            return tr("end your turn (or take your extra action)")
        return tr("end their turn (or take their extra action)")
    act = state.action
    first, again = _VERBS.get(act or "", (N_("act"), N_("act again")))
    # The blue workers are named only while there are some (none left is the usual case).
    if turn.uses:
        if you:
            text = tr("{verb} or end your turn", verb=tr(again))
        else:
            text = tr("{verb} or end their turn", verb=tr(again))
        if turn.blue:
            text = tr("{text} ({blue})", text=text, blue=plural(turn.blue, "blue worker left"))
        return text
    text = tr("{verb} or pass", verb=tr(first))
    if turn.blue:
        text = tr("{text} ({blue})", text=text, blue=plural(turn.blue, "blue worker"))
    return text


def turn_ping(state: State, names: Sequence[str], user_id: int) -> str:
    """The one ping the acting player gets for their turn in a phase."""
    seat = state.current
    assert seat is not None
    head = f"{PLAYER_MARKS[seat].emoji} {mention(user_id)}"
    if state.step == "choose":
        return fit(
            tr(
                "Round {round}/{rounds} · Phase {phase}/{phases} — {head}, you are start "
                "player: {must}.",
                round=state.round,
                rounds=state.rounds,
                phase=state.phase,
                phases=data.PHASES_PER_ROUND,
                head=head,
                must=must_decide(state),
            )
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
        if e["new_ship"]:
            return tr("new ship #{n}", n=e["ship"] + 1)
        return tr("ship #{n}", n=e["ship"] + 1)
    if e["kind"] == "tile_stored":
        return tr("storage")
    if e["kind"] == "tile_lost":
        return tr("lost (storage full)")
    return "?"


def did(events: Iterable[dict[str, Any]]) -> str:
    """One seat's doings in a phase, in order, in the past, each action once, with what it
    cost: 'bought a bow for 2 taler → new ship #2 · 2 taler, 1 worker'.

    Several uses of Money or Crowns in one turn make one segment ('2 workers × 3 crowns → 6
    VP'), and the workers they name are not counted again in the costs."""
    evs = list(events)
    parts: list[str] = []
    paid = 0
    blue = own = 0
    counted_workers = 0  # workers a Money or Crowns segment already names
    money: dict[str, Any] | None = None
    crowns: dict[str, Any] | None = None
    i = 0
    while i < len(evs):
        e = evs[i]
        k = e["kind"]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if k == "bonus_received":
            bits = []
            if e["vp"]:
                bits.append(tr("+{n} VP", n=e["vp"]))
            if e["workers"]:
                bits.append("+" + plural(e["workers"], "worker"))
            if e["taler"]:
                bits.append("+" + words.taler(e["taler"]))
            parts.append(tr("took the bonus {gains}", gains=", ".join(bits)))
        elif k == "tile_stored" and e["reason"] == "bonus":
            parts.append(tr("took {item} as bonus → storage", item=words.item_a(e["item"])))
        elif k == "tile_lost" and e["reason"] in ("bonus", "reward", "free_tile"):
            parts.append(tr("lost {item} (storage full)", item=words.item_a(e["item"])))
        elif k == "tile_not_received":
            why = {
                "bonus": N_("got no bonus tile: the stacks are empty"),
                "reward": N_("got no reward tile: the stacks are empty"),
                "free_tile": N_("got no free tile: the stacks are empty"),
            }
            reason = e["reason"]
            parts.append(
                tr(why[reason])
                if reason in why
                else tr("got no {what}: the stacks are empty", what=str(reason))
            )
        elif k == "bought":
            parts.append(
                tr(
                    "bought {item} for {price} → {where}",
                    item=words.item_a(e["item"]),
                    price=words.taler(e["price"]),
                    where=_landing(evs, i, e["item"]),
                )
            )
        elif k == "tile_stored" and e["reason"] == "free_tile":
            parts.append(tr("took {item} for free → storage", item=words.item_a(e["item"])))
        elif k == "transported":
            where = _landing(evs, i, e["item"])
            parts.append(tr("moved {item} → {where}", item=words.item_a(e["item"]), where=where))
        elif k == "money_taken":
            if money is None:
                money = {"workers": 0, "taler": 0, "at": len(parts)}
                parts.append("")
            money["workers"] += e["workers"]
            money["taler"] += e["taler"]
            counted_workers += e["workers"]
            parts[money["at"]] = tr(
                "took {taler} with {workers}",
                taler=words.taler(money["taler"]),
                workers=plural(money["workers"], "worker"),
            )
        elif k == "crowns_scored":
            if crowns is None:
                crowns = {"workers": 0, "vp": 0, "raw": 0, "at": len(parts)}
                parts.append("")
            crowns["workers"] += e["workers"]
            crowns["vp"] += e["vp"]
            crowns["raw"] += e["vp_before_cap"]
            counted_workers += e["workers"]
            capped = (
                tr(" (capped from {raw})", raw=crowns["raw"])
                if crowns["vp"] < crowns["raw"]
                else ""
            )
            parts[crowns["at"]] = tr(
                "scored {workers} × {crowns} → {vp} VP{capped}",
                workers=plural(crowns["workers"], "worker"),
                crowns=plural(e["crowns"], "crown"),
                vp=crowns["vp"],
                capped=capped,
            )
        elif k == "delivered":
            goods = ", ".join(words.goods_word(g) for g in e["goods"])
            parts.append(tr("delivered ship #{n} ({goods})", n=e["ship"] + 1, goods=goods))
        elif k == "ship_finished":
            parts.append(tr("finished ship #{n} (size {size})", n=e["ship"] + 1, size=e["size"]))
        elif k == "reward_taken":
            if e["reward"] == "goods":
                what = " + ".join(words.goods_word(g) for g in e["goods"])
            else:
                what = words.reward_name(e["reward"])
            parts.append(tr("took as reward: {reward}", reward=what))
        elif k == "extra_started":
            parts.append(tr("used the extra action: {action}", action=action(e["action"])))
        elif k == "passed":
            flipped = nxt["value"] if nxt and nxt["kind"] == "pass_tile_flipped" else None
            parts.append(
                tr("passed (flipped the −{n} VP pass tile)", n=flipped)
                if flipped
                else tr("passed (no pass tile left)")
            )
        elif k == "taler_paid":
            paid += e["amount"]
        elif k == "workers_used":
            blue += e["blue"]
            own += e["own"]
        i += 1
    if not parts:
        parts.append(tr("did nothing"))
    text = " · ".join(parts)
    costs = [words.taler(paid)] if paid else []
    spent = blue + own - counted_workers
    if spent > 0:
        workers = plural(spent, "worker")
        if blue and own and not counted_workers:
            workers = trn("{workers} ({n} blue)", "{workers} ({n} blue)", blue, workers=workers)
        elif blue and not own:
            workers = plural(spent, "blue worker")
        costs.append(workers)
    if costs:
        text += " · " + tr("cost: {costs}", costs=", ".join(costs))
    return text


def done_line(state_before_turn: State | None, raw_name: str, seat: int, events: Any) -> str:
    """What a pinged player's message becomes once they have acted: 'Ana (Masts) bought…'."""
    act = action(state_before_turn.action) if state_before_turn is not None else None
    who = f"✓ {PLAYER_MARKS[seat].emoji} {name(raw_name)}"
    if act and act != "?":
        return fit(tr("{who} ({action}) {did}", who=who, action=act, did=did(events)))
    return fit(tr("{who} {did}", who=who, did=did(events)))


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
    head = tr(
        "**Round {round} · Phase {phase} · {action}** on space {space} (bonus {bonus}, {blue})",
        round=header["round"],
        phase=header["phase"],
        action=action(header["action"]),
        space=space,
        bonus=words.bonus_text(data.SPACE_BONUS[space]),
        blue=plural(int(header["blue"]), "blue worker"),
    )
    tail = []
    if round_end is not None:
        lost = [
            tr("{name} −{n} VP", name=name(names[s]), n=v)
            for s, v in sorted(round_end.items())
            if v
        ]
        tail.append(
            tr(
                "Round {round} ends · pass tiles cost: {lost}",
                round=header["round"],
                lost=", ".join(lost) or tr("nobody"),
            )
        )
    tail.append(legend(names))
    # Player lines share what the header and the legend leave, so neither is ever cut.
    fixed = len(head) + sum(len(t) + 1 for t in tail) + len(order) + 1
    budget = max(80, (MAX_MESSAGE - fixed) // max(1, len(order)))
    lines = [head]
    for seat in order:
        line = tr(
            "{emoji} {name} {did}",
            emoji=PLAYER_MARKS[seat].emoji,
            name=name(names[seat]),
            did=did(by_seat.get(seat, [])),
        )
        lines.append(fit(line, budget))
    return fit("\n".join([*lines, *tail]))


def status_line(state: State, names: Sequence[str]) -> str:
    """Whose turn it is and what they must decide (no mention: status never pings)."""
    head = tr(
        "Round {round}/{rounds} · Phase {phase}/{phases}",
        round=state.round,
        rounds=state.rounds,
        phase=state.phase,
        phases=data.PHASES_PER_ROUND,
    )
    if state.step == "over":
        return fit(tr("{head} · the game is over.", head=head))
    seat = state.current
    assert seat is not None
    who = tr(
        "{emoji} {name} (seat {n})",
        emoji=PLAYER_MARKS[seat].emoji,
        name=name(names[seat]),
        n=seat + 1,
    )
    return fit(
        tr("{head} · {who} must {must}.", head=head, who=who, must=must_decide(state, you=False))
    )


def scores_line(state: State, names: Sequence[str]) -> str:
    return " · ".join(
        tr(
            "{emoji} {name} {vp} VP, {taler}, {workers}",
            emoji=PLAYER_MARKS[i].emoji,
            name=name(n),
            vp=p.score,
            taler=words.taler(p.taler),
            workers=plural(p.workers, "worker"),
        )
        for i, (n, p) in enumerate(zip(names, state.players, strict=True))
    )


def final_result(state: State, names: Sequence[str]) -> str:
    """The end of the game: ranking, the winner(s) and the tie-break if one decided anything."""
    scores = final_scores(state)
    ranked = sorted(scores, key=lambda s: (s.rank, s.seat))
    winners = [s for s in ranked if s.rank == 1]
    lines = [tr("**Game over!**")]
    if len(winners) == 1:
        w = winners[0]
        lines.append(tr("🏆 {name} wins with {vp} VP.", name=name(names[w.seat]), vp=w.vp))
    else:
        who = tr(" and ").join(name(names[w.seat]) for w in winners)
        lines.append(
            tr(
                "🏆 {who} share the win with {vp} VP (same VP, same leftovers: the tie-break "
                "could not split them).",
                who=who,
                vp=winners[0].vp,
            )
        )
    for s in ranked:
        lines.append(
            tr(
                "{rank}. {emoji} {name} — {vp} VP (track {track}, goods {goods}, ships {ships}, "
                "leftovers {leftover} from {taler})",
                rank=s.rank,
                emoji=PLAYER_MARKS[s.seat].emoji,
                name=name(names[s.seat]),
                vp=s.vp,
                track=s.track,
                goods=sum(s.goods_vp),
                ships=s.ships_vp,
                leftover=s.leftover_vp,
                taler=words.taler(s.total_taler),
            )
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
            why = tr(
                "more taler left over after scoring leftovers ({mine} vs {theirs})",
                mine=first.tiebreak[0],
                theirs=", ".join(str(g.tiebreak[0]) for g in group[1:]),
            )
        else:
            why = tr(
                "the higher leftover total ({mine} vs {theirs})",
                mine=first.tiebreak[1],
                theirs=", ".join(str(g.tiebreak[1]) for g in group[1:]),
            )
        lines.append(
            tr(
                "Tie-break at {vp} VP: {name} ranks ahead of {others} with {why}.",
                vp=vp,
                name=name(names[first.seat]),
                others=others,
                why=why,
            )
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
            return tr(
                "You haven't used {action} this turn, so ending it now is a pass.", action=act
            )
        if turn.blue > 0 and not turn.passed:
            return tr(
                "You still have {blue} for {action}; they are lost when your turn ends.",
                blue=plural(turn.blue, "blue worker"),
                action=act,
            )
    if mtype == "buy" and move.get("to") == "storage":
        it = move.get("item")
        if isinstance(it, str) and it in data.ITEM_INDEX:
            player = state.players[seat]
            full = player.storage_used + data.item_units(it) > data.STORAGE_UNITS
            if full and price_of(state, it) == 0:
                # N-BUY-5: legal, but the tile is lost; the worker is spent all the same.
                return tr(
                    "Your storage has no room for the {item}: it costs 0 taler but would be "
                    "lost, and the worker is spent all the same.",
                    item=item(it),
                )
    if mtype == "pass" and seat == state.start:
        return tr(
            "You chose {action} and took its bonus; if you pass you don't perform it yourself "
            "(the others still may).",
            action=act,
        )
    return None
