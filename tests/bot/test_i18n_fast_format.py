"""The catalogue's fast filling-in (`i18n._format`: plain fields without `string.Formatter`'s
generic path, the seam's patterns searched near the end of the text only) writes, for every
text of the catalogue in English and French, plural forms included, exactly what the generic
way wrote, or fails the same way."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

import pytest

from bot import i18n

# Values chosen to exercise every seam rule: a vowel ("an", "d'"), a consonant sound spelt with
# a vowel, "le"/"les"/"la"/"l'" after "de"/"à"/"du"/"au", numbers said with a vowel, empty,
# and non-strings (an int, a float, None).
VALUES: tuple[Any, ...] = (
    "Ana",
    "Éole",
    "le 8",
    "les voiles",
    "l'ancre",
    "la voile",
    "one-ship",
    "8",
    11,
    2.5,
    "",
    None,
    "apple",
)


def _reference_seam(before: str, value: str, locale: str) -> tuple[str, str]:
    """The seam as it was written before the search was bounded: each pattern searched over
    the whole text so far (a copy of the former `i18n._seam`)."""
    if not value:
        return before, value
    if locale == i18n.FRENCH:
        de = i18n._FR_DE.search(before)
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
        elided = i18n._FR_ELIDED.search(before)
        if elided is not None and value[0] in i18n._FR_VOWELS:
            word = elided.group(1)
            return before[: elided.start(1)] + word[:-1] + "'", value
        return before, value
    if locale == i18n.ENGLISH:
        a = i18n._EN_A.search(before)
        if a is not None and i18n._en_vowel_sound(value):
            return before[: a.start(1)] + a.group(1) + "n ", value
    return before, value


def _reference(text: str, params: Mapping[str, Any], locale: str) -> str:
    """The former `i18n._format`: every field through `string.Formatter`'s generic path."""
    if not params:
        return text
    formatter = string.Formatter()
    out = ""
    for literal, field, spec, conversion in formatter.parse(text):
        out += literal
        if field is None:
            continue
        if field == "":
            raise IndexError("positional fields are not used by the catalogue")
        obj, _ = formatter.get_field(field, (), params)
        obj = formatter.convert_field(obj, conversion)
        value = formatter.format_field(obj, formatter.vformat(spec or "", (), params))
        out, value = _reference_seam(out, value, locale)
        out += value
    return out


def _outcome(fill: Any, text: str, params: Mapping[str, Any], locale: str) -> tuple[str, str]:
    try:
        return "text", fill(text, params, locale)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
        return type(exc).__name__, str(exc)


def _texts(locale: str) -> list[str]:
    """Every text `locale` may fill in: the English msgids and plurals, or every French form."""
    if locale == i18n.ENGLISH:
        out = []
        for m in i18n.read_catalog(i18n.TEMPLATE):
            if m.id:
                out.extend(m.id if isinstance(m.id, tuple) else (m.id,))
        return out
    cat = i18n.catalogue(locale)
    assert cat is not None
    return [s for entry in cat.entries.values() for s in entry.translations]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_catalogue_text_is_filled_in_as_the_generic_formatter_filled_it(
    locale: str,
) -> None:
    texts = _texts(locale)
    assert len(texts) > 1400  # the whole catalogue, plural forms included
    compared = plain = failed = 0
    for text in texts:
        fields = sorted(i18n.placeholders(text) | {"n"})
        # A text without fields is its literal whatever the values: one set of them is enough.
        shifts = len(VALUES) if i18n.placeholders(text) else 1
        for shift in range(shifts):
            params = {f: VALUES[(shift + i) % len(VALUES)] for i, f in enumerate(fields)}
            new = _outcome(i18n._format, text, params, locale)
            assert new == _outcome(_reference, text, params, locale), (text, params)
            compared += 1
            failed += new[0] != "text"
        plain += any(p[4] for p in i18n._parsed(text))
    # Most texts take the fast path; some fail in both (render's `{0}` templates, a `{n:.1f}`
    # given a string), so the failures were compared too.
    assert plain > 500
    assert failed > 0
    assert compared > 3 * len(texts)


@pytest.mark.parametrize(
    ("text", "params", "locale", "expected"),
    [
        # The seam rules still apply on the fast path, near the end of a long text too.
        (
            "A long line of words, then a {card}",
            {"card": "Anchor"},
            "en",
            "A long line of words, then an Anchor",
        ),
        (
            "Une longue ligne, puis la flèche de {card}",
            {"card": "le 8"},
            "fr",
            "Une longue ligne, puis la flèche du 8",
        ),
        (
            "Beaucoup de mots avant, du côté de {name}",
            {"name": "Ana"},
            "fr",
            "Beaucoup de mots avant, du côté d'Ana",
        ),
        # A value ending in a newline before "a " is left as the generic way left it.
        ("x\na {x}", {"x": "egg"}, "en", "x\nan egg"),
        ("{n:.1f} h", {"n": 2.25}, "en", "2.2 h"),
        ("{n!r}", {"n": "a"}, "en", "'a'"),
    ],
)
def test_examples(text: str, params: dict[str, Any], locale: str, expected: str) -> None:
    assert i18n._format(text, params, locale) == expected


def test_the_seam_patterns_match_only_at_the_end_so_a_bounded_search_finds_the_same() -> None:
    # `_seam` searches from 8 characters before the end: every match of each pattern ends at
    # the end of the text or just before a final newline and is at most 5 characters long.
    for pattern in (i18n._FR_DE, i18n._FR_ELIDED, i18n._EN_A):
        longest = max(len(w) for w in re.findall(r"\w+", pattern.pattern.split("(")[-1])) + 1
        assert longest <= 4
        for before in (
            "de ",
            "xx que ",
            "(à ",
            "« Le \n",
            "a ",
            "ba ",
            "x\ta \n",
            "de  ",
            "à",
            "a\n",
        ):
            for pad in ("", "word ", "mot de ", "\n"):
                s = pad + before
                full = pattern.search(s)
                bounded = pattern.search(s, max(0, len(s) - 8))
                assert (full and full.span()) == (bounded and bounded.span()), (pattern, s)
                # A text that does not end in a space (or a space and a newline) is not searched.
                if not s.endswith((" ", " \n")):
                    assert full is None
