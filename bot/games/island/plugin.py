"""Nautilus Island as a platform plugin: its words, commands, panel and pictures.

Island has secrets (hands, face-down stacks), so every word here is read from the `Seen` given:
the public view for channel posts, a seat's own view for its replies. The view is a plain dict
(there is no "state" inside it); nothing here touches the engine's state.

Commands (`/island …`): `place column:`, `move column:`, `collect`, `store category: objects:`,
`close`, `keep-open`, `idle`. A store's objects are typed as names joined by `+`, one per card
(`ham+ham+bread`); `ham*2+bread` and commas are read too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot import i18n, texts
from bot.games.island import move_words, refusal_words, rules_digest, words
from bot.i18n import N_, tr, trn
from bot.plugin import (
    BadOption,
    EventLine,
    MoveCommand,
    OptionSpec,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.island import RULES, data

MAX_SUGGESTIONS = 25  # Discord's limit on autocomplete choices

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

_SIMPLE = {"collect": "collect", "close": "close", "keep-open": "keep_open", "idle": "idle"}
_SIMPLE_CALL = {v: k for k, v in _SIMPLE.items()}
# Categories and objects as a player may type them, in every language the bot speaks
# ("vivres", "jambon+pain", "carte marine", and the board's short words such as "carte").
_CATEGORY_ALIASES = texts.typed_names(
    data.CATEGORIES,
    lambda c: data.CATEGORY_NAME[c],
    words.category_name,
    words.short_category,
) | {"treasures": data.TREASURE}
_OBJECT_ALIASES = texts.typed_names(
    (o for objects in data.OBJECTS.values() for o in objects),
    words.object_name,
    lambda o: i18n.template_c("picture", o),
)
# A count before or after the name: '2 ham', '2x ham', 'ham*2', 'ham x2'.
_PART = re.compile(r"^\s*(?:(\d+)\s*[x×*]?\s*)?([^\d×*]+?)\s*(?:[x×*]\s*(\d+))?\s*$")


def encode_objects(objects: Mapping[str, int]) -> str:
    """{'ham': 2, 'bread': 1} -> 'bread+ham+ham' (the category's object order)."""
    order = sorted(objects, key=lambda o: (data.OBJECT_INDEX.get(o, 99), o))
    return "+".join(o for o in order for _ in range(int(objects[o])))


def decode_objects(text: str, category: str) -> dict[str, int]:
    """'ham+ham+bread', 'ham*2+bread', 'ham x2, bread' -> {'ham': 2, 'bread': 1}.

    Raises:
        BadOption: a part that is no object of the category, or a count below 1.
    """
    allowed = data.OBJECTS.get(category, ())
    found: Counter[str] = Counter()
    parts = [p for p in re.split(r"[+,]", text.lower()) if p.strip()]
    if not parts or len(parts) > 12:
        raise BadOption(
            tr(
                "“{text}” names no cards: type them joined by +, e.g. {example}.",
                text=texts.quoted(text[:60]),
                example="+".join(words.object_name(o) for o in allowed[:2]) or "ham+bread",
            )
        )
    for part in parts:
        m = _PART.match(part)
        name = _OBJECT_ALIASES.get(texts.folded(m.group(2)), "") if m else ""
        if m is None or name not in allowed:
            raise BadOption(
                tr(
                    "“{part}” is not an object of {category} ({objects}).",
                    part=texts.quoted(part.strip()[:40]),
                    category=words.category_name(category),
                    objects=", ".join(words.object_name(o) for o in allowed),
                )
            )
        count = int(m.group(1) or m.group(3) or 1)
        if not 1 <= count <= 9:
            raise BadOption(tr("{n} is not a number of cards (1 to 3).", n=count))
        found[name] += count
    return dict(found)


def _category(raw: Any) -> str:
    if not isinstance(raw, str) or texts.folded(raw) not in _CATEGORY_ALIASES:
        shown = texts.quoted(str(raw)[:40])
        names = [words.short_category(c) for c in data.STORABLE]
        raise BadOption(
            tr(
                "“{value}” is not a category: {names} or {last}.",
                value=shown,
                names=", ".join(names[:-1]),
                last=names[-1],
            )
        )
    return _CATEGORY_ALIASES[texts.folded(raw)]


def _view(seen: Seen) -> dict[str, Any]:
    return seen.view


def _porthole_for(view: Mapping[str, Any], size: int) -> int | None:
    for pile in view["portholes"]:
        if pile["size"] == size:
            return pile["next"] if pile["left"] else None
    return None


def _collection(view: Mapping[str, Any], seat: int, category: str) -> Mapping[str, Any]:
    return next(c for c in view["players"][seat]["collections"] if c["category"] == category)


def _camp_token(view: Mapping[str, Any], category: str) -> str | None:
    for space in view["camp"]:
        if space["category"] == category:
            token = space["token"]
            return None if token is None else str(token)
    return None


def store_label(view: Mapping[str, Any], seat: int, move: Move) -> str:
    """'bread+ham+ham → food collection of 5 (can close: 11 VP)'."""
    objects = move["objects"]
    n = sum(objects.values())
    size = _collection(view, seat, move["category"])["size"] + n
    porthole = _porthole_for(view, size)
    close = tr(" (can close: {vp} VP)", vp=porthole) if porthole is not None else ""
    objs = words.counted(Counter(objects).elements())
    return f"{objs} → {words.short_category(move['category'])} {size}{close}"


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

    def rules_digest(self, topic: str | None) -> str:
        return rules_digest.digest(topic)

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        if command in _SIMPLE:
            return {"type": _SIMPLE[command]}
        if command in ("place", "move"):
            col = options.get("column")
            if isinstance(col, str) and col.strip().isdigit():
                col = int(col.strip())
            if isinstance(col, bool) or not isinstance(col, int):
                raise BadOption(
                    tr("“{value}” is not a column number.", value=texts.quoted(str(col)[:40]))
                )
            return {"type": command, "column": col}
        if command == "store":
            category = _category(options.get("category"))
            if category == data.TREASURE:
                raise BadOption(tr("Treasures are never stored: they score from your hand."))
            objects = options.get("objects")
            if not isinstance(objects, str):
                raise BadOption(tr("Name the cards to store, e.g. ham+ham+bread."))
            return {
                "type": "store",
                "category": category,
                "objects": decode_objects(objects, category),
            }
        raise BadOption(tr("/island {command} is not a move.", command=texts.quoted(command[:40])))

    def call_text(self, move: Move) -> str:
        t = move["type"]
        if t in ("place", "move"):
            return f"/island {t} column:{move['column']}"
        if t == "store":
            objects = encode_objects(move["objects"])
            return f"/island store category:{move['category']} objects:{objects}"
        return f"/island {_SIMPLE_CALL[t]}"

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        if seen.audience is None:
            return []
        view, seat = _view(seen), seen.audience
        want = typed.strip().lower()
        out: list[Suggestion] = []
        if command in ("place", "move") and option == "column":
            for m in seen.legal:
                if m["type"] == command:
                    label = words.column_label(view, m["column"])
                    if want in label.lower():
                        out.append(Suggestion(label[:100], m["column"]))
        elif command == "store" and option == "category":
            hand = view["players"][seat]["hand"] or []
            cats = dict.fromkeys(m["category"] for m in seen.legal if m["type"] == "store")
            for name in cats:
                mine = [c["object"] for c in hand if c["category"] == name]
                col = _collection(view, seat, name)
                token = _camp_token(view, name)
                label = tr(
                    "{category} — hand: {cards} · collection {n}",
                    category=words.short_category(name),
                    cards=words.counted(mine),
                    n=col["size"],
                ) + (tr(" · camp token {token}", token=words.token_name(token)) if token else "")
                if want in label.lower():
                    out.append(Suggestion(label[:100], name))
        elif command == "store" and option == "objects":
            cat: str | None = None
            if filled.get("category"):
                try:
                    cat = _category(filled.get("category"))
                except BadOption:
                    cat = None
            for m in seen.legal:
                if m["type"] != "store" or (cat is not None and m["category"] != cat):
                    continue
                value = encode_objects(m["objects"])
                label = store_label(view, seat, m)
                if cat is None:
                    label = tr(
                        "{category}: {token}",
                        category=words.short_category(m["category"]),
                        token=label,
                    )
                if want in value or want in label.lower():
                    out.append(Suggestion(label[:100], value))
        return out[:MAX_SUGGESTIONS]

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

    def hand_pictures(self) -> tuple[str, ...]:
        return ("hand",)


PLUGIN = IslandPlugin()
