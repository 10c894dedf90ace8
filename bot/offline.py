"""The offline runner: a whole game through the real GameService, with no Discord and no token.

A stand-in channel writes, in order, every public message (with what it pings and which buttons
it carries), every edit and every public picture to a folder; what only one seat may see (its
panel, its hand, its private pictures) goes to `private/<name>.md` and `private/` beside it, so a
reader can check that nothing private reached the public transcript. Seats are driven by seeded
random legal moves, so the same seed gives the same game. Any installed game can be played.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot import ai_seats, i18n
from bot.discord_app import panel
from bot.games import GAMES
from bot.i18n import tr
from bot.outbox import Draw, Outbox, OutMessage, draw_with_render
from bot.plugin import GamePlugin, Seen
from bot.service import GameRecord, GameService, NeedsConfirmation
from bot.store import Store
from engine.api import Move

NAMES = ("Ana", "Ben", "Cleo", "Dev")
CHANNEL_ID = 100
GUILD_ID = 10
FIRST_USER_ID = 1001
TRANSCRIPT = "transcript.md"
DB_NAME = "offline.db"
PRIVATE = "private"


class FolderChannel:
    """A `Sender` that writes messages to a transcript and pictures next to it."""

    def __init__(self, out: Path, transcript: TextIO) -> None:
        self.out = out
        self.transcript = transcript
        self.next_id = 1
        self.pictures: list[Path] = []
        self.messages = 0
        self.edits = 0

    async def send(self, channel_id: int, msg: OutMessage) -> int:
        mid = self.next_id
        self.next_id += 1
        self.messages += 1
        self._write(f"## message {mid} ({msg.kind})", msg)
        return mid

    async def edit(self, channel_id: int, message_id: int, msg: OutMessage) -> None:
        self.edits += 1
        self._write(f"## edit of message {message_id} ({msg.kind})", msg)

    def _write(self, head: str, msg: OutMessage) -> None:
        lines = [head, "", msg.text, ""]
        if msg.mention_user_ids:
            quiet = " (silently: quiet hours)" if msg.silent else ""
            lines.append(f"- pings{quiet}: {', '.join(f'<@{u}>' for u in msg.mention_user_ids)}")
        # The buttons as the channel shows them, in the game's language.
        with i18n.use(msg.locale):
            play = tr("Play")
            if msg.components == "play":
                lines.append(f"- [{play}] (game {msg.game_id}, version {msg.version})")
            elif msg.components == "reminder":
                snooze = tr("Snooze 8 h")
                lines.append(f"- [{play}] [{snooze}] (game {msg.game_id}, version {msg.version})")
            elif msg.components == "final":
                labels = [f"🎞️ {tr('Replay')}", f"🔁 {tr('Rematch')}", f"📄 {tr('Record')}"]
                lines.append("- " + " ".join(f"[{x}]" for x in labels))
            elif msg.components == "lobby":
                labels = [
                    tr("Join"),
                    tr("Leave"),
                    tr("Start"),
                    tr("Cancel"),
                    tr("Seating: random / join order"),
                    tr("{robot} AI seats", robot=ai_seats.ROBOT),
                ]
                lines.append("- " + " ".join(f"[{x}]" for x in labels))
        for f in msg.files:
            path = self.out / f"{len(self.pictures) + 1:03d}-{f.filename}"
            path.write_bytes(f.data)
            self.pictures.append(path)
            lines.append(f"- picture {path.name}: {f.description}")
        self.transcript.write("\n".join(lines).rstrip() + "\n\n")


class ScriptError(ValueError):
    """A scripted game (a replayed record) whose moves are not this game's."""


def _scripted(left: list[tuple[int, Move]], seat: int, n: int) -> Move:
    if not left:
        raise ScriptError(f"The script ends at move {n}, but the game is not over.")
    who, move = left.pop(0)
    if who != seat:
        raise ScriptError(f"Move {n} is scripted for seat {who + 1}, but seat {seat + 1} plays.")
    return move


def slug(name: str) -> str:
    """A seat's name as a file name: "🤖 Nemo (normal)" -> "nemo-normal", "Ana" -> "ana"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "seat"


class PrivateNotes:
    """Each seat's private file: what that seat alone sees (panels, hand, private pictures)."""

    def __init__(self, out: Path, names: Sequence[str]) -> None:
        self.folder = out / PRIVATE
        self.folder.mkdir(parents=True, exist_ok=True)
        self.files: dict[str, TextIO] = {}
        for n in names:
            self._file(n)
        self.pictures: list[Path] = []

    def _file(self, who: str) -> TextIO:
        fh = self.files.get(who)
        if fh is None:
            fh = self.files[who] = (self.folder / f"{slug(who)}.md").open("w", encoding="utf-8")
        return fh

    def write(self, who: str, head: str, text: str) -> None:
        body = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
        self._file(who).write(f"### {head}\n\n{body}\n\n")

    def picture(self, who: str, filename: str, data: bytes, alt: str) -> None:
        path = self.folder / f"{slug(who)}-{len(self.pictures) + 1:03d}-{filename}"
        path.write_bytes(data)
        self.pictures.append(path)
        self._file(who).write(f"- picture {path.name}: {alt}\n\n")

    def close(self) -> None:
        for fh in self.files.values():
            fh.close()


def panel_text(plugin: GamePlugin, seen: Seen) -> str:
    """What the acting player's panel shows (the Discord layer's panel model)."""
    return panel.build(plugin, seen).to_text()


@dataclass(frozen=True)
class OfflineResult:
    out: Path
    transcript: Path
    pictures: list[Path]
    moves: int
    messages: int
    edits: int
    names: list[str]
    scores: list[tuple[str, int, int]]  # (name, VP, rank) in seat order
    seconds: float
    private_pictures: list[Path] = field(default_factory=list)


def _hands(plugin: GamePlugin, rec: GameRecord, notes: PrivateNotes, pictures: bool) -> None:
    """Each seat's hand command at the end of the game, into its own private file."""
    for seat, name in enumerate(rec.names):
        mine = rec.seen(seat)
        notes.write(name, f"/{plugin.command} {plugin.hand_command}", plugin.hand_text(mine))
        if pictures:
            for p in plugin.draw(plugin.hand_pictures(), mine):
                notes.picture(name, p.filename, p.data, p.description)


async def run_offline(
    players: int | None,
    seed: int,
    out: Path,
    *,
    game: str = "nauticus",
    pictures: bool = True,
    panels: bool = True,
    draw: Draw | None = None,
    ai: Sequence[str | None] = (),
    names: Sequence[str] | None = None,
    script: Sequence[tuple[int, Move]] | None = None,
    locale: str = i18n.ENGLISH,
) -> OfflineResult:
    """Play a whole game of `players` seeded players into the folder `out`.

    `ai`: one entry per seat, an AI level (that seat is a robot played by the AI seats of the
    platform, through `GameService.play_ai`) or None (a uniform random player); missing
    entries are random players. With `ai` given, `players` defaults to its length.
    `names`: the seats' names (default Ana, Ben, Cleo, Dev). `script`: (seat, move) in order,
    played instead of random choices (a replayed record); it must be the whole game.
    `locale`: the game's language ("en" or "fr"): its posts, and the panels and hands of its
    players.

    Raises:
        ValueError: no such game, no such AI level, a player count the game does not allow, or
        a script that is not the game's moves (`ScriptError`).
    """
    with i18n.use(locale):
        if game not in GAMES.games:
            raise ValueError(f"There is no game {game!r}; installed: {', '.join(GAMES.games)}.")
        plugin = GAMES.get(game)
        rules = plugin.rules
        for level in ai:
            if level is not None and level not in ai_seats.LEVELS:
                raise ValueError(
                    f"There is no AI level {level!r}; the levels are {', '.join(ai_seats.LEVELS)}."
                )
        if players is None and ai:
            players = len(ai)
        if players is None:
            players = rules.min_players if rules.min_players == rules.max_players else 3
        if len(ai) > players:
            raise ValueError(f"{len(ai)} AI levels given for {players} players.")
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"{plugin.title} is played by {rules.min_players} to {rules.max_players} players, "
                f"not {players}."
            )
        t0 = time.perf_counter()
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            # A fresh run replaces the previous one's files, and only those.
            if old.name in (TRANSCRIPT, DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm") or (
                old.suffix in (".png", ".webp") and old.name[:3].isdigit()
            ):
                old.unlink()
            elif old.name == PRIVATE and old.is_dir():
                for f in old.iterdir():
                    if f.suffix in (".md", ".png", ".webp"):
                        f.unlink()
        rng = random.Random(f"offline/{seed}")
        users = [FIRST_USER_ID + i for i in range(players)]
        names = list(names or NAMES[:players])
        if len(names) != players:
            raise ValueError(f"{len(names)} names given for {players} players.")
        moves_left = list(script) if script is not None else None
        # A demo database is thrown away: no need to wait for the disk at every commit.
        store = await Store.open(out / DB_NAME, synchronous="NORMAL")
        moves = 0
        try:
            with (out / TRANSCRIPT).open("w", encoding="utf-8") as fh:
                # The seed deals every hidden card: it is written only once the game is over.
                fh.write(f"# {plugin.title} offline game — {players} players\n\n")
                channel = FolderChannel(out, fh)
                notes = PrivateNotes(out, names)

                def no_pictures(
                    kind: str, names: Sequence[str], view: object, *_: object
                ) -> tuple[()]:
                    return ()

                chosen_draw: Draw = draw or (draw_with_render if pictures else no_pictures)
                outbox = Outbox(store, channel, draw=chosen_draw)
                svc = GameService(store, outbox=outbox)
                levels = [*ai, *([None] * (players - len(ai)))]
                await svc.open_lobby(
                    GUILD_ID, CHANNEL_ID, users[0], names[0], kind=game, locale=locale
                )
                if levels[0] is not None:
                    # Seat 1 is a robot too: it sits down, then the opening member leaves.
                    await svc.add_ai(CHANNEL_ID, users[0], levels[0], can_manage=True)
                    await svc.leave(CHANNEL_ID, users[0])
                for uid, nm, level in zip(users[1:], names[1:], levels[1:], strict=True):
                    if level is None:
                        await svc.join(CHANNEL_ID, uid, nm)
                    else:
                        await svc.add_ai(CHANNEL_ID, users[0], level, can_manage=True)
                lobby = await svc.game_in(CHANNEL_ID)
                assert lobby is not None
                # `--ai` names the seats in order, so the seats are not drawn.
                rec = await svc.start(
                    CHANNEL_ID,
                    lobby.host_id,
                    can_manage=True,
                    seed=seed,
                    order=[s.user_id for s in lobby.seats],
                    allow_only_ai=True,
                )
                await outbox.deliver_pending()
                by_user = {s.user_id: s.name for s in rec.seats}
                try:
                    while rec.status == "active":
                        seat = rec.current
                        assert seat is not None
                        uid = rec.user_at(seat)
                        if rec.seats[seat].ai is not None:
                            played = await svc.play_ai(CHANNEL_ID, rec.version)
                            assert played is not None  # a robot's turn: the AI always plays
                            moves += 1
                            rec = played.record
                            await outbox.deliver_pending()
                            continue
                        mine = rec.seen(seat)
                        if panels:
                            notes.write(
                                by_user[uid], f"panel (move {moves + 1})", panel_text(plugin, mine)
                            )
                        if moves_left is not None:
                            move = _scripted(moves_left, seat, moves + 1)
                            result = await svc.play(
                                CHANNEL_ID, uid, dict(move), version=rec.version, confirm=True
                            )
                            moves += 1
                            rec = result.record
                            await outbox.deliver_pending()
                            continue
                        move = rng.choice(mine.legal)
                        try:
                            result = await svc.play(
                                CHANNEL_ID, uid, dict(move), version=rec.version
                            )
                        except NeedsConfirmation as exc:
                            if panels:
                                notes.write(by_user[uid], "confirmation", f"{exc.reason} → Yes")
                            result = await svc.play(
                                CHANNEL_ID, uid, dict(move), version=rec.version, confirm=True
                            )
                        moves += 1
                        rec = result.record
                        await outbox.deliver_pending()
                    if moves_left:
                        raise ScriptError(
                            f"The game ended after move {moves}, but the script has "
                            f"{len(moves_left)} more."
                        )
                    if panels:
                        _hands(plugin, rec, notes, pictures)
                    fh.write(
                        f"\n---\nGame over: its seed was {seed}. With the moves above it "
                        f"replays the game.\n"
                    )
                finally:
                    notes.close()
                assert rec.state is not None
                scores = [(rec.names[s.seat], s.vp, s.rank) for s in rules.final_scores(rec.state)]
                return OfflineResult(
                    out=out,
                    transcript=out / TRANSCRIPT,
                    pictures=list(channel.pictures),
                    private_pictures=list(notes.pictures),
                    moves=moves,
                    messages=channel.messages,
                    edits=channel.edits,
                    names=rec.names,
                    scores=scores,
                    seconds=time.perf_counter() - t0,
                )
        finally:
            await store.close()


def summary(result: OfflineResult) -> str:
    """The few lines `python -m bot offline` prints."""
    ranking = ", ".join(
        f"{n} {vp} VP" + (" (winner)" if rank == 1 else "")
        for n, vp, rank in sorted(result.scores, key=lambda s: s[2])
    )
    return "\n".join(
        [
            f"Played {result.moves} moves in {result.seconds:.1f} s: {ranking}.",
            f"Transcript: {result.transcript} ({result.messages} messages, {result.edits} edits)",
            f"Pictures: {len(result.pictures)} files in {result.out}",
        ]
    )
