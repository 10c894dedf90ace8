"""Portable game records: a game as one JSON file, read back, checked, replayed and animated.

A record is what a player keeps or shares of a game (`/games export`, the final post's Record
button), and what `python -m bot replay` plays again. Its format is documented in the README
("Game records"). Secrets decide its shape:

- a finished game's record is *complete*: the seed and every move, so anyone can replay it
  (once a game is over nothing in it is secret any more: the score sheets show every hand);
- any other game's record holds only what the table saw: the public line of each move and the
  public view of the board now (never the seed, which deals the hidden cards, nor the moves,
  which may name a card in hand), plus, for the member asking, their own seat's private lines.

Replaying checks everything a wrong replay would get wrong: the game must be installed with the
record's engine version (another version may play the same moves differently, so it is
refused rather than replayed wrongly), every move must be legal for its seat, and the replay's
final scores must equal the record's.
"""

from __future__ import annotations

import io
import json
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from PIL import Image, ImageChops

from bot import i18n, texts
from bot.games import GAMES
from bot.plugin import GamePlugin
from bot.visibility import readable, seen
from engine.api import Move
from render import canvas

FORMAT = "nautilus-bot/game-record"
FORMAT_VERSION = 1
MAX_RECORD_BYTES = 5_000_000  # far above any real game (a 4-player Nauticus record is ~60 kB)
# The animated replay: each action phase shown this long, the final board longer.
FRAME_MS = 700
LAST_FRAME_MS = 4000
MAX_ANIMATION_BYTES = 8_000_000  # Discord's upload limit for a bot without boosts


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class RecordSeat:
    seat: int
    name: str
    ai: str | None = None
    robot: bool = False


@dataclass(frozen=True, slots=True)
class RecordMove:
    n: int
    seat: int
    round: int
    phase: int
    at: str
    text: str
    move: Move | None = None  # only in a complete record


@dataclass(frozen=True, slots=True)
class Record:
    """A record as read back (`parse`)."""

    game: str
    engine_version: str
    status: str
    seed: int | None
    seats: tuple[RecordSeat, ...]
    moves: tuple[RecordMove, ...]
    final_scores: tuple[tuple[int, int, int], ...]  # (seat, vp, rank); () if not finished

    @property
    def complete(self) -> bool:
        return self.seed is not None and all(m.move is not None for m in self.moves)

    @property
    def script(self) -> list[tuple[int, Move]]:
        """The moves to replay, (seat, move) in order (complete records only)."""
        return [(m.seat, dict(m.move)) for m in self.moves if m.move is not None]


def build(
    *,
    plugin: GamePlugin,
    game_id: int,
    status: str,
    engine_version: str,
    seed: int,
    seating: str,
    deadline_hours: int | None,
    seats: Sequence[tuple[int, str, str | None, bool]],
    moves: Sequence[Any],
    state: Any,
    reader_seat: int | None = None,
    exported_at: datetime | None = None,
) -> dict[str, Any]:
    """The record of one game as JSON-able data.

    `seats`: (seat, name, ai level, robot) in seat order. `moves`: the stored move rows (with
    `n`, `seat`, `round`, `phase`, `at`, `text`, `move`, `events`). `state`: the game now (None
    for a lobby). `reader_seat`: the seat of the member asking, whose private lines an
    incomplete record may carry (nobody else's).
    """
    rules = plugin.rules
    complete = status == "finished"
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": plugin.kind,
        "title": plugin.title,
        "engine_version": engine_version,
        "game_id": game_id,
        "status": status,
        "complete": complete,
        "seed": seed if complete else None,
        "options": {"seating": seating, "deadline_hours": deadline_hours},
        "seats": [
            {"seat": s, "name": texts.name(name), "ai": ai, "robot": robot}
            for s, name, ai, robot in seats
        ],
        "moves": [],
        "final_scores": None,
        "exported_at": (exported_at or datetime.now(UTC)).isoformat(timespec="seconds"),
    }
    private: list[dict[str, Any]] = []
    for m in moves:
        entry: dict[str, Any] = {
            "n": m.n,
            "seat": m.seat,
            "round": m.round,
            "phase": m.phase,
            "at": m.at,
            "text": m.text,
        }
        if complete:
            entry["move"] = m.move
        elif reader_seat is not None:
            mine = [e for e in readable(m.events, reader_seat) if e.get("private_to") is not None]
            private += [{"n": m.n, "text": plugin.private_line(e)} for e in mine]
        record["moves"].append(entry)
    if complete and state is not None:
        record["final_scores"] = [
            {"name": texts.name(seats[s.seat][1]), **dict(s.to_dict())}
            for s in rules.final_scores(state)
        ]
    elif state is not None:
        # The board as the table sees it now: enough to draw it, nothing more.
        record["public_view"] = rules.view(state, None)
    if not complete and reader_seat is not None:
        # Only the member asking receives this file (an ephemeral reply): their own secrets.
        record["private"] = {"seat": reader_seat, "lines": private}
    return record


def dumps(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def filename(record: Mapping[str, Any]) -> str:
    return f"{record['game']}-game-{record['game_id']}.json"


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise RecordError(f"This is not a readable game record: {what}.")


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def parse(data: bytes | str) -> Record:
    """Read a record file.

    Raises:
        RecordError: not JSON, not a record of this bot, or a malformed field (named).
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"This file is too large to be a game record ({len(data):,} bytes).")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"This file is not JSON ({str(exc)[:80]}).") from None
    _need(isinstance(raw, dict), "it is not a JSON object")
    _need(raw.get("format") == FORMAT, f'its "format" is not "{FORMAT}"')
    version = raw.get("format_version")
    if version != FORMAT_VERSION:
        raise RecordError(
            f"This record has format version {texts.quoted(str(version))[:20]}; this bot reads "
            f"version {FORMAT_VERSION}. Use the bot that wrote it."
        )
    game, engine_version, status = raw.get("game"), raw.get("engine_version"), raw.get("status")
    _need(isinstance(game, str) and bool(game), '"game" must name a game')
    _need(isinstance(engine_version, str), '"engine_version" must be text')
    _need(status in ("lobby", "active", "finished", "aborted"), '"status" is not a game status')
    seed = raw.get("seed")
    _need(seed is None or _int(seed), '"seed" must be a whole number or null')
    seats_raw, moves_raw = raw.get("seats"), raw.get("moves")
    _need(isinstance(seats_raw, list) and bool(seats_raw), '"seats" must be a non-empty list')
    _need(isinstance(moves_raw, list), '"moves" must be a list')
    seats = []
    for i, s in enumerate(seats_raw):
        _need(isinstance(s, dict) and s.get("seat") == i, f"seat {i} is malformed")
        name, ai = s.get("name"), s.get("ai")
        _need(isinstance(name, str), f"seat {i} has no name")
        _need(ai is None or isinstance(ai, str), f"seat {i}'s AI level is not text")
        seats.append(RecordSeat(i, str(name), ai, bool(s.get("robot"))))
    moves = []
    for i, m in enumerate(moves_raw):
        _need(isinstance(m, dict), f"move {i + 1} is not an object")
        n, seat = m.get("n"), m.get("seat")
        _need(_int(n) and _int(seat) and 0 <= seat < len(seats), f"move {i + 1} has no seat")
        move = m.get("move")
        _need(move is None or isinstance(move, dict), f"move {n} is not an object")
        moves.append(
            RecordMove(
                n=n,
                seat=seat,
                round=m.get("round") if _int(m.get("round")) else 0,
                phase=m.get("phase") if _int(m.get("phase")) else 0,
                at=str(m.get("at", "")),
                text=str(m.get("text", "")),
                move=move,
            )
        )
    scores: list[tuple[int, int, int]] = []
    for s in raw.get("final_scores") or []:
        _need(
            isinstance(s, dict) and _int(s.get("seat")) and _int(s.get("vp")),
            "a final score is malformed",
        )
        scores.append((s["seat"], s["vp"], s.get("rank") if _int(s.get("rank")) else 0))
    return Record(
        game=str(game),
        engine_version=str(engine_version),
        status=str(status),
        seed=seed,
        seats=tuple(seats),
        moves=tuple(moves),
        final_scores=tuple(scores),
    )


def playable(record: Record) -> GamePlugin:
    """The installed game that can replay `record` exactly.

    Raises:
        RecordError: the game is not installed, the engine version differs (it might replay
        the moves differently), or the record holds only the public side of a game.
    """
    if record.game not in GAMES.games:
        raise RecordError(
            f"This is a record of {texts.quoted(record.game)[:40]}, which is not installed here "
            f"(installed: {', '.join(GAMES.games)})."
        )
    plugin = GAMES.get(record.game)
    if record.engine_version != plugin.rules.engine_version:
        raise RecordError(
            f"This record was played with {plugin.title} engine version "
            f"{texts.quoted(record.engine_version)[:40]}; this bot has version "
            f"{plugin.rules.engine_version}, whose rules may give the same moves another result. "
            "Replay it with the bot version that wrote it."
        )
    if not record.complete:
        raise RecordError(
            f"This record of a game that was {record.status} when it was exported holds only "
            "what the table could see, not the seed and moves a replay needs (they would "
            "reveal hidden cards). Export the game again once it is over."
        )
    players = len(record.seats)
    rules = plugin.rules
    if not rules.min_players <= players <= rules.max_players:
        raise RecordError(f"{plugin.title} is not played by {players} players.")
    return plugin


def replay(record: Record) -> Any:
    """The final state of a complete record, every move checked.

    Raises:
        RecordError: see `playable`; an illegal move; final scores that differ from the
        record's (the record was edited or damaged).
    """
    plugin = playable(record)
    rules = plugin.rules
    assert record.seed is not None  # complete
    state = rules.new_game(len(record.seats), record.seed)
    for m in record.moves:
        assert m.move is not None
        turn = rules.current(state)
        if turn != m.seat:
            raise RecordError(
                f"Move {m.n} is played by seat {m.seat + 1}, but seat "
                f"{'none' if turn is None else turn + 1} was to move: the record is damaged."
            )
        try:
            state, _ = rules.apply(state, m.seat, dict(m.move))
        except Exception as exc:  # IllegalMove, or a move too malformed to read
            raise RecordError(
                f"Move {m.n} ({texts.quoted(m.text)[:80]}) is not legal when replayed "
                f"({texts.quoted(str(exc))[:120]}): the record is damaged or was edited."
            ) from None
    check_scores(record, [(s.seat, s.vp, s.rank) for s in rules.final_scores(state)])
    return state


def check_scores(record: Record, got: Sequence[tuple[int, int, int]]) -> None:
    """Raise RecordError if a replay's (seat, vp, rank) differ from the record's."""
    if record.final_scores and sorted(record.final_scores) != sorted(got):
        raise RecordError(
            "Replaying this record gives other final scores than it states "
            f"({sorted(got)} instead of {sorted(record.final_scores)}): the record was edited "
            "or damaged."
        )


def animation(
    plugin: GamePlugin, seed: int, names: Sequence[str], script: Sequence[tuple[int, Move]]
) -> bytes:
    """An animated GIF of the board as the table saw it after each action phase, or of the
    game's own replay frames (`GamePlugin.replay_frames`: in Nauticus the board with every
    player's shipyard below it).

    Every frame is drawn from the public view only (the same pictures a phase post shows), so
    it may be shown to anyone, even for a game in progress.
    """
    rules = plugin.rules
    state = rules.new_game(len(names), seed)
    # The public view of each frame's moment, first; drawn once all are known (a game's own
    # frames, such as Nauticus's, take their size and palette from the whole game). The unit is
    # read from the state itself: a view of every move cost a sixth of the replay's time.
    shots = [seen(plugin, state, names, None)]
    unit = plugin.unit_of_state(state)
    for seat, move in script:
        state, _ = rules.apply(state, seat, dict(move))
        at = plugin.unit_of_state(state)
        if at != unit or rules.is_over(state):
            shots.append(seen(plugin, state, names, None))
            unit = at
    durations = [FRAME_MS] * len(shots)
    durations[-1] = LAST_FRAME_MS
    views = [s.view for s in shots]
    drawer = plugin.replay_frames(views, names)
    if drawer is not None:
        # The game's own frames (Nauticus: the board and every shipyard, on one palette),
        # each written as the parts drawn again since the previous one.
        deltas = (drawer.delta(i) for i in range(len(views)))
        data = _gif_deltas(deltas, durations, drawer.clear)

        def pictures() -> Iterator[Image.Image]:
            again = plugin.replay_frames(views, names)
            assert again is not None
            return (again.frame(i) for i in range(len(views)))

    else:
        board = plugin.board_pictures()[:1]

        def pictures() -> Iterator[Image.Image]:
            for shot in shots:
                # The board's 256-colour image as its PNG would hold it, taken before any
                # encoding: encoding each frame to PNG and decoding it again cost a third of
                # the GIF's time.
                with canvas.frames() as drawn:
                    plugin.draw(board, shot)
                yield from drawn

        # Frames are drawn as the GIF writer takes them: only two are held at a time.
        data = _gif(pictures(), durations)
    half = 1
    width = int.from_bytes(data[6:8], "little")  # the GIF's screen width
    while len(data) > MAX_ANIMATION_BYTES and width // half > 200:
        # A game far longer than ours: halve the frames rather than fail Discord's limit.
        half *= 2
        data = _gif((_shrink(f, half) for f in pictures()), durations)
    return data


def _shrink(frame: Image.Image, by: int) -> Image.Image:
    return frame.resize((frame.width // by, frame.height // by), Image.Resampling.NEAREST)


def replay_gif(
    kind: str,
    seed: int,
    names: Sequence[str],
    script: Sequence[tuple[int, Move]],
    locale: str = i18n.ENGLISH,
) -> bytes:
    """`animation` for a game of `kind`, by name, in the game's language: what a worker process
    is sent (a plugin object does not travel between processes, nor does the caller's language
    context; the kind and the locale do)."""
    with i18n.use(locale):
        return animation(GAMES.get(kind), seed, names, script)


def _gif(frames: Iterable[Image.Image], durations: Sequence[int]) -> bytes:
    """An animated GIF that shows each 256-colour frame exactly, looping for ever.

    GIF, not WebP: the frames are 256-colour already (the PNGs the phase posts use), so GIF
    keeps them exactly and encodes a whole game in a fraction of animated WebP's time.

    Written here rather than by Pillow's animated-GIF writer, which took half the replay's
    time: as each frame has its own palette, Pillow compares each pair of frames by converting
    both to RGBA. Here two frames with one palette (a Nauticus replay's) are compared by index,
    others converted to RGB once each; the box of what changed since the previous frame is
    kept, its unchanged pixels made transparent (a palette entry the frame does not use),
    which compresses to almost nothing, as Pillow's writer does. Each frame's
    image data is Pillow's GIF encoding of that box (`_gif_image`); a frame equal to the
    previous one lengthens it instead.
    """
    shown: list[tuple[bytes, tuple[int, int, int, int], int | None]] = []
    kept: list[int] = []  # each shown frame's duration (ms)
    before: Image.Image | None = None  # the previous frame
    before_rgb: Image.Image | None = None  # ... in RGB, once needed
    width = height = 0
    for frame, ms in zip(frames, durations, strict=True):
        clear: int | None = None
        if before is None:
            width, height = frame.size
        box = (0, 0, width, height)
        part = frame
        rgb: Image.Image | None = None
        if before is not None:
            if frame.getpalette() == before.getpalette():
                # One palette (a Nauticus replay's frames): a pixel is unchanged where its
                # index is, compared without converting either frame.
                changed = ImageChops.difference(frame, before)
            else:
                rgb = frame.convert("RGB")
                if before_rgb is None:
                    before_rgb = before.convert("RGB")
                r, g, b = ImageChops.difference(rgb, before_rgb).split()
                changed = ImageChops.lighter(ImageChops.lighter(r, g), b)  # 0 where unchanged
            moved = changed.getbbox()
            if moved is None:
                kept[-1] += ms
                continue
            box = moved
            # A frame's GIF palette is its own padded to a power of two of entries: an entry
            # past its own is unused; else look for one its pixels do not use.
            entries = len(frame.getpalette() or ()) // 3
            table = max(2, 1 << (entries - 1).bit_length())
            if entries < table:
                clear = entries
            else:
                clear = next((i for i, n in enumerate(frame.histogram()) if n == 0), None)
            if clear is not None:  # else all 256 entries are used: the box stays opaque
                part = frame.copy()
                part.paste(clear, mask=changed.point([255] + [0] * 255, "1"))
            part = part.crop(box)
        before, before_rgb = frame, rgb
        shown.append((_gif_image(part), box, clear))
        kept.append(ms)
    return _gif_file((width, height), shown, kept)


def _gif_deltas(
    deltas: Iterable[tuple[Image.Image, tuple[int, int, int, int]] | None],
    durations: Sequence[int],
    clear: int,
) -> bytes:
    """An animated GIF of frames given as what changed: each delta a "P" image and the box of
    the screen it covers, its pixels of entry `clear` transparent (the frame before shows
    through), or None when nothing changed (the frame before is shown longer). The first delta
    is the whole first frame."""
    shown: list[tuple[bytes, tuple[int, int, int, int], int | None]] = []
    kept: list[int] = []
    size = (0, 0)
    for delta, ms in zip(deltas, durations, strict=True):
        if delta is None:
            kept[-1] += ms
            continue
        image, box = delta
        if not shown:
            size = image.size
        shown.append((_gif_image(image), box, clear if shown else None))
        kept.append(ms)
    return _gif_file(size, shown, kept)


def _gif_file(
    size: tuple[int, int],
    shown: Sequence[tuple[bytes, tuple[int, int, int, int], int | None]],
    kept: Sequence[int],
) -> bytes:
    """The GIF of `shown` frames (image data from `_gif_image`, box on the screen,
    transparent entry or None), each shown for its `kept` milliseconds, looping for ever."""
    width, height = size
    out = io.BytesIO()
    out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0))  # no global palette
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever
    for (image, (x0, y0, x1, y1), clear), ms in zip(shown, kept, strict=True):
        # Graphic control: disposal 1 (leave the frame for the next to draw on), the delay in
        # hundredths of a second, the transparent entry if any.
        flags = 1 << 2 | (clear is not None)
        out.write(struct.pack("<3sBHBB", b"!\xf9\x04", flags, ms // 10, clear or 0, 0))
        out.write(struct.pack("<BHHHH", 0x2C, x0, y0, x1 - x0, y1 - y0))
        out.write(image)
    out.write(b";")
    return out.getvalue()


def _gif_image(im: Image.Image) -> bytes:
    """A "P" image as a GIF frame's image part: the descriptor's flags byte, then its own
    palette (local colour table) and LZW data, taken out of Pillow's GIF of it alone."""
    buf = io.BytesIO()
    im.save(buf, "GIF", optimize=False, interlace=False)
    gif = buf.getvalue()
    # Header (6 bytes), screen descriptor (7), whose flags say the size of the global
    # palette, which Pillow fills with the image's palette.
    flags = gif[10]
    if not flags & 0x80:
        raise ValueError("Pillow wrote a GIF without a palette")
    size = 3 << ((flags & 7) + 1)
    palette, pos = gif[13 : 13 + size], 13 + size
    while gif[pos] == 0x21:  # extensions: label, then sub-blocks up to an empty one
        pos += 2
        while gif[pos]:
            pos += gif[pos] + 1
        pos += 1
    if gif[pos] != 0x2C or gif[pos + 9] & 0xC0:  # an image descriptor, no local palette
        raise ValueError("Pillow wrote an unexpected GIF")
    start = pos = pos + 10
    pos += 1  # LZW minimum code size, then data sub-blocks up to an empty one
    while gif[pos]:
        pos += gif[pos] + 1
    return bytes([0x80 | (flags & 7)]) + palette + gif[start : pos + 1]
