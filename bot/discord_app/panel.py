"""The private panel of the acting player, as plain data built from its legal moves.

Any game's panel: the plugin says how moves group into menu entries and buttons and words them
(from the seat's own `Seen`); this module pages, selects and confirms the same way for all.

The Discord view (views.py) draws this model and sends each click back through `on_what`,
`on_then` and `on_button`; nothing here imports discord, so the offline runner can print panels
and tests can walk every legal move through them. A selection (page, group, page of the second
select, pending confirmation) is all the state a panel has, and it travels in custom ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.i18n import tr
from bot.plugin import GamePlugin, Seen

MAX_OPTIONS = 25  # Discord's limit on a select menu
PAGE_SIZE = MAX_OPTIONS - 2  # room for "previous page" and "more" entries

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


_last: list[tuple[Seen, str, dict[str, Group]]] = []


def groups(plugin: GamePlugin, seen: Seen) -> dict[str, Group]:
    """The seat's legal moves grouped the way the panel offers them, in menu order."""
    # One click builds the panel and then resolves the choice on the same Seen object:
    # remembering the last answer (by identity; a Seen is never changed) halves the work.
    # The Seen itself is kept (not its id): an id can be reused once an object is freed.
    if _last and _last[0][0] is seen and _last[0][1] == plugin.kind:
        return _last[0][2]
    grouped: dict[str, list[dict[str, Any]]] = {}
    for move in seen.legal:
        grouped.setdefault(plugin.group_key(move), []).append(move)
    found = {
        key: Group(
            key,
            plugin.group_label(seen, key, moves)[:100],
            tuple(moves),
            plugin.then_placeholder(moves[0]),
        )
        for key, moves in grouped.items()
    }
    _last[:] = [(seen, plugin.kind, found)]
    return found


# --- paging ----------------------------------------------------------------------------------


def _paged(entries: list[Option], page: int) -> tuple[list[Option], int]:
    """At most 25 options: a page of entries plus navigation entries when there are more."""
    if len(entries) <= MAX_OPTIONS:
        return entries, 0
    pages = (len(entries) + PAGE_SIZE - 1) // PAGE_SIZE
    page = max(0, min(page, pages - 1))
    out = entries[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    if page > 0:
        back = tr("◀ Previous options (page {page}/{pages})", page=page, pages=pages)
        out = [Option(f"page:{page - 1}", back), *out]
    if page < pages - 1:
        more = tr("More options ▶ (page {page}/{pages})", page=page + 2, pages=pages)
        out.append(Option(f"page:{page + 1}", more))
    return out, page


# --- building --------------------------------------------------------------------------------


def build(plugin: GamePlugin, seen: Seen, sel: Selection | None = None) -> Panel:
    """The panel the seat of `seen` sees now. An out-of-range selection falls back to the main
    menu."""
    sel = sel or Selection()
    gs = groups(plugin, seen)
    buttons_by_key = {b.key: b for b in plugin.panel.buttons}
    text = plugin.panel_header(seen)
    if not gs:
        return Panel(text)
    if sel.confirm is not None and sel.confirm in gs:
        yes = (
            tr("Yes, {action}", action=tr(buttons_by_key[sel.confirm].label).lower())
            if sel.confirm in buttons_by_key
            else tr(plugin.panel.yes_anyway)
        )
        reason = sel.reason or tr("are you sure?")
        return Panel(
            f"{text}\n" + tr("**Please confirm:** {reason}", reason=reason),
            buttons=(
                Button("ok", sel.confirm, yes, "danger"),
                Button("b", "back", tr("Back"), "secondary"),
            ),
        )
    entries = [Option(g.key, g.label) for g in gs.values() if g.key not in buttons_by_key]
    selects: list[Select] = []
    if entries:
        page_entries, page = _paged(entries, sel.page)
        selects.append(
            Select("what", tr(plugin.panel.what_placeholder), tuple(page_entries), str(page))
        )
    group = gs.get(sel.group) if sel.group is not None else None
    if group is not None and len(group.moves) > 1:
        then = [
            Option(f"m:{i}", plugin.then_label(seen, m)[:100]) for i, m in enumerate(group.moves)
        ]
        then_entries, page2 = _paged(then, sel.page2)
        text += f"\n**{group.label}** — {group.then_placeholder.lower()}"
        selects.append(
            Select("then", group.then_placeholder, tuple(then_entries), f"{group.key}/{page2}")
        )
    spec = plugin.panel.buttons
    buttons = [
        Button("b", b.key, tr(b.label), b.style) for b in spec if b.key in gs and not b.after_back
    ]
    if group is not None:
        buttons.append(Button("b", "back", tr("Back"), "secondary"))
    buttons += [
        Button("b", b.key, tr(b.label), b.style) for b in spec if b.key in gs and b.after_back
    ]
    return Panel(text, tuple(selects), tuple(buttons))


def confirm_key(plugin: GamePlugin, seen: Seen, move: Mapping[str, Any]) -> str | None:
    """The key a confirmation of `move` travels under: a group holding only that move (so the
    Yes button can't play anything else), or None if the panel can't ask for it."""
    key = plugin.group_key(dict(move))
    group = groups(plugin, seen).get(key)
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


def on_what(plugin: GamePlugin, seen: Seen, page: int, value: str) -> Outcome:
    """A choice in "What do you do?".

    Raises:
        PanelError: the value names no group of the current legal moves.
    """
    nav = _page_of(value)
    if nav is not None:
        return Outcome(selection=Selection(page=nav))
    group = groups(plugin, seen).get(value)
    if group is None:
        raise PanelError(f"{value!r} is not a choice now")
    if len(group.moves) == 1:
        return Outcome(move=group.moves[0], selection=Selection(page=page))
    return Outcome(selection=Selection(page=page, group=value))


def on_then(plugin: GamePlugin, seen: Seen, group_key: str, page: int, value: str) -> Outcome:
    """A choice in the second select of `group_key`.

    Raises:
        PanelError: the group or the entry does not exist in the current legal moves.
    """
    group = groups(plugin, seen).get(group_key)
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


def on_button(plugin: GamePlugin, seen: Seen, key: str) -> Outcome:
    """A button of the game's panel (Pass, End turn, …) or Back; a button whose group holds
    several moves opens that group's second menu (Nauticus's Extra action).

    Raises:
        PanelError: the button's move is not legal now.
    """
    if key == "back":
        return Outcome()
    group = groups(plugin, seen).get(key)
    if group is None:
        raise PanelError(f"{key!r} is not possible now")
    if len(group.moves) > 1:
        return Outcome(selection=Selection(group=key))
    return Outcome(move=group.moves[0])
