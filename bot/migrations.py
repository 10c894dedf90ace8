"""The database schema, as the list of steps that built it (`bot.store.Store.migrate` runs
those a file has not had yet, each in one transaction, and records the count in
`PRAGMA user_version`)."""

from __future__ import annotations

# Each entry moves the schema from version i to i + 1; never edit a released entry, append one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL DEFAULT 'nauticus',
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
            host_id INTEGER NOT NULL,
            engine_version TEXT NOT NULL,
            seed INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            state_json TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
        # One lobby or game in progress per channel or thread; finished ones stay as history.
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')
        """,
        """
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            phase INTEGER NOT NULL,
            move_json TEXT NOT NULL,
            events_json TEXT NOT NULL,
            text TEXT NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID
        """,
        # The log is the game's history and the source of the replay check: never rewritten.
        """
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END
        """,
        """
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END
        """,
        """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            game_id INTEGER REFERENCES games (id),
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL
                CHECK (kind IN ('turn_ping', 'ping_done', 'phase_post', 'final_post', 'lobby',
                    'notice')),
            payload_json TEXT NOT NULL,
            edits INTEGER REFERENCES outbox (id),
            nonce INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            sent_at TEXT,
            message_id INTEGER,
            attempts INTEGER NOT NULL DEFAULT 0,
            error TEXT
        )
        """,
        "CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL",
    ),
    (
        # A stored state that disagrees with a replay of its log is flagged, not used.
        "ALTER TABLE games ADD COLUMN flagged TEXT",
        "CREATE INDEX games_status ON games (status)",
    ),
    (
        # Hosting for weeks: the host may fix the seat order, seats change hands, and
        # `/nauticus mygames` looks games up by player.
        "ALTER TABLE games ADD COLUMN seating TEXT NOT NULL DEFAULT 'random' "
        "CHECK (seating IN ('random', 'join'))",
        "CREATE INDEX seats_user ON seats (user_id)",
        # Not engine moves (the replay never reads them), but part of the game's history that
        # `/nauticus log` shows: seats handed over, turns skipped by a moderator.
        """
        CREATE TABLE admin_log (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            after_move INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('replace', 'skip', 'remove', 'expire')),
            by_user_id INTEGER NOT NULL,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )
        """,
        "CREATE INDEX admin_log_game ON admin_log (game_id, after_move)",
    ),
    (
        # AI seats: `ai` is the level of the search player that plays the seat - a robot seat
        # (user_id < 0, no Discord member) or a member's seat on autopilot. NULL: a person.
        "ALTER TABLE seats ADD COLUMN ai TEXT",
        # The host's turn deadline; past it the AI plays the waiting seat's turn. NULL: none.
        "ALTER TABLE games ADD COLUMN deadline_hours INTEGER",
    ),
    (
        # Each finished game's result per seat, written with its last move (bot/ratings.py);
        # stats and leaderboards read it, `python -m bot ratings --rebuild` rewrites it.
        """
        CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games (id),
            guild_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            vp INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            robot INTEGER NOT NULL,
            ended_at TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_player ON results (guild_id, kind, user_id)",
        # openskill ratings per server, game and member (mu, sigma), from the results.
        """
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, kind, user_id)
        ) WITHOUT ROWID
        """,
    ),
    (
        # Settings: each member's own per server (reminder interval, quiet hours), the server's
        # default reminder interval, and a game's (set by its host). reminder_hours: NULL = not
        # set (the next level decides), 0 = no reminders.
        """
        CREATE TABLE user_settings (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            reminder_hours INTEGER,
            quiet_from TEXT,
            quiet_to TEXT,
            timezone TEXT,
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            reminder_hours INTEGER
        )
        """,
        "ALTER TABLE games ADD COLUMN reminder_hours INTEGER",
        # The decision a game waits for and its reminder schedule (bot/reminders.py): written
        # with each turn ping, advanced with each reminder in the same transaction as its post,
        # so a restart neither forgets a reminder nor sends one twice.
        """
        CREATE TABLE waits (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            since TEXT NOT NULL,
            sent INTEGER NOT NULL DEFAULT 0,
            next_at TEXT,
            snooze_until TEXT,
            stalled INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX waits_due ON waits (next_at) WHERE next_at IS NOT NULL",
    ),
    (
        # Undo: the move log stays append-only; an undo is a row here naming the move it takes
        # back. Every reader of the log (replay, check, records, ratings) sees the effective
        # log - the moves not undone - through `Tx.moves`.
        """
        CREATE TABLE undone (
            game_id INTEGER NOT NULL REFERENCES games (id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (game_id, n)
        ) WITHOUT ROWID
        """,
    ),
    (
        # The language of a game's channel posts ('en' or 'fr'), fixed when its lobby opens:
        # every public text of the game, including those written by background tasks (AI
        # moves, reminders) that have no interaction to take a language from, uses it.
        "ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en'",
    ),
    (
        # A game's newest post of a kind (the turn ping a move edits, the last phase post a
        # picture compares with) is looked up on every move: without this index SQLite walks
        # the outbox back from its newest row, through every other game's posts.
        "CREATE INDEX outbox_game_kind ON outbox (game_id, kind, id)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
