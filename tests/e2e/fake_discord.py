"""A strict local fake of Discord's REST API and gateway, for end-to-end tests of the real bot.

It listens on 127.0.0.1 only. The bot reaches it through `api_base.apply_api_base(fake.api_base)`.
Everything the bot calls is recorded in `fake.calls`; a call to an endpoint the fake does not know
is answered 404 and recorded in `fake.unimplemented`, which the test fixture asserts is empty.

Strictness mirrors Discord's: documented payload limits (see limits.py) give 400/50035, the first
interaction response must arrive within 3 s of the interaction on the time tests move (else
404/10062; real time is left out, so a busy machine cannot fail a test),
a second initial response gets 400/40060, interaction tokens expire after 15 minutes (401/50027),
and channel permission overwrites are enforced on channel posts (403/50013).

The clock is real monotonic time plus an offset that tests move with `fake.clock.advance(s)`, so
the 3-second and 15-minute rules are tested without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import math
import os
import re
import socket
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e import limits
from tests.e2e.limits import JSON, Problems

# Permission bits used by the fake (Discord's values).
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES

RESPONSE_WINDOW = 3.0
# The least any wait for a state or an event lasts before it is taken for a hang (see wait_for).
WAIT_FLOOR = float(os.environ.get("E2E_WAIT_FLOOR", "120"))
POLL_INTERVAL = 0.05  # wait_for re-reads its predicate at least this often
NONCE_WINDOW = 120.0  # Discord: "the past few minutes"; the fake keeps the short end
TOKEN_LIFETIME = 15 * 60.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
DISCORD_EPOCH_MS = 1420070400000

# Interaction types and callback types (Discord's numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9


class DiscordError(Exception):
    """An error answer in Discord's JSON shape."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers: dict[str, str] = {}
        self.rate_limit_body: JSON = {}

    def body(self) -> JSON:
        body: JSON = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass(frozen=True)
class RateLimit:
    """`limit` requests per `per` seconds (a window opened by the first request)."""

    limit: int
    per: float


def _real_routes() -> dict[str, RateLimit]:
    # Discord's well-known per-channel buckets for the routes the bot uses to talk in a channel.
    return {
        "post": RateLimit(5, 5.0),
        "edit": RateLimit(5, 5.0),
        "delete": RateLimit(5, 1.0),
    }


@dataclass
class RateLimits:
    """The fake's rate limits. Defaults are Discord's; a test may lower them to hit them fast.

    `routes` maps a route name (see `FakeDiscord._routes`) to its per-major-parameter bucket
    (per channel, or per interaction webhook). `global_limit` counts every request of the bot
    except the interaction routes in `exempt_global` (Discord: interaction endpoints are not bound
    to the global limit); interaction callbacks have no bucket at all.
    """

    global_limit: RateLimit | None = field(default_factory=lambda: RateLimit(50, 1.0))
    routes: dict[str, RateLimit] = field(default_factory=_real_routes)
    exempt_global: frozenset[str] = frozenset(
        {"callback", "webhook_followup", "webhook_get", "webhook_edit", "webhook_delete"}
    )


@dataclass
class _Window:
    reset_at: float  # time.monotonic() when the window ends
    used: int = 0


def invalid_form(problems: Problems) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", problems.errors())


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class FakeClock:
    """Monotonic seconds plus an offset tests can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class User:
    id: str
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"  # the language of the user's Discord client (interactions carry it)

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Role:
    id: str
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass
class Overwrite:
    id: str
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_json(self) -> JSON:
        return {"id": self.id, "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Channel:
    id: str
    name: str
    type: int  # 0 text, 11 public thread, 1 DM
    guild_id: str | None = None
    parent_id: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    position: int = 0
    recipient: User | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def to_json(self, *, with_guild: bool = True) -> JSON:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": self.id,
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.to_json()],
            }
        data: JSON = {
            "id": self.id,
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "flags": 0,
            "parent_id": self.parent_id,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        if with_guild:
            data["guild_id"] = self.guild_id
        if self.is_thread:
            data.update(
                owner_id="0",
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": now_iso(),
                    "locked": False,
                },
            )
        else:
            data.update(
                topic=None,
                permission_overwrites=[o.to_json() for o in self.overwrites],
            )
        return data


@dataclass
class Guild:
    id: str
    name: str
    owner_id: str
    roles: dict[str, Role] = field(default_factory=dict)
    members: dict[str, list[str]] = field(default_factory=dict)  # user id -> role ids
    channels: dict[str, Channel] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class Upload:
    """A file part of a multipart request."""

    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass
class Attachment:
    id: str
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    def to_json(self, base: str) -> JSON:
        return {
            "id": self.id,
            "filename": self.filename,
            "size": len(self.data),
            "url": f"{base}/attachments/{self.id}/{self.filename}",
            "proxy_url": f"{base}/attachments/{self.id}/{self.filename}",
            "content_type": self.content_type,
            "description": self.description,
        }

    def image(self) -> Any:
        """The attachment decoded with Pillow (raises if it is not a valid image)."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img


@dataclass
class Message:
    id: str
    channel_id: str
    guild_id: str | None
    author: User
    # The `content` field as Discord stores and returns it ("" for a Components V2 message);
    # tests read `content` / `text()`, what a user sees as the message's text.
    api_content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visible_to: str | None = None  # ephemeral: the only user who sees it
    interaction_id: str | None = None  # the interaction whose response or follow-up this is
    webhook_id: str | None = None
    interaction_metadata: JSON | None = None
    mentioned_user_ids: list[str] = field(default_factory=list)
    pinged_user_ids: list[str] = field(default_factory=list)
    pinged_role_ids: list[str] = field(default_factory=list)
    pinged_everyone: bool = False
    edits: int = 0
    deleted: bool = False
    created_at: float = 0.0
    attached_at: float | None = None  # fake-clock time its first attachment arrived
    timestamp: str = field(default_factory=now_iso)

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & limits.FLAG_LOADING)

    @property
    def is_v2(self) -> bool:
        """A Components V2 message: no content or embeds, its text is in TextDisplays."""
        return bool(self.flags & limits.FLAG_COMPONENTS_V2)

    @property
    def content(self) -> str:
        """What a user reads as the message's text, for both kinds (see `text()`)."""
        return self.text()

    def text(self) -> str:
        """The message's text: its content, or a V2 message's TextDisplay contents joined by
        newlines (in display order, sections and containers included)."""
        if not self.is_v2:
            return self.api_content
        found: list[str] = []

        def walk(items: list[JSON]) -> None:
            for item in items:
                if item.get("type") == limits.TEXT_DISPLAY:
                    found.append(str(item.get("content") or ""))
                walk(item.get("components") or [])

        walk(self.components)
        return "\n".join(found)

    def shown_attachments(self) -> list[tuple[Attachment, str | None]]:
        """The pictures a user sees, each with its alt text.

        Classic message: every attachment with its `description`. V2 message: the attachments
        its media galleries/thumbnails/files show (in layout order), with the gallery item's
        `description` as the alt text.
        """
        if not self.is_v2:
            return [(a, a.description) for a in self.attachments]
        by_name = {a.filename: a for a in self.attachments}
        shown: list[tuple[Attachment, str | None]] = []

        def media(ref: Any, alt: Any) -> None:
            url = ref.get("url") if isinstance(ref, dict) else None
            if isinstance(url, str) and url.startswith("attachment://"):
                attachment = by_name.get(url[len("attachment://") :])
                if attachment is not None:
                    shown.append((attachment, alt if isinstance(alt, str) else None))

        def walk(items: list[JSON]) -> None:
            for item in items:
                kind = item.get("type")
                if kind == limits.MEDIA_GALLERY:
                    for entry in item.get("items") or []:
                        media(entry.get("media"), entry.get("description"))
                elif kind == limits.THUMBNAIL:
                    media(item.get("media"), item.get("description"))
                elif kind == limits.FILE:
                    media(item.get("file"), None)
                walk(item.get("components") or [])
                if item.get("accessory"):
                    walk([item["accessory"]])

        walk(self.components)
        return shown

    def alt_texts(self) -> list[str | None]:
        """The alt text of each picture shown, in order (see `shown_attachments`)."""
        return [alt for _, alt in self.shown_attachments()]

    def button_ids(self) -> list[str]:
        """The custom ids of the message's interactive buttons (rows, containers, sections)."""
        return [
            str(c["custom_id"])
            for c in self.iter_components()
            if c.get("type") == limits.BUTTON and c.get("custom_id")
        ]

    def images(self) -> list[Any]:
        """The pictures shown, decoded with Pillow (V2: those its galleries show)."""
        return [a.image() for a, _ in self.shown_attachments()]

    def iter_components(self) -> list[JSON]:
        """Every interactive component, in order, flattened out of rows/containers."""
        found: list[JSON] = []

        def walk(items: list[JSON]) -> None:
            for item in items:
                if item.get("type") in (2, 3, 5, 6, 7, 8):
                    found.append(item)
                walk(item.get("components") or [])
                if item.get("accessory"):
                    walk([item["accessory"]])

        walk(self.components)
        return found

    def component(self, key: str) -> JSON:
        """The button/select whose label or custom_id is `key`."""
        matches = [c for c in self.iter_components() if key in (c.get("label"), c.get("custom_id"))]
        if len(matches) != 1:
            labels = [c.get("label") or c.get("custom_id") for c in self.iter_components()]
            raise AssertionError(f"{len(matches)} components match {key!r}; message has {labels}")
        return matches[0]

    def to_json(
        self, base: str, *, application_id: str | None = None, users: dict[str, User] | None = None
    ) -> JSON:
        pinged = [users[u].to_json() for u in self.pinged_user_ids if users and u in users]
        data: JSON = {
            "id": self.id,
            "type": 20 if self.interaction_metadata and not self.edits else 0,
            "channel_id": self.channel_id,
            "author": self.author.to_json(),
            "content": self.api_content,
            "timestamp": self.timestamp,
            "edited_timestamp": now_iso() if self.edits else None,
            "tts": False,
            "mention_everyone": self.pinged_everyone,
            "mentions": pinged,
            "mention_roles": list(self.pinged_role_ids),
            "attachments": [a.to_json(base) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.interaction_metadata is not None:
            data["type"] = 20 if self.interaction_metadata.get("type") == 2 else 0
            data["interaction_metadata"] = self.interaction_metadata
        if self.webhook_id is not None:
            data["webhook_id"] = self.webhook_id
            data["application_id"] = application_id
        return data


@dataclass
class Call:
    """One HTTP request the bot made, with the fake's answer."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    body: Any
    uploads: list[Upload]
    status: int = 0
    response: Any = None
    at: float = 0.0
    moved: float = 0.0  # the clock's offset when the call arrived (see RESPONSE_WINDOW)
    headers: dict[str, str] = field(default_factory=dict)  # extra answer headers (rate limits)

    @property
    def error_code(self) -> int | None:
        if isinstance(self.response, dict) and self.status >= 400:
            code = self.response.get("code")
            return int(code) if code is not None else None
        return None


@dataclass
class Callback:
    """An interaction response as the fake answered it."""

    type: int
    data: JSON
    status: int
    code: int | None
    at: float


@dataclass
class Interaction:
    id: str
    token: str
    type: int
    user: User
    channel_id: str
    guild_id: str | None
    payload: JSON
    created_at: float
    source_message_id: str | None = None
    moved_at: float = 0.0  # the clock's offset at creation, less its age (see RESPONSE_WINDOW)
    callbacks: list[Callback] = field(default_factory=list)
    response_type: int | None = None
    original_message_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    delivered: bool = False  # the bot's gateway connection was live when it was sent
    # When the user first saw a result (a reply, an update, a follow-up, a filled deferral);
    # a bare deferral ("thinking…") does not count.
    shown_at: float | None = None

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def shown(self) -> bool:
        return self.shown_at is not None

    def show(self, at: float) -> None:
        if self.shown_at is None:
            self.shown_at = at


@dataclass
class Hold:
    """Requests of one route parked until released, to crash the bot at an exact point.

    when="before": parked before the fake applies them; `release(process=False)` discards them
    as if they never reached Discord. when="after": applied, the answer withheld (the bot dies
    not knowing Discord did it).
    """

    route: str
    when: str
    parked: list[Call] = field(default_factory=list)
    active: bool = True
    process: bool = True
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self, *, process: bool = True) -> None:
        self.active = False
        self.process = process
        self.gate.set()


@dataclass
class GatewaySession:
    session_id: str
    intents: int
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    identified_at: float = 0.0
    resumes: int = 0
    replayed: int = 0  # events re-sent on RESUME because the bot missed them


# ---------------------------------------------------------------- rules beyond limits.py
#
# Each rule below is one Discord documents (developers/interactions/application-commands.mdx,
# developers/resources/message.mdx, developers/interactions/receiving-and-responding.mdx of
# github.com/discord/discord-api-docs) or states in its OpenAPI spec (github.com/discord/
# discord-api-spec, specs/openapi.json). The answer is always Discord's documented 400 / 50035
# "Invalid Form Body"; the field codes are those real Discord answers were seen to carry where
# known (BASE_TYPE_CHOICES for a locale, APPLICATION_COMMAND_INVALID_NAME for a localized name,
# MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE), else a descriptive code in Discord's style.

# The spec's AvailableLocalesEnum (the docs' "Locales" table lists the same minus ar and he):
# "fr" is a locale, "fr-FR" is not.
LOCALES = frozenset(
    (  # noqa: SIM905 - one line per dozen locales reads better than one per locale
        "ar bg cs da de el en-GB en-US es-419 es-ES fi fr he hi hr hu id it ja ko lt nl no pl "
        "pt-BR ro ru sv-SE th tr uk vi zh-CN zh-TW"
    ).split()
)
# application-commands.mdx, "Slash Commands": "Slash commands can have a maximum of
# 8000 characters for combined name, description, and value properties for each command, its
# options (including subcommands and groups), and choices. When localization fields are present,
# only the longest localization for each field (including the default value) is counted towards
# the size limit."
COMMAND_SIZE_MAX = 8000
STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 3, 4, 10
INT53 = 2**53  # the spec's Int53Type: integer option values and choices fit in a double
# Devanagari (with Extended and Extended-A) and Thai: the \p{sc=Deva} and \p{sc=Thai} of the
# name regex, which admit their combining vowel signs (not letters to unicodedata).
_NAME_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))


def chat_input_name_ok(name: Any) -> bool:
    """application-commands.mdx: CHAT_INPUT command and option names (localized ones too) match
    ^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ and use the lowercase variant of any letter
    that has one."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    for ch in name:
        script = any(low <= ord(ch) <= high for low, high in _NAME_SCRIPTS)
        if not (ch in "-_'" or unicodedata.category(ch)[0] in "LN" or script):
            return False
        if ch.lower() != ch:
            return False
    return True


def _check_locales(
    item: JSON,
    key: str,
    problems: Problems,
    path: limits.Path,
    value_ok: Callable[[Any], bool],
    code: str,
    message: str,
) -> dict[str, str]:
    """One `*_localizations` dictionary: keys from LOCALES, each value passing `value_ok`.
    Returns its valid entries (locale -> text)."""
    table = item.get(key)
    if table is None:
        return {}
    if not isinstance(table, dict):
        problems.add((*path, key), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a dict.")
        return {}
    valid: dict[str, str] = {}
    for locale, text in table.items():
        if locale not in LOCALES:
            choices = ", ".join(f"'{x}'" for x in sorted(LOCALES))
            problems.add(
                (*path, key, locale), "BASE_TYPE_CHOICES", f"Value must be one of ({choices})."
            )
        elif not value_ok(text):
            problems.add((*path, key, locale), code, message)
        else:
            valid[locale] = text
    return valid


def _text_between(low: int, high: int) -> Callable[[Any], bool]:
    return lambda text: isinstance(text, str) and low <= len(text) <= high


def _check_named(item: JSON, problems: Problems, path: limits.Path, kind: str) -> dict[str, str]:
    """The localizations of a command ("chat"/"menu"), an option ("chat") or a choice
    ("choice"); returns the valid localized names."""
    if kind == "choice":
        names = _check_locales(
            item,
            "name_localizations",
            problems,
            path,
            _text_between(1, 100),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        )
    elif kind == "chat":
        names = _check_locales(
            item,
            "name_localizations",
            problems,
            path,
            chat_input_name_ok,
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        )
    else:
        names = _check_locales(
            item,
            "name_localizations",
            problems,
            path,
            _text_between(1, 32),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        )
    if kind == "chat":
        _check_locales(
            item,
            "description_localizations",
            problems,
            path,
            _text_between(1, 100),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        )
    return names


def value_fits(kind: Any, value: Any) -> tuple[str, str] | None:
    """A choice value against its option type (STRING, INTEGER, NUMBER): None when it fits,
    else Discord's field error (code, message)."""
    if kind == STRING_OPTION and not isinstance(value, str):
        return "BASE_TYPE_STRING", f'Could not interpret "{value}" as string.'
    if kind == INTEGER_OPTION and (
        not isinstance(value, int) or isinstance(value, bool) or not -INT53 < value < INT53
    ):
        return "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.'
    if kind == NUMBER_OPTION and (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not -INT53 < value < INT53
    ):
        return "NUMBER_TYPE_COERCE", f'Value "{value}" is not a valid number.'
    return None


def _check_option_list(options: Any, problems: Problems, path: limits.Path) -> None:
    """Localizations, choice values and localized-name uniqueness of one options array.

    application-commands.mdx, "Localization": "Localized option names are subject to an
    additional constraint, which is that they must be distinct from all other default option
    names of that command, as well as all other option names within that locale on that
    command." Sibling options are what a user picks between, so the names are compared among
    them (two subcommands may each have an option called `name`).
    """
    if not isinstance(options, list):
        return
    siblings = [o for o in options if isinstance(o, dict)]
    localized: list[dict[str, str]] = []
    for j, option in enumerate(siblings):
        opath = (*path, j)
        localized.append(_check_named(option, problems, opath, "chat"))
        kind = option.get("type")
        for k, choice in enumerate(option.get("choices") or []):
            if not isinstance(choice, dict):
                continue
            cpath = (*opath, "choices", k)
            _check_named(choice, problems, cpath, "choice")
            wrong = value_fits(kind, choice.get("value"))
            if wrong is not None and kind in (STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION):
                problems.add((*cpath, "value"), *wrong)
        if kind in (1, 2):
            _check_option_list(option.get("options"), problems, (*opath, "options"))
    defaults = [o.get("name") for o in siblings]
    reported: set[tuple[int, str]] = set()
    for j, names in enumerate(localized):
        others = {d for i, d in enumerate(defaults) if i != j}
        for locale, name in names.items():
            if name != defaults[j] and name in others:
                reported.add((j, locale))
    for locale in {loc for names in localized for loc in names}:
        seen: set[Any] = set()
        for j, names in enumerate(localized):
            shown = names.get(locale, defaults[j])
            if shown in seen:
                reported.add((j, locale))
            seen.add(shown)
    for j, locale in sorted(reported):
        problems.add(
            (*path, j, "name_localizations", locale),
            "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            "Option names must be unique",
        )


def _longest(item: JSON, key: str) -> int:
    texts = [item.get(key)]
    table = item.get(f"{key}_localizations")
    if isinstance(table, dict):
        texts.extend(table.values())
    return max((len(t) for t in texts if isinstance(t, str)), default=0)


def command_size(item: JSON) -> int:
    """The documented size of a command (see COMMAND_SIZE_MAX): names, descriptions and choice
    values of the command, its options and choices, each field at its longest localization."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        if isinstance(choice, dict):
            size += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in item.get("options") or []:
        if isinstance(option, dict):
            size += command_size(option)
    return size


def check_command_rules(commands: Any, problems: Problems) -> None:
    """Localizations, choice value types and the 8000-character size of a bulk overwrite."""
    # limits.py caps a command at 4000 characters counting default texts only: Discord's older
    # limit. The documented rule (COMMAND_SIZE_MAX) replaces it here.
    problems.items = [p for p in problems.items if p[1] != "APPLICATION_COMMAND_TOO_LARGE"]
    if not isinstance(commands, list):
        return
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        chat = command.get("type", 1) == 1
        _check_named(command, problems, (i,), "chat" if chat else "menu")
        _check_option_list(command.get("options"), problems, (i, "options"))
        if chat and command_size(command) > COMMAND_SIZE_MAX:
            problems.add(
                (i,),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
            )


def focused_option(options: Any) -> JSON | None:
    """The option an autocomplete interaction is for (nested in subcommands)."""
    for option in options or []:
        if not isinstance(option, dict):
            continue
        if option.get("focused"):
            return option
        found = focused_option(option.get("options"))
        if found is not None:
            return found
    return None


def check_message_rules(
    body: JSON, uploads: list[Upload], problems: Problems, *, kept: set[str]
) -> None:
    """allowed_mentions exclusivity and the attachments array of a message create/edit body.

    `kept`: ids of the attachments the edited message already has (empty on a create).
    """
    allowed = body.get("allowed_mentions")
    if isinstance(allowed, dict):
        parse = allowed.get("parse") or []
        for kind in ("users", "roles"):
            # message.mdx, "Allowed Mentions": parse and users/roles are mutually exclusive;
            # an empty or null list does not trigger the validation error.
            if kind in parse and allowed.get(kind):
                problems.add(
                    ("allowed_mentions",),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
    attachments = body.get("attachments")
    if not isinstance(attachments, list):
        return
    uploaded = {str(u.index) for u in uploads}
    for i, attachment in enumerate(attachments):
        if not isinstance(attachment, dict):
            continue
        # message.mdx, attachment object: "description (alt text) for the file (max 1024
        # characters)"; the spec's MessageAttachmentRequest says maxLength 1024.
        description = attachment.get("description")
        if isinstance(description, str) and len(description) > limits.MEDIA_DESCRIPTION_MAX:
            problems.add(
                ("attachments", i, "description"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limits.MEDIA_DESCRIPTION_MAX} or fewer in length.",
            )
        # message.mdx: "for new attachments this must match the `n` in `files[n]`"; on an edit
        # the others name attachments the message keeps.
        if str(attachment.get("id")) not in uploaded | kept:
            problems.add(
                ("attachments", i, "id"),
                "ATTACHMENT_NOT_FOUND",
                f"Attachment {attachment.get('id')!r} matches no uploaded file.",
            )


def check_edit_flags(body: JSON) -> None:
    """message.mdx / webhook.mdx, Edit (Webhook) Message: flags may set SUPPRESS_EMBEDS and
    IS_COMPONENTS_V2 only; asking for EPHEMERAL or SUPPRESS_NOTIFICATIONS on an edit is
    refused (a message's visibility and its notification are decided when it is created)."""
    flags = int(body.get("flags") or 0)
    refused = flags & (limits.FLAG_EPHEMERAL | limits.FLAG_SUPPRESS_NOTIFICATIONS)
    if refused:
        problems = Problems()
        problems.add(
            ("flags",), "MESSAGE_FLAGS_INVALID", f"Flags {refused} cannot be set by an edit"
        )
        raise invalid_form(problems)


class FakeDiscord:
    """The fake server. Build guilds/users first, then `await start()`."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        heartbeat_interval_ms: int = 41250,
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.token = token
        self.rate_limits = rate_limits if rate_limits is not None else RateLimits()
        self._windows: dict[tuple[str, str], _Window] = {}
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.clock = FakeClock()
        self._ids = itertools.count(1)
        self.application_id = self.snowflake()
        self.bot_user = User(self.snowflake(), "nauticus", "Nauticus", bot=True)
        self.users: dict[str, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[str, Guild] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, Message] = {}
        self.interactions: dict[str, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self._nonces: dict[tuple[str, str], str] = {}  # (channel, nonce) -> message id
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[str, list[JSON]] = {}
        self.calls: list[Call] = []
        self.unimplemented: list[Call] = []
        self.internal_errors: list[str] = []
        self.holds: list[Hold] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None
        self.gateway_log: list[JSON] = []  # frames the bot sent (op, d summary)
        self.gateway_urls: list[str] = []  # path and query of each gateway connection
        self.connections = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.deliver_interactions = True
        self.deduplicated = 0  # posts answered with an earlier message (enforce_nonce)
        # Cleared by tests to hold new gateway connections before HELLO (events queue meanwhile).
        self.gateway_open = asyncio.Event()
        self.gateway_open.set()

    # ---------------------------------------------------------------- set-up helpers

    def snowflake(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._ids) & 0x3FFFFF))

    def add_user(self, username: str, global_name: str | None = None) -> User:
        user = User(self.snowflake(), username, global_name)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str = "Harbour", *, bot_permissions: int = BOT_DEFAULT) -> Guild:
        gid = self.snowflake()
        owner = self.add_user(f"{name.lower()}-owner")
        guild = Guild(gid, name, owner.id)
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_DEFAULT)
        bot_role = Role(self.snowflake(), self.bot_user.username, bot_permissions, 1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.members[owner.id] = []
        guild.members[self.bot_user.id] = [bot_role.id]
        self.guilds[gid] = guild
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0, **kw: Any) -> Role:
        role = Role(self.snowflake(), name, permissions, len(guild.roles), **kw)
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, roles: list[Role] | None = None) -> None:
        guild.members[user.id] = [r.id for r in roles or []]

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(self.snowflake(), name, 0, guild.id, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: Channel, name: str) -> Channel:
        assert parent.guild_id is not None
        thread = Channel(self.snowflake(), name, 11, parent.guild_id, parent_id=parent.id)
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    def add_dm(self, user: User) -> Channel:
        channel = Channel(self.snowflake(), "", 1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def set_overwrite(
        self, channel: Channel, target: User | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set (replace) a permission overwrite; call before start, or the bot will not know."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites = [o for o in channel.overwrites if o.id != target.id]
        channel.overwrites.append(Overwrite(target.id, kind, allow, deny))

    def deny_bot(self, channel: Channel, permissions: int) -> None:
        self.set_overwrite(channel, self.bot_user, deny=permissions)

    # ---------------------------------------------------------------- permissions

    def permissions(self, user_id: str, channel: Channel) -> int:
        """Discord's algorithm: role union, administrator, then @everyone/role/member overwrites."""
        if channel.guild_id is None:
            return EVERYONE_DEFAULT
        guild = self.guilds[channel.guild_id]
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        role_ids = guild.members.get(user_id)
        if role_ids is None:
            return 0
        perms = guild.everyone.permissions
        for rid in role_ids:
            perms |= guild.roles[rid].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        base = (
            self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        )
        overwrites = {o.id: o for o in base.overwrites}
        if guild.id in overwrites:
            perms = (perms & ~overwrites[guild.id].deny) | overwrites[guild.id].allow
        allow = deny = 0
        for rid in role_ids:
            if rid in overwrites:
                allow |= overwrites[rid].allow
                deny |= overwrites[rid].deny
        perms = (perms & ~deny) | allow
        if user_id in overwrites:
            perms = (perms & ~overwrites[user_id].deny) | overwrites[user_id].allow
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    # ---------------------------------------------------------------- lifecycle

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What the bot's DISCORD_API_BASE setting is set to."""
        return self.root

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/", self._gateway)
        app.router.add_route("GET", "/resume/", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        # Bind first so the port is known and only loopback is ever listened on.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def close(self) -> None:
        for hold in self.holds:
            hold.release(process=False)  # a parked handler would stall the server's shutdown
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---------------------------------------------------------------- waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Return predicate()'s first truthy value; woken by every change the fake records and
        at least every POLL_INTERVAL seconds.

        The poll is for predicates that read state the fake does not see change, such as the
        bot's database: the bot marks a post as sent after the fake has recorded it, so a
        predicate on both, woken only by the fake, slept until the next heartbeat (40 s).
        `timeout` is a hang detector, never a budget: it is raised to WAIT_FLOOR, so a busy
        machine that runs the bot ten times slower only makes the wait longer."""
        timeout = max(timeout, WAIT_FLOOR)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL_INTERVAL))

    async def wait_ready(self, *, timeout: float = 10.0) -> GatewaySession:
        """Until the bot has identified (or resumed) on a live gateway connection."""

        def ready() -> GatewaySession | None:
            s = self.session
            return s if s is not None and s.ws is not None and not s.ws.closed else None

        result: GatewaySession = await self.wait_for(ready, timeout=timeout, what="bot gateway")
        return result

    async def wait_disconnected(self, *, timeout: float = 10.0) -> None:
        """Until no bot holds a gateway connection (after a kill, say)."""

        def gone() -> bool:
            return all(s.ws is None or s.ws.closed for s in self.sessions.values())

        await self.wait_for(gone, timeout=timeout, what="the bot's gateway connection to close")

    # ---------------------------------------------------------------- readers

    def channel_messages(
        self, channel: Channel | str, *, include_deleted: bool = False
    ) -> list[Message]:
        """Public messages in a channel, oldest first."""
        cid = channel if isinstance(channel, str) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and m.visible_to is None and (include_deleted or not m.deleted)
        ]

    def ephemerals_for(self, user: User) -> list[Message]:
        return [m for m in self.messages.values() if m.visible_to == user.id and not m.deleted]

    def errors(self) -> list[Call]:
        return [c for c in self.calls if c.status >= 400]

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return await self._http(request)
        await self.gateway_open.wait()
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        self.gateway_urls.append(str(request.rel_url))
        hello = {
            "op": 10,
            "d": {"heartbeat_interval": self.heartbeat_interval_ms},
            "s": None,
            "t": None,
        }
        await ws.send_str(json.dumps(hello))
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                self.gateway_log.append(
                    {"op": op, "path": request.path, "d": d if op != 2 else "…"}
                )
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    session = await self._identify(ws, d)
                elif op == 6:
                    session = await self._resume(ws, d)
                elif op in (3, 4, 8):
                    pass  # presence, voice state, member requests: accepted and ignored
                else:
                    await ws.close(code=4001, message=b"Unknown opcode")
                self._notify()
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
            self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: JSON) -> GatewaySession | None:
        if d.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        if "intents" not in d:
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        session = GatewaySession(self.snowflake(), int(d["intents"]), ws=ws)
        session.identified_at = self.clock.now()
        self.sessions[session.session_id] = session
        self.session = session
        ready = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g, "unavailable": True} for g in self.guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/resume/",
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]  # AutoShardedClient reads it
        await self._dispatch(session, "READY", ready)
        for guild in self.guilds.values():
            await self._dispatch(session, "GUILD_CREATE", self.guild_json(guild))
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: JSON) -> GatewaySession | None:
        session = self.sessions.get(str(d.get("session_id")))
        if d.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        if session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        old = session.ws
        session.ws = ws
        session.resumes += 1
        self.session = session
        if old is not None and not old.closed:
            await old.close(code=4000)
        after = int(d.get("seq") or 0)
        for seq, frame in session.events:
            if seq > after:
                session.replayed += 1
                await ws.send_str(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        return session

    async def _dispatch(self, session: GatewaySession, event: str, data: JSON) -> bool:
        """Send (or queue for RESUME) one event; True if it went out on a live connection."""
        session.seq += 1
        frame = json.dumps({"op": 0, "s": session.seq, "t": event, "d": data})
        session.events.append((session.seq, frame))
        if session.ws is not None and not session.ws.closed:
            await session.ws.send_str(frame)
            return True
        return False

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send an event to the bot's current session (queued for RESUME if disconnected)."""
        if self.session is None:
            raise AssertionError(f"cannot dispatch {event}: the bot never identified")
        return await self._dispatch(self.session, event, data)

    async def announce_guild(self, guild: Guild) -> None:
        """The bot joined a guild made after it connected: GUILD_CREATE, as Discord sends."""
        await self.dispatch("GUILD_CREATE", self.guild_json(guild))

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the bot's gateway socket as Discord does on a network blip; it should RESUME."""
        assert self.session is not None and self.session.ws is not None
        ws = self.session.ws
        self.session.ws = None
        await ws.close(code=code)
        self._notify()

    def guild_json(self, guild: Guild) -> JSON:
        members = []
        for uid, role_ids in guild.members.items():
            members.append(self.member_json(guild, self.users[uid]) | {"roles": role_ids})
        channels = [c for c in guild.channels.values() if not c.is_thread]
        threads = [c for c in guild.channels.values() if c.is_thread]
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": guild.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_json() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": members,
            "channels": [c.to_json(with_guild=False) for c in channels],
            "threads": [c.to_json() for c in threads],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": True,
        }

    def member_json(self, guild: Guild, user: User) -> JSON:
        return {
            "user": user.to_json(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": list(guild.members.get(user.id, [])),
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }

    # ---------------------------------------------------------------- interactions (test side)

    async def create_interaction(
        self,
        user: User,
        channel: Channel,
        kind: int,
        data: JSON,
        *,
        message: Message | None = None,
        age: float = 0.0,
        guild_id: str | None = None,
    ) -> Interaction:
        """Build an INTERACTION_CREATE exactly as Discord sends it and deliver it to the bot.

        `age` makes the interaction that many seconds old on arrival (a slow gateway), to test
        the 3-second rule without waiting. `guild_id` overrides the channel's guild (forgery).
        """
        iid = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{iid}:{next(self._ids)}-fake-token"
        gid = guild_id if guild_id is not None else channel.guild_id
        payload: JSON = {
            "id": iid,
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": channel.id,
        }
        channel_json = channel.to_json()
        if gid is not None and gid in self.guilds:
            guild = self.guilds[gid]
            user_perms = self.permissions(user.id, channel)
            payload.update(
                guild_id=gid,
                guild={"id": gid, "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=self.member_json(guild, user) | {"permissions": str(user_perms)},
                app_permissions=str(self.permissions(self.bot_user.id, channel)),
                authorizing_integration_owners={"0": gid},
                context=0,
            )
            channel_json["permissions"] = str(user_perms)
        else:
            payload.update(
                user=user.to_json(),
                app_permissions=str(EVERYONE_DEFAULT),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        payload["channel"] = channel_json
        if message is not None:
            payload["message"] = message.to_json(self.root, application_id=self.application_id)
        interaction = Interaction(
            iid,
            token,
            kind,
            user,
            channel.id,
            gid,
            payload,
            self.clock.now() - age,
            source_message_id=message.id if message else None,
            moved_at=self.clock.offset - age,
        )
        self.interactions[iid] = interaction
        self._by_token[token] = interaction
        if self.deliver_interactions:
            interaction.delivered = await self.dispatch("INTERACTION_CREATE", payload)
        self._notify()
        return interaction

    def find_command(self, guild_id: str | None, name: str, kind: int = 1) -> JSON:
        pools = [
            *(self.guild_commands.get(guild_id, []) if guild_id else []),
            *self.global_commands,
        ]
        for command in pools:
            if command["name"] == name and command.get("type", 1) == kind:
                return command
        known = sorted({c["name"] for c in pools})
        raise AssertionError(f"command {name!r} is not registered (known: {known})")

    # ---------------------------------------------------------------- HTTP plumbing

    async def _http(self, request: web.Request) -> web.StreamResponse:
        body: Any = None
        uploads: list[Upload] = []
        ctype = request.headers.get("Content-Type", "")
        try:
            if ctype.startswith("multipart/"):
                body, uploads = await self._read_multipart(request)
            elif request.can_read_body:
                raw = await request.read()
                if raw:
                    if not ctype.startswith("application/json"):
                        raise ValueError(f"body sent as {ctype!r}")
                    body = json.loads(raw)
        except ValueError as exc:
            return self._error_response(
                self._record(request, None, []),
                DiscordError(400, 50109, f"The request body contains invalid JSON. ({exc})"),
            )
        call = self._record(request, body, uploads)
        path = request.path
        if not path.startswith("/api/v10/"):
            return self._unimplemented(call)
        sub = path[len("/api/v10") :]
        for method, pattern, name, handler in self._routes():
            match = pattern.fullmatch(sub)
            if match and method == request.method:
                call.route = name
                if not await self._pass_hold(call, "before"):
                    call.status = 503
                    return web.Response(status=503)
                try:
                    if not name.startswith(("webhook", "callback")):
                        self._check_auth(request)
                    self._rate_limit(call, match.groups())
                    status, answer = await handler(call, *match.groups())
                except DiscordError as err:
                    return self._error_response(call, err)
                except Exception as exc:
                    # A bug in the fake. Answer 400, not 5xx: discord.py retries 5xx with
                    # sleeps, which would turn a fake bug into a slow, confusing test.
                    self.internal_errors.append(f"{call.method} {call.path}: {exc!r}")
                    failure = DiscordError(400, 0, f"fake Discord failed on this request: {exc!r}")
                    return self._error_response(call, failure)
                await self._pass_hold(call, "after")
                return self._json_response(call, status, answer)
        return self._unimplemented(call)

    def hold(self, route: str, *, when: str = "before") -> Hold:
        """Park the next requests of `route` (a route name like "callback" or "post")."""
        if when not in ("before", "after"):
            raise ValueError("when is 'before' or 'after'")
        hold = Hold(route, when)
        self.holds.append(hold)
        return hold

    async def _pass_hold(self, call: Call, when: str) -> bool:
        """Wait at a matching hold; False when the request is to be discarded."""
        hold = next(
            (h for h in self.holds if h.active and h.route == call.route and h.when == when),
            None,
        )
        if hold is None:
            return True
        hold.parked.append(call)
        self._notify()
        await hold.gate.wait()
        return hold.process

    def _record(self, request: web.Request, body: Any, uploads: list[Upload]) -> Call:
        call = Call(request.method, request.path, "", dict(request.query), body, uploads)
        call.at = self.clock.now()
        call.moved = self.clock.offset
        self.calls.append(call)
        return call

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    def _json_response(self, call: Call, status: int, answer: Any) -> web.Response:
        call.status = status
        call.response = answer
        self._notify()
        if status == 204:
            return web.Response(status=204, headers=call.headers)
        # Exactly "application/json": discord.py compares the header verbatim and would treat a
        # body sent with "; charset=utf-8" as plain text.
        return web.Response(
            status=status,
            body=json.dumps(answer).encode(),
            headers={**call.headers, "Content-Type": "application/json"},
        )

    def _error_response(self, call: Call, err: DiscordError) -> web.Response:
        call.headers.update(err.headers)
        if err.status == 429:
            return self._json_response(call, 429, err.rate_limit_body)
        return self._json_response(call, err.status, err.body())

    # ---------------------------------------------------------------- rate limits

    def rate_limited(self) -> list[Call]:
        """Every request the fake answered 429."""
        return [c for c in self.calls if c.status == 429]

    def _take(self, key: tuple[str, str], limit: RateLimit, now: float) -> tuple[bool, _Window]:
        """One request against a fixed window; False when the window is used up."""
        window = self._windows.get(key)
        if window is None or now >= window.reset_at:
            window = _Window(now + limit.per)
            self._windows[key] = window
        if window.used >= limit.limit:
            return False, window
        window.used += 1
        return True, window

    def _rate_limit(self, call: Call, params: tuple[str, ...]) -> None:
        """Discord's global and per-route limits, with its headers; raises a 429 when over.

        Every request counts, whatever its answer; a request refused with 429 does nothing.
        """
        config = self.rate_limits
        now = time.monotonic()  # real time: the client really waits
        if config.global_limit is not None and call.route not in config.exempt_global:
            ok, window = self._take(("global", ""), config.global_limit, now)
            if not ok:
                raise self._too_many(window.reset_at - now, scope="global")
        limit = config.routes.get(call.route)
        if limit is None:
            return
        # The major parameter: the channel, or the interaction webhook (id and token).
        major = "/".join(params[:2]) if call.route.startswith("webhook") else params[0]
        ok, window = self._take((call.route, major), limit, now)
        after = max(0.0, window.reset_at - now)
        call.headers.update(
            {
                "X-RateLimit-Limit": str(limit.limit),
                "X-RateLimit-Remaining": str(max(0, limit.limit - window.used)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(call.route.encode()).hexdigest()[:16],
            }
        )
        if not ok:
            raise self._too_many(after, scope="user")

    def _too_many(self, retry_after: float, *, scope: str) -> DiscordError:
        is_global = scope == "global"
        err = DiscordError(429, 0, "You are being rate limited.")
        err.rate_limit_body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }
        err.headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": scope,
            # Discord answers through Google's front end; discord.py reads a 429 without `Via`
            # as a Cloudflare ban and gives up instead of retrying.
            "Via": "1.1 google",
        }
        if is_global:
            err.headers["X-RateLimit-Global"] = "true"
        return err

    def _unimplemented(self, call: Call) -> web.Response:
        self.unimplemented.append(call)
        err = DiscordError(
            404, 0, f"fake Discord does not implement {call.method} {call.path}; add it to the fake"
        )
        return self._error_response(call, err)

    async def _read_multipart(self, request: web.Request) -> tuple[Any, list[Upload]]:
        reader = await request.multipart()
        payload: Any = None
        uploads: list[Upload] = []
        while True:
            part = await reader.next()
            if part is None:
                break
            name = getattr(part, "name", None) or ""
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(data)
            else:
                match = re.fullmatch(r"files\[(\d+)\]", name)
                if match is None:
                    raise ValueError(f"unexpected multipart field {name!r}")
                uploads.append(
                    Upload(
                        int(match.group(1)),
                        getattr(part, "filename", None) or "",
                        part.headers.get("Content-Type", "application/octet-stream"),
                        bytes(data),
                    )
                )
        return payload, uploads

    Handler = Callable[..., Awaitable[tuple[int, Any]]]

    def _routes(self) -> list[tuple[str, re.Pattern[str], str, FakeDiscord.Handler]]:
        table: list[tuple[str, str, str, FakeDiscord.Handler]] = [
            ("GET", r"/users/@me", "me", self._get_me),
            ("GET", r"/users/(\d+)", "user", self._get_user),
            ("GET", r"/oauth2/applications/@me", "app", self._get_app),
            ("GET", r"/applications/@me", "app", self._get_app),
            ("GET", r"/gateway", "gateway", self._get_gateway),
            ("GET", r"/gateway/bot", "gateway_bot", self._get_gateway_bot),
            ("PUT", r"/applications/(\d+)/commands", "sync_global", self._put_global),
            ("GET", r"/applications/(\d+)/commands", "list_global", self._list_global),
            ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands", "sync_guild", self._put_guild),
            ("GET", r"/applications/(\d+)/guilds/(\d+)/commands", "list_guild", self._list_guild),
            ("GET", r"/channels/(\d+)", "channel", self._get_channel),
            ("POST", r"/channels/(\d+)/messages", "post", self._post_message),
            ("GET", r"/channels/(\d+)/messages/(\d+)", "get_message", self._get_message),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", "edit", self._edit_message),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", "delete", self._delete_message),
            ("POST", r"/channels/(\d+)/typing", "typing", self._typing),
            ("GET", r"/guilds/(\d+)/members/(\d+)", "member", self._get_member),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", "callback", self._callback),
            ("POST", r"/webhooks/(\d+)/([^/]+)", "webhook_followup", self._followup),
            ("GET", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "webhook_get", self._wh_get),
            ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "webhook_edit", self._wh_edit),
            ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)", "webhook_delete", self._wh_del),
        ]
        return [(m, re.compile(p), n, h) for m, p, n, h in table]

    # ---------------------------------------------------------------- REST: identity

    async def _get_me(self, call: Call) -> tuple[int, Any]:
        return 200, {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _get_user(self, call: Call, uid: str) -> tuple[int, Any]:
        if uid not in self.users:
            raise DiscordError(404, 10013, "Unknown User")
        return 200, self.users[uid].to_json()

    async def _get_app(self, call: Call) -> tuple[int, Any]:
        owner = next(iter(self.guilds.values())).owner_id if self.guilds else self.bot_user.id
        return 200, {
            "id": self.application_id,
            "name": "Nauticus",
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self.users[owner].to_json(),
            "team": None,
            "bot": self.bot_user.to_json(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "approximate_guild_count": len(self.guilds),
        }

    async def _get_gateway(self, call: Call) -> tuple[int, Any]:
        return 200, {"url": f"ws://127.0.0.1:{self.port}"}

    async def _get_gateway_bot(self, call: Call) -> tuple[int, Any]:
        return 200, {
            "url": f"ws://127.0.0.1:{self.port}",
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    # ---------------------------------------------------------------- REST: commands

    def _check_app(self, app: str) -> None:
        if app != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")

    def _store_commands(self, body: Any, existing: list[JSON], guild_id: str | None) -> list[JSON]:
        problems = Problems()
        limits.check_commands(body, problems)
        check_command_rules(body, problems)
        if problems:
            raise invalid_form(problems)
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in existing}
        stored = []
        for command in body:
            kind = command.get("type", 1)
            echoed = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "integration_types": [0],
                "contexts": None,
                **command,
                "id": old_ids.get((command["name"], kind)) or self.snowflake(),
                "application_id": self.application_id,
                "version": self.snowflake(),
            }
            if guild_id is not None:
                echoed["guild_id"] = guild_id
            stored.append(echoed)
        return stored

    async def _put_global(self, call: Call, app: str) -> tuple[int, Any]:
        self._check_app(app)
        self.global_commands = self._store_commands(call.body, self.global_commands, None)
        return 200, self.global_commands

    async def _list_global(self, call: Call, app: str) -> tuple[int, Any]:
        self._check_app(app)
        return 200, self.global_commands

    async def _put_guild(self, call: Call, app: str, gid: str) -> tuple[int, Any]:
        self._check_app(app)
        if gid not in self.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        existing = self.guild_commands.get(gid, [])
        self.guild_commands[gid] = self._store_commands(call.body, existing, gid)
        return 200, self.guild_commands[gid]

    async def _list_guild(self, call: Call, app: str, gid: str) -> tuple[int, Any]:
        self._check_app(app)
        return 200, self.guild_commands.get(gid, [])

    # ---------------------------------------------------------------- REST: channels & messages

    def _channel(self, cid: str) -> Channel:
        channel = self.channels.get(cid)
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if channel.type != 1 and not self.permissions(self.bot_user.id, channel) & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _message(self, channel: Channel, mid: str) -> Message:
        """A public message of this channel; ephemerals exist only behind interaction webhooks."""
        message = self.messages.get(mid)
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.visible_to is not None
        ):
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _get_channel(self, call: Call, cid: str) -> tuple[int, Any]:
        return 200, self._channel(cid).to_json()

    async def _get_member(self, call: Call, gid: str, uid: str) -> tuple[int, Any]:
        guild = self.guilds.get(gid)
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        if uid not in guild.members:
            raise DiscordError(404, 10007, "Unknown Member")
        return 200, self.member_json(guild, self.users[uid])

    async def _typing(self, call: Call, cid: str) -> tuple[int, Any]:
        self._channel(cid)
        return 204, None

    def _message_body(self, call: Call) -> JSON:
        body = call.body
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise DiscordError(400, 50109, "The request body contains invalid JSON.")
        return body

    def _new_attachments(
        self, body: JSON, uploads: list[Upload], problems: Problems
    ) -> list[Attachment]:
        # New files are described by {"id": <index of files[n]>}; kept ones carry snowflakes.
        described = {
            int(a["id"]): a for a in body.get("attachments") or [] if str(a.get("id")).isdigit()
        }
        result = []
        for upload in uploads:
            if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
                raise DiscordError(413, 40005, "Request entity too large")
            meta = described.get(upload.index, {})
            filename = meta.get("filename") or upload.filename
            if not filename:
                problems.add(
                    ("files", upload.index), "BASE_TYPE_REQUIRED", "A filename is required"
                )
            result.append(
                Attachment(
                    self.snowflake(),
                    filename,
                    upload.content_type,
                    upload.data,
                    meta.get("description"),
                )
            )
        return result

    def _check_body(
        self, body: JSON, uploads: list[Upload], *, editing: Message | None = None
    ) -> Problems:
        """Discord's payload limits; on an edit, judged against the message being edited."""
        problems = Problems()
        described = {
            str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)
        }
        names = {described.get(str(u.index), {}).get("filename") or u.filename for u in uploads}
        if editing is not None:
            kept = editing.attachments
            if "attachments" in body:
                kept = [a for a in kept if a.id in described]
            names |= {a.filename for a in kept}
        limits.check_message(
            body,
            problems,
            files=len(uploads),
            existing_attachments=len(editing.attachments) if editing else 0,
            filenames=names,
            was_v2=editing.is_v2 if editing else False,
            old_content=editing.api_content if editing else "",
            old_embeds=len(editing.embeds) if editing else 0,
        )
        kept_ids = {a.id for a in editing.attachments} if editing is not None else set()
        check_message_rules(body, uploads, problems, kept=kept_ids)
        return problems

    def _require_content(self, body: JSON, uploads: list[Upload]) -> None:
        if not (body.get("content") or body.get("embeds") or body.get("components") or uploads):
            raise DiscordError(400, 50006, "Cannot send an empty message")

    def _apply_mentions(self, message: Message, body: JSON, author_perms: int) -> None:
        """Who this message pings, following allowed_mentions the way Discord does."""
        allowed = body.get("allowed_mentions")
        parse = (
            set(allowed.get("parse", [])) if allowed is not None else {"users", "roles", "everyone"}
        )
        # discord.py sends these ids as integers, Discord documents strings: accept both.
        users_ok = {str(u) for u in allowed.get("users", [])} if allowed is not None else set()
        roles_ok = {str(r) for r in allowed.get("roles", [])} if allowed is not None else set()
        content = message.text()
        mentioned = list(dict.fromkeys(re.findall(r"<@!?(\d+)>", content)))
        message.mentioned_user_ids = [u for u in mentioned if u in self.users]
        message.pinged_user_ids = [
            u for u in message.mentioned_user_ids if "users" in parse or u in users_ok
        ]
        guild = self.guilds.get(message.guild_id or "")
        roles = list(dict.fromkeys(re.findall(r"<@&(\d+)>", content)))
        message.pinged_role_ids = [
            r
            for r in roles
            if guild is not None
            and r in guild.roles
            and ("roles" in parse or r in roles_ok)
            and (guild.roles[r].mentionable or author_perms & MENTION_EVERYONE)
        ]
        message.pinged_everyone = bool(
            re.search(r"@(everyone|here)", content)
            and "everyone" in parse
            and author_perms & MENTION_EVERYONE
        )
        if (
            message.visible_to is not None
            or body.get("flags", 0) & limits.FLAG_SUPPRESS_NOTIFICATIONS
        ):
            message.pinged_user_ids, message.pinged_role_ids = [], []
            message.pinged_everyone = False

    def _create_message(
        self,
        channel: Channel,
        body: JSON,
        uploads: list[Upload],
        *,
        author: User,
        author_perms: int,
        ephemeral_to: str | None = None,
        interaction: Interaction | None = None,
    ) -> Message:
        problems = self._check_body(body, uploads)
        attachments = self._new_attachments(body, uploads, problems)
        if problems:
            raise invalid_form(problems)
        self._require_content(body, uploads)
        message = Message(
            self.snowflake(),
            channel.id,
            channel.guild_id,
            author,
            api_content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=self._number_components(body.get("components") or []),
            attachments=attachments,
            flags=int(body.get("flags") or 0) & ~limits.FLAG_EPHEMERAL,
            visible_to=ephemeral_to,
            created_at=self.clock.now(),
        )
        if ephemeral_to is not None:
            message.flags |= limits.FLAG_EPHEMERAL
        if attachments:
            message.attached_at = message.created_at
        if interaction is not None:
            message.interaction_id = interaction.id
            message.webhook_id = self.application_id
            message.interaction_metadata = self._metadata(interaction)
        self._apply_mentions(message, body, author_perms)
        self.messages[message.id] = message
        return message

    def _number_components(self, components: list[JSON]) -> list[JSON]:
        """Discord stores components with a numeric id on each; the bot gets them back."""
        counter = itertools.count(1)

        def walk(items: list[JSON]) -> list[JSON]:
            out = []
            for item in items:
                copy = dict(item)
                copy.setdefault("id", next(counter))
                if "components" in copy:
                    copy["components"] = walk(copy["components"])
                out.append(copy)
            return out

        return walk(components)

    def _metadata(self, interaction: Interaction) -> JSON:
        meta: JSON = {
            "id": interaction.id,
            "type": interaction.type,
            "user": interaction.user.to_json(),
            "authorizing_integration_owners": interaction.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if interaction.type == APPLICATION_COMMAND:
            meta["name"] = interaction.payload["data"].get("name", "")
            meta["command_type"] = 1
        if interaction.source_message_id is not None:
            meta["interacted_message_id"] = interaction.source_message_id
        return meta

    def _edit(self, message: Message, body: JSON, uploads: list[Upload]) -> None:
        problems = self._check_body(body, uploads, editing=message)
        new = self._new_attachments(body, uploads, problems)
        if problems:
            raise invalid_form(problems)
        # Work out the result first: a refused edit must leave the message as it was.
        content = (body["content"] or "") if "content" in body else message.api_content
        embeds = list(body["embeds"] or []) if "embeds" in body else message.embeds
        components = (
            self._number_components(body["components"] or [])
            if "components" in body
            else message.components
        )
        attachments = list(message.attachments)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            attachments = [a for a in attachments if a.id in keep]
        attachments.extend(new)
        if not (content or embeds or components or attachments):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        message.api_content, message.embeds = content, embeds
        message.components, message.attachments = components, attachments
        if new and message.attached_at is None:
            message.attached_at = self.clock.now()
        if "flags" in body and body["flags"] is not None:
            sticky = message.flags & limits.FLAG_EPHEMERAL
            message.flags = (int(body["flags"]) & ~limits.FLAG_EPHEMERAL) | sticky
        message.flags &= ~limits.FLAG_LOADING
        message.edits += 1

    async def _post_message(self, call: Call, cid: str) -> tuple[int, Any]:
        channel = self._channel(cid)
        body = self._message_body(call)
        perms = (
            self.permissions(self.bot_user.id, channel) if channel.type != 1 else EVERYONE_DEFAULT
        )
        need = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not perms & need:
            raise DiscordError(403, 50013, "Missing Permissions")
        if call.uploads and not perms & ATTACH_FILES:
            raise DiscordError(403, 50013, "Missing Permissions")
        if int(body.get("flags") or 0) & limits.FLAG_EPHEMERAL:
            problems = Problems()
            problems.add(("flags",), "MESSAGE_FLAGS_INVALID", "Ephemeral needs an interaction")
            raise invalid_form(problems)
        nonce = body.get("nonce")
        if nonce is not None and (not isinstance(nonce, int | str) or len(str(nonce)) > 25):
            problems = Problems()
            problems.add(("nonce",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            raise invalid_form(problems)
        if nonce is not None and body.get("enforce_nonce"):
            # Discord returns the earlier message instead of posting a duplicate.
            earlier = self.messages.get(self._nonces.get((channel.id, str(nonce)), ""))
            if earlier is not None and self.clock.now() - earlier.created_at <= NONCE_WINDOW:
                self.deduplicated += 1
                return 200, self.message_event(earlier)
        message = self._create_message(
            channel, body, call.uploads, author=self.bot_user, author_perms=perms
        )
        if nonce is not None:
            self._nonces[(channel.id, str(nonce))] = message.id
        payload = self.message_event(message)
        await self._maybe_dispatch("MESSAGE_CREATE", payload)
        return 200, payload

    def message_event(self, message: Message) -> JSON:
        data = message.to_json(self.root, application_id=self.application_id, users=self.users)
        if message.guild_id is not None:
            data["guild_id"] = message.guild_id
        return data

    async def _maybe_dispatch(self, event: str, data: JSON) -> None:
        """Message events reach the bot only when it asked for GUILD_MESSAGES (1 << 9)."""
        if self.session is not None and self.session.intents & (1 << 9):
            await self._dispatch(self.session, event, data)

    async def _get_message(self, call: Call, cid: str, mid: str) -> tuple[int, Any]:
        channel = self._channel(cid)
        message = self._message(channel, mid)
        return 200, self.message_event(message)

    async def _edit_message(self, call: Call, cid: str, mid: str) -> tuple[int, Any]:
        channel = self._channel(cid)
        message = self._message(channel, mid)
        if message.author.id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        perms = self.permissions(self.bot_user.id, channel)
        if call.uploads and not perms & ATTACH_FILES:
            raise DiscordError(403, 50013, "Missing Permissions")
        body = self._message_body(call)
        check_edit_flags(body)
        self._edit(message, body, call.uploads)
        payload = self.message_event(message)
        await self._maybe_dispatch("MESSAGE_UPDATE", payload)
        return 200, payload

    async def _delete_message(self, call: Call, cid: str, mid: str) -> tuple[int, Any]:
        channel = self._channel(cid)
        message = self._message(channel, mid)
        perms = self.permissions(self.bot_user.id, channel)
        if message.author.id != self.bot_user.id and not perms & MANAGE_MESSAGES:
            raise DiscordError(403, 50013, "Missing Permissions")
        message.deleted = True
        event = {"id": mid, "channel_id": cid, "guild_id": channel.guild_id}
        await self._maybe_dispatch("MESSAGE_DELETE", event)
        return 204, None

    # ---------------------------------------------------------------- REST: interactions

    def _interaction_for(self, iid: str, token: str) -> Interaction:
        interaction = self._by_token.get(token)
        if interaction is None or interaction.id != iid:
            raise DiscordError(404, 10062, "Unknown interaction")
        return interaction

    def _webhook_interaction(self, app: str, token: str) -> Interaction:
        interaction = self._by_token.get(token)
        if app != self.application_id or interaction is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.clock.now() - interaction.created_at > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return interaction

    async def _callback(self, call: Call, iid: str, token: str) -> tuple[int, Any]:
        interaction = self._interaction_for(iid, token)
        body = self._message_body(call)
        kind = body.get("type")
        data = body.get("data") or {}
        try:
            result = await self._respond(interaction, call, kind, data)
        except DiscordError as err:
            interaction.callbacks.append(
                Callback(kind if isinstance(kind, int) else -1, data, err.status, err.code, call.at)
            )
            raise
        interaction.callbacks.append(Callback(int(kind or 0), data, 200, None, call.at))
        self._notify()
        return result

    async def _respond(
        self, interaction: Interaction, call: Call, kind: Any, data: JSON
    ) -> tuple[int, Any]:
        if interaction.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        # Counted on the time tests move (`clock.advance`, an interaction's `age`), not on how
        # fast this machine runs the bot: a busy machine can starve the bot for seconds, and a
        # test must not fail for that. How fast the bot answers is measured by
        # bench/e2e_bench.py.
        if call.moved - interaction.moved_at > RESPONSE_WINDOW:
            raise DiscordError(404, 10062, "Unknown interaction")
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE,
                UPDATE_MESSAGE,
                MODAL,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE,
                UPDATE_MESSAGE,
            },
        }[interaction.type]
        if kind not in allowed:
            problems = Problems()
            problems.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", f"Type {kind} not allowed")
            raise invalid_form(problems)
        channel = self.channels[interaction.channel_id]
        app_perms = int(interaction.payload.get("app_permissions") or 0)
        ephemeral = bool(int(data.get("flags") or 0) & limits.FLAG_EPHEMERAL)
        self._check_deferral_flags(kind, data)
        info: JSON = {"id": interaction.id, "type": interaction.type}
        resource: JSON | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._create_message(
                channel,
                data,
                call.uploads,
                author=self.bot_user,
                author_perms=app_perms,
                ephemeral_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
            interaction.original_message_id = message.id
            info.update(response_message_id=message.id, response_message_ephemeral=ephemeral)
            resource = {"type": kind, "message": self.message_event(message)}
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = Message(
                self.snowflake(),
                channel.id,
                channel.guild_id,
                self.bot_user,
                flags=limits.FLAG_LOADING,
                visible_to=interaction.user.id if ephemeral else None,
                created_at=self.clock.now(),
                interaction_id=interaction.id,
                webhook_id=self.application_id,
                interaction_metadata=self._metadata(interaction),
            )
            if ephemeral:
                message.flags |= limits.FLAG_EPHEMERAL
            self.messages[message.id] = message
            interaction.original_message_id = message.id
            info.update(
                response_message_id=message.id,
                response_message_loading=True,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": kind, "message": self.message_event(message)}
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if interaction.source_message_id is None:
                problems = Problems()
                problems.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", "No message to update")
                raise invalid_form(problems)
            message = self.messages[interaction.source_message_id]
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, call.uploads)
            interaction.original_message_id = message.id
            info.update(response_message_id=message.id)
            resource = {"type": kind, "message": self.message_event(message)}
        elif kind == AUTOCOMPLETE_RESULT:
            problems = Problems()
            limits.check_choices(data.get("choices"), problems)
            self._check_autocomplete_values(interaction, data, problems)
            if problems:
                raise invalid_form(problems)
        elif kind == MODAL:
            problems = Problems()
            _required = data.get("custom_id")
            if not isinstance(_required, str) or not 1 <= len(_required) <= 100:
                problems.add(("data", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
            title = data.get("title")
            if not isinstance(title, str) or not 1 <= len(title) <= 45:
                problems.add(("data", "title"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45")
            if problems:
                raise invalid_form(problems)
        interaction.response_type = kind
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
            interaction.show(call.at)
        if call.query.get("with_response") in ("1", "true", "True"):
            answer: JSON = {"interaction": info}
            if resource is not None:
                answer["resource"] = resource
            return 200, answer
        return 204, None

    def _check_deferral_flags(self, kind: Any, data: JSON) -> None:
        """receiving-and-responding.mdx: "If you create a callback with the type
        DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE the only valid message flag you may use is
        EPHEMERAL. If you'd like to create a component based message with IS_COMPONENTS_V2 you
        must do that with the edit original response endpoint." A deferred update has no message
        of its own to flag. (Real Discord was seen to ignore the V2 flag on a deferral,
        discord-api-docs#7910; the fake refuses it so a bot never relies on it.)"""
        if kind not in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE):
            return
        flags = int(data.get("flags") or 0)
        allowed = limits.FLAG_EPHEMERAL if kind == DEFERRED_CHANNEL_MESSAGE else 0
        if flags & limits.FLAG_COMPONENTS_V2 or flags & ~allowed:
            problems = Problems()
            problems.add(
                ("data", "flags"),
                "MESSAGE_FLAGS_INVALID",
                f"Flags {flags & ~allowed} cannot be set on a deferred response",
            )
            raise invalid_form(problems)

    def _check_autocomplete_values(
        self, interaction: Interaction, data: JSON, problems: Problems
    ) -> None:
        """Autocomplete choices carry values of the focused option's type (the spec's String,
        Integer and Number autocomplete callback data)."""
        focused = focused_option((interaction.payload.get("data") or {}).get("options"))
        kind = focused.get("type") if focused is not None else None
        choices = data.get("choices")
        if kind not in (STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION) or not isinstance(
            choices, list
        ):
            return
        for k, choice in enumerate(choices):
            if isinstance(choice, dict):
                wrong = value_fits(kind, choice.get("value"))
                if wrong is not None:
                    problems.add(("data", "choices", k, "value"), *wrong)
                _check_named(choice, problems, ("data", "choices", k), "choice")

    def _original(self, interaction: Interaction) -> Message:
        if interaction.original_message_id is None:
            raise DiscordError(404, 10008, "Unknown Message")
        message = self.messages[interaction.original_message_id]
        if message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    def _webhook_message(self, interaction: Interaction, mid: str) -> Message:
        if mid == "@original":
            return self._original(interaction)
        if mid not in interaction.followup_ids and mid != interaction.original_message_id:
            raise DiscordError(404, 10008, "Unknown Message")
        message = self.messages[mid]
        if message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _followup(self, call: Call, app: str, token: str) -> tuple[int, Any]:
        interaction = self._webhook_interaction(app, token)
        if not interaction.acknowledged or interaction.response_type == AUTOCOMPLETE_RESULT:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = self._message_body(call)
        channel = self.channels[interaction.channel_id]
        app_perms = int(interaction.payload.get("app_permissions") or 0)
        ephemeral = bool(int(body.get("flags") or 0) & limits.FLAG_EPHEMERAL)
        original = (
            self.messages.get(interaction.original_message_id or "")
            if interaction.response_type == DEFERRED_CHANNEL_MESSAGE
            else None
        )
        if original is not None and original.loading:
            # Discord: the first follow-up after a deferral replaces the "thinking" message and
            # keeps the deferral's visibility, whatever flags the follow-up asks for.
            self._edit(original, body, call.uploads)
            self._apply_mentions(original, body, app_perms)
            # It is an edit of the "thinking" message, and edits notify nobody: a bot that
            # relies on a ping here would leave the player unnotified.
            original.pinged_user_ids, original.pinged_role_ids = [], []
            original.pinged_everyone = False
            message = original
        else:
            message = self._create_message(
                channel,
                body,
                call.uploads,
                author=self.bot_user,
                author_perms=app_perms,
                ephemeral_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
            interaction.followup_ids.append(message.id)
        interaction.show(call.at)
        if call.query.get("wait") in ("true", "1", "True"):
            return 200, self.message_event(message)
        return 204, None

    async def _wh_get(self, call: Call, app: str, token: str, mid: str) -> tuple[int, Any]:
        interaction = self._webhook_interaction(app, token)
        return 200, self.message_event(self._webhook_message(interaction, mid))

    async def _wh_edit(self, call: Call, app: str, token: str, mid: str) -> tuple[int, Any]:
        interaction = self._webhook_interaction(app, token)
        message = self._webhook_message(interaction, mid)
        body = self._message_body(call)
        check_edit_flags(body)
        self._edit(message, body, call.uploads)
        interaction.show(call.at)
        payload = self.message_event(message)
        if message.visible_to is None:
            await self._maybe_dispatch("MESSAGE_UPDATE", payload)
        return 200, payload

    async def _wh_del(self, call: Call, app: str, token: str, mid: str) -> tuple[int, Any]:
        interaction = self._webhook_interaction(app, token)
        message = self._webhook_message(interaction, mid)
        message.deleted = True
        return 204, None
