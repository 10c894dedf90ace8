"""What each slash command and component click does, one module per concern.

`common` holds what every handler shares (the context, replies, the one refusal path and the
guards); `play`, `lobby`, `hosting`, `looking`, `records`, `standings` and `settings` each parse
their input, call `GameService` and answer. `bot.discord_app.router` maps command names and
component kinds to them.
"""
