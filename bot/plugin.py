"""The game plugin interface: everything the generic platform needs from one game.

The service, the store's callers, the outbox, the Discord layer and the offline runner talk to
a game only through a `GamePlugin` (looked up by kind in `bot.games`), so none of them names a
game. A plugin is its engine (`engine.api.Rules`) plus the words, commands, panel and pictures
of that game.

Hidden information is enforced here, in the shape of the interface: every function that makes
words, panels or pictures receives a `Seen` — the view of the game for one audience (`None` for
the channel, a seat for that seat's ephemeral replies) and only the events that audience may
read — never the engine's state. `bot.visibility.seen` is the one function that makes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.i18n import N_
from engine.api import Move, Rules

OptionKind = Literal["str", "int", "bool"]


@dataclass(frozen=True, slots=True)
class Seen:
    """What one audience may know of a game now.

    `audience` is None for everyone (channel posts, public pictures) or the seat whose holder
    alone reads it (ephemeral replies). `view` is `rules.view(state, audience)`. `names` are the
    seats' display names (public anyway). `legal` is the audience seat's legal moves (empty for
    the public): they describe only that seat's own options. `before` is the view of the same
    audience that the previous picture of it was drawn from (the last phase post's, for a
    channel post), so pictures can mark what changed since; None: nothing to compare with.
    """

    audience: int | None
    view: dict[str, Any]
    names: tuple[str, ...]
    legal: tuple[Move, ...] = ()
    before: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class EventLine:
    """One move of the log as an audience may read it: who, the move in words, its events."""

    n: int
    seat: int
    round: int
    phase: int
    text: str
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a move command, as Discord shows it."""

    name: str
    description: str
    kind: OptionKind = "str"
    required: bool = True
    autocomplete: bool = True


@dataclass(frozen=True, slots=True)
class MoveCommand:
    """One `/<game> <name>` move command."""

    name: str
    description: str
    options: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One autocomplete choice: what the player reads and the value sent back."""

    name: str
    value: str | int


@dataclass(frozen=True, slots=True)
class Post:
    """A public channel post: its text and the names of the public pictures drawn with it."""

    text: str
    pictures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Picture:
    """An encoded picture ready to attach, with its alt text."""

    filename: str
    data: bytes
    description: str = ""


class BadOption(ValueError):
    """A slash-command option value that names no possible choice (quoted inertly)."""


Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class PanelButton:
    """A move group shown as a button instead of an entry of the "What do you do?" menu."""

    key: str  # the group key
    label: str
    style: Style = "secondary"
    after_back: bool = False  # drawn after the Back button (e.g. End turn, last on the row)


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """How a game's legal moves become the private panel (see `bot.discord_app.panel`)."""

    buttons: tuple[PanelButton, ...] = ()
    # English, marked for the catalogue with N_ where a plugin defines them; the panel says
    # them (and each button's label) through `tr`.
    what_placeholder: str = N_("What do you do?")
    yes_anyway: str = N_("Yes, do it anyway")  # confirmation button of a non-button group


class GamePlugin(Protocol):
    """One game as the platform sees it. Every member is used by the generic core."""

    rules: Rules  # the pure engine: new game, legal moves, apply, views, scores, save/load
    kind: str  # registry key and stored `games.kind` (equals rules.name)
    title: str  # "Nauticus": in lobby, status, about and mygames lines
    command: str  # the slash group: "nauticus"
    description: str  # the slash group's description
    hand_command: str  # "me" or "hand": the seat's private view, ephemeral
    hand_description: str
    move_commands: Sequence[MoveCommand]
    rules_topics: Mapping[str, str]  # topic key -> title, for `/<game> rules topic:`
    panel: PanelSpec

    # --- commands ------------------------------------------------------------------------

    def rules_digest(self, topic: str | None) -> str:
        """The reply to `/<game> rules [topic]`."""
        ...

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        """The engine move a move command stands for.

        Raises:
            BadOption: an option value that names nothing (the message quotes it).
        """
        ...

    def call_text(self, move: Move) -> str:
        """The slash command that plays `move`, as a player types it (`/nauticus pass`)."""
        ...

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        """Autocomplete for one option from `seen.legal` (the caller's own legal moves)."""
        ...

    # --- the panel -----------------------------------------------------------------------

    def panel_header(self, seen: Seen) -> str:
        """The panel's first lines: the seat's resources and what it must decide."""
        ...

    def group_key(self, move: Move) -> str:
        """Moves sharing a key are one menu entry; more than one opens a second menu."""
        ...

    def group_label(self, seen: Seen, key: str, moves: Sequence[Move]) -> str:
        """The menu entry of a group (a group of one move names the move exactly)."""
        ...

    def then_label(self, seen: Seen, move: Move) -> str:
        """A second-menu entry: the part of the move the first menu left open."""
        ...

    def then_placeholder(self, move: Move) -> str:
        """The second menu's question ("Where does it go?")."""
        ...

    # --- words ---------------------------------------------------------------------------

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        """What the current seat must decide, as a verb phrase ("buy or pass")."""
        ...

    def status_line(self, seen: Seen) -> str:
        """Where the game stands, for `/games status`, `board` and mygames."""
        ...

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        """The ping of the seat that must decide (mentions `user_id`)."""
        ...

    def start_post(self, seen: Seen) -> Post:
        """The channel post when a game starts."""
        ...

    def unit(self, seen: Seen) -> tuple[int, int]:
        """(round, phase) of the game's action phase now: the log's grouping and post unit."""
        ...

    def unit_of_state(self, state: Any) -> tuple[int, int]:
        """`unit` of the public view of `state`, read from the engine's state without building
        that view. Every move needs the unit of the states before and after it (the log row's
        grouping; whether a post is due); most moves change neither it nor the seat to move,
        and then no view is needed at all. Always equal to `unit(seen(plugin, state, names,
        None))`; the round and phase are public, so no secret can pass through it."""
        ...

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        """What a ping is edited into once its seat has decided (the seat's public events)."""
        ...

    def phase_post(
        self,
        before: Seen,
        after: Seen,
        unit_moves: Sequence[EventLine],
        events: Sequence[dict[str, Any]],
    ) -> Post | None:
        """The post after an action phase (or None when `events` end none)."""
        ...

    def final_post(self, seen: Seen) -> Post:
        """The result post: winner, tie-break and the score sheet."""
        ...

    def hand_text(self, seen: Seen) -> str:
        """The reply to `/<game> <hand_command>` for the seat of `seen`."""
        ...

    def private_line(self, event: Mapping[str, Any]) -> str:
        """A private event in words, for its owner's `log` ("you drew the 7 of ...")."""
        ...

    def describe_move(self, move: Move, state: Any | None = None) -> str:
        """The move log's public line for `move` (about to be played on `state`), in the
        language of the context; a game with English only returns `rules.describe`."""
        ...

    def refusal_words(self) -> Mapping[str, str]:
        """The engine's words as its refusals quote them (English key -> the context's
        language), for `bot.refusals`; empty when the game's refusals are English only."""
        ...

    # --- moves the platform plays or checks ------------------------------------------------

    def confirmation(self, seen: Seen, move: Move) -> str | None:
        """Why `move` needs its player's confirmation first (said to that seat), or None."""
        ...

    def skip_move(self, seen: Seen) -> Move:
        """The move a moderator's skip plays for the deciding seat (from `seen.legal`)."""
        ...

    def skip_ends(self, before: Seen, after: Seen, move: Move) -> bool:
        """Whether a skip stops after `move` (the skipped seat's turn is over)."""
        ...

    # --- pictures --------------------------------------------------------------------------

    def draw(self, pictures: Sequence[str], seen: Seen) -> list[Picture]:
        """Draw the named pictures of `seen` (public names for posts, private for the seat)."""
        ...

    def board_pictures(self) -> tuple[str, ...]:
        """The pictures `/<game> board` shows."""
        ...

    def replay_frames(
        self, views: Sequence[dict[str, Any]], names: Sequence[str]
    ) -> ReplayFrames | None:
        """The frames of a replay whose moments have the public `views`, if this game draws
        its own (Nauticus: the board with every shipyard below it); None: each frame is the
        first of `board_pictures`, drawn whole."""
        ...

    def hand_pictures(self) -> tuple[str, ...]:
        """The seat's private pictures for the hand command."""
        ...


class ReplayFrames(Protocol):
    """A game's own replay frames, asked for in order from 0, each once, one way or the other
    (`bot.records.animation` writes the GIF from them)."""

    clear: int  # the palette entry of a delta's unchanged (transparent) pixels

    def frame(self, i: int) -> Any:
        """Frame `i` whole: a "P" image (Pillow), one palette for every frame."""
        ...

    def delta(self, i: int) -> tuple[Any, tuple[int, int, int, int]] | None:
        """What changed since frame `i - 1`: a "P" image with `clear` where nothing did and the
        box of the frame it covers, or None when nothing changed. Frame 0's delta is frame 0."""
        ...


@dataclass
class Registry:
    """The installed games, in the order `about` and the tree list them."""

    games: dict[str, GamePlugin] = field(default_factory=dict)

    def add(self, plugin: GamePlugin) -> None:
        if plugin.kind in self.games:
            raise ValueError(f"a game of kind {plugin.kind!r} is already installed")
        self.games[plugin.kind] = plugin

    def get(self, kind: str) -> GamePlugin:
        """The plugin of a stored game's kind.

        Raises:
            KeyError: no such game is installed.
        """
        return self.games[kind]

    def by_command(self, command: str) -> GamePlugin | None:
        return next((g for g in self.games.values() if g.command == command), None)

    def __iter__(self) -> Any:
        return iter(self.games.values())

    def __len__(self) -> int:
        return len(self.games)
