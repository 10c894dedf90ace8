"""Nautilus duel as a platform plugin: its words, commands, panel and pictures.

The duel has secrets (each seat's divers and special, the eye's snapshot, the won piles), so
every word here is read from the `Seen` it is given: the public view for the channel, a seat's
own view (`view["me"]`) only in that seat's private replies. Nothing reads a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts as common
from bot.games.duel import calls, move_words, refusal_words, rules_digest, words
from bot.i18n import N_, tr, trn
from bot.plugin import (
    EventLine,
    MoveCommand,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    ReplayFrames,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.duel import RULES
from engine.duel.state import State as DuelState

_THEN = {"place": N_("Where does it go?"), "arrow": N_("Where does it move?")}
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
        f"{words.domain(d)} {w['total']:+d}" if w["total"] else f"{words.domain(d)} 0"
        for d, w in me["won_by_domain"].items()
        if w["cards"]
    ]
    n = len(me["won"])
    return trn("{n} domain card", "{n} domain cards", n) + (
        f" ({', '.join(piles)})" if piles else ""
    )


def _resources(seen: Seen) -> str:
    me = _me(seen)
    special = me["special"]
    held = (
        tr("special: **{special}**", special=words.special(special))
        if special
        else tr("no special")
    )
    return tr(
        "Your divers: **{divers}** · {held} · won: {won}",
        divers=words.values(me["divers"]),
        held=held,
        won=_won_words(me),
    )


def _knowledge(seen: Seen) -> list[str]:
    """What the seat knows of the opponent's hand (its own knowledge only)."""
    me = _me(seen)
    opp = _opponent(seen)
    out = []
    if me.get("opponent_special"):
        out.append(
            tr(
                "You gave {name} {special} (not played yet).",
                name=opp,
                special=words.the_special(me["opponent_special"]),
            )
        )
    if me.get("eye"):
        out.append(
            tr(
                "The eye showed {name}'s divers in round {n}: {cards}.",
                name=opp,
                n=me["eye"]["round"],
                cards=words.values(me["eye"]["divers"]),
            )
        )
    if me.get("known"):
        out.append(tr("{name} still holds: {cards}.", name=opp, cards=words.values(me["known"])))
    if me.get("deck_top") is not None:
        out.append(
            tr("You put {card} back on top of the diver deck.", card=words.card(me["deck_top"]))
        )
    return out


def _situation(seen: Seen) -> str:
    """What the seat must decide now, in one line."""
    view = seen.view
    me = _me(seen)
    head = words.where(view)
    step = view["step"]
    opp = _opponent(seen)
    if step == "over":
        return tr("{head} — the game is over.", head=head)
    if view["current"] != seen.audience:
        cur = view["current"]
        line = tr(
            "{head} — {name} must {must}.",
            head=head,
            name=common.name(seen.names[cur]),
            must=words.must_decide(view),
        )
        h = me.get("harpoon")
        if h and h["role"] == "lost":
            line += " " + tr("Their harpoon took your {card}.", card=words.card_short(h["card"]))
        return line
    if step == "keep":
        drawn = tr(" and ").join(words.the_special(s) for s in me["drawn"])
        return tr(
            "{head} — you drew {specials}: keep one, the other goes to {name}.",
            head=head,
            specials=drawn,
            name=opp,
        )
    if step == "eye":
        return tr("{head} — play the eye to see {name}'s divers.", head=head, name=opp)
    if step == "dive":
        return tr(
            "{head} — the diving module drew {cards}: keep one, the other goes back on top of "
            "the deck.",
            head=head,
            cards=words.values(me["module"]),
        )
    if step == "harpoon":
        took = (me.get("harpoon") or {}).get("card")
        return tr(
            "{head} — your harpoon took {name}'s {card}: keep it and give one of yours, or give "
            "it back.",
            head=head,
            name=opp,
            card=words.card_short(took or 0),
        )
    if step == "arrow" and view.get("arrow"):
        a = view["arrow"]
        direction = a["direction"]
        word = words.ARROW_WORDS.get(direction)
        return tr(
            "{head} — your {card}'s {direction} arrow must move a card: choose which and where.",
            head=head,
            card=a["card"],
            direction=tr(word) if word is not None else direction,
        )
    anchor = " " + tr("You may play the anchor with it.") if me.get("special") == "anchor" else ""
    return tr("{head} — your turn: place a card.", head=head) + anchor


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
        buttons=(PanelButton("eye", N_("Play the eye"), "primary"),),
        what_placeholder=N_("What do you do?"),
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
            given = words.the_special(other[0]) if other else tr("the other")
            return tr(
                "Keep {special} — give {given} to {name}",
                special=words.the_special(move["special"]),
                given=given,
                name=opp,
            )
        if t == "eye":
            return tr("Play the eye: see {name}'s divers", name=opp)
        if t == "dive":
            back = [v for v in me["module"] if v != move["keep"]]
            rest = tr(" — {card} goes back on the deck", card=words.card(back[0])) if back else ""
            return tr("Keep {card}", card=words.card(move["keep"])) + rest
        if t == "harpoon":
            took = (me.get("harpoon") or {}).get("card")
            if move["give"] == took:
                return tr("Give {card} back to {name}", card=words.card(took), name=opp)
            return tr(
                "Keep {card}, give {name} your {mine}",
                card=words.card(took or 0),
                name=opp,
                mine=words.card_short(move["give"]),
            )
        if t == "place":
            label = tr("Place {card}", card=words.card_label(move["card"]))
            if len(moves) == 1:
                label += f" — {self.then_label(seen, move)}"
            return label
        if t == "arrow":
            at = calls._where(seen.view, move["card"])
            now = (
                tr(
                    " (now on {side}, slot {n})",
                    side=words.side(seen.names, at[0], seen.audience),
                    n=at[1] + 1,
                )
                if at
                else ""
            )
            label = tr("Move {card}", card=words.card(move["card"])) + now
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
            tr(" — across: {card}", card=words.card_short(across))
            if across is not None
            else tr(" — across: empty")
        )
        if t == "place" and "anchor" in move:
            if move["anchor"] == move["card"]:
                text += " · " + tr("⚓ anchor on it")
            else:
                text += " · " + tr("⚓ anchor on {card}", card=words.card(move["anchor"]))
        return text

    def then_placeholder(self, move: Move) -> str:
        placeholder = _THEN.get(str(move["type"]))
        return tr(placeholder) if placeholder is not None else tr("Choose")

    # --- words ---------------------------------------------------------------------------

    def refusal_words(self) -> dict[str, str]:
        """The engine's words as its refusals quote them, in the context's language
        (bot.refusals)."""
        return refusal_words.refusal_words()

    def describe_move(self, move: Move, state: Any | None = None) -> str:
        """The move log's line, in the language of the context (bot.move_words)."""
        return move_words.describe(move, state)

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        return words.must_decide(seen.view)

    def status_line(self, seen: Seen) -> str:
        view = seen.view
        if view["step"] == "over":
            return f"{words.where(view)} · {words.result(view, seen.names)}"
        cur = view["current"]
        return tr(
            "{where} · {who} to {must} · Nemo token: {first} · domain cards won: {won}",
            where=words.where(view),
            who=words.who(seen.names, cur),
            must=words.must_decide(view),
            first=common.name(seen.names[view["first"]]),
            won=words.won_counts(view, seen.names),
        )

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        view = seen.view
        return tr(
            "{mention} — your turn in the Nautilus duel ({where}): {must}. Press **Play** for "
            "your private panel.",
            mention=common.mention(user_id),
            where=words.where(view),
            must=words.must_decide(view),
        )

    def start_post(self, seen: Seen) -> Post:
        view = seen.view
        head = tr(
            "**The Nautilus duel begins** — {rounds} rounds. Each round you hold 5 secret divers "
            "and a special; place cards on the ten spaces along the Nautilus, and each slot's "
            "domain card goes to the higher card. Nemo token (first player): {first}.",
            rounds=view["rounds"],
            first=words.who(seen.names, view["first"]),
        )
        tail = tr("`/duel rules` for the rules, `/duel hand` for your hand.")
        text = common.fit(f"{head}\n{common.legend(seen.names)}\n{tail}")
        return Post(text, ("board",))

    def unit(self, seen: Seen) -> tuple[int, int]:
        return words.unit(seen.view)

    def unit_of_state(self, state: Any) -> tuple[int, int]:
        assert isinstance(state, DuelState)
        # Only the fields of the view `words.unit` reads, so both share one rule.
        return words.unit({"step": state.step, "placed": state.placed, "round": state.round})

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        lines = [
            line
            for e in events
            if e["kind"] in _DONE_KINDS
            and e.get("seat") == seat
            and (line := words.event_line(e, before.names, before.view)) is not None
        ]
        who = words.who(before.names, seat)
        if not lines:
            return tr("✓ {who} has decided.", who=who)
        text = tr("; ").join(lines)
        if not text.startswith(who):
            # An arrow's move is a move of its own; its line names the arrow, not the player.
            text = tr("{who} — {did}", who=who, did=text)
        return common.fit(f"✓ {text}.")

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
        rounds = before.view["rounds"]
        lines = [
            tr("**Round {n}/{rounds} · specials**", n=r, rounds=rounds)
            if p == 0
            else tr(
                "**Round {n}/{rounds} · placement {p}/{spaces}**",
                n=r,
                rounds=rounds,
                p=p,
                spaces=words.SPACES,
            )
        ]
        for m in unit_moves:
            for e in m.events:
                line = words.event_line(e, names, before.view)
                if line is not None:
                    lines.append(f"{line}.")
        awards = words.award_lines(events, names)
        if awards:
            lines.append(tr("**Round {n} ends — the awards:**", n=r))
            lines += awards
        for e in events:
            if e["kind"] == "round_started":
                lines.append(words.round_start(e, names))
        if not over and p != 0:
            view = after.view
            lines.append(
                tr(
                    "Next: {who} must {must}.",
                    who=words.who(names, view["current"]),
                    must=words.must_decide(view),
                )
            )
        pictures: tuple[str, ...] = () if p == 0 else ("board",)
        return Post(common.fit("\n".join(lines)), pictures)

    def final_post(self, seen: Seen) -> Post:
        view = seen.view
        lines = [
            tr("**The Nautilus duel is over.**"),
            words.result(view, seen.names),
            tr(
                "Domain totals ({first} – {second}):",
                first=common.name(seen.names[0]),
                second=common.name(seen.names[1]),
            ),
            *words.domain_table(view, seen.names),
        ]
        return Post(common.fit("\n".join(lines)), ("score_sheet",))

    def hand_text(self, seen: Seen) -> str:
        me = _me(seen)
        view = seen.view
        divers = ", ".join(words.card_label(v) for v in me["divers"]) or tr("none (all placed)")
        lines = [
            tr(
                "**Your hand** ({who}, seat {n}) · {where}",
                who=words.who(seen.names, me["seat"]),
                n=me["seat"] + 1,
                where=words.where(view),
            ),
            tr("Divers: {cards}", cards=divers),
        ]
        if me["special"]:
            # The hint's catalogue id is looked up first: a subscript with a literal inside
            # `tr(...)` is read by some versions of the catalogue extractor as a message.
            hint = words.SPECIAL_HINTS[me["special"]]
            lines.append(
                tr(
                    "Special: **{special}** — {hint}",
                    special=words.special(me["special"]),
                    hint=tr(hint),
                )
            )
        else:
            lines.append(tr("Special: none in hand"))
        lines += _knowledge(seen)
        lines.append(tr("Won pile: {won}", won=_won_words(me)))
        for d, w in me["won_by_domain"].items():
            if w["cards"]:
                kinds = [c["kind"] for c in w["cards"]]
                cards = ", ".join(
                    f"{kinds.count(k)}× {tr(words.KIND_WORDS[k])}"
                    for k in ("two_stars", "one_star", "ink")
                    if k in kinds
                )
                lines.append(
                    tr(
                        "• {domain}: {cards} → {total}",
                        domain=words.domain(d),
                        cards=cards,
                        total=w["total"],
                    )
                )
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
                drawn.append(pics.board(seen.view, names=seen.names, before=seen.before))
            elif name == "score_sheet":
                drawn.append(pics.score_sheet(seen.view, names=seen.names))
            elif name == "hand" and seen.audience is not None:
                drawn.append(pics.hand(seen.view, names=seen.names, before=seen.before))
            else:
                raise ValueError(f"unknown picture {name!r}")
        return [Picture(p.filename, p.data, p.alt_text) for p in drawn]

    def board_pictures(self) -> tuple[str, ...]:
        return ("board",)

    def replay_frames(
        self, views: Sequence[dict[str, Any]], names: Sequence[str]
    ) -> ReplayFrames | None:
        return None  # the board picture, drawn whole for each frame

    def hand_pictures(self) -> tuple[str, ...]:
        return ("hand",)


PLUGIN = DuelPlugin()
