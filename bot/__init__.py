"""The Nauticus Discord bot: storage, the game service, the outbox, the offline runner, and the
Discord layer (`bot.discord_app`). Run it with `python -m bot` (see `bot.__main__`)."""
