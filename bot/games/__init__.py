"""The registry of installed games: one line per game.

The generic core looks games up here by their stored kind (`GAMES.get(row.kind)`) and never
imports a game's package itself. Adding a game is one `GAMES.add(...)` line below, plus its
`engine/<game>/`, `render/<game>/` and `bot/games/<game>/` packages.

`BOT_EXTRA_GAMES` (module:attribute, comma-separated) installs more plugins at start-up; the
tests use it for a game that exists only in the tests.
"""

from __future__ import annotations

import importlib
import os

from bot import i18n
from bot.games.duel.plugin import PLUGIN as DUEL
from bot.games.island.plugin import PLUGIN as ISLAND
from bot.games.nauticus.plugin import PLUGIN as NAUTICUS
from bot.plugin import GamePlugin, Registry
from render import words as picture_words

# The pictures' words speak the language of the context they are drawn in (render/words.py).
picture_words.install(i18n.template, i18n.template_n, i18n.template_c)

GAMES = Registry()
GAMES.add(NAUTICUS)
GAMES.add(DUEL)
GAMES.add(ISLAND)

# Games stored before the registry existed have no kind in their outbox rows: they are this one.
LEGACY_KIND = NAUTICUS.kind


def load_extra(spec: str | None = None) -> list[GamePlugin]:
    """Install the plugins named by `spec` (or `BOT_EXTRA_GAMES`), e.g. `pkg.mod:PLUGIN`.

    Raises:
        ValueError: a name that is not `module:attribute`, or an attribute that is no plugin.
    """
    text = os.environ.get("BOT_EXTRA_GAMES", "") if spec is None else spec
    added = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        module, _, attr = item.partition(":")
        if not module or not attr:
            raise ValueError(f"{item!r} is not module:attribute")
        plugin = getattr(importlib.import_module(module), attr, None)
        if plugin is None or not hasattr(plugin, "rules"):
            raise ValueError(f"{item!r} names no game plugin")
        if plugin.kind not in GAMES.games:
            GAMES.add(plugin)
        added.append(plugin)
    return added
