"""Game records (export, read back, replay), the animated replay and the rematch lobby, through
the real GameService, the offline runner and `python -m bot replay`."""

from __future__ import annotations

import asyncio
import io
import json
import random
import struct
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import records
from bot.__main__ import main
from bot.games import GAMES
from bot.offline import CHANNEL_ID, DB_NAME, FIRST_USER_ID, TRANSCRIPT, run_offline
from bot.service import GameRecord, GameService, LobbyError, NoGame, NotAllowed
from bot.store import Store
from bot.visibility import seen
from render import canvas, palette
from render.nauticus.board_pic import height as board_height
from render.nauticus.replay import GAP, block_heights
from render.nauticus.shipyard_pic import HEAD_H, draw_block
from render.seats import Shown

CH = 800
GUILD = 9
ANA, BEN, CLEO = 31, 32, 33
PLAYERS = {"nauticus": 3, "island": 3, "duel": 2}


async def finished_offline(
    tmp_path: Path, game: str, seed: int = 4, *, pictures: bool = False
) -> tuple[Path, dict[str, Any]]:
    """A whole offline game (random players) and the record its first player exports."""
    out = tmp_path / f"played-{game}"
    await run_offline(PLAYERS[game], seed, out, game=game, pictures=pictures)
    store = await Store.open(out / DB_NAME)
    try:
        record = await GameService(store).export(CHANNEL_ID, FIRST_USER_ID)
    finally:
        await store.close()
    return out, record


async def play_some(svc: GameService, rec: GameRecord, moves: int, seed: int = 1) -> GameRecord:
    rng = random.Random(seed)
    rules = rec.plugin.rules
    for _ in range(moves):
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rng.choice(rules.legal_moves(rec.state, seat)))
        rec = (await svc.play(rec.channel_id, rec.user_at(seat), move, confirm=True)).record
    return rec


async def finish(svc: GameService, rec: GameRecord) -> GameRecord:
    rules = rec.plugin.rules
    while rec.status == "active":
        seat = rec.current
        assert seat is not None and rec.state is not None
        move = dict(rules.legal_moves(rec.state, seat)[0])
        rec = (await svc.play(rec.channel_id, rec.user_at(seat), move, confirm=True)).record
    return rec


@pytest.mark.parametrize("game", sorted(PLAYERS))
async def test_a_finished_game_exported_and_replayed_gives_the_same_game(
    tmp_path: Path, game: str
) -> None:
    out, record = await finished_offline(tmp_path, game, pictures=True)
    assert record["format"] == records.FORMAT and record["complete"] is True
    assert record["game"] == game and record["seed"] == 4
    assert record["engine_version"] == GAMES.get(game).rules.engine_version
    assert [s["name"] for s in record["seats"]] == ["Ana", "Ben", "Cleo"][: PLAYERS[game]]
    assert all("move" in m and m["at"] for m in record["moves"])
    # Read back from the file's bytes, the engine replays it to the recorded final scores.
    parsed = records.parse(records.dumps(record))
    state = records.replay(parsed)
    rules = GAMES.get(game).rules
    assert [(s.seat, s.vp, s.rank) for s in rules.final_scores(state)] == [
        (s["seat"], s["vp"], s["rank"]) for s in record["final_scores"]
    ]
    # `python -m bot replay` plays it through the service again: the very same transcript.
    path = tmp_path / "game.json"
    path.write_bytes(records.dumps(record))
    again = tmp_path / "again"
    assert await asyncio.to_thread(main, ["replay", str(path), "--out", str(again)]) == 0
    # Word for word and picture for picture.
    original = (out / TRANSCRIPT).read_text(encoding="utf-8")
    assert (again / TRANSCRIPT).read_text(encoding="utf-8") == original
    pictures = sorted(p.name for p in out.glob("[0-9][0-9][0-9]-*.png"))
    assert len(pictures) > 10
    assert sorted(p.name for p in again.glob("[0-9][0-9][0-9]-*.png")) == pictures
    for name in pictures[:: max(1, len(pictures) // 8)]:
        assert (again / name).read_bytes() == (out / name).read_bytes(), name
    gif = Image.open(again / "replay.gif")
    assert gif.format == "GIF" and gif.n_frames > 10


async def test_a_record_is_refused_when_it_cannot_be_replayed_exactly(tmp_path: Path) -> None:
    _, record = await finished_offline(tmp_path, "duel")

    def refused(change: Any) -> str:
        copy = json.loads(records.dumps(record))
        change(copy)
        with pytest.raises(records.RecordError) as err:
            records.replay(records.parse(json.dumps(copy)))
        return str(err.value)

    def more_vp(r: dict[str, Any]) -> None:
        r["final_scores"][0]["vp"] += 1

    assert "gives other final scores than it states" in refused(more_vp)

    def older_engine(r: dict[str, Any]) -> None:
        r["engine_version"] = "duel-0"

    assert "engine version duel-0; this bot has version duel-1" in refused(older_engine)

    def bad_move(r: dict[str, Any]) -> None:
        r["moves"][3]["move"] = {"type": "fly"}

    assert "Move 4 (" in refused(bad_move) and "is not legal when replayed" in refused(bad_move)

    def wrong_seat(r: dict[str, Any]) -> None:
        r["moves"][0]["seat"] = 1 - r["moves"][0]["seat"]

    assert "Move 1 is played by seat" in refused(wrong_seat)

    def unknown_game(r: dict[str, Any]) -> None:
        r["game"] = "chess"

    assert "which is not installed here" in refused(unknown_game)

    def incomplete(r: dict[str, Any]) -> None:
        r["seed"] = None

    assert "holds only what the table could see" in refused(incomplete)
    for junk, says in (
        (b"hello", "This file is not JSON"),
        (b"[1, 2]", "it is not a JSON object"),
        (b'{"format": "something else"}', '"format" is not'),
        (b"[" * 100_000, "This file is not JSON"),
    ):
        with pytest.raises(records.RecordError, match=says):
            records.parse(junk)
    # The command line says it in one line and exits 1, writing nothing.
    bad = tmp_path / "bad.json"
    bad.write_text("hello", encoding="utf-8")
    args = ["replay", str(bad), "--out", str(tmp_path / "nothing")]
    assert await asyncio.to_thread(main, args) == 1
    assert not (tmp_path / "nothing").exists()


async def test_a_game_in_progress_exports_only_what_the_table_sees(
    store: Store, tmp_path: Path
) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="island")
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=11)
    rec = await play_some(svc, rec, 30)
    assert rec.status == "active" and rec.state is not None
    rules = rec.plugin.rules
    outsider = await svc.export(CH, 999)
    # Exactly these keys: no seed, no raw move (it may name a card in hand), no scores.
    assert set(outsider) == {
        "format",
        "format_version",
        "game",
        "title",
        "engine_version",
        "game_id",
        "status",
        "complete",
        "seed",
        "options",
        "seats",
        "moves",
        "final_scores",
        "exported_at",
        "public_view",
    }
    assert outsider["complete"] is False and outsider["seed"] is None
    assert outsider["final_scores"] is None
    assert outsider["public_view"] == json.loads(json.dumps(rules.view(rec.state, None)))
    async with store.read() as tx:
        stored = await tx.moves(rec.id)
    assert [{k: v for k, v in m.items()} for m in outsider["moves"]] == [
        {"n": m.n, "seat": m.seat, "round": m.round, "phase": m.phase, "at": m.at, "text": m.text}
        for m in stored
    ]
    # A seat holder's copy adds their own private lines, and only theirs.
    ben = await svc.export(CH, BEN)
    assert ben["private"]["seat"] == 1
    plugin = rec.plugin
    mine = [
        {"n": m.n, "text": plugin.private_line(e)}
        for m in stored
        for e in m.events
        if e.get("private_to") == 1
    ]
    assert mine and ben["private"]["lines"] == mine
    assert {k: v for k, v in ben.items() if k != "private"} == {
        **outsider,
        "exported_at": ben["exported_at"],
    }
    # Such a record cannot be replayed, and says why.
    with pytest.raises(records.RecordError, match="Export the game again once it is over"):
        records.replay(records.parse(records.dumps(outsider)))
    with pytest.raises(NoGame):
        await svc.export(CH + 1, ANA)


async def test_the_nauticus_replay_shows_the_board_and_every_shipyard_after_each_phase(
    store: Store,
) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN, CLEO], seed=3)
    rec = await finish(svc, rec)
    name, data = await svc.animation(CH)
    assert name == f"nauticus-game-{rec.id}-replay.gif"
    assert len(data) <= records.MAX_ANIMATION_BYTES
    gif = Image.open(io.BytesIO(data))
    # One frame at the start and one per action phase: the units the log went through.
    async with store.read() as tx:
        moves = await tx.moves(rec.id)
    plugin, rules = rec.plugin, rec.plugin.rules
    state = rules.new_game(3, rec.seed)
    shots = [seen(plugin, state, rec.names, None)]
    unit = plugin.unit(shots[0])
    for m in moves:
        state, _ = rules.apply(state, m.seat, m.move)
        now = seen(plugin, state, rec.names, None)
        if plugin.unit(now) != unit or rules.is_over(state):
            shots.append(now)
            unit = plugin.unit(now)
    assert gif.n_frames == len(shots) == 5 * 7 + 1  # 5 rounds of 7 action phases
    # The board on top, as tall as the phase posts' board; below it each seat's shipyard block.
    board_h = Image.open(io.BytesIO(plugin.draw(("board",), shots[0])[0].data)).height
    heights = block_heights([s.view for s in shots])
    assert gif.size == (800, board_h + GAP + sum(heights))
    for i in (0, 1, 17, len(shots) - 1):
        gif.seek(i)
        frame = gif.convert("RGB")
        # The board is the phase post's picture of that moment (through the replay's palette:
        # few pixels move by more than a shade) ...
        want = Image.open(io.BytesIO(plugin.draw(("board",), shots[i])[0].data)).convert("RGB")
        assert _mostly_equal(frame.crop((0, 0, 800, board_h)), want), i
        # ... and each shipyard is its block of the shipyards picture, its ships at the
        # replay's compact scale.
        top = board_h + GAP
        for seat, h in enumerate(heights):
            c = canvas.Canvas.blank((800, h), palette.BG)
            draw_block(c, shots[i].view, seat, 0, h - HEAD_H - 16, Shown(rec.names, None))
            assert _mostly_equal(frame.crop((0, top, 800, top + h)), c.im), (i, seat)
            top += h
    assert gif.info["duration"] == records.LAST_FRAME_MS


def _mostly_equal(got: Image.Image, want: Image.Image) -> bool:
    """The same picture but for quantization: under 0.3% of pixels off by more than a shade."""
    assert got.size == want.size
    off = ImageChops.difference(got, want.convert("RGB")).convert("L").histogram()
    return sum(off[24:]) < 0.003 * got.width * got.height


def test_island_and_duel_replays_show_their_board_pictures_exactly() -> None:
    for kind, players in (("island", 3), ("duel", 2)):
        plugin = GAMES.get(kind)
        rules = plugin.rules
        rng = random.Random(2)
        state = rules.new_game(players, 2)
        names = ("Ana", "Ben", "Cleo")[:players]
        script = []
        boards = [plugin.draw(plugin.board_pictures()[:1], seen(plugin, state, names, None))[0]]
        unit = plugin.unit(seen(plugin, state, names, None))
        while not rules.is_over(state):
            seat = rules.current(state)
            move = rng.choice(rules.legal_moves(state, seat))
            script.append((seat, move))
            state, _ = rules.apply(state, seat, move)
            now = seen(plugin, state, names, None)
            if plugin.unit(now) != unit or rules.is_over(state):
                boards.append(plugin.draw(plugin.board_pictures()[:1], now)[0])
                unit = plugin.unit(now)
        gif = Image.open(io.BytesIO(records.animation(plugin, 2, names, script)))
        # Pixel for pixel the board picture a post shows (a frame equal to the one before it
        # lengthens that one instead).
        shown = [boards[0].data]
        for b in boards[1:]:
            if (
                Image.open(io.BytesIO(b.data)).convert("RGB").tobytes()
                != Image.open(io.BytesIO(shown[-1])).convert("RGB").tobytes()
            ):
                shown.append(b.data)
        assert gif.n_frames == len(shown), kind
        for i in range(0, len(shown), max(1, len(shown) // 6)):
            gif.seek(i)
            want = Image.open(io.BytesIO(shown[i])).convert("RGB")
            assert gif.convert("RGB").tobytes() == want.tobytes(), (kind, i)


def test_frames_are_the_pictures_png_would_hold_without_encoding_them() -> None:
    plugin = GAMES.get("nauticus")
    public = seen(plugin, plugin.rules.new_game(3, 2), ("Ana", "Ben", "Cleo"), None)
    (png,) = plugin.draw(("board",), public)
    with canvas.frames() as drawn:
        (bare,) = plugin.draw(("board",), public)
    assert bare.data == b"" and len(drawn) == 1
    frame, want = drawn[0], Image.open(io.BytesIO(png.data))
    assert frame.mode == want.mode == "P" and frame.size == want.size
    assert frame.convert("RGB").tobytes() == want.convert("RGB").tobytes()
    # Outside the block pictures are encoded again and nothing more is collected.
    (again,) = plugin.draw(("board",), public)
    assert again.data == png.data and len(drawn) == 1


def _frame(palette: list[tuple[int, int, int]], pixels: list[int]) -> Image.Image:
    im = Image.new("P", (32, 16))
    im.putpalette([v for rgb in palette for v in rgb])
    im.putdata(pixels)
    return im


def test_the_gif_shows_every_frame_exactly_whatever_their_palettes() -> None:
    four = [(250, 250, 250), (200, 0, 0), (0, 90, 200), (20, 20, 20)]
    base = [(x // 8 + y // 4) % 4 for y in range(16) for x in range(32)]
    first = _frame(four, base)
    # The same picture under another palette order (and a fifth colour it does not use), one
    # 3x3 square changed: unchanged pixels may take entry 5, past the palette's own.
    order = [2, 0, 3, 1]
    moved = [order.index(v) for v in base]
    for y in range(5, 8):
        for x in range(10, 13):
            moved[y * 32 + x] = order.index(3) if base[y * 32 + x] != 3 else order.index(0)
    second = _frame([four[i] for i in order] + [(1, 2, 3)], moved)
    # Shown exactly as the second frame, through yet another palette: it lengthens it.
    again = _frame(four[::-1], [3 - order[v] for v in moved])
    # Red turns black; entry 1 of its four is unused, so it is the transparent one.
    third = _frame(
        [four[0], (9, 9, 9), four[2], four[3]],
        [3 if four[order[v]] == four[1] else {0: 0, 2: 2, 3: 3}[order[v]] for v in moved],
    )
    # Every one of 256 entries used: no entry is left for transparency.
    full = _frame([(i, 255 - i, (i * 7) % 256) for i in range(256)], [i % 256 for i in range(512)])
    data = records._gif([first, second, again, third, full], [700, 700, 700, 700, 4000])
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 4 and gif.info["loop"] == 0
    assert again.convert("RGB").tobytes() == second.convert("RGB").tobytes()
    shown = [(first, 700, None), (second, 1400, 5), (third, 700, 1), (full, 4000, None)]
    for i, (want, ms, _) in enumerate(shown):
        gif.seek(i)
        assert gif.convert("RGB").tobytes() == want.convert("RGB").tobytes()
        assert gif.info["duration"] == ms
    # Each frame's graphic control block: its transparent entry, if any.
    controls = data.split(b"!\xf9\x04")[1:]
    assert [c[3] if c[0] & 1 else None for c in controls] == [c for _, _, c in shown]


async def test_rematch_opens_a_lobby_with_the_same_table(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.add_ai(CH, ANA, "easy", can_manage=False)
    rec = await svc.start(CH, ANA, can_manage=False, order=[-1, ANA], seed=5)
    with pytest.raises(LobbyError, match="not over yet"):
        await svc.rematch(GUILD, CH, rec.id, ANA, "Ana")
    await svc.set_autopilot(CH, ANA, True, "easy")
    # A few robot moves, then the host ends it: an aborted game can be rematched as a finished
    # one can (the other rematch tests play theirs to the end).
    for _ in range(4):
        played = await svc.play_ai(CH, rec.version)
        assert played is not None
        rec = played.record
    rec = await svc.abort(CH, ANA, can_manage=False)
    assert rec.status == "aborted"
    with pytest.raises(NotAllowed, match="Only the players of that game"):
        await svc.rematch(GUILD, CH, rec.id, BEN, "Ben")
    lobby, invited = await svc.rematch(GUILD, CH, rec.id, ANA, "Ana")
    assert lobby.status == "lobby" and lobby.kind == "duel" and lobby.host_id == ANA
    assert [(s.user_id, s.name, s.ai) for s in lobby.seats] == [
        (ANA, "Ana", None),
        (-1, rec.seats[0].name, "easy"),
    ]
    assert invited == []  # nobody else to ping: Ana and a robot
    with pytest.raises(LobbyError, match="already has a lobby"):
        await svc.rematch(GUILD, CH, rec.id, ANA, "Ana")


async def test_rematch_pings_the_other_players_to_join(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="nauticus")
    await svc.join(CH, BEN, "Ben")
    await svc.join(CH, CLEO, "Cleo")
    await svc.toggle_seating(CH, ANA, can_manage=False)  # join order
    await svc.set_deadline(CH, ANA, 48, can_manage=False)
    rec = await svc.start(CH, ANA, can_manage=False, seed=8)
    rec = await finish(svc, rec)
    lobby, invited = await svc.rematch(GUILD, CH, rec.id, BEN, "Ben")
    assert [s.user_id for s in lobby.seats] == [BEN]
    assert sorted(s.user_id for s in invited) == [ANA, CLEO]
    assert lobby.seating == "join" and lobby.deadline_hours == 48
    async with store.read() as tx:
        rows = [r for r in await tx.pending_outbox(limit=10_000) if r.game_id == lobby.id]
    notice = next(r.payload for r in rows if r.kind == "notice")
    assert sorted(notice["mentions"]) == [ANA, CLEO]
    assert notice["text"] == (
        "🔁 **Rematch!** Ben opened a lobby for another game of Nauticus with the same table. "
        f"<@{ANA}>, <@{CLEO}>: press **Join** on it to take your seat again."
    )
    # They confirm with Join, and the game starts as usual.
    await svc.join(CH, ANA, "Ana")
    await svc.join(CH, CLEO, "Cleo")
    started = await svc.start(CH, BEN, can_manage=False, seed=9)
    assert started.status == "active" and [s.user_id for s in started.seats] == [BEN, ANA, CLEO]


async def test_the_final_post_carries_replay_rematch_and_record(store: Store) -> None:
    svc = GameService(store)
    await svc.open_lobby(GUILD, CH, ANA, "Ana", kind="duel")
    await svc.join(CH, BEN, "Ben")
    rec = await svc.start(CH, ANA, can_manage=False, order=[ANA, BEN], seed=2)
    rec = await finish(svc, rec)
    async with store.read() as tx:
        final = await tx.latest_outbox(rec.id, "final_post")
    assert final is not None
    assert final.payload["components"] == "final" and final.payload["version"] == rec.version


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_moves_line_reads_the_same_when_the_move_is_read_back(game: str) -> None:
    # The log stores a move as JSON with sorted keys, and a record carries that: its public
    # line must not depend on the order the move's keys came in (Island once listed stored
    # objects in the move's order, so a replayed game read differently).
    rules = GAMES.get(game).rules
    for seed in range(1, 6):
        rng = random.Random(seed)
        state = rules.new_game(PLAYERS[game], seed)
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            move = rng.choice(rules.legal_moves(state, seat))
            shuffled = json.loads(json.dumps(move))
            for key, value in list(shuffled.items()):
                if isinstance(value, dict):  # the same entries, in reverse order
                    shuffled[key] = dict(reversed(list(value.items())))
            read_back = json.loads(json.dumps(shuffled, sort_keys=True))
            assert rules.describe(read_back, state) == rules.describe(move, state)
            assert rules.describe(shuffled, state) == rules.describe(move, state)
            state, _ = rules.apply(state, seat, move)


def test_a_nauticus_replay_of_a_busy_game_stays_far_under_discords_limit() -> None:
    # Four players who build ships and deliver (the AI's rollout policy): every phase changes
    # the board and most shipyards, the frames are as large as they get (5 rounds, 36 frames).
    from engine.ai.evaluate import _nauticus_rollout

    plugin = GAMES.get("nauticus")
    rules = plugin.rules
    for seed in (3, 8):
        rng = random.Random(seed)
        state = rules.new_game(4, seed)
        script = []
        while not rules.is_over(state):
            seat = rules.current(state)
            move = _nauticus_rollout(state, seat, rules.legal_moves(state, seat), rng)
            script.append((seat, move))
            state, _ = rules.apply(state, seat, move)
        assert sum(len(p.ships) for p in state.players) >= 4
        data = records.animation(plugin, seed, ("Ana", "Ben", "Cleo", "Dev"), script)
        gif = Image.open(io.BytesIO(data))
        assert gif.n_frames == 36 and gif.size[1] > 2000
        # 1.1-1.3 MB measured: a quarter of the 8 MB limit leaves room for any game.
        assert len(data) <= records.MAX_ANIMATION_BYTES // 4, len(data)
        # Below the board, the shipyards at the end are not those of the start: ships built.
        gif.seek(0)
        first = gif.convert("RGB")
        gif.seek(35)
        last = gif.convert("RGB")
        below = (0, board_height(4) + GAP, 800, gif.size[1])
        moved = ImageChops.difference(first.crop(below), last.crop(below)).getbbox()
        assert moved is not None and moved[3] - moved[1] > 1000


def test_the_nauticus_gif_shows_each_frame_exactly_as_drawn_whole() -> None:
    # The GIF holds only the parts drawn again, their unchanged pixels transparent: decoded, each
    # frame must be the frame drawn whole, pixel for pixel.
    from render.nauticus.replay import Frames

    plugin = GAMES.get("nauticus")
    rules = plugin.rules
    names = ("Ana", "Ben", "Cleo")
    rng = random.Random(6)
    state = rules.new_game(3, 6)
    script, views = [], [rules.view(state, None)]
    while not rules.is_over(state):
        seat = rules.current(state)
        move = rng.choice(rules.legal_moves(state, seat))
        script.append((seat, move))
        was = (state.round, state.phase)
        state, _ = rules.apply(state, seat, move)
        if (state.round, state.phase) != was or rules.is_over(state):
            views.append(rules.view(state, None))
    gif = Image.open(io.BytesIO(records.animation(plugin, 6, names, script)))
    whole = Frames(views, names)
    assert gif.n_frames == len(views) == 36
    for i in range(len(views)):
        gif.seek(i)
        want = whole.frame(i).convert("RGB")
        assert gif.convert("RGB").tobytes() == want.tobytes(), i


def test_the_gif_compares_frames_of_one_palette_by_index() -> None:
    # Frames sharing a palette (a Nauticus replay halved for a very long game) are compared by
    # palette entry: the changed 3x3 square is the frame's box, the rest of it transparent.
    four = [(250, 250, 250), (200, 0, 0), (0, 90, 200), (20, 20, 20)]
    base = [(x // 8 + y // 4) % 4 for y in range(16) for x in range(32)]
    moved = list(base)
    for y in range(5, 8):
        for x in range(10, 13):
            moved[y * 32 + x] = (base[y * 32 + x] + 1) % 4
    moved[6 * 32 + 11] = base[6 * 32 + 11]  # the middle pixel of the square unchanged
    first, second = _frame(four, base), _frame(four, moved)
    data = records._gif(iter([first, second, _frame(four, moved)]), [700, 700, 4000])
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 2
    for i, want in enumerate((first, second)):
        gif.seek(i)
        assert gif.convert("RGB").tobytes() == want.convert("RGB").tobytes()
    assert gif.info["duration"] == 4700
    # The second frame's image: its box is the square, entry 4 (past the four) transparent.
    second_frame = data.split(b"!\xf9\x04")[2]
    assert second_frame[0] & 1 and second_frame[3] == 4
    assert struct.unpack("<HHHH", second_frame[6:14]) == (10, 5, 3, 3)
