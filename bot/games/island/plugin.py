"""Nautilus Island as a platform plugin: its words, commands, panel and pictures.

Island has secrets (hands, face-down stacks), so every word here is read from the `Seen` given:
the public view for channel posts, a seat's own view for its replies. The view is a plain dict
(there is no "state" inside it); nothing here touches the engine's state.

Commands (`/island …`): `place column:`, `move column:`, `collect`, `store category: objects:`,
`close`, `keep-open`, `idle`. A store's objects are typed as names joined by `+`, one per card
(`ham+ham+bread`); `ham*2+bread` and commas are read too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts
from bot.games.island import calls, move_words, refusal_words, rules_digest, words
from bot.games.island.calls import _view, decode_objects, encode_objects, store_label
from bot.i18n import N_, tr, trn
from bot.plugin import (
    EventLine,
    MoveCommand,
    OptionSpec,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    ReplayFrames,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.island import RULES
from engine.island.state import State as IslandState

_COLUMN = OptionSpec("column", "The column your pawn faces (0 = bow)", "int")
MOVE_COMMANDS: tuple[MoveCommand, ...] = (
    MoveCommand("place", "Round 1: place your pawn above a column", (_COLUMN,)),
    MoveCommand("move", "Cross your pawn to the other side, facing a column", (_COLUMN,)),
    MoveCommand("collect", "Take the top card of every stack of your column"),
    MoveCommand(
        "store",
        "Store cards of one category from your hand into its collection",
        (
            OptionSpec("category", "The collection: clothing, navigation, repair, fishing, food"),
            OptionSpec("objects", "The cards, e.g. ham+ham+bread (autocompleted from your hand)"),
        ),
    ),
    MoveCommand("close", "Close the collection you just stored into (take its porthole)"),
    MoveCommand(
        "keep-open",
        "Leave the collection you just stored into open",
        (
            OptionSpec(
                "confirm",
                "Yes: keep it open even in the last round",
                "bool",
                required=False,
                autocomplete=False,
            ),
        ),
    ),
    MoveCommand("idle", "Do nothing: every column you may face is empty, nothing to store"),
)

__all__ = ["PLUGIN", "IslandPlugin", "decode_objects", "encode_objects", "store_label"]


class IslandPlugin:
    rules: Rules = RULES
    kind = "island"
    title = "Nautilus Island"
    command = "island"
    description = "Play Nautilus Island, the card-collecting submarine game, in this channel"
    hand_command = "hand"
    hand_description = "Your secret hand, treasures and collections (only to you)"
    move_commands: Sequence[MoveCommand] = MOVE_COMMANDS
    rules_topics: Mapping[str, str] = {k: t for k, (t, _) in rules_digest.TOPICS.items()}
    panel = PanelSpec(
        buttons=(
            PanelButton("collect", N_("Collect"), "primary"),
            PanelButton("close", N_("Close it"), "success"),
            PanelButton("keep_open", N_("Keep it open"), "secondary"),
            PanelButton("idle", N_("Do nothing"), "secondary"),
        ),
        what_placeholder=N_("What do you do?"),
        yes_anyway=N_("Yes, do it anyway"),
    )

    # --- commands ------------------------------------------------------------------------

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        return calls.move_from_call(command, options)

    def call_text(self, move: Move) -> str:
        return calls.call_text(move)

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        return calls.suggest(seen, command, option, typed, filled)

    def rules_digest(self, topic: str | None) -> str:
        return rules_digest.digest(topic)

    # --- the panel -----------------------------------------------------------------------

    def panel_header(self, seen: Seen) -> str:
        view = _view(seen)
        seat = seen.audience
        assert seat is not None
        head = f"{words.hand_short(view, seat)}\n"
        where = f"{words.round_words(view)} · "
        if view["step"] == "over":
            return head + where + tr("the game is over.")
        current = view["current"]
        if current != seat:
            who = words.who(seen.names, current)
            return (
                head
                + where
                + tr(
                    "not your turn: {who} must {must}.",
                    who=who,
                    must=words.decision(view, you=False),
                )
            )
        col = words.facing(view, seat)
        if view["step"] in ("act", "close") and col is not None:
            where += tr("you face {column}", column=words.column_label(view, col)) + " · "
        return texts.fit(
            head + where + tr("**your turn:** {must}.", must=words.decision(view, you=True))
        )

    def group_key(self, move: Move) -> str:
        t = move["type"]
        if t == "store":
            return f"store.{move['category']}"
        return str(t)

    def group_label(self, seen: Seen, key: str, moves: Sequence[Move]) -> str:
        view, seat, move = _view(seen), seen.audience, moves[0]
        assert seat is not None
        t = move["type"]
        if t in ("place", "move"):
            side = words.side_word(str(view["side"]))
            if len(moves) == 1:
                column = words.column_label(view, move["column"])
                if t == "place":
                    return tr("Place your pawn above {column}", column=column)
                return tr("Move your pawn {side} {column}", side=side, column=column)
            if t == "place":
                return tr("Place your pawn above a column ({n} choices)", n=len(moves))
            return tr("Move your pawn {side} a column ({n} choices)", side=side, n=len(moves))
        if t == "store":
            cat = move["category"]
            if len(moves) == 1:
                return tr("Store {what}", what=store_label(view, seat, move))
            hand = view["players"][seat]["hand"] or []
            mine = words.counted(c["object"] for c in hand if c["category"] == cat)
            return tr(
                "Store {category} — from hand: {cards}",
                category=words.category_name(cat),
                cards=mine,
            )
        label = {
            "collect": N_("Collect"),
            "close": N_("Close it"),
            "keep_open": N_("Keep it open"),
        }.get(t, N_("Do nothing"))
        return tr(label)

    def then_label(self, seen: Seen, move: Move) -> str:
        view, seat = _view(seen), seen.audience
        assert seat is not None
        if move["type"] in ("place", "move"):
            return words.column_label(view, move["column"])
        if move["type"] == "store":
            return store_label(view, seat, move)
        return self.call_text(move)

    def then_placeholder(self, move: Move) -> str:
        return tr("Which column?") if move["type"] in ("place", "move") else tr("Which cards?")

    # --- words ---------------------------------------------------------------------------

    def refusal_words(self) -> dict[str, str]:
        """The engine's words as its refusals quote them, in the context's language
        (bot.refusals)."""
        return refusal_words.refusal_words()

    def describe_move(self, move: Move, state: Any | None = None) -> str:
        """The move log's line, in the language of the context (bot.move_words)."""
        return move_words.describe(move, state)

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        return words.decision(_view(seen), you=you)

    def status_line(self, seen: Seen) -> str:
        view = _view(seen)
        cards = sum(c["cards"] for c in view["columns"])
        hands = ", ".join(
            f"{texts.name(seen.names[p['seat']])} {p['hand_size']}" for p in view["players"]
        )
        head = tr("{round}, turn {n}", round=words.round_words(view), n=words.turn_in_game(view))
        if view["step"] == "over":
            now = tr("the game is over")
        else:
            cur = view["current"]
            now = tr(
                "{who} must {must}",
                who=words.who(seen.names, cur),
                must=words.decision(view, you=False),
            )
        return texts.fit(
            trn(
                "{head} · {now} · Nautilus: {n} card left · cards in hand: {hands}",
                "{head} · {now} · Nautilus: {n} cards left · cards in hand: {hands}",
                cards,
                head=head,
                now=now,
                hands=hands,
            ),
            600,
        )

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        view = _view(seen)
        return texts.fit(
            tr(
                "{mention} — your turn. {round}: {must}. `/island hand` shows your cards.",
                mention=texts.mention(user_id),
                round=words.round_words(view),
                must=words.decision(view, you=True),
            )
        )

    def start_post(self, seen: Seen) -> Post:
        view = _view(seen)
        n = int(view["players_count"])
        sizes = "-".join(str(c["size"]) for c in view["columns"])
        first = words.who(seen.names, view["first_player"])
        return Post(
            texts.fit(
                tr(
                    "**Nautilus Island begins** — {n} players, {columns} columns of {sizes} "
                    "stacks, bow (column 0) to stern. Collect cards, store sets into collections, "
                    "take bonus tokens and close collections with portholes; when a column runs "
                    "out, one last round is played. {first} places first.",
                    n=n,
                    columns=len(view["columns"]),
                    sizes=sizes,
                    first=first,
                )
                + f"\n{texts.legend(seen.names)}\n"
                + tr("`/island hand` shows your secret hand; `/island rules` has the rules.")
            ),
            ("board",),
        )

    def unit(self, seen: Seen) -> tuple[int, int]:
        view = _view(seen)
        return int(view["round"]), words.turn_in_game(view)

    def unit_of_state(self, state: Any) -> tuple[int, int]:
        assert isinstance(state, IslandState)
        # Only the fields of the view `words.turn_in_game` reads, so both share one rule.
        side = state.side
        view = {
            "players_count": len(state.players),
            "players": [{"pawn": {"moved": p.pawn.side == side}} for p in state.players],
            "step": state.step,
            "round": state.round,
        }
        return state.round, words.turn_in_game(view)

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        public = [e for e in events if e.get("private_to") is None]
        return texts.fit(f"✓ {words.turn_story(before.names, seat, public)}")

    def phase_post(
        self,
        before: Seen,
        after: Seen,
        unit_moves: Sequence[EventLine],
        events: Sequence[dict[str, Any]],
    ) -> Post | None:
        if not any(e.get("kind") == "turn_ended" for e in events):
            return None
        turn: list[dict[str, Any]] = [
            e for m in unit_moves for e in m.events if e.get("private_to") is None
        ]
        seat = next((m.seat for m in unit_moves), None)
        if seat is None:
            return None
        bview, aview = _view(before), _view(after)
        lines = [
            tr(
                "**{round} · turn {n}** — {story}",
                round=words.round_words(bview),
                n=words.turn_in_game(bview),
                story=words.turn_story(before.names, seat, turn),
            )
        ]
        lines += words.table_notes(turn)
        if aview["step"] != "over" and aview["current"] is not None:
            lines.append(
                tr(
                    "Next: {who} — {must}.",
                    who=words.who(after.names, aview["current"]),
                    must=words.decision(aview, you=False),
                )
            )
        return Post(texts.fit("\n".join(lines)), ("board", "areas"))

    def final_post(self, seen: Seen) -> Post:
        view = _view(seen)
        final = view.get("final") or []
        winners = [s for s in final if s["rank"] == 1]
        lines = [tr("**Nautilus Island is over!**")]
        if winners:
            names = tr(" and ").join(words.who(seen.names, s["seat"]) for s in winners)
            lines.append(tr("🏆 {name} wins with {vp} VP.", name=names, vp=winners[0]["vp"]))
            top = [s for s in final if s["vp"] == winners[0]["vp"]]
            if len(top) > 1:
                lines.append(
                    tr(
                        "Tie on {vp} VP: the tied pawn nearest the stern wins (column {column}, "
                        "I-END-2).",
                        vp=winners[0]["vp"],
                        column=winners[0]["tiebreak"],
                    )
                )
        lines += words.score_lines(final, seen.names)
        return Post(texts.fit("\n".join(lines)), ("score_sheet",))

    def hand_text(self, seen: Seen) -> str:
        view = _view(seen)
        seat = seen.audience
        assert seat is not None
        me = view["players"][seat]
        hand = me["hand"] or []
        lines = [
            tr(
                "**Your hand** ({who}, {cards})",
                who=words.who(seen.names, seat),
                cards=trn("{n} card", "{n} cards", len(hand)),
            )
        ]
        lines += words.hand_lines(hand) or [tr("empty")]
        lines.append(tr("Treasures in hand: {vp} VP at the end.", vp=me["treasure_vp"] or 0))
        lines.append(tr("Your collections: {line}", line=words.collections_line(me)))
        lines.append(tr("Bonus and porthole VP so far: {vp}", vp=me["score"]))
        col = words.facing(view, seat)
        if col is not None:
            lines.append(
                tr(
                    "Your pawn is {side} {column}.",
                    side=words.side_word(str(me["pawn"]["side"])),
                    column=words.column_label(view, col),
                )
            )
        if view["step"] != "over":
            if view["current"] == seat:
                lines.append(tr("**Your turn:** {must}.", must=words.decision(view, you=True)))
            else:
                cur = words.who(seen.names, view["current"])
                lines.append(
                    tr("{who} must {must}.", who=cur, must=words.decision(view, you=False))
                )
        return texts.fit("\n".join(lines))

    def private_line(self, event: Mapping[str, Any]) -> str:
        if event.get("kind") == "card_drawn":
            card = str(event.get("card", ""))
            cat = card.split(":")[0]
            return tr(
                "you took the {object} of {category} from the face-down stack {stack} of column "
                "{column}",
                object=words.object_name(words.object_of(card)),
                category=words.category_name(cat),
                stack=event.get("stack"),
                column=event.get("column"),
            )
        return str(event.get("kind", "?"))

    # --- moves the platform plays or checks ------------------------------------------------

    def confirmation(self, seen: Seen, move: Move) -> str | None:
        view = _view(seen)
        if move.get("type") == "keep_open" and view["last_round"] and view["step"] == "close":
            pending = view.get("pending") or {}
            return tr(
                "This is the last round: a collection kept open now can never be closed, so its "
                "{vp} VP porthole would be lost.",
                vp=pending.get("porthole"),
            )
        return None

    def skip_move(self, seen: Seen) -> Move:
        legal = list(seen.legal)
        view = _view(seen)
        by_type = {m["type"]: m for m in reversed(legal)}
        if "collect" in by_type:
            return dict(by_type["collect"])
        if "idle" in by_type:
            return dict(by_type["idle"])
        if view["step"] == "close":
            # Closing can never hurt in the last round; before it, keeping open keeps options.
            return dict(by_type["close" if view["last_round"] else "keep_open"])
        stores = [m for m in legal if m["type"] == "store"]
        if stores and len(stores) == len(legal):
            return dict(min(stores, key=lambda m: sum(m["objects"].values())))
        return dict(legal[0])

    def skip_ends(self, before: Seen, after: Seen, move: Move) -> bool:
        b, a = _view(before), _view(after)
        return (
            a["step"] == "over"
            or a["current"] != before.audience
            or a["round"] != b["round"]
            or (b["step"] in ("act", "close") and a["step"] in ("place", "move"))
        )

    # --- pictures --------------------------------------------------------------------------

    def draw(self, pictures: Sequence[str], seen: Seen) -> list[Picture]:
        import render.island as pics  # loads fonts: only when a picture is drawn

        drawn: list[Any] = []
        for name in pictures:
            if name == "board":
                drawn.append(pics.board(seen.view, names=seen.names, before=seen.before))
            elif name == "areas":
                drawn.extend(pics.areas(seen.view, names=seen.names, before=seen.before))
            elif name == "score_sheet":
                drawn.append(pics.score_sheet(seen.view, names=seen.names))
            elif name == "hand" and seen.audience is not None:
                drawn.append(pics.hand(seen.view, names=seen.names, before=seen.before))
            else:
                raise ValueError(f"unknown picture {name!r}")
        return [Picture(p.filename, p.data, p.alt_text) for p in drawn]

    def board_pictures(self) -> tuple[str, ...]:
        return ("board", "areas")

    def replay_frames(
        self, views: Sequence[dict[str, Any]], names: Sequence[str]
    ) -> ReplayFrames | None:
        return None  # the board picture, drawn whole for each frame

    def hand_pictures(self) -> tuple[str, ...]:
        return ("hand",)


PLUGIN = IslandPlugin()
