"""When to remind a player whose decision a game waits for, and when to stay quiet.

Pure: times in, times out (the service passes its clock). A *wait* starts with each turn ping
and ends with the next one; during it the waiting player is reminded after `first`, then every
`every`, never inside their quiet hours (a reminder due at night waits for their morning), and
after `STALL_AFTER` unanswered reminders the host is told instead. The schedule is stored with
the game (`waits` table), never held in memory, so it survives restarts.

Quiet hours are wall-clock times in the player's IANA time zone (`zoneinfo`), so they follow
daylight saving time: "08:00 in Europe/Paris" is 07:00 UTC in winter and 06:00 UTC in summer.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from bot.i18n import tr, trn

DEFAULT_FIRST = timedelta(hours=12)
DEFAULT_EVERY = timedelta(hours=24)
STALL_AFTER = 5  # reminders without an answer before the host gets a stall notice
SNOOZE = timedelta(hours=8)
# The intervals a player (`/settings reminders`), a host (`/games reminders`) or a server admin
# may choose; 0 = no reminders.
INTERVALS: dict[str, int] = {"off": 0, "6h": 6, "12h": 12, "24h": 24, "48h": 48}


class SettingError(ValueError):
    """A setting value that is not allowed; the message says what is."""


def interval_label(hours: int | None) -> str:
    if hours is None:
        return tr("12 h, then every 24 h (the default)")
    if hours == 0:
        return tr("off")
    return tr("every {n} h", n=hours)


def delays(hours: int | None) -> tuple[timedelta, timedelta] | None:
    """(first, every) for an interval setting: None = the default 12 h then 24 h; 0 = off."""
    if hours is None:
        return DEFAULT_FIRST, DEFAULT_EVERY
    if hours == 0:
        return None
    return timedelta(hours=hours), timedelta(hours=hours)


_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")


def parse_clock(text: str) -> time:
    """ "22:00" -> 22:00.

    Raises:
        SettingError: not a 24-hour HH:MM time.
    """
    m = _CLOCK.fullmatch(str(text).strip())
    if m is None:
        raise SettingError(
            tr(
                "{text} is not a time of day: write it as HH:MM on a 24-hour clock, e.g. 22:00 "
                "or 07:30.",
                text=repr(str(text)[:20]),
            )
        )
    return time(int(m[1]), int(m[2]))


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def check_timezone(name: str) -> str:
    """The IANA name, checked.

    Raises:
        SettingError: not a time zone this machine knows.
    """
    name = str(name).strip()
    if name not in _zones():
        raise SettingError(
            tr(
                "{name} is not a time zone name: use an IANA name such as Europe/Paris, "
                "America/New_York or Asia/Tokyo (the option suggests them as you type).",
                name=repr(name[:40]),
            )
        )
    return name


def suggest_timezones(typed: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed (case-insensitive), best matches first."""
    q = typed.strip().lower().replace(" ", "_")
    found = [z for z in _zones() if q in z.lower()] if q else []
    found.sort(key=lambda z: (not z.lower().startswith(q), "/" not in z, z))
    if not q:
        found = ["Europe/Paris", "Europe/London", "America/New_York", "America/Los_Angeles"]
    return found[:limit]


@dataclass(frozen=True, slots=True)
class Quiet:
    """A player's quiet hours: from `start` to `end` (wall clock in `zone`); may span midnight."""

    start: time
    end: time
    zone: str

    def _local(self, when: datetime) -> datetime:
        return when.astimezone(zoneinfo.ZoneInfo(self.zone))

    def contains(self, when: datetime) -> bool:
        t = self._local(when).time().replace(second=0, microsecond=0)
        if self.start < self.end:
            return self.start <= t < self.end
        return t >= self.start or t < self.end  # across midnight (22:00 -> 08:00)

    def morning(self, when: datetime) -> datetime:
        """`when` if it is outside the quiet hours, else the (UTC) moment they end."""
        if not self.contains(when):
            return when
        local = self._local(when)
        day = local.date()
        if self.start >= self.end and local.time() >= self.start:
            day += timedelta(days=1)  # the evening part: the quiet hours end tomorrow
        zone = zoneinfo.ZoneInfo(self.zone)
        end = datetime.combine(day, self.end, tzinfo=zone)
        # An end falling in a spring-forward gap does not exist on that day; zoneinfo reads it
        # with the offset before the change, which lands just after the gap: still morning.
        return end.astimezone(UTC)

    def label(self) -> str:
        return f"{self.start:%H:%M}–{self.end:%H:%M} ({self.zone})"


def quiet_of(start: str | None, end: str | None, zone: str | None) -> Quiet | None:
    """The stored quiet hours, or None when not set (or no longer valid on this machine)."""
    if not (start and end and zone):
        return None
    try:
        return Quiet(parse_clock(start), parse_clock(end), check_timezone(zone))
    except SettingError:
        return None


def due(at: datetime, quiet: Quiet | None, snooze_until: datetime | None = None) -> datetime:
    """When a reminder meant for `at` goes out: not before a snooze ends, never in quiet hours."""
    if snooze_until is not None and snooze_until > at:
        at = snooze_until
    return at if quiet is None else quiet.morning(at)


def waited(span: timedelta) -> str:
    """How long a game has waited, in words a player reads at a glance: "1 day 12 h"."""
    minutes = max(0, int(span.total_seconds()) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return trn("{n} day", "{n} days", days) + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {mins} min" if mins and hours < 3 else "")
    return f"{mins} min"
