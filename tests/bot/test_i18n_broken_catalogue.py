"""A broken French catalogue never stops a French game (issue 21, item 10).

The catalogue is pointed at a damaged copy of `fr.po` (a renamed placeholder, a lone `{`, a file
that can't be read): a French game's moves still go through the service, the broken texts are
shown in English, and each broken message (or file) gives exactly one ERROR line. `python -m bot
check` lists a broken message, and `run` logs it at start and runs on.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.service import GameRecord, GameService
from bot.store import Store
from tests.bot.test_hardening_database import FAKE_TOKEN, closed_port

REPO = Path(__file__).resolve().parents[2]
CH, GUILD, ANA, BEN = 910, 9, 61, 62

# Two messages every French duel move shows: its turn ping and the round heading.
PING = (
    "{mention} — your turn in the Nautilus duel ({where}): {must}. Press **Play** for your "
    "private panel."
)
ROUND = "Round {n}/{rounds}"


def broken_po(folder: Path) -> Path:
    """The real fr.po with the ping's `{mention}` renamed and a lone `{` in the round heading."""
    text = i18n.po_path("fr").read_text(encoding="utf-8")
    ping = '"{mention} — à vous dans le duel Nautilus ('
    assert text.count(ping) == 1, "the duel's turn ping moved in fr.po"
    text = text.replace(ping, '"{mentionne} — à vous dans le duel Nautilus (')
    head = 'msgid "Round {n}/{rounds}"\nmsgstr "'
    assert text.count(head) == 1, "the round heading moved in fr.po"
    text = text.replace(head, head + "{ ")
    path = folder / "fr.po"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def french_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Point the catalogue at another fr.po (the cache is cleared before and after)."""

    def point(path: Path) -> None:
        monkeypatch.setattr(i18n, "po_path", lambda locale: path)
        i18n.catalogue.cache_clear()

    yield point
    monkeypatch.undo()
    i18n.catalogue.cache_clear()


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def french_duel(svc: GameService) -> GameRecord:
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel", locale="fr")
    await svc.join(CH, BEN, "Ben")
    return await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=3)


async def moves(svc: GameService, rec: GameRecord, n: int) -> GameRecord:
    for _ in range(n):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rec.plugin.rules.legal_moves(rec.state, seat)[0])
        rec = (await svc.play(CH, rec.user_at(seat), move, confirm=True)).record
    return rec


async def pings(store: Store) -> list[str]:
    async with store.read() as tx:
        rows = await tx.pending_outbox(limit=10_000)
    return [str(r.payload["text"]) for r in rows if r.kind == "turn_ping"]


async def test_broken_messages_are_shown_in_english_and_the_french_game_goes_on(
    store: Store, tmp_path: Path, french_at: Any, caplog: pytest.LogCaptureFixture
) -> None:
    french_at(broken_po(tmp_path))
    svc = GameService(store)
    rec = await french_duel(svc)
    after = await moves(svc, rec, 4)
    assert after.version == rec.version + 4
    last = (await pings(store))[-1]
    # The broken ping in English, with its values; the rest of the game still in French.
    assert " — your turn in the Nautilus duel (" in last and "Press **Play**" in last
    assert i18n.t(ROUND, "fr", n=2, rounds=9) == "Round 2/9"
    assert i18n.t("no turn deadline", "fr") != "no turn deadline"  # French elsewhere
    # One ERROR line per broken message, however many moves showed it.
    lines = errors(caplog)
    assert len(lines) == 2, lines
    assert any("{mentionne}" in x and "your turn in the Nautilus duel" in x for x in lines)
    assert any("'Round {n}/{rounds}'" in x and "does not parse" in x for x in lines)
    assert all(x.endswith("it is shown in English") for x in lines)


@pytest.mark.parametrize("damage", ["missing", "not utf-8", "a folder"])
async def test_an_unreadable_catalogue_leaves_french_games_in_english(
    store: Store, tmp_path: Path, french_at: Any, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    path = tmp_path / "fr.po"
    if damage == "not utf-8":
        path.write_bytes(b"\xff\xfe\x80" + i18n.po_path("fr").read_bytes())
    elif damage == "a folder":
        path.mkdir()
    french_at(path)
    svc = GameService(store)
    rec = await french_duel(svc)
    assert (await moves(svc, rec, 3)).version == rec.version + 3
    assert "your turn in the Nautilus duel" in (await pings(store))[-1]
    assert i18n.t("no turn deadline", "fr") == "no turn deadline"
    (line,) = errors(caplog)
    assert line.startswith("catalogue fr.po unreadable (") and "English" in line


def test_a_translation_that_fails_to_fill_in_falls_back_once(
    tmp_path: Path, french_at: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # Fields the English has, but a format its value does not take: only filling it in fails.
    path = tmp_path / "fr.po"
    text = i18n.po_path("fr").read_text(encoding="utf-8")
    head = 'msgid "{n} h"\nmsgstr "'
    assert text.count(head) == 1
    path.write_text(text.replace(head, head + "{n:%Y} "), encoding="utf-8")
    french_at(path)
    assert i18n.check_catalogues() == []  # nothing the check can see before filling it in
    for _ in range(3):
        assert i18n.t("{n} h", "fr", n=12) == "12 h"
    (line,) = errors(caplog)
    assert "'{n} h' fails to fill in" in line and line.endswith("shown in English")


def test_check_catalogues_lists_each_broken_message(tmp_path: Path, french_at: Any) -> None:
    french_at(broken_po(tmp_path))
    found = i18n.check_catalogues()
    assert len(found) == 2 and all(
        x.startswith("catalogue fr.po: the translation of") for x in found
    )
    french_at(tmp_path / "missing.po")
    (missing,) = i18n.check_catalogues()
    assert missing.startswith("catalogue missing.po unreadable (FileNotFoundError")


# --- the real processes: `check` lists it, `run` logs it and goes on ----------------------------


def cli(cwd: Path, db: Path, command: str, code: Path) -> subprocess.CompletedProcess[str]:
    """`python -m bot <command>` with the bot package of `code` (test_hardening_database's
    `cli`, another PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        PYTHONPATH=f"{code}{os.pathsep}{REPO}",
        DATABASE_PATH=str(db),
        DISCORD_TOKEN=FAKE_TOKEN,
        DISCORD_API_BASE=f"http://127.0.0.1:{closed_port()}",
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def bot_copy(tmp_path: Path) -> Path:
    """A copy of the bot package with the broken fr.po, first on PYTHONPATH (the engines and
    the rest still come from the repository)."""
    root = tmp_path / "code"
    shutil.copytree(REPO / "bot", root / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    broken_po(root / "bot" / "i18n")
    return root


async def test_python_m_bot_check_lists_a_broken_catalogue(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    await (await Store.open(db)).close()
    done = cli(tmp_path, db, "check", bot_copy(tmp_path))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stdout
    out = done.stdout.splitlines()
    assert any(
        x.startswith("catalogue fr.po: the translation of '{mention} — your turn") for x in out
    ), out
    assert any("'Round {n}/{rounds}'" in x and "does not parse" in x for x in out), out
    assert out[-1] == f"2 problem(s) in {db}"


async def test_run_logs_a_broken_catalogue_at_start_and_runs_on(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    await (await Store.open(db)).close()
    done = cli(tmp_path, db, "run", bot_copy(tmp_path))
    # The broken texts are logged before anything else, then the bot goes on to Discord (which
    # is a closed port here: it fails there, not on the catalogue).
    assert done.stderr.count("it is shown in English") == 2, done.stderr
    assert "could not reach Discord" in done.stderr, done.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
