"""Display names carry no bidi overrides, isolates, zero-width or other invisible format
characters into posts, the lobby, logs or mygames: `texts.name()` removes them."""

from __future__ import annotations

import unicodedata

import pytest

from bot import texts
from bot.outbox import Outbox
from bot.service import GameService
from bot.store import Store
from tests.bot.test_service import BEN, CH, CLEO, GUILD, FakeDiscord, fake_draw

INVISIBLE = [
    "\u202e",  # right-to-left override
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u2066",  # isolates
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200b",  # zero width space
    "\u200c",
    "\u200d",
    "\u200e",  # marks
    "\u200f",
    "\ufeff",  # zero width no-break space
    "\u2060",  # word joiner
    "\u061c",  # Arabic letter mark
    "\U000e0041",  # a tag character
    "\x07",  # a control
]


def invisible_in(text: str) -> list[str]:
    return [
        f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cf", "Cc") and c != "\n"
    ]


@pytest.mark.parametrize("ch", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_name_removes_each_invisible_character(ch: str) -> None:
    shown = texts.name(f"Ev{ch}il{ch}")
    assert shown == "Evil"


def test_an_override_cannot_reverse_what_follows_and_an_empty_name_stays_visible() -> None:
    assert texts.name("\u202egnp.exe") == "gnp.exe"
    assert texts.name("\u200b\u200b\u202e") == "?"
    assert texts.name("Zoë 🙂 Müller") == "Zoë 🙂 Müller"  # ordinary letters and emoji kept
    assert texts.name("Ana\tvon\nBerg") == "Ana von Berg"  # whitespace still one space
    assert invisible_in(texts.legend(["A\u202eB", "\u2066C\u2069"])) == []


async def test_invisible_characters_reach_no_post_lobby_or_mygames(store: Store) -> None:
    discord = FakeDiscord()
    svc = GameService(store, outbox=Outbox(store, discord, draw=fake_draw))
    evil = "\u202eAna\u200b\u2066"
    await svc.open_lobby(GUILD, CH, 11, evil, kind="nauticus")
    await svc.join(CH, BEN, "Ben\ufeff")
    await svc.join(CH, CLEO, "\u200fCleo")
    rec = await svc.start(CH, 11, can_manage=False, order=[11, BEN, CLEO], seed=7)
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    texts_out = [m.text for _, _, m in discord.log]
    assert any("Ana" in t for t in texts_out)
    for t in texts_out:
        assert invisible_in(t) == [], (invisible_in(t), t)
    for game in await svc.my_games(GUILD, BEN):
        assert invisible_in(game.decide) == []
    assert rec.status == "active"
