"""Playing: the private panel and its clicks, the move commands, undo, and the suggestions for
a move command's options."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot import refusals, texts
from bot.discord_app import panel, views
from bot.discord_app.handlers.common import (
    Call,
    Click,
    Context,
    Refusal,
    game,
    playing,
    posting_warning,
    reply,
    to_int,
)
from bot.i18n import tr
from bot.plugin import GamePlugin, Seen, Suggestion
from bot.service import GameRecord, NeedsConfirmation, ServiceError, StaleVersion
from engine.errors import IllegalMove


def panel_message(
    rec: GameRecord,
    seat: int,
    sel: panel.Selection | None = None,
    note: str = "",
    *,
    undo: bool = False,
) -> tuple[str, discord.ui.View | None]:
    """The seat's private panel; `undo`: with a button taking back its last move."""
    assert rec.state is not None
    built = panel.build(rec.plugin, rec.seen(seat), sel)
    text = f"{note}\n{built.text}" if note else built.text
    view = views.panel_view(built, rec.id, rec.version)
    if undo:
        view = views.with_undo(view, rec.id, rec.version)
    return texts.fit(text), view


async def _edit_panel(
    itx: discord.Interaction[Any],
    rec: GameRecord,
    seat: int,
    sel: panel.Selection | None = None,
    note: str = "",
    *,
    undo: bool = False,
) -> None:
    text, view = panel_message(rec, seat, sel, note, undo=undo)
    if itx.response.is_done():
        await itx.edit_original_response(content=text, view=view)
    else:
        await itx.response.edit_message(content=text, view=view)


async def _play_from_panel(
    ctx: Context, click: Click, seat: int, move: dict[str, Any], *, confirm: bool = False
) -> None:
    itx, channel_id = click.itx, click.channel_id
    await itx.response.defer()  # the move is written to disk (fsync) before we answer
    try:
        result = await ctx.service.play(
            channel_id, itx.user.id, move, version=click.cid.version, confirm=confirm
        )
    except NeedsConfirmation as exc:
        rec = await game(ctx, channel_id)
        assert rec.state is not None
        key = panel.confirm_key(rec.plugin, rec.seen(seat), move)
        if key is None:
            raise
        await _edit_panel(itx, rec, seat, panel.Selection(confirm=key, reason=exc.reason))
        return
    except (StaleVersion, IllegalMove) as exc:
        rec = await game(ctx, channel_id)
        said = refusals.text(exc) if isinstance(exc, IllegalMove) else str(exc)
        await _edit_panel(itx, rec, seat, note=f"⚠️ {said}")
        return
    note = "✅ " + _did(result.record, seat, result.text) + posting_warning(itx)
    undo = await ctx.service.can_undo(channel_id, itx.user.id)
    await _edit_panel(itx, result.record, seat, note=note, undo=undo)


async def open_panel(ctx: Context, click: Click) -> None:
    """Play (under a ping or a reminder): the seat's panel, to the player alone."""
    rec, _, seat = await playing(
        ctx, click.channel_id, click.itx.user.id, game_id=click.cid.game_id
    )
    text, view = panel_message(rec, seat)
    await reply(click.itx, text, view=view)


def _what(plugin: GamePlugin, mine: Seen, arg: str, value: str) -> panel.Outcome:
    return panel.on_what(plugin, mine, to_int(arg), value)  # arg: the menu's page


def _then(plugin: GamePlugin, mine: Seen, arg: str, value: str) -> panel.Outcome:
    group, _, page = arg.rpartition("/")
    return panel.on_then(plugin, mine, group, to_int(page), value)


def _button(plugin: GamePlugin, mine: Seen, arg: str, value: str) -> panel.Outcome:
    return panel.on_button(plugin, mine, arg)  # arg: the button's key


# Panel component kind -> what the panel does next (another selection, or a move): "w" the
# "What do you do?" menu, "t" the second menu, "b" a button, "ok" a button confirming a pass
# or the end of a turn (its move is played with the confirmation).
_PANEL_STEPS: dict[str, Callable[[GamePlugin, Seen, str, str], panel.Outcome]] = {
    "w": _what,
    "t": _then,
    "b": _button,
    "ok": _button,
}
PANEL_KINDS = tuple(_PANEL_STEPS)


async def panel_click(ctx: Context, click: Click) -> None:
    """A choice in the panel's menus or a click on its buttons, on the player's own turn."""
    itx, cid = click.itx, click.cid
    rec, _, seat = await playing(ctx, click.channel_id, itx.user.id, game_id=cid.game_id)
    if rec.current != seat:
        who = rec.current
        raise Refusal(
            tr(
                "It's not your turn: {name} (seat {seat}) must {decide}.",
                name=texts.name(rec.names[who]),
                seat=who + 1,
                decide=rec.plugin.must_decide(rec.seen(None), you=False),
            )
            if who is not None
            else tr("It's not your turn; the game is over.")
        )
    if cid.version != rec.version:
        await _edit_panel(
            itx,
            rec,
            seat,
            note=tr(
                "⚠️ That panel was out of date (the game has moved on); here is the current one."
            ),
        )
        return
    out = _PANEL_STEPS[cid.kind](rec.plugin, rec.seen(seat), cid.arg, click.value)
    if cid.kind == "ok":
        if out.move is not None:
            await _play_from_panel(ctx, click, seat, out.move, confirm=True)
        return
    if out.move is not None:
        await _play_from_panel(ctx, click, seat, out.move)
    else:
        await _edit_panel(itx, rec, seat, out.selection)


async def move_command(ctx: Context, call: Call, plugin: GamePlugin) -> None:
    """A move typed as a command (`/nauticus buy …`): played, then answered with the panel."""
    itx, channel_id = call.itx, call.channel_id
    move = plugin.move_from_call(call.name, call.options)
    await itx.response.defer(ephemeral=True, thinking=True)
    try:
        result = await ctx.service.play(
            channel_id,
            itx.user.id,
            move,
            confirm=bool(call.options.get("confirm")),
            command=True,
        )
    except NeedsConfirmation as exc:
        raise Refusal(
            tr(
                "{reason} To go ahead anyway, run `{call} confirm:True`.",
                reason=exc.reason,
                call=plugin.call_text(move),
            )
        ) from None
    rec = result.record
    seat = rec.seat_of(itx.user.id)
    assert seat is not None
    note = "✅ " + _did(rec, seat, result.text) + posting_warning(itx)
    undo = await ctx.service.can_undo(channel_id, itx.user.id)
    text, panel_view = panel_message(rec, seat, note=note, undo=undo)
    await reply(itx, text, view=panel_view)


def _did(rec: GameRecord, seat: int, text: str) -> str:
    """A move's log line with its player's name before it ("Ana placed their pawn …"): the
    engines tell a move as a predicate, so every reader sees who did it."""
    return tr("{name} {did}", name=texts.name(rec.names[seat]), did=text)


async def _undo(
    ctx: Context, itx: discord.Interaction[Any], channel_id: int, version: int | None
) -> None:
    """Take back the player's last move, then show the panel as it is again."""
    await itx.response.defer(ephemeral=True, thinking=version is None)
    try:
        result = await ctx.service.undo(channel_id, itx.user.id, version=version)
    except StaleVersion as exc:
        rec, _, seat = await playing(ctx, channel_id, itx.user.id)
        await _edit_panel(itx, rec, seat, note=f"⚠️ {exc}")
        return
    rec = result.record
    mine = rec.seat_of(itx.user.id)
    assert mine is not None
    undo = await ctx.service.can_undo(channel_id, itx.user.id)
    text, view = panel_message(
        rec, mine, note=tr("↩️ Taken back: {move}", move=_did(rec, mine, result.text)), undo=undo
    )
    if version is None:
        await reply(itx, text, view=view)
    else:
        await itx.edit_original_response(content=text, view=view)


async def undo_command(ctx: Context, call: Call) -> None:
    """`/<game> undo`: answered with a fresh panel."""
    await _undo(ctx, call.itx, call.channel_id, None)


async def undo_click(ctx: Context, click: Click) -> None:
    """The panel's Undo button: the panel is edited in place."""
    await _undo(ctx, click.itx, click.channel_id, click.cid.version)


async def suggest(
    ctx: Context, itx: discord.Interaction[Any], command: str, option: str, current: str
) -> list[Suggestion]:
    """Legal values for an option of a move command (none outside a game or a turn), from
    the caller's own legal moves and view only."""
    if itx.channel_id is None or itx.guild_id is None:
        return []
    try:
        rec = await ctx.service.game_in(itx.channel_id)
    except ServiceError:
        return []
    if rec is None or rec.state is None:
        return []
    seat = rec.seat_of(itx.user.id)
    if seat is None:
        return []
    filled = {k: v for k, v in vars(itx.namespace).items() if k != option}
    return rec.plugin.suggest(rec.seen(seat), command, option, current or "", filled)
