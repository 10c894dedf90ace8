"""The private panel of the acting player, as plain data built from `legal_moves`.

The Discord view (views.py) draws this model and sends each click back through `on_what`,
`on_then` and `on_button`; nothing here imports discord, so the offline runner can print panels
and tests can walk every legal move through them. A selection (page, group, page of the second
select, pending confirmation) is all the state a panel has, and it travels in custom ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.discord_app import words
from engine.nauticus import State, data, legal_moves
from engine.nauticus.rules import price_of

MAX_OPTIONS = 25  # Discord's limit on a select menu
PAGE_SIZE = MAX_OPTIONS - 2  # room for "previous page" and "more" entries
BUTTON_MOVES = ("pass", "end_extra", "end_turn")

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Group:
    """Legal moves one entry of "What do you do?" leads to; more than one needs a second select."""

    key: str
    label: str
    moves: tuple[dict[str, Any], ...]
    then_placeholder: str = ""


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Select:
    kind: Literal["what", "then"]
    placeholder: str
    options: tuple[Option, ...]
    arg: str  # carried in the custom id: page (what) or "group/page" (then)


@dataclass(frozen=True, slots=True)
class Button:
    kind: Literal["b", "ok"]
    key: str
    label: str
    style: Style


@dataclass(frozen=True, slots=True)
class Selection:
    page: int = 0
    group: str | None = None
    page2: int = 0
    # The group key of the move the service asked to confirm ("pass", "end_turn", or a lost
    # free tile's "buy.<item>"); its Yes button plays that group's only move.
    confirm: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Panel:
    text: str
    selects: tuple[Select, ...] = ()
    buttons: tuple[Button, ...] = ()

    def to_text(self) -> str:
        """The panel as plain text (offline runner, logs): every option on its own line."""
        lines = [self.text]
        for s in self.selects:
            lines.append(f"[{s.placeholder}]")
            lines += [f"  - {o.label}" for o in s.options]
        if self.buttons:
            lines.append(" ".join(f"[{b.label}]" for b in self.buttons))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a click leads to: a move to play, or a new selection to show."""

    move: dict[str, Any] | None = None
    selection: Selection = field(default_factory=Selection)


class PanelError(ValueError):
    """A click that fits no option of the panel built from the current state."""


# --- grouping --------------------------------------------------------------------------------


def _group_key(move: Mapping[str, Any]) -> str:
    t = move["type"]
    if t == "choose_action":
        return f"choose.{move['space']}"
    if t in ("take_bonus", "buy", "take_free_tile", "transport"):
        return f"{t.split('_')[-1] if t != 'take_free_tile' else 'free'}.{move['item']}"
    if t == "deliver":
        return f"deliver.{move['ship']}"
    if t == "reward":
        return f"reward.{move['kind']}"
    return str(t)


def _group_label(state: State, seat: int, key: str, move: Mapping[str, Any]) -> str:
    player = state.players[seat]
    t = move["type"]
    if t == "choose_action":
        return words.space_label(state, move["space"])
    if t == "take_bonus":
        return f"Bonus: {words.item_label(move['item'])} (to storage)"
    if t == "buy":
        label = words.buy_label(state, move["item"])
        units = data.item_units(move["item"])
        full = player.storage_used + units > data.STORAGE_UNITS
        if full and move["to"] == "storage" and price_of(state, move["item"]) == 0:
            label += " — storage full: it would be lost"
        return label
    if t == "take_free_tile":
        return f"Free tile: {words.item_label(move['item'])} (to storage)"
    if t == "transport":
        n = player.storage.count(move["item"])
        return f"Transport {words.item_label(move['item'])} — 1 worker ({n} in storage)"
    if t == "money":
        return "Money — 1 worker each, 2 taler per worker"
    if t == "crowns":
        return f"Crowns — {words.plural(player.crowns, 'crown')} × workers (max 15 VP)"
    if t == "deliver":
        return words.deliver_label(player, move["ship"])
    if t == "reward":
        return f"Reward: {words.reward_label(move['kind'])}"
    if t == "extra":
        return f"Extra action — +{data.EXTRA_WORKERS} workers, then any action"
    return key


_THEN = {
    "buy": "Where does it go?",
    "transport": "Where does it go?",
    "money": "How many workers?",
    "crowns": "How many workers?",
    "reward": "Which goods?",
    "extra": "Which action?",
}


_last: list[tuple[State, int, dict[str, Group]]] = []


def groups(state: State, seat: int) -> dict[str, Group]:
    """The seat's legal moves grouped the way the panel offers them, in menu order."""
    # One click builds the panel and then resolves the choice on the same state object:
    # remembering the last answer (by identity; states are immutable) halves the work.
    if _last and _last[0][0] is state and _last[0][1] == seat:
        return _last[0][2]
    found = _groups(state, seat)
    _last[:] = [(state, seat, found)]
    return found


def _groups(state: State, seat: int) -> dict[str, Group]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for move in legal_moves(state, seat):
        grouped.setdefault(_group_key(move), []).append(move)
    return {
        key: Group(
            key,
            _single_label(state, seat, moves[0])
            if len(moves) == 1 and moves[0]["type"] in ("money", "crowns")
            else _group_label(state, seat, key, moves[0])[:100],
            tuple(moves),
            _THEN.get(moves[0]["type"], "Choose"),
        )
        for key, moves in grouped.items()
    }


def _single_label(state: State, seat: int, move: Mapping[str, Any]) -> str:
    """A group of one move is played at once, so its label names the move exactly."""
    return f"{words.action_label(move['type'])}: {then_label(state, seat, move)}"


def then_label(state: State, seat: int, move: Mapping[str, Any]) -> str:
    """A second-select entry: the part of the move the first select left open."""
    player = state.players[seat]
    t = move["type"]
    if t in ("buy", "transport"):
        return words.dest_label(player, move["item"], move["to"])[:100]
    if t in ("money", "crowns"):
        return words.workers_label(state, t, move["workers"])
    if t == "reward":
        return words.reward_label("goods", move.get("goods"))
    if t == "extra":
        return words.action_label(move["action"])
    return str(move)


# --- paging ----------------------------------------------------------------------------------


def _paged(entries: list[Option], page: int) -> tuple[list[Option], int]:
    """At most 25 options: a page of entries plus navigation entries when there are more."""
    if len(entries) <= MAX_OPTIONS:
        return entries, 0
    pages = (len(entries) + PAGE_SIZE - 1) // PAGE_SIZE
    page = max(0, min(page, pages - 1))
    out = entries[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    if page > 0:
        out = [Option(f"page:{page - 1}", f"◀ Previous options (page {page}/{pages})"), *out]
    if page < pages - 1:
        out.append(Option(f"page:{page + 1}", f"More options ▶ (page {page + 2}/{pages})"))
    return out, page


# --- building --------------------------------------------------------------------------------


def resources_line(state: State, seat: int) -> str:
    """Workers, taler, crowns, storage used/12 and whether the extra action is ready."""
    p = state.players[seat]
    turn = state.turn
    blue = ""
    if turn is not None and turn.seat == seat and turn.extra is None and turn.blue:
        blue = f" (+{turn.blue} blue)"
    extra = "extra action ready" if p.extra else "extra action used"
    return (
        f"{words.plural(p.workers, 'worker')}{blue} · {p.taler} taler · "
        f"{words.plural(p.crowns, 'crown')} · storage {p.storage_used}/{data.STORAGE_UNITS} · "
        f"{p.score} VP · {extra}"
    )


def situation(state: State, seat: int) -> str:
    """What the seat must decide now, in one line."""
    head = f"Round {state.round}/{state.rounds} · Phase {state.phase}/{data.PHASES_PER_ROUND}"
    if state.step == "over":
        return f"{head} — the game is over."
    if state.current != seat:
        return f"{head} — not your turn: seat {(state.current or 0) + 1} decides now."
    if state.step == "choose":
        return f"{head} — you are start player: choose the action for this phase."
    if state.step == "bonus":
        space = state.space
        assert space is not None
        return (
            f"{head} — choose the tile of your bonus ({data.bonus_text(data.SPACE_BONUS[space])})."
        )
    turn = state.turn
    assert turn is not None
    if turn.pending:
        pending = turn.pending[0]
        if pending.kind == "reward":
            return (
                f"{head} — ship #{pending.ship + 1} is finished! Choose "
                f"{words.plural(pending.left, 'reward')} (max 2 of each)."
            )
        return f"{head} — you bought all four: choose your free tile."
    if turn.extra is not None:
        return f"{head} — extra action: {words.action_label(turn.extra)} (no blue workers)."
    action = words.action_label(state.action or "")
    if turn.passed:
        return f"{head} — {action}: you passed; take your extra action or end your turn."
    if turn.uses:
        return f"{head} — {action}: go on, or end your turn."
    return f"{head} — {action}: your turn — perform it or pass."


_BUTTONS: dict[str, tuple[str, Style]] = {
    "pass": ("Pass", "secondary"),
    "extra": ("Extra action", "primary"),
    "end_extra": ("End extra action", "primary"),
    "end_turn": ("End turn", "success"),
}


def build(state: State, seat: int, sel: Selection | None = None) -> Panel:
    """The panel `seat` sees now. An out-of-range selection falls back to the main menu."""
    sel = sel or Selection()
    gs = groups(state, seat)
    text = f"{resources_line(state, seat)}\n{situation(state, seat)}"
    if not gs:
        return Panel(text)
    if sel.confirm is not None and sel.confirm in gs:
        yes = (
            f"Yes, {_BUTTONS[sel.confirm][0].lower()}"
            if sel.confirm in _BUTTONS
            else "Yes, buy it anyway"
        )
        return Panel(
            f"{text}\n**Please confirm:** {sel.reason or 'are you sure?'}",
            buttons=(
                Button("ok", sel.confirm, yes, "danger"),
                Button("b", "back", "Back", "secondary"),
            ),
        )
    entries = [
        Option(g.key, g.label)
        for g in gs.values()
        if g.key not in BUTTON_MOVES and g.key != "extra"
    ]
    selects: list[Select] = []
    if entries:
        page_entries, page = _paged(entries, sel.page)
        selects.append(Select("what", "What do you do?", tuple(page_entries), str(page)))
    group = gs.get(sel.group) if sel.group is not None else None
    if group is not None and len(group.moves) > 1:
        then = [Option(f"m:{i}", then_label(state, seat, m)) for i, m in enumerate(group.moves)]
        then_entries, page2 = _paged(then, sel.page2)
        text += f"\n**{group.label}** — {group.then_placeholder.lower()}"
        selects.append(
            Select("then", group.then_placeholder, tuple(then_entries), f"{group.key}/{page2}")
        )
    buttons = [
        Button("b", key, *_BUTTONS[key]) for key in ("pass", "extra", "end_extra") if key in gs
    ]
    if group is not None:
        buttons.append(Button("b", "back", "Back", "secondary"))
    if "end_turn" in gs:
        buttons.append(Button("b", "end_turn", *_BUTTONS["end_turn"]))
    return Panel(text, tuple(selects), tuple(buttons))


def confirm_key(state: State, seat: int, move: Mapping[str, Any]) -> str | None:
    """The key a confirmation of `move` travels under: a group holding only that move (so the
    Yes button can't play anything else), or None if the panel can't ask for it."""
    key = _group_key(move)
    group = groups(state, seat).get(key)
    if group is None or len(group.moves) != 1 or group.moves[0] != move:
        return None
    return key


# --- clicks ----------------------------------------------------------------------------------


def _page_of(value: str) -> int | None:
    if value.startswith("page:"):
        try:
            return max(0, int(value[5:]))
        except ValueError:
            raise PanelError(f"{value!r} is not a page") from None
    return None


def on_what(state: State, seat: int, page: int, value: str) -> Outcome:
    """A choice in "What do you do?".

    Raises:
        PanelError: the value names no group of the current legal moves.
    """
    nav = _page_of(value)
    if nav is not None:
        return Outcome(selection=Selection(page=nav))
    group = groups(state, seat).get(value)
    if group is None:
        raise PanelError(f"{value!r} is not a choice now")
    if len(group.moves) == 1:
        return Outcome(move=group.moves[0], selection=Selection(page=page))
    return Outcome(selection=Selection(page=page, group=value))


def on_then(state: State, seat: int, group_key: str, page: int, value: str) -> Outcome:
    """A choice in the second select of `group_key`.

    Raises:
        PanelError: the group or the entry does not exist in the current legal moves.
    """
    group = groups(state, seat).get(group_key)
    if group is None:
        raise PanelError(f"{group_key!r} is not a choice now")
    nav = _page_of(value)
    if nav is not None:
        return Outcome(selection=Selection(group=group_key, page2=nav))
    if not value.startswith("m:") or not value[2:].isdigit():
        raise PanelError(f"{value!r} is not a choice")
    i = int(value[2:])
    if i >= len(group.moves):
        raise PanelError(f"{value!r} is not a choice now")
    return Outcome(move=group.moves[i], selection=Selection(page=page))


def on_button(state: State, seat: int, key: str) -> Outcome:
    """Pass / Extra action / End extra action / End turn / Back.

    Raises:
        PanelError: the button's move is not legal now.
    """
    if key == "back":
        return Outcome()
    gs = groups(state, seat)
    group = gs.get(key)
    if group is None:
        raise PanelError(f"{key!r} is not possible now")
    if key == "extra":
        return Outcome(selection=Selection(group="extra"))
    return Outcome(move=group.moves[0])
