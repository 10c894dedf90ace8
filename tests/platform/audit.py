"""The differential secrets audit (issue 21, item 4): what each audience receives must not change
when what that audience cannot see is re-dealt.

An audience is the table (None: any member, seated or not, reads the channel) or one seat's
holder (their ephemeral replies). After every move of a game, for each audience A:

- the state after the move is re-dealt from A's view (`rules.determinize(after, A, rng)`), and
  every output A receives that is built from the state now must come out byte-identical. For
  the table: the public view an export of a game in progress carries, the status line, what
  the deciding seat must do (ping, reminder and skip prompt words), the turn ping, the phase
  post and its pictures, the final post, the board pictures (bytes and alt text). For a seat:
  its panel (header, menu groups and their second menus, confirmations), its hand text and
  hand pictures, its autocomplete for every option of every move command, and the refusal of
  every probe move it might send;
- for the move itself, the state before it is re-dealt from the table's view, keeping only
  re-deals in which the move is legal and gives the same public events (the table has seen the
  move and those events, so it knows that much): the move's log line (what `/games log`, the
  digests, the history, exports and replays show) and its done line (a ping's edit) must be
  identical.

A surface built from anything the audience cannot see changes under some re-deal, and the audit
names the surface, the move and both outputs. Pure apart from the pictures (Pillow): no service,
no database, so a whole game is audited in seconds. `Audit.checked` counts the comparisons made
per surface, for the report.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import i18n, move_words, refusals
from bot.plugin import EventLine, GamePlugin, Post, Seen
from bot.visibility import event_dict, readable, seen
from engine.errors import IllegalMove

RE_DEALS = 2  # re-deals of the table's view per move
SEAT_RE_DEALS = 1  # re-deals of each seat's view per move (a seat's surfaces are many)
LEGAL_TRIES = 8  # re-deals of the state before a move tried until the move is legal there
PICTURES_EVERY = 9  # pictures are drawn every this many moves (Pillow is the slow part)
PROBES = 6  # probe moves a seat might send, refused or not, per move


class Leak(AssertionError):
    """An output changed when only what its audience cannot see was re-dealt."""


@dataclass
class Audit:
    plugin: GamePlugin
    names: tuple[str, ...]
    locale: str = "en"
    pictures: bool = True
    checked: Counter[str] = field(default_factory=Counter)

    # --- outputs per audience ------------------------------------------------------------------

    def _post(self, post: Post | None, public: Seen, draw: bool) -> tuple[Any, ...]:
        if post is None:
            return ()
        pics = self.plugin.draw(post.pictures, public) if draw else []
        return (post.text, *((p.filename, p.data, p.description) for p in pics))

    def table_outputs(
        self, state: Any, before: Any, events: Sequence[dict[str, Any]], draw: bool
    ) -> Iterator[tuple[str, Any]]:
        p, rules = self.plugin, self.plugin.rules
        public = seen(p, state, self.names, None)
        old = seen(p, before, self.names, None)
        pub_events = readable(events, None)
        yield "status line", p.status_line(public)
        # An export of a game in progress carries the public view as it is (JSON).
        yield "export (public view)", public.view
        current = rules.current(state)
        if current is not None:
            yield (
                "must decide (ping, reminder, skip prompt)",
                (
                    p.must_decide(public, you=False),
                    p.must_decide(public, you=True),
                ),
            )
            yield "turn ping", p.turn_ping(public, 10_000 + current)
        line = EventLine(0, 0, *p.unit(old), "", tuple(pub_events))
        yield "phase post", self._post(p.phase_post(old, public, [line], pub_events), public, draw)
        if rules.is_over(state):
            yield "final post", self._post(p.final_post(public), public, draw)
        if draw:
            yield (
                "board pictures",
                [(x.filename, x.data, x.description) for x in p.draw(p.board_pictures(), public)],
            )

    def seat_outputs(
        self, state: Any, seat: int, probes: Sequence[dict[str, Any]], draw: bool
    ) -> Iterator[tuple[str, Any]]:
        p, rules = self.plugin, self.plugin.rules
        mine = seen(p, state, self.names, seat)
        yield "panel header", p.panel_header(mine)
        groups: dict[str, list[dict[str, Any]]] = {}
        for m in mine.legal:
            groups.setdefault(p.group_key(m), []).append(dict(m))
        yield (
            "panel menus",
            [
                (
                    key,
                    p.group_label(mine, key, ms),
                    [p.then_label(mine, m) for m in ms] if len(ms) > 1 else [],
                    [p.confirmation(mine, m) for m in ms],
                )
                for key, ms in sorted(groups.items())
            ],
        )
        yield "hand text", p.hand_text(mine)
        yield (
            "autocomplete",
            [
                (
                    cmd.name,
                    opt.name,
                    [(s.name, s.value) for s in p.suggest(mine, cmd.name, opt.name, "", {})],
                )
                for cmd in p.move_commands
                for opt in cmd.options
                if opt.autocomplete
            ],
        )
        outcomes = []
        for probe in probes:
            try:
                rules.apply(state, seat, dict(probe))
                outcomes.append("legal")
            except IllegalMove as exc:
                outcomes.append(refusals.text(exc, self.locale))
        yield "refusals", outcomes
        if draw and p.hand_pictures():
            yield (
                "hand pictures",
                [(x.filename, x.data, x.description) for x in p.draw(p.hand_pictures(), mine)],
            )

    def move_outputs(
        self,
        before: Any,
        after: Any,
        seat: int,
        move: dict[str, Any],
        events: Sequence[dict[str, Any]],
    ) -> Iterator[tuple[str, Any]]:
        p = self.plugin
        pub_events = readable(events, None)
        yield "log line", move_words.describe(p.kind, move, before)
        yield "done line", p.done_line(seen(p, before, self.names, None), seat, pub_events)

    # --- the comparison ------------------------------------------------------------------------

    def _compare(
        self,
        where: str,
        real: Iterator[tuple[str, Any]],
        dealt: Iterator[tuple[str, Any]],
    ) -> None:
        with i18n.use(self.locale):
            want = list(real)
            got = list(dealt)
        for (surface, a), (_, b) in zip(want, got, strict=True):
            self.checked[surface] += 1
            if a != b:
                raise Leak(
                    f"{surface} changed when re-dealt ({where}):\n  real: {a!r}\n  re-dealt: {b!r}"
                )

    def step(
        self,
        n: int,
        before: Any,
        seat: int,
        move: dict[str, Any],
        after: Any,
        events: Sequence[dict[str, Any]],
        probes: Sequence[dict[str, Any]],
    ) -> None:
        """Audit every audience after move `n` (`seat` played `move` on `before`)."""
        rules = self.plugin.rules
        draw = self.pictures and (n % PICTURES_EVERY == 0 or rules.is_over(after))
        players = len(self.names)
        for k in range(RE_DEALS):
            rng = random.Random(f"audit/{n}/{k}")
            table = rules.determinize(after, None, rng)
            self._compare(
                f"move {n}, the table",
                self.table_outputs(after, before, events, draw),
                self.table_outputs(table, before, events, draw),
            )
            if k >= SEAT_RE_DEALS:
                continue
            for s in range(players):
                mine = rules.determinize(after, s, rng)
                self._compare(
                    f"move {n}, seat {s + 1}",
                    self.seat_outputs(after, s, probes, draw),
                    self.seat_outputs(mine, s, probes, draw),
                )
        for k in range(RE_DEALS):
            for t in range(LEGAL_TRIES):
                rng = random.Random(f"audit/{n}/before/{k}/{t}")
                dealt = rules.determinize(before, None, rng)
                try:
                    again, evs = rules.apply(dealt, seat, dict(move))
                except IllegalMove:
                    continue
                dicts = [event_dict(e) for e in evs]
                if readable(dicts, None) != readable(events, None):
                    continue  # the table saw these events: a world where they differ is out
                self._compare(
                    f"move {n} ({move}), the table",
                    self.move_outputs(before, after, seat, move, events),
                    self.move_outputs(dealt, again, seat, move, dicts),
                )
                break
            else:
                self.checked["(move not re-dealt: no world found)"] += 1


Chooser = Callable[[Any, int, random.Random], dict[str, Any]]


def audit_game(
    plugin: GamePlugin,
    players: int,
    seed: int,
    *,
    locale: str = "en",
    choose: Chooser | None = None,
    pictures: bool = True,
    max_moves: int = 10_000,
) -> Audit:
    """Play a seeded game (random moves, or `choose`) and audit after every move."""
    rules = plugin.rules
    names = ("Ana", "Ben", "Cleo", "Dev")[:players]
    audit = Audit(plugin, names, locale, pictures)
    rng = random.Random(f"audit-game/{seed}")
    state = rules.new_game(players, seed)
    n = 0
    while not rules.is_over(state) and n < max_moves:
        seat = rules.current(state)
        assert seat is not None
        legal = rules.legal_moves(state, seat)
        move = dict(choose(state, seat, rng) if choose is not None else rng.choice(legal))
        after, evs = rules.apply(state, seat, move)
        n += 1
        # Moves a player might send now: their own, the others', and the one just played.
        pool = [move, *rng.sample(legal, min(len(legal), PROBES - 2))]
        for s in range(players):
            if s != seat:
                pool.extend(rules.legal_moves(after, s)[:1])
        audit.step(n, state, seat, move, after, [event_dict(e) for e in evs], pool[:PROBES])
        state = after
    return audit
