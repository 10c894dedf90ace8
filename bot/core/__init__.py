"""The core of the platform: every lobby change and every move of every channel, by concern.

Each module is one concern a person can hold in mind, and imports only those below it:

    errors, game        what the others pass around (refusals, a loaded game, results)
    kernel              locks, cache, load with its replay check, wake-ups (outbox, AI)
    posts               what the channel reads after a change (pings, digests, phase posts)
    standings           results and ratings
    turns               a move from any source: check, apply, commit
    lobby               opening and seating, the start, idle lobbies, rematches
    takeback            undo
    reminding           reminders and snooze
    preferences         settings and language
    history             log, past boards, exports, replays, lists of games
    robots              AI seats, autopilot, deadlines and skip (one decision path)
    hosting             abort, hand a seat over, remove a player, the turn deadline

The concerns are composed (each gets the kernel and the concerns it needs), never inherited;
`bot.service.GameService` wires them together and is what the Discord layer, the offline
runner and the tests call. The core knows a game only as a `GamePlugin` of the registry.
"""
