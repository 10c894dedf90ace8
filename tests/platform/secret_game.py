"""Gems: a tiny two-player game with secret hands, installed only in the tests.

Each player holds secret gems (named like `gem417q`, so a leak is easy to find in any text);
on their turn they either draw a gem from the face-down bag (only they learn which) or reveal one
from their hand, scoring its value. After 6 turns the higher score wins. It exists to prove the
platform's hidden information end to end: every public word and picture must come from the
public view, every private one only to its seat.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from PIL import Image

from bot.plugin import (
    BadOption,
    EventLine,
    MoveCommand,
    OptionSpec,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    ReplayFrames,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.errors import IllegalMove
from engine.rng import shuffled

TURNS = 6
HAND = 3


def gem_name(i: int) -> str:
    return f"gem{i:03d}{'qxzv'[i % 4]}"


GEMS = tuple(gem_name(i) for i in range(100, 140))
VALUE = {g: 1 + i % 7 for i, g in enumerate(GEMS)}


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    seat: int
    private_to: int | None = field(default=None, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, **self._fields()}

    def _fields(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Public: a seat drew a gem (which one is not said)."""

    kind: ClassVar[str] = "drew"


@dataclass(frozen=True, slots=True)
class DrewGem(Event):
    """Private to the drawer: the gem drawn."""

    kind: ClassVar[str] = "drew_gem"
    gem: str = ""

    def _fields(self) -> dict[str, Any]:
        return {"gem": self.gem}


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    kind: ClassVar[str] = "revealed"
    gem: str = ""
    value: int = 0

    def _fields(self) -> dict[str, Any]:
        return {"gem": self.gem, "value": self.value}


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    bag: tuple[str, ...]
    shown: tuple[tuple[str, ...], tuple[str, ...]]
    turn: int  # 0..TURNS
    draws: int = 0


class GemsRules:
    name = "gems"
    engine_version = "gems-1"
    min_players = 2
    max_players = 2

    def new_game(self, players: int, seed: int) -> State:
        if players != 2:
            raise IllegalMove("bad_players", f"Gems is for exactly 2 players, not {players}.")
        deck = shuffled(seed, 0, GEMS)
        return State(seed, (deck[:HAND], deck[HAND : 2 * HAND]), deck[2 * HAND :], ((), ()), 0)

    def current(self, state: State) -> int | None:
        return None if state.turn >= TURNS else state.turn % 2

    def is_over(self, state: State) -> bool:
        return state.turn >= TURNS

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if self.current(state) != seat:
            return []
        moves: list[Move] = [{"type": "reveal", "gem": g} for g in state.hands[seat]]
        if state.bag:
            moves.append({"type": "draw"})
        return moves

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        if self.current(state) is None:
            raise IllegalMove("game_over", "The game is over.")
        if self.current(state) != seat:
            raise IllegalMove("not_your_turn", f"It is not seat {seat + 1}'s turn.")
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("illegal", "That move is not possible now: draw, or reveal a gem.")
        hands = list(state.hands)
        if move["type"] == "draw":
            gem = state.bag[0]
            hands[seat] = (*hands[seat], gem)
            after = replace(
                state, hands=(hands[0], hands[1]), bag=state.bag[1:], turn=state.turn + 1
            )
            return after, [Drew(seat), DrewGem(seat, gem=gem, private_to=seat)]
        gem = move["gem"]
        hands[seat] = tuple(g for g in hands[seat] if g != gem)
        shown = list(state.shown)
        shown[seat] = (*shown[seat], gem)
        after = replace(
            state, hands=(hands[0], hands[1]), shown=(shown[0], shown[1]), turn=state.turn + 1
        )
        return after, [Revealed(seat, gem=gem, value=VALUE[gem])]

    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        return {
            "game": "gems",
            "viewer": seat,
            "current": self.current(state),
            "turn": state.turn,
            "bag": len(state.bag),
            "hand_sizes": [len(h) for h in state.hands],
            "shown": [list(s) for s in state.shown],
            "scores": [sum(VALUE[g] for g in s) for s in state.shown],
            "hand": None if seat is None else list(state.hands[seat]),
        }

    def final_scores(self, state: State) -> list[Score]:
        points = [sum(VALUE[g] for g in s) for s in state.shown]
        return [Score(i, p, 1 + sum(q > p for q in points)) for i, p in enumerate(points)]

    def to_json(self, state: State) -> str:
        import json

        return json.dumps(
            {
                "v": self.engine_version,
                "seed": state.seed,
                "hands": state.hands,
                "bag": state.bag,
                "shown": state.shown,
                "turn": state.turn,
            }
        )

    def from_json(self, text: str) -> State:
        import json

        d = json.loads(text)
        if d.get("v") != self.engine_version:
            raise IllegalMove("bad_state", "Not a saved game of this version.")
        return State(
            d["seed"],
            (tuple(d["hands"][0]), tuple(d["hands"][1])),
            tuple(d["bag"]),
            (tuple(d["shown"][0]), tuple(d["shown"][1])),
            d["turn"],
        )

    def describe(self, move: Move, state: Any | None = None) -> str:
        # Public by contract: a draw never names the gem.
        if move.get("type") == "draw":
            return "draw a gem from the bag"
        return f"reveal {move.get('gem')}"

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        hidden = [s for s in (0, 1) if s != seat]
        # Sorted before the shuffle: the sample depends on the view and `rng` only.
        unseen = sorted([g for s in hidden for g in state.hands[s]] + list(state.bag))
        rng.shuffle(unseen)
        it = iter(unseen)
        hands = list(state.hands)
        for s in hidden:
            hands[s] = tuple(next(it) for _ in state.hands[s])
        return replace(state, seed=rng.getrandbits(52), hands=(hands[0], hands[1]), bag=tuple(it))


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    vp: int
    rank: int

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "vp": self.vp, "rank": self.rank}


def _png(text: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (len(text) % 256, 0, 0)).save(out, "PNG")
    return out.getvalue()


class GemsPlugin:
    rules: Rules = GemsRules()
    kind = "gems"
    title = "Gems"
    command = "gems"
    description = "Gems, a test game with secret hands"
    hand_command = "hand"
    hand_description = "Your secret gems (only to you)"
    move_commands: Sequence[MoveCommand] = (
        MoveCommand("draw", "Draw a gem from the bag"),
        MoveCommand("reveal", "Reveal a gem of yours", (OptionSpec("gem", "The gem"),)),
    )
    rules_topics: Mapping[str, str] = {"all": "All of it"}
    panel = PanelSpec(buttons=(PanelButton("draw", "Draw", "primary"),))

    def rules_digest(self, topic: str | None) -> str:
        return "Draw or reveal; revealed gems score."

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        if command == "draw":
            return {"type": "draw"}
        gem = options.get("gem")
        if not isinstance(gem, str):
            raise BadOption("Name the gem to reveal.")
        return {"type": "reveal", "gem": gem}

    def call_text(self, move: Move) -> str:
        return "/gems draw" if move["type"] == "draw" else f"/gems reveal gem:{move['gem']}"

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        return [Suggestion(m["gem"], m["gem"]) for m in seen.legal if m["type"] == "reveal"]

    def panel_header(self, seen: Seen) -> str:
        return f"Your gems: {', '.join(seen.view['hand'] or []) or 'none'}"

    def group_key(self, move: Move) -> str:
        return "draw" if move["type"] == "draw" else f"reveal.{move['gem']}"

    def group_label(self, seen: Seen, key: str, moves: Sequence[Move]) -> str:
        return "Draw" if key == "draw" else f"Reveal {moves[0]['gem']}"

    def then_label(self, seen: Seen, move: Move) -> str:
        return str(move)

    def then_placeholder(self, move: Move) -> str:
        return "Choose"

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        return "draw or reveal a gem"

    def status_line(self, seen: Seen) -> str:
        # Like any plugin, it trusts the view it is given: a viewer's hand in it is shown.
        v = seen.view
        mine = f" · your gems {v['hand']}" if v["hand"] is not None else ""
        return (
            f"Turn {v['turn'] + 1}/{TURNS} · scores {v['scores']} · hands {v['hand_sizes']}{mine}"
        )

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        return f"<@{user_id}> — draw or reveal a gem."

    def start_post(self, seen: Seen) -> Post:
        return Post(f"Gems begins. Hands: {seen.view['hand_sizes']}", ("table",))

    def unit(self, seen: Seen) -> tuple[int, int]:
        return 1, int(seen.view["turn"])

    def unit_of_state(self, state: Any) -> tuple[int, int]:
        return 1, int(state.turn)

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        return f"✓ seat {seat + 1}: " + "; ".join(
            f"revealed {e['gem']}" if e["kind"] == "revealed" else e["kind"] for e in events
        )

    def phase_post(
        self,
        before: Seen,
        after: Seen,
        unit_moves: Sequence[EventLine],
        events: Sequence[dict[str, Any]],
    ) -> Post | None:
        lines = [
            f"seat {m.seat + 1}: {m.text} — {[e['kind'] for e in m.events]}" for m in unit_moves
        ]
        return Post("\n".join(lines), ("table",))

    def final_post(self, seen: Seen) -> Post:
        return Post(f"Game over: {seen.view['scores']}", ("table",))

    def hand_text(self, seen: Seen) -> str:
        return f"Your gems: {', '.join(seen.view['hand'] or [])}"

    def private_line(self, event: Mapping[str, Any]) -> str:
        return f"you drew {event.get('gem')}"

    def describe_move(self, move: Move, state: Any | None = None) -> str:
        return self.rules.describe(move, state)

    def refusal_words(self) -> Mapping[str, str]:
        return {}  # the test game's refusals are English only

    def confirmation(self, seen: Seen, move: Move) -> str | None:
        return None

    def skip_move(self, seen: Seen) -> Move:
        return dict(seen.legal[0])

    def skip_ends(self, before: Seen, after: Seen, move: Move) -> bool:
        return True

    def draw(self, pictures: Sequence[str], seen: Seen) -> list[Picture]:
        v = seen.view
        out = []
        for name in pictures:
            if name == "table":
                alt = f"table: shown {v['shown']}, hands {v['hand_sizes']}"
                if v["hand"] is not None:
                    alt += f", viewer's gems {v['hand']}"
            else:
                alt = f"your hand: {v['hand']}"
            out.append(Picture(f"{name}.png", _png(alt), alt))
        return out

    def board_pictures(self) -> tuple[str, ...]:
        return ("table",)

    def replay_frames(
        self, views: Sequence[dict[str, Any]], names: Sequence[str]
    ) -> ReplayFrames | None:
        return None  # the board picture, drawn whole for each frame

    def hand_pictures(self) -> tuple[str, ...]:
        return ("hand",)


PLUGIN = GemsPlugin()
