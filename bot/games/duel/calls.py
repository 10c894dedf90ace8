"""Slash-command calls <-> duel moves, both ways, and autocomplete from the caller's legal moves.

Players type what they read on the board: seats and slots count from 1, cards are their values
(the fishbone 0, the kraken 15; "kraken" and "fishbone" are accepted too), specials by name
("diving module" or "diving_module").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import i18n
from bot import texts as common
from bot.games.duel import words
from bot.i18n import N_, tr
from bot.plugin import BadOption, MoveCommand, OptionSpec, Seen, Suggestion
from engine.api import Move

MAX_SUGGESTIONS = 25

_CARD = "The card's value: 1–14, the fishbone 0, the kraken 15"
_SIDE = "Whose side of the Nautilus: seat 1 or seat 2"
_SLOT = "The slot along the Nautilus, 1–5"

MOVE_COMMANDS: tuple[MoveCommand, ...] = (
    MoveCommand(
        "keep",
        "First player: keep one of the two specials drawn; the other goes to your opponent",
        (OptionSpec("special", "The special you keep"),),
    ),
    MoveCommand("eye", "Play the eye: look at your opponent's divers"),
    MoveCommand(
        "dive",
        "Diving module: keep one of the two divers drawn; the other goes back on the deck",
        (OptionSpec("keep", "The diver you keep", "int"),),
    ),
    MoveCommand(
        "harpoon",
        "Harpoon: keep the diver taken and give one of yours, or give it back",
        (OptionSpec("give", "The diver you give (the harpooned one returns it)", "int"),),
    ),
    MoveCommand(
        "place",
        "Place a card on an empty space, on your side or your opponent's",
        (
            OptionSpec("card", _CARD, "int"),
            OptionSpec("side", _SIDE, "int"),
            OptionSpec("slot", _SLOT, "int"),
            OptionSpec("anchor", "Play the anchor too, on this card or one in play", "int", False),
        ),
    ),
    MoveCommand(
        "arrow",
        "Your arrow card: which card it moves, and where",
        (
            OptionSpec("card", "The card the arrow moves", "int"),
            OptionSpec("side", _SIDE, "int"),
            OptionSpec("slot", _SLOT, "int"),
        ),
    ),
)
COMMAND_OF_TYPE = {c.name: c.name for c in MOVE_COMMANDS}
_SPECIALS = tuple(words.SPECIAL_WORDS)
# The specials as a player may type them: the ids and their names in every language the bot
# speaks ("arête", "module de plongée"), without case or accents.
_SPECIAL_NAMES = common.typed_names(_SPECIALS, words.special) | {
    "module": "diving_module",
    "diving": "diving_module",
}
# The two specials that are placed as cards, by name: the fishbone 0 and the kraken 15.
_VALUE_OF = {special: value for value, special in words.CARD_NAMES.items()}
_CARD_NAMES = {name: _VALUE_OF[s] for name, s in _SPECIAL_NAMES.items() if s in _VALUE_OF}


def _int(name: str, value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool):
        raise BadOption(
            tr(
                "{option}: {value} is not {what}.",
                option=i18n.option(name),
                value=common.quoted(str(value)),
                what=tr(what),
            )
        )
    if isinstance(value, str):
        text = value.strip().lower()
        if name in ("card", "anchor", "keep", "give") and common.folded(text) in _CARD_NAMES:
            return _CARD_NAMES[common.folded(text)]
        if text.lstrip("-").isdigit() and len(text) < 6:
            value = int(text)
        else:
            raise BadOption(
                tr(
                    "{option}: {value} is not {what}.",
                    option=i18n.option(name),
                    value=repr(common.quoted(value[:40])),
                    what=tr(what),
                )
            )
    if not isinstance(value, int) or not low <= value <= high:
        raise BadOption(
            tr(
                "{option}: {value} is not {what}.",
                option=i18n.option(name),
                value=common.quoted(str(value)[:40]),
                what=tr(what),
            )
        )
    return value


def _card(name: str, value: Any) -> int:
    return _int(name, value, 0, 15, N_("a card (0–15: the fishbone 0, divers 1–14, the kraken 15)"))


def _side(value: Any) -> int:
    return _int("side", value, 1, 2, N_("a side (seat 1 or 2)")) - 1


def _slot(value: Any) -> int:
    return _int("slot", value, 1, 5, N_("a slot (1–5)")) - 1


def _special(value: Any) -> str:
    special = _SPECIAL_NAMES.get(common.folded(str(value)))
    if special is None:
        raise BadOption(
            tr(
                "{option}: {value} is no special; the specials are {specials}.",
                option=i18n.option("special"),
                value=repr(common.quoted(str(value)[:40])),
                specials=", ".join(words.special(s) for s in _SPECIALS),
            )
        )
    return special


def _need(options: Mapping[str, Any], name: str) -> Any:
    if options.get(name) is None:
        raise BadOption(tr("The option {name} is missing.", name=name))
    return options[name]


def from_call(command: str, options: Mapping[str, Any]) -> Move:
    """The move a command with its option values stands for.

    Raises:
        BadOption: an unknown command, a missing option or a value that names nothing.
    """
    if command == "keep":
        return {"type": "keep", "special": _special(_need(options, "special"))}
    if command == "eye":
        return {"type": "eye"}
    if command == "dive":
        return {"type": "dive", "keep": _card("keep", _need(options, "keep"))}
    if command == "harpoon":
        return {"type": "harpoon", "give": _card("give", _need(options, "give"))}
    if command in ("place", "arrow"):
        move: Move = {
            "type": command,
            "card": _card("card", _need(options, "card")),
            "side": _side(_need(options, "side")),
            "slot": _slot(_need(options, "slot")),
        }
        if command == "place" and options.get("anchor") is not None:
            move["anchor"] = _card("anchor", options["anchor"])
        return move
    raise BadOption(
        tr("There is no duel command {command}.", command=repr(common.quoted(command[:40])))
    )


def to_call(move: Move) -> str:
    """The command that plays `move`, as typed: `/duel place card:7 side:2 slot:3`."""
    t = move["type"]
    if t == "keep":
        return f"/duel keep special:{move['special']}"
    if t == "eye":
        return "/duel eye"
    if t == "dive":
        return f"/duel dive keep:{move['keep']}"
    if t == "harpoon":
        return f"/duel harpoon give:{move['give']}"
    text = f"/duel {t} card:{move['card']} side:{move['side'] + 1} slot:{move['slot'] + 1}"
    if "anchor" in move:
        text += f" anchor:{move['anchor']}"
    return text


# --- autocomplete ------------------------------------------------------------------------------

# The option of each command -> the move field it fills and how a value is shown.
_FIELD = {
    ("keep", "special"): "special",
    ("dive", "keep"): "keep",
    ("harpoon", "give"): "give",
    ("place", "card"): "card",
    ("place", "side"): "side",
    ("place", "slot"): "slot",
    ("place", "anchor"): "anchor",
    ("arrow", "card"): "card",
    ("arrow", "side"): "side",
    ("arrow", "slot"): "slot",
}


def _field_value(command: str, option: str, raw: Any) -> Any:
    """A filled option's value as the move holds it (None when it can't be read)."""
    try:
        if option == "special":
            return _special(raw)
        if option == "side":
            return _side(raw)
        if option == "slot":
            return _slot(raw)
        return _card(option, raw)
    except BadOption:
        return None


def _label(seen: Seen, command: str, option: str, value: Any, move: Move) -> str:
    view = seen.view
    viewer = seen.audience
    if option == "special":
        return f"{words.special(value)} — {tr(words.SPECIAL_HINTS[value])}"
    if option in ("card", "keep", "give", "anchor"):
        text = words.card_label(value)
        if command == "harpoon":
            me = view.get("me") or {}
            took = (me.get("harpoon") or {}).get("card")
            text += (
                tr(" — give it back") if value == took else tr(" — give it, keep the harpooned one")
            )
        if command == "arrow":
            at = _where(view, value)
            if at is not None:
                text += tr(
                    " (now on {side}, slot {n})",
                    side=words.side(seen.names, at[0], viewer),
                    n=at[1] + 1,
                )
        return text
    if option == "side":
        return tr("{n}: {what}", n=value + 1, what=words.side(seen.names, value, viewer))
    if option == "slot":
        return tr("{n}: {what}", n=value + 1, what=words.slot(view, value))
    return str(value)


def _where(view: Mapping[str, Any], value: int) -> tuple[int, int] | None:
    for s in view["slots"]:
        for sp in s["sides"]:
            if sp["card"] == value:
                return sp["side"], s["index"]
    return None


def _shown(option: str, value: Any) -> str | int:
    """The value sent back: what a player would type."""
    if option in ("side", "slot"):
        return int(value) + 1
    return value if isinstance(value, (int, str)) else str(value)


def suggest(
    seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
) -> list[Suggestion]:
    """The values of `option` that lead to a legal move of the caller, given the options
    already filled in (those that name nothing are ignored)."""
    field = _FIELD.get((command, option))
    if field is None:
        return []
    wanted = {}
    for name, raw in filled.items():
        f = _FIELD.get((command, name))
        if f is None or f == field or raw is None or raw == "":
            continue
        value = _field_value(command, name, raw)
        if value is not None:
            wanted[f] = value
    moves = [
        m
        for m in seen.legal
        if m["type"] == command and field in m and all(m.get(f) == v for f, v in wanted.items())
    ]
    out: list[Suggestion] = []
    done: set[Any] = set()
    needle = typed.strip().lower()
    for m in sorted(moves, key=lambda m: _order(m, field)):
        value = m[field]
        if value in done:
            continue
        done.add(value)
        label = _label(seen, command, option, value, m)[:100]
        shown = _shown(option, value)
        if needle and needle not in label.lower() and needle != str(shown).lower():
            continue
        out.append(Suggestion(label, shown))
        if len(out) >= MAX_SUGGESTIONS:
            break
    return out


def _order(move: Move, field: str) -> Any:
    value = move[field]
    return (0, value) if isinstance(value, int) else (1, str(value))


def options_of(move: Move) -> dict[str, Any]:
    """The option values of the call that plays `move` (what Discord would send)."""
    t = move["type"]
    if t == "keep":
        return {"special": move["special"]}
    if t == "eye":
        return {}
    if t == "dive":
        return {"keep": move["keep"]}
    if t == "harpoon":
        return {"give": move["give"]}
    out: dict[str, Any] = {
        "card": move["card"],
        "side": move["side"] + 1,
        "slot": move["slot"] + 1,
    }
    if "anchor" in move:
        out["anchor"] = move["anchor"]
    return out


def commands_of(moves: Sequence[Move]) -> set[str]:
    return {str(m["type"]) for m in moves}
