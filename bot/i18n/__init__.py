"""The message catalogue: every player-facing text in English (the source) and French.

Texts live in gettext PO files next to this module: `messages.pot` lists every message the
code can show (made by `python -m bot.texts_extract`), `fr.po` gives its French. The msgid is
the English text itself, as gettext intends: the code stays readable, English needs no
catalogue at all, and a text with no translation falls back to its English instead of
showing a key. Placeholders are `str.format` fields (`{name}`), so a translation may reorder
them. Command names and option names carry the msgctxt `name` (they follow Discord's naming
rules); `name:<command>` overrides it for one command when a word needs another French word
there.

The PO file is parsed with babel at first use: there is no compile step to forget, and the
repository holds everything the bot needs at run time.

Nothing here imports discord: the Discord layer turns an interaction into a locale code with
`bot.discord_app.translator.locale_of` and sets it with `use` for the length of one
interaction, so helpers deep in a command can say `tr(...)` without a locale parameter.
"""

from __future__ import annotations

import contextlib
import gettext
import logging
import re
import string
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

ENGLISH = "en"
FRENCH = "fr"
LOCALES = (ENGLISH, FRENCH)  # English first: it is the source and the fallback
TRANSLATED = (FRENCH,)  # the locales with a PO file in this folder
HERE = Path(__file__).parent
TEMPLATE = HERE / "messages.pot"
NAME = "name"  # msgctxt of command and option names

log = logging.getLogger(__name__)

# The locale of the interaction being answered (a task-local value: each interaction runs in
# its own asyncio task, so two players' replies never see each other's locale).
_current: ContextVar[str] = ContextVar("locale", default=ENGLISH)


def po_path(locale: str) -> Path:
    return HERE / f"{locale}.po"


@dataclass(frozen=True, slots=True)
class Entry:
    """One message of a catalogue: singular text, or (singular, plural) forms."""

    translations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One locale's translations, keyed by (msgctxt, English msgid)."""

    locale: str
    entries: Mapping[tuple[str | None, str], Entry]
    plural: Callable[[int], int]

    def get(self, msgid: str, context: str | None = None) -> str | None:
        entry = self.entries.get((context, msgid))
        return entry.translations[0] if entry else None

    def get_plural(self, singular: str, n: int) -> str | None:
        entry = self.entries.get((None, singular))
        if entry is None or len(entry.translations) < 2:
            return None
        index = self.plural(n)
        return entry.translations[min(index, len(entry.translations) - 1)]


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _broken(text: str, ids: tuple[str, ...]) -> str | None:
    """Why a translation can't stand in for its English (`ids`: the msgid and, for a counted
    text, its plural), else None: a field the English does not have (a renamed `{name}` fails
    when filled in, a lone `{` or `}` fails to parse at all)."""
    try:
        fields = placeholders(text)
    except ValueError as exc:
        return f"does not parse as a text with {{fields}} ({exc})"
    known = frozenset().union(*(placeholders(i) for i in ids))
    if len(ids) > 1:
        known |= {"n"}  # every counted text is given its count
    if fields - known:
        return f"has {{{'}, {'.join(sorted(fields - known))}}}, which the English has not"
    return None


def _load(locale: str) -> tuple[Catalogue | None, list[str]]:
    """The parsed catalogue of a translated locale, and what is wrong with it: a file that can't
    be read or parsed leaves the whole locale in English, a broken message only itself."""
    path = po_path(locale)
    try:
        cat = read_catalog(path, locale)
        # The plural rule comes from the file's Plural-Forms header (French: n > 1).
        rule = gettext.c2py(cat.plural_expr)
    except Exception as exc:  # OSError, a babel or gettext parse error, a bad encoding
        return None, [f"catalogue {path.name} unreadable ({type(exc).__name__}: {exc})"]
    entries: dict[tuple[str | None, str], Entry] = {}
    problems: list[str] = []
    for message in cat:
        if not message.id or message.fuzzy:
            continue  # the header, and guesses nobody checked
        ids = tuple(map(str, message.id)) if isinstance(message.id, tuple) else (str(message.id),)
        raw = message.string if isinstance(message.string, tuple) else (message.string,)
        strings = tuple(str(s) for s in raw if s)
        if not strings or len(strings) != len(raw):
            continue  # untranslated: English is shown
        if message.context is None or not message.context.startswith(NAME):
            why = next((w for w in (_broken(s, ids) for s in strings) if w), None)
            if why is not None:
                problems.append(f"catalogue {path.name}: the translation of {ids[0]!r:.80} {why}")
                continue  # English is shown
        entries[(message.context, str(ids[0]))] = Entry(strings)
    return Catalogue(locale, entries, rule), problems


@cache
def catalogue(locale: str) -> Catalogue | None:
    """The parsed catalogue of a translated locale (None for English and unknown locales).

    A broken file or message is logged here, once per process (the result is cached), and
    English is used in its place: a text must never stop a move or a whole language."""
    if locale not in TRANSLATED:
        return None
    cat, problems = _load(locale)
    for problem in problems:
        log.error("%s; it is shown in English", problem)
    return cat


def check_catalogues() -> list[str]:
    """What is wrong with each translated catalogue (read afresh, nothing logged): for
    `python -m bot check`; the bot's start loads them through `catalogue`, which logs it."""
    return [problem for locale in TRANSLATED for problem in _load(locale)[1]]


def normalize(locale: str | None) -> str:
    """A supported locale code for a Discord locale value ('fr', 'en-US', …)."""
    if locale and locale.split("-")[0].lower() == FRENCH:
        return FRENCH
    return ENGLISH


# Where a template meets the value filled into it, the two languages change the words at the
# seam the way a writer would: English "a" becomes "an" before a vowel sound ("an Anchor ship
# mast", "an 8"); French contracts "de le"/"à le" into "du"/"au" ("la flèche du 8" from "la
# flèche de {card}" with "le 8"), elides "de", "que", "le", "la" before a vowel ("du côté
# d'Ana", "l'ancre"). The template cannot know the value (a player's name, a card), so this is
# the one place that can; everything else of the grammar is in the templates themselves.
_FR_VOWELS = frozenset("aeiouâàäéèêëîïôöœûùüAEIOUÂÀÄÉÈÊËÎÏÔÖŒÛÙÜ")
_FR_ELIDED = re.compile(r"(?:^|(?<=[\s(«\u202f\u00a0—]))(de|De|que|Que|le|Le|la|La) $")
_FR_DE = re.compile(r"(?:^|(?<=[\s(«\u202f\u00a0—]))(de|De|à|À|du|Du|au|Au) $")
_EN_A = re.compile(r"(?:^|(?<=[\s(]))(a|A) $")
# English words spelt with a vowel but said with a consonant ("a one-ship", "a unique", "a
# useful"), and numbers said with a vowel ("an 8", "an 11", "an 18").
_EN_CONSONANT_SOUND = ("one", "once", "uni", "use", "usu", "eu", "ur")
_EN_VOWEL_NUMBER = re.compile(r"^(8|11(?!\d)|18(?!\d)|8\d*(?![\d,]))")
_SEAM_TAILS = (" ", " \n")  # how a text ends where any of the patterns above can match


def _en_vowel_sound(value: str) -> bool:
    if not value:
        return False
    if value[0].isdigit():
        return bool(_EN_VOWEL_NUMBER.match(value))
    low = value.lower()
    return low[0] in "aeiou" and not low.startswith(_EN_CONSONANT_SOUND)


def _seam(before: str, value: str, locale: str) -> tuple[str, str]:
    """`before` (the text so far) and `value` (the next filled-in field) with the seam between
    them written as the language writes it."""
    # Every pattern ends in a space at the end of `before` (or just before a final newline):
    # most fields follow no space ("{name}:", "({n})") and need no search at all.
    if not value or not before.endswith(_SEAM_TAILS):
        return before, value
    # Each pattern matches at most five characters at the very end of `before` (or just before
    # a final newline): searching from a few characters back finds the same match (a
    # lookbehind still sees the characters before `pos`, and `^` matches only at the real
    # start), without scanning the whole text so far once per field.
    pos = max(0, len(before) - 8)
    if locale == FRENCH:
        de = _FR_DE.search(before, pos)
        if de is not None:
            word = de.group(1)
            head = before[: de.start(1)]
            cap = word[0].isupper()
            if word.lower() in ("de", "du") and value.startswith("le "):
                return head + ("Du " if cap else "du "), value[3:]
            if word.lower() in ("de", "du") and value.startswith("les "):
                return head + ("Des " if cap else "des "), value[4:]
            if word.lower() in ("à", "au") and value.startswith("le "):
                return head + ("Au " if cap else "au "), value[3:]
            if word.lower() in ("à", "au") and value.startswith("les "):
                return head + ("Aux " if cap else "aux "), value[4:]
            if word.lower() == "du" and value.startswith(("l'", "l’", "la ")):
                return head + ("De " if cap else "de "), value
            if word.lower() == "au" and value.startswith(("l'", "l’", "la ")):
                return head + ("À " if cap else "à "), value
        elided = _FR_ELIDED.search(before, pos)
        if elided is not None and value[0] in _FR_VOWELS:
            word = elided.group(1)
            return before[: elided.start(1)] + word[:-1] + "'", value
        return before, value
    if locale == ENGLISH:
        a = _EN_A.search(before, pos)
        if a is not None and _en_vowel_sound(value):
            return before[: a.start(1)] + a.group(1) + "n ", value
    return before, value


# One formatter, and each template parsed once: a move fills about a dozen templates, and
# parsing them again every time was a visible part of a move's cost (bench/service_bench.py).
_FORMATTER = string.Formatter()

# A template's pieces: (literal, field, spec, conversion, plain); `plain` when the field is a
# bare name with no spec and no conversion (nearly every field of the catalogue), whose value is
# then `format(params[field], "")`, exactly what `string.Formatter` computes for it, without its
# generic lookup, conversion and nested formatting of the spec.
_Piece = tuple[str, str | None, str | None, str | None, bool]


@lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[_Piece, ...]:
    return tuple(
        (literal, field, spec, conversion, _plain(field, spec, conversion))
        for literal, field, spec, conversion in _FORMATTER.parse(text)
    )


def _plain(field: str | None, spec: str | None, conversion: str | None) -> bool:
    # An identifier has no "." or "[" and does not start with a digit, so `get_field` would
    # look it up as a keyword, whole.
    return field is not None and field.isidentifier() and not spec and conversion is None


def _format(text: str, params: Mapping[str, Any], locale: str = ENGLISH) -> str:
    """`text` with `params` filled in, each seam between template and value written as the
    language writes it (`_seam`)."""
    if not params:
        return text
    formatter = _FORMATTER
    out = ""
    for literal, field, spec, conversion, plain in _parsed(text):
        out += literal
        if field is None:
            continue
        if plain:
            value = format(params[field], "")
        else:
            if field == "":
                raise IndexError("positional fields are not used by the catalogue")
            obj, _ = formatter.get_field(field, (), params)
            obj = formatter.convert_field(obj, conversion)
            value = formatter.format_field(obj, formatter.vformat(spec or "", (), params))
        if value:
            out, value = _seam(out, value, locale)
            out += value
    return out


# Translations that failed to fill in (logged once each): a value the load-time check can't
# foresee, such as `{n.x}` or a format spec the value does not take.
_unfit: set[tuple[str, str]] = set()


def _translated(found: str | None, english: str, locale: str, params: Mapping[str, Any]) -> str:
    """`found` (a translation) filled in, or the English if there is none or it fails to: a
    broken text is logged once and never fails the move or post that shows it."""
    if found:
        try:
            return _format(found, params, locale)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
            if (locale, english) not in _unfit:
                _unfit.add((locale, english))
                log.error(
                    "catalogue %s.po: the translation of %.80r fails to fill in (%s: %s); it is "
                    "shown in English",
                    locale,
                    english,
                    type(exc).__name__,
                    exc,
                )
    return _format(english, params, ENGLISH)


def t(msgid: str, locale: str, /, **params: Any) -> str:
    """The text of `msgid` (its English) in `locale`, with `params` filled in."""
    return _t(msgid, normalize(locale), params)


def _t(msgid: str, locale: str, params: Mapping[str, Any]) -> str:
    # `locale` is normalized already (`use` stores it so: `tr` need not normalize it again).
    cat = catalogue(locale)
    found = cat.get(msgid) if cat else None
    return _translated(found, msgid, locale, params)


def tn(singular: str, plural: str, n: int, locale: str, /, **params: Any) -> str:
    """A text that depends on a count `n` (also given to the text as `{n}`)."""
    return _tn(singular, plural, n, normalize(locale), params)


def _tn(singular: str, plural: str, n: int, locale: str, params: Mapping[str, Any]) -> str:
    cat = catalogue(locale)
    found = cat.get_plural(singular, n) if cat else None
    return _translated(found, singular if n == 1 else plural, locale, {"n": n, **params})


def name(msgid: str, locale: str, command: str | None = None) -> str | None:
    """The translation of a command or option name, None when there is none."""
    cat = catalogue(normalize(locale))
    if cat is None:
        return None
    specific = cat.get(msgid, f"{NAME}:{command}") if command else None
    return specific or cat.get(msgid, NAME)


def option(msgid: str, command: str | None = None) -> str:
    """An option's name as the member's Discord shows it (`card` is `carte` in French), for a
    refusal that names the option."""
    return name(msgid, current(), command) or msgid


def current() -> str:
    """The locale of the interaction being answered (English outside of one)."""
    return _current.get()


@contextlib.contextmanager
def use(locale: str) -> Iterator[None]:
    """Answer in `locale` until the block ends."""
    token = _current.set(normalize(locale))
    try:
        yield
    finally:
        _current.reset(token)


def tr(msgid: str, /, **params: Any) -> str:
    """`t` in the locale of the interaction being answered."""
    return _t(msgid, _current.get(), params)


def trn(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """`tn` in the locale of the interaction being answered."""
    return _tn(singular, plural, n, _current.get(), params)


def number(value: float, digits: int = 1) -> str:
    """A decimal number as the interaction's language writes it ('12.5', French '12,5')."""
    pattern = "0." + "0" * digits if digits > 0 else "0"
    return format_decimal(value, format=pattern, locale=current())


def template(msgid: str, /) -> str:
    """The translation of `msgid` in the current locale, placeholders left as they are (for
    `render.words`, which fills them itself)."""
    cat = catalogue(current())
    if cat is None:
        return msgid
    entry = cat.entries.get((None, msgid))
    if entry is not None and len(entry.translations) > 1:
        # A counted text asked for without its count (render's `w("{n} taler")` while the bot
        # says it through `trn`): its plural form, right for every count but one, not its
        # singular, wrong for all but one.
        return entry.translations[-1]
    return (cat.get(msgid) if cat else None) or msgid


def template_n(singular: str, plural: str, n: int, /) -> str:
    """The form of a counted text for `n` in the current locale, placeholders unfilled."""
    cat = catalogue(current())
    found = cat.get_plural(singular, n) if cat else None
    return found or (singular if n == 1 else plural)


def template_c(context: str, msgid: str, /) -> str:
    """The translation of `msgid` under `context` in the current locale, placeholders unfilled."""
    cat = catalogue(current())
    return (cat.get(msgid, context) if cat else None) or msgid


def N_(msgid: str, /) -> str:
    """Mark a text for the catalogue where it is defined (a table of words) without
    translating it there: the code that shows it calls `tr` on it at that moment."""
    return msgid


def placeholders(text: str) -> frozenset[str]:
    """The `{fields}` of a text ('{n}', '{when:.1f}' -> 'n', 'when')."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field is not None and field != ""
    )
