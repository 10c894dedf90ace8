"""Nautilus Island's slash commands read and written: a move from a command's options, the
command that plays a move, and the autocomplete of each option from the caller's legal moves;
and the small view readers the panel shares with them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot import i18n, texts
from bot.games.island import words
from bot.i18n import tr
from bot.plugin import BadOption, Seen, Suggestion
from engine.api import Move
from engine.island import data

MAX_SUGGESTIONS = 25  # Discord's limit on autocomplete choices

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


def move_from_call(command: str, options: Mapping[str, Any]) -> Move:
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


def call_text(move: Move) -> str:
    t = move["type"]
    if t in ("place", "move"):
        return f"/island {t} column:{move['column']}"
    if t == "store":
        objects = encode_objects(move["objects"])
        return f"/island store category:{move['category']} objects:{objects}"
    return f"/island {_SIMPLE_CALL[t]}"


def suggest(
    seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
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
