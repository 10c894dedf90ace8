"""The words the pictures draw and their alt texts say, in the language the bot asks for.

`render` stays pure and never imports `bot`: it draws English by default. The bot installs its
catalogue's lookups here once (`bot/games/__init__.py`); they read the language of the context
the picture is drawn in (the game's for channel posts, the member's for private pictures). The
bot's extractor finds every `w(...)`, `wn(...)` and `w_(...)` literal under `render/`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _english(text: str) -> str:
    return text


def _english_n(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_c(context: str, text: str) -> str:
    return text


_say: Callable[[str], str] = _english
_say_n: Callable[[str, str, int], str] = _english_n
_say_c: Callable[[str, str], str] = _english_c


def install(
    say: Callable[[str], str],
    say_n: Callable[[str, str, int], str],
    say_c: Callable[[str, str], str],
) -> None:
    """Use `say(msgid)`, `say_n(singular, plural, n)` and `say_c(context, msgid)` (untranslated
    templates in, translated templates out) for every word drawn from now on."""
    global _say, _say_n, _say_c
    _say, _say_n, _say_c = say, say_n, say_c


def w(text: str, /, **params: Any) -> str:
    """`text` in the current language, with `params` filled in."""
    out = _say(text)
    return out.format(**params) if params else out


def wn(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """A text that depends on a count `n` (given to it as `{n}`)."""
    return _say_n(singular, plural, n).format(n=n, **params)


def wc(context: str, text: str, /, **params: Any) -> str:
    """A short word that means something else elsewhere ('Start': the start player, not the
    lobby's button), told apart by `context`."""
    out = _say_c(context, text)
    return out.format(**params) if params else out


def w_(text: str, /) -> str:
    """Mark a table's word for the catalogue; `w(...)` says it where it is drawn."""
    return text
