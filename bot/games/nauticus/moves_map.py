"""Slash-command calls <-> engine moves, both ways, with no discord import.

Every engine move is exactly one call: a command name plus option values. Option values are
plain strings or integers a player could also type by hand ("ship2-back", "coffee+grain");
autocomplete offers only the values that lead to legal moves now.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot import i18n, texts
from bot.games.nauticus import words
from bot.i18n import tr
from engine.nauticus import State, data, legal_moves

OptionType = Literal["int", "str", "bool"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: OptionType
    required: bool
    description: str


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One `/nauticus <name>` move command: the engine move type it makes and its options."""

    name: str
    move_type: str
    description: str
    options: tuple[OptionSpec, ...] = ()


_CONFIRM = OptionSpec("confirm", "bool", False, "Set to true to confirm when the bot asks you to")

MOVE_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "choose",
        "choose_action",
        "Start player: choose the action space for this phase",
        (OptionSpec("space", "int", True, "The action space (0-7)"),),
    ),
    CommandSpec(
        "bonus",
        "take_bonus",
        "Start player: pick the tile of your space bonus (it goes to storage)",
        (OptionSpec("item", "str", True, "The mast, sail or good you take"),),
    ),
    CommandSpec(
        "buy",
        "buy",
        "Buy one item of the paid action and say where it goes",
        (
            OptionSpec("item", "str", True, "What you buy"),
            OptionSpec("to", "str", True, "Where it goes: storage, a new ship, or a ship"),
            _CONFIRM,
        ),
    ),
    CommandSpec(
        "free",
        "take_free_tile",
        "Take your free tile for buying all four items (it goes to storage)",
        (OptionSpec("item", "str", True, "The free tile you take"),),
    ),
    CommandSpec(
        "transport",
        "transport",
        "Move one tile from storage into your shipyard (1 worker)",
        (
            OptionSpec("item", "str", True, "The tile from storage"),
            OptionSpec("to", "str", True, "Where it goes in your shipyard"),
        ),
    ),
    CommandSpec(
        "money",
        "money",
        "Money: each worker gives 2 taler",
        (OptionSpec("workers", "int", True, "How many workers you use"),),
    ),
    CommandSpec(
        "crowns",
        "crowns",
        "Crowns: score crowns × workers (at most 15 VP per performance)",
        (OptionSpec("workers", "int", True, "How many workers you use"),),
    ),
    CommandSpec(
        "deliver",
        "deliver",
        "Deliver the goods of a finished ship (1 worker per good)",
        (OptionSpec("ship", "int", True, "The ship number (#1, #2, …)"),),
    ),
    CommandSpec(
        "reward",
        "reward",
        "Choose one reward for the ship you finished",
        (
            OptionSpec("kind", "str", True, "The reward"),
            OptionSpec(
                "goods", "str", False, "For the goods reward: the two kinds, e.g. fish+salt"
            ),
        ),
    ),
    CommandSpec(
        "extra",
        "extra",
        "Use your extra action once per game: +2 workers, then perform any action",
        (OptionSpec("action", "str", True, "The action you perform"),),
    ),
    CommandSpec("end-extra", "end_extra", "Finish your extra action"),
    CommandSpec("pass", "pass", "Pass on this phase's action", (_CONFIRM,)),
    CommandSpec("end-turn", "end_turn", "End your turn", (_CONFIRM,)),
)
BY_NAME: dict[str, CommandSpec] = {c.name: c for c in MOVE_COMMANDS}
BY_MOVE_TYPE: dict[str, CommandSpec] = {c.move_type: c for c in MOVE_COMMANDS}

OptionValue = int | str


@dataclass(frozen=True, slots=True)
class Call:
    """A command call as a player makes it: `/nauticus buy item:bow to:ship2-back`."""

    command: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    def text(self) -> str:
        opts = " ".join(f"{k}:{v}" for k, v in self.options)
        return f"/nauticus {self.command}" + (f" {opts}" if opts else "")


class BadOption(ValueError):
    """An option value that names no move; the message says what the value should look like."""


# --- move -> call ----------------------------------------------------------------------------


def encode_dest(to: Any) -> str:
    """Engine destination -> option value ('storage', 'new', 'ship2-front', 'ship2-tile3')."""
    if to == "storage":
        return "storage"
    if isinstance(to, dict):
        if to.get("ship") == "new":
            return "new"
        n = to.get("ship")
        if isinstance(n, int) and "end" in to:
            return f"ship{n + 1}-{to['end']}"
        if isinstance(n, int) and isinstance(to.get("tile"), int):
            return f"ship{n + 1}-tile{to['tile'] + 1}"
    raise BadOption(tr("{value} is not a destination", value=repr(to)))


def to_call(move: Mapping[str, Any]) -> Call:
    """The one command call that makes `move`.

    Raises:
        BadOption: the move has an unknown type.
    """
    mtype = move.get("type")
    spec = BY_MOVE_TYPE.get(mtype) if isinstance(mtype, str) else None
    if spec is None:
        raise BadOption(f"no command makes a {mtype!r} move")
    opts: list[tuple[str, OptionValue]] = []
    if mtype == "choose_action":
        opts.append(("space", move["space"]))
    elif mtype in ("take_bonus", "take_free_tile"):
        opts.append(("item", move["item"]))
    elif mtype in ("buy", "transport"):
        opts += [("item", move["item"]), ("to", encode_dest(move["to"]))]
    elif mtype in ("money", "crowns"):
        opts.append(("workers", move["workers"]))
    elif mtype == "deliver":
        opts.append(("ship", move["ship"] + 1))
    elif mtype == "reward":
        opts.append(("kind", move["kind"]))
        if "goods" in move:
            opts.append(("goods", "+".join(move["goods"])))
    elif mtype == "extra":
        opts.append(("action", move["action"]))
    return Call(spec.name, tuple(opts))


# --- call -> move ----------------------------------------------------------------------------


def _norm(text: str) -> str:
    return texts.folded(text)


# What a player may type, in every language the bot speaks ("mât Gouvernail", "Livrer",
# "poisson"): a player typing instead of picking from the list is understood too.
_ITEM_NAMES = texts.typed_names(data.ITEMS, data.item_name, words.item_label)
_ACTION_NAMES = texts.typed_names(data.ACTIONS, words.action_label)
_REWARD_NAMES = texts.typed_names(
    data.REWARD_KINDS, lambda k: data.REWARD_NAMES.get(k, k), words.reward_name
)
_GOODS_NAMES = texts.typed_names(data.GOODS, words.goods_word)
_DEST_RE = re.compile(r"^(?:ship\s*)?#?\s*(\d+)\s*[-:/, ]?\s*(front|back|tile\s*(\d+))$")


def parse_item(value: str) -> str:
    """'Helm mast', 'mast_helm', 'one-ship' -> item id.

    Raises:
        BadOption: no such item.
    """
    item = _ITEM_NAMES.get(_norm(value))
    if item is None:
        raise BadOption(tr("{value} is not an item; pick one from the list.", value=repr(value)))
    return item


def parse_dest(value: str) -> Any:
    """Option value -> engine destination.

    Raises:
        BadOption: the text is not a destination.
    """
    text = value.strip().lower()
    if text == "storage":
        return "storage"
    if text in ("new", "new ship"):
        return {"ship": "new"}
    m = _DEST_RE.match(text)
    if m is not None and int(m.group(1)) >= 1:
        ship = int(m.group(1)) - 1
        if m.group(3) is not None:
            if int(m.group(3)) < 1:
                raise BadOption(tr("{value}: tiles are numbered from 1.", value=repr(value)))
            return {"ship": ship, "tile": int(m.group(3)) - 1}
        return {"ship": ship, "end": m.group(2)}
    raise BadOption(
        tr(
            "{value} is not a destination; use storage, new, ship2-front, ship2-back or "
            "ship2-tile3 (or pick one from the list).",
            value=repr(value),
        )
    )


def parse_goods(value: str) -> list[str]:
    """'coffee+grain' -> ['coffee', 'grain'].

    Raises:
        BadOption: not one or two goods.
    """
    typed = [p for p in re.split(r"[+,/&\s]+", value) if p.strip()]
    parts = [_GOODS_NAMES.get(_norm(p), "") for p in typed]
    if not 1 <= len(parts) <= 2 or not all(parts):
        raise BadOption(
            tr(
                "{value} is not a choice of goods; write two kinds like {example} (kinds: "
                "{kinds}).",
                value=repr(value),
                example=f"{words.goods_word('fish')}+{words.goods_word('salt')}",
                kinds=", ".join(words.goods_word(g) for g in data.GOODS),
            )
        )
    return parts


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadOption(
            tr(
                "{option} must be a whole number, not {value}.",
                option=i18n.option(what),
                value=repr(value),
            )
        )
    try:
        return int(value)
    except ValueError:
        raise BadOption(
            tr(
                "{option} must be a whole number, not {value}.",
                option=i18n.option(what),
                value=repr(value),
            )
        ) from None


def _str(options: Mapping[str, Any], name: str) -> str:
    value = options.get(name)
    if not isinstance(value, str) or not value.strip():
        raise BadOption(tr("The option {name} is required.", name=repr(name)))
    return value


def from_call(command: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The engine move a command call asks for (legality is the engine's business).

    Raises:
        BadOption: unknown command, a missing option or a value that names nothing.
    """
    spec = BY_NAME.get(command)
    if spec is None:
        raise BadOption(tr("/nauticus {command} is not a move command.", command=command))
    mtype = spec.move_type
    move: dict[str, Any] = {"type": mtype}
    if mtype == "choose_action":
        move["space"] = _int(options.get("space"), "space")
    elif mtype in ("take_bonus", "take_free_tile"):
        move["item"] = parse_item(_str(options, "item"))
    elif mtype in ("buy", "transport"):
        move["item"] = parse_item(_str(options, "item"))
        move["to"] = parse_dest(_str(options, "to"))
    elif mtype in ("money", "crowns"):
        move["workers"] = _int(options.get("workers"), "workers")
    elif mtype == "deliver":
        move["ship"] = _int(options.get("ship"), "ship") - 1
    elif mtype == "reward":
        kind = _REWARD_NAMES.get(_norm(_str(options, "kind")))
        if kind is None:
            raise BadOption(
                tr(
                    "{value} is not a reward; the rewards are: {kinds}.",
                    value=repr(options.get("kind")),
                    kinds=", ".join(words.reward_name(k) for k in data.REWARD_KINDS),
                )
            )
        move["kind"] = kind
        goods = options.get("goods")
        if kind == "goods":
            if not isinstance(goods, str) or not goods.strip():
                raise BadOption(tr("The goods reward needs goods:, e.g. goods:fish+salt."))
            move["goods"] = parse_goods(goods)
    elif mtype == "extra":
        action = _ACTION_NAMES.get(_norm(_str(options, "action")))
        if action is None:
            raise BadOption(
                tr(
                    "{value} is not an action; the actions are: {actions}.",
                    value=repr(options.get("action")),
                    actions=", ".join(words.action_label(a) for a in data.ACTIONS),
                )
            )
        move["action"] = action
    return move


# --- autocomplete ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Suggestion:
    name: str  # what the player reads (<= 100 chars)
    value: OptionValue  # what the command receives


def _label(state: State, seat: int, move: Mapping[str, Any], option: str) -> str:
    player = state.players[seat]
    mtype = move["type"]
    if option == "space":
        return words.space_label(state, move["space"])
    if option == "item":
        item = move["item"]
        if mtype == "buy":
            return words.buy_label(state, item)
        if mtype == "transport":
            return tr(
                "{item} (in storage: {n})",
                item=words.item_label(item),
                n=player.storage.count(item),
            )
        return tr("{item} (to storage)", item=words.item_label(item))
    if option == "to":
        return words.dest_label(player, move["item"], move["to"])
    if option == "workers":
        return words.workers_label(state, mtype, move["workers"])
    if option == "ship":
        return words.deliver_label(player, move["ship"])
    if option == "kind":
        return words.reward_label(move["kind"])
    if option == "goods":
        return words.reward_label("goods", move.get("goods"))
    if option == "action":
        return tr(
            "{action} (+{n} workers)",
            action=words.action_label(move["action"]),
            n=data.EXTRA_WORKERS,
        )
    return str(dict(to_call(move).options).get(option))


def _parse_option(option: str, value: Any) -> OptionValue | None:
    """A filled-in option in its encoded form, or None when it can't be read (then ignored)."""
    try:
        if option in ("space", "workers", "ship"):
            return _int(value, option)
        if not isinstance(value, str) or not value.strip():
            return None
        if option == "item":
            return parse_item(value)
        if option == "to":
            return encode_dest(parse_dest(value))
        if option == "goods":
            return "+".join(parse_goods(value))
        if option == "kind":
            return _REWARD_NAMES.get(_norm(value))
        if option == "action":
            return _ACTION_NAMES.get(_norm(value))
    except BadOption:
        return None
    return None


def suggest(
    state: State,
    seat: int,
    command: str,
    option: str,
    typed: str,
    filled: Mapping[str, Any] | None = None,
    *,
    limit: int = 25,
) -> list[Suggestion]:
    """Values of `option` that lead to a legal move for `seat` now, consistent with the other
    options already filled in and with what was typed (at most `limit`)."""
    spec = BY_NAME.get(command)
    if spec is None:
        return []
    constraints: dict[str, OptionValue] = {}
    for name, raw in (filled or {}).items():
        if name != option and name != "confirm" and raw not in (None, ""):
            parsed = _parse_option(name, raw)
            if parsed is not None:
                constraints[name] = parsed
    needle = typed.strip().lower()
    seen: set[OptionValue] = set()
    out: list[Suggestion] = []
    for move in legal_moves(state, seat):
        if move["type"] != spec.move_type:
            continue
        values = dict(to_call(move).options)
        if option not in values or any(values.get(k) != v for k, v in constraints.items()):
            continue
        value = values[option]
        if value in seen:
            continue
        label = _label(state, seat, move, option)
        if needle and needle not in label.lower() and needle not in str(value).lower():
            continue
        seen.add(value)
        out.append(Suggestion(label[:100], value))
    # What the player typed may be the value itself ("42") or words of a label; exact values
    # first, so typing a number never hides it behind labels that merely contain it.
    out.sort(key=lambda s: str(s.value).lower() != needle)
    return out[:limit]
