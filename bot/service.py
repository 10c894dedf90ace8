"""GameService: the one door every lobby change and every move goes through.

The work is done by the concerns of `bot.core` (one module each: turns, lobby, robots, …),
composed here over one `Kernel`; this class only wires them together and names their calls, so
the Discord layer, the offline runner and the tests keep one object to talk to. A new platform
feature goes into the concern it belongs to and is named here in one line.

load -> check the user's seat and turn -> the game's `rules.apply` -> persist (move, state under
a version check, outbox rows: one transaction) -> kick the outbox sender. The core knows a game
only as a `GamePlugin` of the registry, and builds every word it stores for the channel from the
public `Seen` (`bot.visibility`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot import ai_seats
from bot.core.errors import (
    GameUnavailable,
    LobbyError,
    NeedsConfirmation,
    NoGame,
    NotAllowed,
    NotInGame,
    NotYourTurn,
    ServiceError,
    StaleVersion,
    UndoRefused,
)
from bot.core.game import GameRecord, MyGame, PlayResult, Seat, SkipResult, replay, utc_now
from bot.core.history import LOG_PAGE, History
from bot.core.hosting import Hosting
from bot.core.kernel import DEFAULT_LOBBY_IDLE, DUPLICATE_WINDOW, Kernel
from bot.core.lobby import Lobby
from bot.core.posts import Posts
from bot.core.preferences import Preferences
from bot.core.reminding import Reminding
from bot.core.robots import SKIP_LIMIT, Robots
from bot.core.standings import Standings
from bot.core.takeback import Takeback
from bot.core.turns import Turns
from bot.outbox import Outbox
from bot.store import Store

__all__ = [
    "DEFAULT_LOBBY_IDLE",
    "DUPLICATE_WINDOW",
    "LOG_PAGE",
    "SKIP_LIMIT",
    "GameRecord",
    "GameService",
    "GameUnavailable",
    "LobbyError",
    "MyGame",
    "NeedsConfirmation",
    "NoGame",
    "NotAllowed",
    "NotInGame",
    "NotYourTurn",
    "PlayResult",
    "Seat",
    "ServiceError",
    "SkipResult",
    "StaleVersion",
    "UndoRefused",
    "replay",
    "utc_now",
]


class GameService:
    """Every lobby action and move of every channel, from every source (commands, buttons,
    the offline runner), through the concerns of `bot.core`."""

    def __init__(
        self,
        store: Store,
        *,
        outbox: Outbox | None = None,
        cache_size: int = 2000,
        lobby_idle: timedelta | None = DEFAULT_LOBBY_IDLE,
        clock: Callable[[], datetime] = utc_now,
        thinker: ai_seats.Thinker | None = None,
    ):
        k = self.kernel = Kernel(
            store,
            outbox=outbox,
            cache_size=cache_size,
            lobby_idle=lobby_idle,
            clock=clock,
            thinker=thinker,
        )
        posts = Posts(k)
        standings = Standings(k)
        turns = Turns(k, posts, standings)
        lobby = Lobby(k, posts)
        takeback = Takeback(k)
        reminding = Reminding(k, posts)
        preferences = Preferences(k, posts)
        history = History(k)
        robots = Robots(k, posts, turns, lobby)
        hosting = Hosting(k, posts, lobby)

        # What is stored and loaded (kernel).
        self.store, self.clock, self.started_at = k.store, k.clock, k.started_at
        self.close = k.close
        self.game_in = k.game_in
        self.last_game = k.last_game
        self.active_games = k.active_games
        self.ai_reason = k.ai_reason
        self.deadline_at = k.deadline_at
        self._active = k.active
        self._remember = k.remember
        # Moves, and take-backs.
        self.play = turns.play
        self.undo = takeback.undo
        self.can_undo = takeback.can_undo
        # The lobby.
        self.open_lobby = lobby.open_lobby
        self.join = lobby.join
        self.leave = lobby.leave
        self.start = lobby.start
        self.cancel = lobby.cancel
        self.rematch = lobby.rematch
        self.toggle_seating = lobby.toggle_seating
        self.expire_lobbies = lobby.expire_lobbies
        # Robots: AI seats, autopilot, deadlines, skip.
        self.add_ai = robots.add_ai
        self.remove_ai = robots.remove_ai
        self.play_ai = robots.play_ai
        self.set_autopilot = robots.set_autopilot
        self.ai_due = robots.ai_due
        self.skip = robots.skip
        # Hosting and moderation.
        self.abort = hosting.abort
        self.replace_player = hosting.replace_player
        self.remove = hosting.remove
        self.set_deadline = hosting.set_deadline
        # Reminders and preferences.
        self.due_reminders = reminding.due_reminders
        self.remind = reminding.remind
        self.snooze = reminding.snooze
        self.waiting = reminding.waiting
        self.settings = preferences.settings
        self.set_quiet = preferences.set_quiet
        self.set_my_reminders = preferences.set_my_reminders
        self.set_server_reminders = preferences.set_server_reminders
        self.set_game_reminders = preferences.set_game_reminders
        self.set_language = preferences.set_language
        # History and standings.
        self.log = history.log
        self.log_page = history.log_page
        self.check_all = history.check_all
        self.export = history.export
        self.units_played = history.units_played
        self.history = history.history
        self.mine_since_my_move = history.mine_since_my_move
        self.animation = history.animation
        self.my_games = history.my_games
        self.count_active = history.count_active
        self.rebuild_ratings = standings.rebuild_ratings
        self.standing = standings.standing
        self.leaderboard = standings.leaderboard

    @property
    def on_ai_turn(self) -> Callable[[int, int], None] | None:
        """Told (channel, version) when the AI should play (set by the bot's AI runner)."""
        return self.kernel.on_ai_turn

    @on_ai_turn.setter
    def on_ai_turn(self, notify: Callable[[int, int], None] | None) -> None:
        self.kernel.on_ai_turn = notify

    # Attributes the bot sets after building the service live in the kernel, where every
    # concern reads them.

    @property
    def outbox(self) -> Outbox | None:
        """The outbox a change's posts are queued in (the Discord client sets it once it runs)."""
        return self.kernel.outbox

    @outbox.setter
    def outbox(self, outbox: Outbox | None) -> None:
        self.kernel.outbox = outbox

    @property
    def thinker(self) -> ai_seats.Thinker:
        return self.kernel.thinker

    @thinker.setter
    def thinker(self, thinker: ai_seats.Thinker) -> None:
        self.kernel.thinker = thinker

    @property
    def closing(self) -> bool:
        return self.kernel.closing

    @property
    def lobby_idle(self) -> timedelta | None:
        return self.kernel.lobby_idle

    @property
    def _cache(self) -> dict[int, GameRecord]:
        """The games in progress held in memory (tests and `bench/` look at it)."""
        return self.kernel.cache
