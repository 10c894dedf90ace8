"""French end to end: the real bot process through the fake Discord. A member whose Discord is
in French opens a duel; the channel's posts and buttons are French, while an English member's
replies and refusals stay English; the host switches the game to English with /games language
and the next posts follow."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.conftest import HANG_GUARD, World
from tests.e2e.fake_discord import Message, RateLimits
from tests.e2e.game import bot_process, start_bot


def _labels(m: Message) -> list[str]:
    return [str(c.get("label")) for c in m.iter_components() if c.get("type") == 2]


async def test_a_french_game_speaks_french_in_the_channel_and_each_member_their_own(
    world: World, tmp_path: Path
) -> None:
    async with asyncio.timeout(HANG_GUARD):
        fake = world.fake
        fake.rate_limits = RateLimits(global_limit=None, routes={})
        bot = bot_process(world, tmp_path / "bot.db", tmp_path / "bot.log")
        await start_bot(bot)
        try:
            ana, ben = world.user("ana"), world.user("ben")
            ana.user.locale = "fr"
            opened = await (await ana.slash("duel new")).message()
            assert opened.text().startswith("Salon d'attente ouvert"), opened.text()
            lobby = await fake.wait_for(
                lambda: next(
                    (
                        m
                        for m in fake.channel_messages(world.channel)
                        if "Salon d'attente de Duel Nautilus" in m.text()
                    ),
                    None,
                ),
                what="the French lobby",
            )
            assert _labels(lobby)[:3] == ["Rejoindre", "Quitter", "Lancer"]
            # Ben's Discord is in English: his own replies are English, the channel stays French.
            joined = await (await ben.click(lobby, "Rejoindre")).message()
            assert joined.text() == "You joined the lobby.", joined.text()
            not_host = await (await ben.slash("games language", lang="en")).message()
            assert not_host.text().startswith("Only the host or a member with Manage Channels"), (
                not_host.text()
            )
            started = await (await ana.click(lobby, "Lancer")).message()
            assert started.text().startswith("La partie a commencé"), started.text()
            ping = await fake.wait_for(
                lambda: next(
                    (
                        m
                        for m in fake.channel_messages(world.channel)
                        if "à vous dans le duel Nautilus" in m.text()
                    ),
                    None,
                ),
                what="a French turn ping",
            )
            assert _labels(ping) == ["Jouer"]
            # The host switches the game to English: the next channel posts are English.
            switched = await (await ana.slash("games language", lang="en")).message()
            assert switched.text() == "La partie ici publie désormais en anglais."
            ask = await (await ana.slash("games abort")).message()
            await (await ana.click(ask, "Oui, abandonner la partie")).message()
            notice = await fake.wait_for(
                lambda: next(
                    (
                        m
                        for m in fake.channel_messages(world.channel)
                        if "was aborted by" in m.text()
                    ),
                    None,
                ),
                what="the English abort notice",
            )
            assert notice.text() == "This game of Nautilus duel was aborted by Ana; no result."
        finally:
            await bot.stop()
