"""The offline runner: a whole game through the real GameService, with no Discord and no token.

A stand-in channel writes, in order, every public message (with what it pings and which buttons
it carries), every edit, every private panel the acting player would see, and every picture, to
a folder. Seats are driven by seeded random legal moves, so the same seed gives the same game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.outbox import Draw, Outbox, OutMessage, draw_with_render
from bot.service import GameService, NeedsConfirmation
from bot.store import Store
from engine.nauticus import State, data, describe, final_scores, legal_moves

NAMES = ("Ana", "Ben", "Cleo", "Dev")
CHANNEL_ID = 100
GUILD_ID = 10
FIRST_USER_ID = 1001
TRANSCRIPT = "transcript.md"
DB_NAME = "offline.db"


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
            lines.append(f"- pings: {', '.join(f'<@{u}>' for u in msg.mention_user_ids)}")
        if msg.components == "play":
            lines.append(f"- [Play] (game {msg.game_id}, version {msg.version})")
        elif msg.components == "lobby":
            lines.append("- [Join] [Leave] [Start] [Cancel] [Seating: random / join order]")
        for f in msg.files:
            path = self.out / f"{len(self.pictures) + 1:03d}-{f.filename}"
            path.write_bytes(f.data)
            self.pictures.append(path)
            lines.append(f"- picture {path.name}: {f.description}")
        self.transcript.write("\n".join(lines).rstrip() + "\n\n")

    def private(self, who: str, text: str) -> None:
        body = "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
        self.transcript.write(f"### private panel for {who}\n\n{body}\n\n")


def panel_text(state: State, seat: int) -> str:
    """What the acting player's panel shows: the Discord layer's panel model when available."""
    try:
        from bot.discord_app import panel
    except ImportError:
        moves = legal_moves(state, seat)
        return "\n".join(f"- {describe(m, state)}" for m in moves)
    return panel.build(state, seat).to_text()


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


async def run_offline(
    players: int,
    seed: int,
    out: Path,
    *,
    pictures: bool = True,
    panels: bool = True,
    draw: Draw | None = None,
) -> OfflineResult:
    """Play a whole game of `players` seeded random players into the folder `out`.

    Raises:
        ValueError: `players` is not 2 to 4.
    """
    if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise ValueError(f"Nauticus is played by 2 to 4 players, not {players}.")
    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        # A fresh run replaces the previous one's files, and only those.
        if old.name in (TRANSCRIPT, DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm") or (
            old.suffix in (".png", ".webp") and old.name[:3].isdigit()
        ):
            old.unlink()
    rng = random.Random(f"offline/{seed}")
    users = [FIRST_USER_ID + i for i in range(players)]
    names = list(NAMES[:players])
    # A demo database is thrown away: no need to wait for the disk at every commit.
    store = await Store.open(out / DB_NAME, synchronous="NORMAL")
    moves = 0
    try:
        with (out / TRANSCRIPT).open("w", encoding="utf-8") as fh:
            fh.write(f"# Nauticus offline game — {players} players, seed {seed}\n\n")
            channel = FolderChannel(out, fh)

            def no_pictures(kinds: Sequence[str], game_view: object) -> tuple[()]:
                return ()

            chosen_draw: Draw = draw or (draw_with_render if pictures else no_pictures)
            outbox = Outbox(store, channel, draw=chosen_draw)
            svc = GameService(store, outbox=outbox)
            await svc.open_lobby(GUILD_ID, CHANNEL_ID, users[0], names[0])
            for uid, nm in zip(users[1:], names[1:], strict=True):
                await svc.join(CHANNEL_ID, uid, nm)
            rec = await svc.start(CHANNEL_ID, users[0], can_manage=False, seed=seed)
            await outbox.deliver_pending()
            by_user = dict(zip(users, names, strict=True))
            while rec.status == "active":
                state = rec.state
                assert state is not None and state.current is not None
                seat = state.current
                uid = rec.user_at(seat)
                if panels:
                    channel.private(by_user[uid], panel_text(state, seat))
                move = rng.choice(legal_moves(state, seat))
                try:
                    result = await svc.play(CHANNEL_ID, uid, move, version=rec.version)
                except NeedsConfirmation as exc:
                    if panels:
                        channel.private(by_user[uid], f"Please confirm: {exc.reason} → Yes")
                    result = await svc.play(
                        CHANNEL_ID, uid, move, version=rec.version, confirm=True
                    )
                moves += 1
                rec = result.record
                await outbox.deliver_pending()
            assert rec.state is not None
            scores = [(rec.names[s.seat], s.vp, s.rank) for s in final_scores(rec.state)]
            return OfflineResult(
                out=out,
                transcript=out / TRANSCRIPT,
                pictures=list(channel.pictures),
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
