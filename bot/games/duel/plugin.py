"""Nautilus duel as a platform plugin: its words, commands, panel and pictures.

The duel has secrets (each seat's divers and special, the eye's snapshot, the won piles), so
every word here is read from the `Seen` it is given: the public view for the channel, a seat's
own view (`view["me"]`) only in that seat's private replies. Nothing reads a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts as common
from bot.games.duel import calls, rules_digest, words
from bot.plugin import (
    EventLine,
    MoveCommand,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.duel import RULES

_THEN = {"place": "Where does it go?", "arrow": "Where does it move?"}
# Public events that a seat's own move makes and its done line tells.
_DONE_KINDS = (
    "special_kept",
    "special_played",
    "module_kept",
    "harpoon_took",
    "harpoon_resolved",
    "placed",
    "anchored",
    "arrow_moved",
    "arrow_blocked",
)


def _me(seen: Seen) -> dict[str, Any]:
    me = seen.view.get("me")
    if seen.audience is None or not isinstance(me, dict):
        raise ValueError("this needs a seat's own view")
    return me


def _other(seen: Seen) -> int:
    return 1 - (seen.audience or 0)


def _opponent(seen: Seen) -> str:
    return common.name(seen.names[_other(seen)])


def _won_words(me: Mapping[str, Any]) -> str:
    piles = [
        f"{d} {w['total']:+d}" if w["total"] else f"{d} 0"
        for d, w in me["won_by_domain"].items()
        if w["cards"]
    ]
    n = len(me["won"])
    return f"{common.plural(n, 'domain card')}" + (f" ({', '.join(piles)})" if piles else "")


def _resources(seen: Seen) -> str:
    me = _me(seen)
    special = me["special"]
    held = f"special: **{words.special(special)}**" if special else "no special"
    return f"Your divers: **{words.values(me['divers'])}** · {held} · won: {_won_words(me)}"


def _knowledge(seen: Seen) -> list[str]:
    """What the seat knows of the opponent's hand (its own knowledge only)."""
    me = _me(seen)
    opp = _opponent(seen)
    out = []
    if me.get("opponent_special"):
        out.append(f"You gave {opp} the {words.special(me['opponent_special'])} (not played yet).")
    if me.get("eye"):
        out.append(
            f"The eye showed {opp}'s divers in round {me['eye']['round']}: "
            f"{words.values(me['eye']['divers'])}."
        )
    if me.get("known"):
        out.append(f"{opp} still holds: {words.values(me['known'])}.")
    if me.get("deck_top") is not None:
        out.append(f"You put {words.card(me['deck_top'])} back on top of the diver deck.")
    return out


def _situation(seen: Seen) -> str:
    """What the seat must decide now, in one line."""
    view = seen.view
    me = _me(seen)
    head = words.where(view)
    step = view["step"]
    opp = _opponent(seen)
    if step == "over":
        return f"{head} — the game is over."
    if view["current"] != seen.audience:
        cur = view["current"]
        line = f"{head} — {common.name(seen.names[cur])} must {words.must_decide(view)}."
        h = me.get("harpoon")
        if h and h["role"] == "lost":
            line += f" Their harpoon took your {words.card_short(h['card'])}."
        return line
    if step == "keep":
        drawn = " and the ".join(words.special(s) for s in me["drawn"])
        return f"{head} — you drew the {drawn}: keep one, the other goes to {opp}."
    if step == "eye":
        return f"{head} — play the eye to see {opp}'s divers."
    if step == "dive":
        return (
            f"{head} — the diving module drew {words.values(me['module'])}: keep one, the "
            "other goes back on top of the deck."
        )
    if step == "harpoon":
        took = (me.get("harpoon") or {}).get("card")
        return (
            f"{head} — your harpoon took {opp}'s {words.card_short(took or 0)}: keep it and "
            "give one of yours, or give it back."
        )
    if step == "arrow" and view.get("arrow"):
        a = view["arrow"]
        return (
            f"{head} — your {a['card']}'s {a['direction']} arrow must move a card: choose "
            "which and where."
        )
    anchor = " You may play the anchor with it." if me.get("special") == "anchor" else ""
    return f"{head} — your turn: place a card.{anchor}"


class DuelPlugin:
    rules: Rules = RULES
    kind = "duel"
    title = "Nautilus duel"
    command = "duel"
    description = "Play the Nautilus duel, a two-player card game with secret hands"
    hand_command = "hand"
    hand_description = "Your divers, your special and your won pile (only to you)"
    move_commands: Sequence[MoveCommand] = calls.MOVE_COMMANDS
    rules_topics: Mapping[str, str] = {k: t for k, (t, _) in rules_digest.TOPICS.items()}
    panel = PanelSpec(
        buttons=(PanelButton("eye", "Play the eye", "primary"),),
        what_placeholder="What do you do?",
    )

    # --- commands ------------------------------------------------------------------------

    def rules_digest(self, topic: str | None) -> str:
        return rules_digest.digest(topic)

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        return calls.from_call(command, options)

    def call_text(self, move: Move) -> str:
        return calls.to_call(move)

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        return calls.suggest(seen, command, option, typed, filled)

    # --- the panel -----------------------------------------------------------------------

    def panel_header(self, seen: Seen) -> str:
        return "\n".join([_resources(seen), _situation(seen), *_knowledge(seen)])

    def group_key(self, move: Move) -> str:
        t = move["type"]
        if t == "keep":
            return f"keep.{move['special']}"
        if t == "dive":
            return f"dive.{move['keep']}"
        if t == "harpoon":
            return f"harpoon.{move['give']}"
        if t in ("place", "arrow"):
            return f"{t}.{move['card']}"
        return str(t)

    def group_label(self, seen: Seen, key: str, moves: Sequence[Move]) -> str:
        me = _me(seen)
        move = moves[0]
        t = move["type"]
        opp = _opponent(seen)
        if t == "keep":
            other = [s for s in me["drawn"] if s != move["special"]]
            given = words.special(other[0]) if other else "other"
            return f"Keep the {words.special(move['special'])} — give the {given} to {opp}"
        if t == "eye":
            return f"Play the eye: see {opp}'s divers"
        if t == "dive":
            back = [v for v in me["module"] if v != move["keep"]]
            rest = f" — {words.card(back[0])} goes back on the deck" if back else ""
            return f"Keep {words.card(move['keep'])}{rest}"
        if t == "harpoon":
            took = (me.get("harpoon") or {}).get("card")
            if move["give"] == took:
                return f"Give {words.card(took)} back to {opp}"
            return f"Keep {words.card(took or 0)}, give {opp} your {words.card_short(move['give'])}"
        if t == "place":
            label = f"Place {words.card_label(move['card'])}"
            if len(moves) == 1:
                label += f" — {self.then_label(seen, move)}"
            return label
        if t == "arrow":
            at = calls._where(seen.view, move["card"])
            now = (
                f" (now on {words.side(seen.names, at[0], seen.audience)}, slot {at[1] + 1})"
                if at
                else ""
            )
            label = f"Move {words.card(move['card'])}{now}"
            if len(moves) == 1:
                label += f" → {self.then_label(seen, move)}"
            return label
        return key

    def then_label(self, seen: Seen, move: Move) -> str:
        view = seen.view
        t = move["type"]
        if t not in ("place", "arrow"):
            return words.card_short(int(move.get("keep", move.get("give")) or 0))
        s, k = move["side"], move["slot"]
        text = f"{words.side(seen.names, s, seen.audience)}, {words.slot(view, k)}"
        across = view["slots"][k]["sides"][1 - s]["card"]
        text += (
            f" — across: {words.card_short(across)}" if across is not None else " — across: empty"
        )
        if t == "place" and "anchor" in move:
            on = "it" if move["anchor"] == move["card"] else words.card(move["anchor"])
            text += f" · ⚓ anchor on {on}"
        return text

    def then_placeholder(self, move: Move) -> str:
        return _THEN.get(str(move["type"]), "Choose")

    # --- words ---------------------------------------------------------------------------

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        return words.must_decide(seen.view)

    def status_line(self, seen: Seen) -> str:
        view = seen.view
        if view["step"] == "over":
            return f"{words.where(view)} · {words.result(view, seen.names)}"
        cur = view["current"]
        return (
            f"{words.where(view)} · {words.who(seen.names, cur)} to {words.must_decide(view)} · "
            f"Nemo token: {common.name(seen.names[view['first']])} · domain cards won: "
            f"{words.won_counts(view, seen.names)}"
        )

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        view = seen.view
        return (
            f"{common.mention(user_id)} — your turn in the Nautilus duel ({words.where(view)}): "
            f"{words.must_decide(view)}. Press **Play** for your private panel."
        )

    def start_post(self, seen: Seen) -> Post:
        view = seen.view
        text = common.fit(
            f"**The Nautilus duel begins** — {view['rounds']} rounds. Each round you hold 5 "
            "secret divers and a special; place cards on the ten spaces along the Nautilus, and "
            "each slot's domain card goes to the higher card. Nemo token (first player): "
            f"{words.who(seen.names, view['first'])}.\n{common.legend(seen.names)}\n"
            "`/duel rules` for the rules, `/duel hand` for your hand."
        )
        return Post(text, ("board",))

    def unit(self, seen: Seen) -> tuple[int, int]:
        return words.unit(seen.view)

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        lines = [
            line
            for e in events
            if e["kind"] in _DONE_KINDS
            and e.get("seat") == seat
            and (line := words.event_line(e, before.names, before.view)) is not None
        ]
        if not lines:
            return f"✓ {words.who(before.names, seat)} has decided."
        return common.fit("✓ " + "; ".join(lines) + ".")

    def phase_post(
        self,
        before: Seen,
        after: Seen,
        unit_moves: Sequence[EventLine],
        events: Sequence[dict[str, Any]],
    ) -> Post | None:
        r, p = words.unit(before.view)
        over = after.view["step"] == "over"
        if words.unit(after.view) == (r, p) and not over:
            return None
        names = before.names
        lines = [
            f"**Round {r}/{before.view['rounds']} · "
            + ("specials**" if p == 0 else f"placement {p}/{words.SPACES}**")
        ]
        for m in unit_moves:
            for e in m.events:
                line = words.event_line(e, names, before.view)
                if line is not None:
                    lines.append(f"{line}.")
        awards = words.award_lines(events, names)
        if awards:
            lines.append(f"**Round {r} ends — the awards:**")
            lines += awards
        for e in events:
            if e["kind"] == "round_started":
                lines.append(words.round_start(e, names))
        if not over and p != 0:
            view = after.view
            lines.append(
                f"Next: {words.who(names, view['current'])} must {words.must_decide(view)}."
            )
        pictures: tuple[str, ...] = () if p == 0 else ("board",)
        return Post(common.fit("\n".join(lines)), pictures)

    def final_post(self, seen: Seen) -> Post:
        view = seen.view
        lines = [
            "**The Nautilus duel is over.**",
            words.result(view, seen.names),
            f"Domain totals ({common.name(seen.names[0])} – {common.name(seen.names[1])}):",
            *words.domain_table(view, seen.names),
        ]
        return Post(common.fit("\n".join(lines)), ("score_sheet",))

    def hand_text(self, seen: Seen) -> str:
        me = _me(seen)
        view = seen.view
        lines = [
            f"**Your hand** ({words.who(seen.names, me['seat'])}, seat {me['seat'] + 1}) · "
            f"{words.where(view)}",
            "Divers: "
            + (", ".join(words.card_label(v) for v in me["divers"]) or "none (all placed)"),
        ]
        if me["special"]:
            lines.append(
                f"Special: **{words.special(me['special'])}** — "
                f"{words.SPECIAL_HINTS[me['special']]}"
            )
        else:
            lines.append("Special: none in hand")
        lines += _knowledge(seen)
        lines.append(f"Won pile: {_won_words(me)}")
        for d, w in me["won_by_domain"].items():
            if w["cards"]:
                kinds = [c["kind"] for c in w["cards"]]
                cards = ", ".join(
                    f"{kinds.count(k)}× {words.KIND_WORDS[k]}"
                    for k in ("two_stars", "one_star", "ink")
                    if k in kinds
                )
                lines.append(f"• {d}: {cards} → {w['total']}")
        lines.append(_situation(seen))
        return common.fit("\n".join(lines))

    def private_line(self, event: Mapping[str, Any]) -> str:
        return words.private_line(event)

    # --- moves the platform plays or checks ------------------------------------------------

    def confirmation(self, seen: Seen, move: Move) -> str | None:
        return None  # every duel decision is one click, and none is lost by mistake

    def skip_move(self, seen: Seen) -> Move:
        # The first legal move the engine lists, a placement without the anchor if any: the
        # same state always skips the same way, and a skip never spends the anchor.
        for m in seen.legal:
            if m["type"] != "place" or "anchor" not in m:
                return dict(m)
        return dict(seen.legal[0])

    def skip_ends(self, before: Seen, after: Seen, move: Move) -> bool:
        # A placement whose arrow waits for a choice is not finished yet.
        return bool(after.view["step"] != "arrow" or after.view["current"] != before.audience)

    # --- pictures --------------------------------------------------------------------------

    def draw(self, pictures: Sequence[str], seen: Seen) -> list[Picture]:
        import render.duel as pics  # loads fonts: only when a picture is drawn

        drawn: list[Any] = []
        for name in pictures:
            if name == "board":
                drawn.append(pics.board(seen.view))
            elif name == "score_sheet":
                drawn.append(pics.score_sheet(seen.view))
            elif name == "hand" and seen.audience is not None:
                drawn.append(pics.hand(seen.view))
            else:
                raise ValueError(f"unknown picture {name!r}")
        return [Picture(p.filename, p.data, p.alt_text) for p in drawn]

    def board_pictures(self) -> tuple[str, ...]:
        return ("board",)

    def hand_pictures(self) -> tuple[str, ...]:
        return ("hand",)


PLUGIN = DuelPlugin()
