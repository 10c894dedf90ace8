"""French on the platform: a game's channel posts and buttons speak the game's language (fixed
when its lobby opens), while each refusal speaks the language of the member who asked."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock

import discord as dpy
import pytest

from bot import i18n, texts
from bot.discord_app import perms, sender
from bot.discord_app.translator import channel_locale_of
from bot.outbox import Outbox, OutMessage
from bot.service import GameService, LobbyError, NotAllowed, NotYourTurn, ServiceError
from bot.store import Store
from tests.bot.test_service import CH, GUILD, FakeDiscord, fake_draw

ANA, BEN, CLEO = 11, 12, 13


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[GameService, FakeDiscord, Store]]:
    store = await Store.open(tmp_path / "fr.db")
    channel = FakeDiscord()
    svc = GameService(store, outbox=Outbox(store, channel, draw=fake_draw))
    yield svc, channel, store
    await svc.close()
    await store.close()


def _labels(msg: OutMessage) -> list[str]:
    view = sender.components(msg)
    assert view is not None
    return [str(getattr(getattr(item, "item", item), "label", "")) for item in view.children]


async def test_a_french_game_posts_in_french_and_refuses_an_english_member_in_english(
    world: tuple[GameService, FakeDiscord, Store],
) -> None:
    svc, channel, store = world
    with i18n.use("fr"):
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus", locale="fr")
    await svc.join(CH, BEN, "Ben")  # an English member: the lobby post stays French
    with pytest.raises(LobbyError) as refused:
        await svc.join(CH, BEN, "Ben")
    assert str(refused.value) == "You are already in this lobby."
    with i18n.use("fr"), pytest.raises(LobbyError) as refused_fr:
        await svc.join(CH, BEN, "Ben")
    assert str(refused_fr.value) == "Vous êtes déjà dans ce salon d'attente."
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    lobby = next(iter(channel.messages.values()))
    assert lobby.locale == "fr"
    assert lobby.text.startswith("**Salon d'attente de Nauticus** ouvert par Ana — 2/4 joueurs.")
    assert "Ordre des places\u202f: tiré au hasard au lancement de la partie." in lobby.text
    assert _labels(lobby) == [
        "Rejoindre",
        "Quitter",
        "Lancer",
        "Annuler",
        "Places\u202f: au hasard / ordre d'arrivée",
        "🤖 Places IA",
    ]
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=7)
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    assert "**La partie de Nauticus a commencé\u202f!** Ordre des places fixé par l'hôte." in (
        next(iter(channel.messages.values())).text
    )
    ping = channel.sent("turn_ping")[-1]
    assert ping.locale == "fr" and _labels(ping) == ["Jouer"]
    # Ben (seat 2, English) plays out of turn: his refusal is English, whatever the game's.
    with pytest.raises(NotYourTurn) as not_yours:
        await svc.play(CH, BEN, {"type": "pass"})
    assert str(not_yours.value).startswith("It's not your turn: 🔴 seat 1 Ana must ")
    async with store.read() as tx:
        row = await tx.game(rec.id)
    assert row is not None and row.locale == "fr"


async def test_an_english_game_posts_in_english_whoever_opened_it(
    world: tuple[GameService, FakeDiscord, Store],
) -> None:
    svc, channel, _ = world
    with i18n.use("fr"):  # a French member opens the lobby of an English server's game
        await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus", locale="en")
        with pytest.raises(LobbyError) as refused:
            await svc.join(CH, ANA, "Ana")
    assert str(refused.value) == "Vous êtes déjà dans ce salon d'attente."
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    lobby = next(iter(channel.messages.values()))
    assert lobby.locale == "en" and lobby.text.startswith("**Nauticus lobby** hosted by Ana")
    assert _labels(lobby)[:3] == ["Join", "Leave", "Start"]


async def test_a_rematch_keeps_the_games_language(
    world: tuple[GameService, FakeDiscord, Store],
) -> None:
    svc, channel, _store = world
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus", locale="fr")
    await svc.join(CH, BEN, "Ben")
    old = await svc.abort(CH, ANA, can_manage=False)
    rec, invited = await svc.rematch(GUILD, CH, old.id, ANA, "Ana")
    assert rec.locale == "fr" and [s.user_id for s in invited] == [BEN]
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    notice = channel.sent("notice")[-1]
    assert notice.text.startswith("🔁 **Revanche\u202f!** Ana a ouvert un salon d'attente")
    assert "appuyez sur **Rejoindre**" in notice.text


async def test_the_games_language_comes_from_a_community_server_else_from_the_member() -> None:
    def itx(member: dpy.Locale, guild: dpy.Locale, features: list[str]) -> Any:
        fake = MagicMock(spec=dpy.Interaction)
        fake.locale, fake.guild_locale = member, guild
        fake.guild = SimpleNamespace(features=features)
        return fake

    assert channel_locale_of(itx(dpy.Locale.french, dpy.Locale.american_english, [])) == "fr"
    assert channel_locale_of(itx(dpy.Locale.american_english, dpy.Locale.french, [])) == "en"
    community = ["COMMUNITY"]
    assert channel_locale_of(itx(dpy.Locale.american_english, dpy.Locale.french, community)) == "fr"
    assert channel_locale_of(itx(dpy.Locale.french, dpy.Locale.british_english, community)) == "en"


def test_shared_words_in_french() -> None:
    with i18n.use("fr"):
        assert texts.seat_tag(1) == "🔵 place 2"
        assert texts.legend(["Ana", "Ben"]) == (
            "Places\u202f: 🔴 place 1 = cercle rouge\u202f: Ana · 🔵 place 2 = carré "
            "bleu\u202f: Ben"
        )
        assert perms.refusal(perms.missing(dpy.Permissions.none(), in_thread=False)[-1:]) == (
            "Je ne peux pas mener de partie ici\u202f: il me manque la permission **Intégrer des "
            "liens** dans ce salon. Demandez à un admin du serveur de l'accorder au bot "
            "(paramètres du salon → Permissions), puis réessayez."
        )
        assert texts.idle_span(__import__("datetime").timedelta(days=2)) == "2 jours"
        assert i18n.number(12.25) == "12,2" and i18n.number(3.0) == "3,0"
    assert i18n.number(12.25) == "12.2" and i18n.number(1234.5) == "1234.5"
    assert texts.seat_tag(1) == "🔵 seat 2"
    final = OutMessage("x", components="final", game_id=1, version=3, locale="fr")
    assert _labels(final) == ["Revoir", "Revanche", "Archive"]
    assert _labels(OutMessage("x", components="final", game_id=1, version=3)) == [
        "Replay",
        "Rematch",
        "Record",
    ]


async def test_the_host_sets_the_games_language_and_nobody_else_may(
    world: tuple[GameService, FakeDiscord, Store],
) -> None:
    svc, channel, _ = world
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus", locale="en")
    await svc.join(CH, BEN, "Ben")
    with pytest.raises(NotAllowed) as refused:
        await svc.set_language(CH, BEN, "fr", can_manage=False)
    assert str(refused.value) == (
        "Only the host or a member with Manage Channels can set the game's language."
    )
    with pytest.raises(ServiceError) as bad:
        await svc.set_language(CH, ANA, "de", can_manage=False)
    assert str(bad.value) == "The bot speaks en, fr, not de."
    assert (await svc.game_in(CH)).locale == "en"  # type: ignore[union-attr]
    rec = await svc.set_language(CH, ANA, "fr", can_manage=False)
    assert rec.locale == "fr"
    await svc.outbox.deliver_pending()  # type: ignore[union-attr]
    lobby = next(iter(channel.messages.values()))  # edited in place, now French
    assert lobby.text.startswith("**Salon d'attente de Nauticus** ouvert par Ana — 2/4 joueurs.")
    assert _labels(lobby)[0] == "Rejoindre"
    # A moderator (Manage Channels) may switch it back during the game.
    await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)
    assert (await svc.set_language(CH, CLEO, "en", can_manage=True)).locale == "en"


@pytest.mark.parametrize("kind", ["nauticus", "island", "duel"])
def test_every_rules_topic_reads_in_french_with_its_rule_ids_and_fits_a_message(kind: str) -> None:
    from bot.games import GAMES

    plugin = GAMES.get(kind)
    for topic in [None, *plugin.rules_topics]:
        english = plugin.rules_digest(topic)
        with i18n.use("fr"):
            french = plugin.rules_digest(topic)
        assert french != english and len(french) <= 2000
        # The same rule ids, in the same order: nothing summarised away in translation.
        ids = re.findall(r"\*\*([NID]-[A-Z]+-\d+)\*\*", english)
        assert re.findall(r"\*\*([NID]-[A-Z]+-\d+)\*\*", french) == ids
    with i18n.use("fr"):
        assert plugin.rules_digest(None).startswith("**")
        assert "sujet" in plugin.rules_digest(None)


async def test_the_offline_runner_plays_a_whole_game_in_french(tmp_path: Path) -> None:
    from bot.offline import run_offline

    result = await run_offline(None, 2, tmp_path, game="duel", pictures=False, locale="fr")
    text = result.transcript.read_text(encoding="utf-8")
    assert "**Salon d'attente de Duel Nautilus** ouvert par Ana" in text
    assert "- [Rejoindre] [Quitter] [Lancer]" in text and "- [Jouer] (game 1" in text
    assert "**Le duel Nautilus est terminé.**" in text
    assert "The Nautilus duel is over." not in text and "Round 6/6" not in text
    panels = (tmp_path / "private" / "ana.md").read_text(encoding="utf-8")
    assert "Vos scaphandriers" in panels and "Your divers" not in panels


async def test_a_robot_seated_in_a_french_game_carries_its_level_in_french(
    world: tuple[GameService, FakeDiscord, Store],
) -> None:
    svc, _, _ = world
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus", locale="fr")
    rec = await svc.add_ai(CH, ANA, "hard", can_manage=False)
    assert [s.name for s in rec.seats] == ["Ana", "🤖 Nemo (difficile)"]
    assert rec.seats[-1].ai == "hard"  # the level itself stays the engine's
