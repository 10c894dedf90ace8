"""The words players read in the channel: pings, done lines, phase summaries, status, results.

Every function returns plain text under Discord's 2,000-character limit, and every display name
goes through `name()` first so nobody can inject markdown or a mention through their nickname.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from bot import i18n
from bot.i18n import N_, tr, trn
from render.palette import PLAYER_COLOR_NAME, PLAYER_SYMBOL

MAX_MESSAGE = 2000
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class Mark:
    """How one seat is drawn in the pictures and named in text (colour and symbol both, so a
    colour-blind reader can tell seats apart)."""

    colour: str
    symbol: str  # the shape render draws for this seat
    emoji: str  # the nearest emoji, for message text


_EMOJI = {"red": "🔴", "blue": "🔵", "green": "🟢", "yellow": "🟡"}
# The colour and symbol words render's palette uses, for the catalogue (said through `tr`).
_MARK_WORDS = (
    N_("red"),
    N_("blue"),
    N_("green"),
    N_("yellow"),
    N_("circle"),
    N_("square"),
    N_("triangle"),
    N_("cross"),
)

# Seat 1..4 in order, taken from render's palette so words and pictures always agree.
PLAYER_MARKS: tuple[Mark, ...] = tuple(
    Mark(colour, symbol, _EMOJI.get(colour, "⚪"))
    for colour, symbol in zip(PLAYER_COLOR_NAME, PLAYER_SYMBOL, strict=True)
)


# A pure function of the string, called with the same few seat names for every line of every
# move (630 calls a game, the regexes of discord's escapes each time): 3 % of a move's work.
@functools.lru_cache(maxsize=1024)
def name(raw: str) -> str:
    """A display name made safe to put in a message: no markdown, no mentions, bounded length,
    and no invisible characters: bidi overrides and isolates (U+202A-202E, U+2066-2069),
    zero-width characters (U+200B-200F, U+2060, U+FEFF), tags and controls (Unicode categories
    Cf and Cc) are removed, so a name can't reverse or hide the text around it."""
    visible = "".join(
        ch for ch in raw if ch.isspace() or unicodedata.category(ch) not in ("Cf", "Cc")
    )
    text = " ".join(visible.split()) or "?"
    if len(text) > MAX_NAME:
        text = text[: MAX_NAME - 1] + "…"
    return _inert(text)


def _inert(text: str) -> str:
    """`text` with markdown and mentions escaped, by discord.py's own functions. Imported on
    first use: importing discord costs about half a second of CPU, and the command-line tools
    (check, export, backup) that load the games' words never write to Discord."""
    from discord.utils import escape_markdown, escape_mentions

    return escape_mentions(escape_markdown(text))


def quoted(text: str) -> str:
    """A refusal that repeats what a user typed, made inert: no markdown, mentions or controls."""
    clean = "".join(ch if ch == "\n" or ch.isprintable() else "\ufffd" for ch in text)
    return _inert(clean)


def folded(text: str) -> str:
    """A typed name as the bot compares it: case, accents, '_', '-' and spacing do not count
    ('Hameçon' = 'hamecon', 'longue-vue' = 'Longue vue', 'one_ship' = 'one ship')."""
    # "œ" and "æ" are letters of their own, not accented ones: "œil" is typed "oeil" too.
    decomposed = unicodedata.normalize(
        "NFKD", text.casefold().replace("œ", "oe").replace("æ", "ae")
    )
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.split(r"[\s_\-]+", bare)).strip()


def typed_names(ids: Iterable[str], *says: Callable[[str], str]) -> dict[str, str]:
    """What a player may type for each id, folded -> id: the id itself, then each `say(id)` in
    English and in every language the bot speaks ("mât Gouvernail", "vivres"); the first name
    found wins."""
    ids = list(ids)
    out = {folded(i): i for i in ids}
    for locale in i18n.LOCALES:
        with i18n.use(locale):
            for say in says:
                for i in ids:
                    out.setdefault(folded(say(i)), i)
    return out


def mention(user_id: int) -> str:
    return f"<@{int(user_id)}>"


def fit(text: str, limit: int = MAX_MESSAGE) -> str:
    """Cut `text` to `limit` characters, at a line break if one is near, marking the cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    nl = cut.rfind("\n")
    if nl > limit // 2:
        return cut[:nl] + "\n…"
    return cut[: limit - 1] + "…"


def plural(n: int, word: str) -> str:
    """English only (adds an s): texts that can be French use `trn` instead."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def seat_tag(seat: int) -> str:
    """'🔴 seat 1' for engine seat 0."""
    return tr("{emoji} seat {n}", emoji=PLAYER_MARKS[seat].emoji, n=seat + 1)


def legend(names: Sequence[str]) -> str:
    """Which colour, symbol and seat number stands for whom."""
    parts = []
    for seat, raw in enumerate(names):
        m = PLAYER_MARKS[seat]
        parts.append(
            tr(
                "{emoji} seat {n} = {colour} {symbol}: {name}",
                emoji=m.emoji,
                n=seat + 1,
                colour=tr(m.colour),
                symbol=tr(m.symbol),
                name=name(raw),
            )
        )
    return tr("Seats: {list}", list=" · ".join(parts))


def lobby_text(
    status: str,
    host_name: str,
    seats: Sequence[tuple[int, str]],
    *,
    title: str,
    min_players: int,
    max_players: int,
    order_note: str = "",
    seating: str = "random",
) -> str:
    """The lobby message: who has joined and what happens next.

    For a closed lobby, `order_note` replaces the default "cancelled" line (idle expiry)."""
    joined = "\n".join(f"{i + 1}. {name(n)}" for i, (_, n) in enumerate(seats)) or tr("(nobody)")
    if status == "lobby":
        order = (
            tr("join order (set by the host)")
            if seating == "join"
            else tr("drawn at random when the game starts")
        )
        fields = {
            "title": title,
            "host": name(host_name),
            "n": len(seats),
            "most": max_players,
            "least": min_players,
            "order": order,
        }
        if min_players == max_players:  # the duel: not "with 2–2 players"
            head = tr(
                "**{title} lobby** hosted by {host} — {n}/{most} players. Press Join to take a "
                "seat; the host starts once {most} players are seated and can fill seats with "
                "the AI (🤖 AI seats).\nSeat order: {order}.",
                **fields,
            )
        else:
            head = tr(
                "**{title} lobby** hosted by {host} — {n}/{most} players. Press Join to take a "
                "seat; the host starts with {least}–{most} players and can fill seats with the "
                "AI (🤖 AI seats).\nSeat order: {order}.",
                **fields,
            )
    elif status == "active":
        head = tr("**{title} has started!** {note}", title=title, note=order_note).rstrip()
    else:
        closed = order_note or tr("This {title} lobby was cancelled.", title=title)
        head = f"**{closed}**"
    return fit(f"{head}\n{joined}")


def idle_span(span: timedelta) -> str:
    """A lobby's idle limit in words: "7 days", "12 hours", "30 minutes"."""
    seconds = int(span.total_seconds())
    if seconds >= 86400 and seconds % 86400 == 0:
        return trn("{n} day", "{n} days", seconds // 86400)
    if seconds >= 3600 and seconds % 3600 == 0:
        return trn("{n} hour", "{n} hours", seconds // 3600)
    return trn("{n} minute", "{n} minutes", max(1, seconds // 60))
