"""The Discord layer of the bot: slash commands, panels and the outbox sender.

Pure modules (`words`, `moves_map`, `panel`, `ids`, `rules_digest`) import no discord, so the
offline runner and tests can use them; `client`, `commands`, `views` and `sender` are the thin
discord.py adapters over them and over `bot.service.GameService`. `router` maps each command
name and component kind to a handler in `handlers/` (one module per concern); `app.GameApp`
wires them over one shared context, and only the client imports it.
"""
