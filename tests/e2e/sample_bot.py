"""A tiny discord.py bot that proves the fake Discord speaks the real library's protocol.

Run as a subprocess (discord.py's base URLs are process-wide):
    DISCORD_API_BASE=http://127.0.0.1:PORT FAKE_TOKEN=... FAKE_GUILD_ID=... \
        python -m tests.e2e.sample_bot

Commands (/probe ...): hello (button via DynamicItem + select), secret (ephemeral deferral and
follow-up), picture (deferral, follow-up with a PNG), admin ping (subcommand group), big (a
2001-character channel post), double (two initial responses), post (an image posted straight to
the channel), perms (what the bot believes its permissions are), burst (numbered posts in two
channels at once, sequential within each, to meet the fake's rate limits), phase (the bot's own
`DiscordSender` posts a phase post with pictures and Play, then edits it twice). Errors it catches
are posted to the channel as "error <status> <code>" so the test sees what discord.py raised.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import async_context, interaction_response_params

from tests.e2e.api_base import apply_api_base

WORDS = ["alpha", "beta", "gamma", "delta"]


def png_bytes(color: str = "navy") -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buffer, format="PNG")
    return buffer.getvalue()


def png(color: str = "navy") -> discord.File:
    return discord.File(io.BytesIO(png_bytes(color)), filename="board.png")


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:join:(?P<game>\d+)"
):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"probe:join:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"joined {self.game} as {interaction.user.id}", ephemeral=True
        )


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="probe:pick",
        placeholder="Pick a word",
        options=[discord.SelectOption(label=w, value=w) for w in WORDS],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {','.join(select.values)}")


class ProbeBot(discord.Client):
    def __init__(self, guild_id: int, ready_timeout: float) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=ready_timeout)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(build_probe())
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.add_view(PickView())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync()
        await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        print("READY", flush=True)

    async def on_resumed(self) -> None:
        print("RESUMED", flush=True)

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, discord.HTTPException) and interaction.channel is not None:
            await report(interaction, original)
        else:
            raise error


async def report(interaction: discord.Interaction, exc: discord.HTTPException) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    await channel.send(f"error {exc.status} {exc.code}")


def build_probe() -> app_commands.Group:
    probe = app_commands.Group(name="probe", description="Probe the fake Discord")
    admin = app_commands.Group(name="admin", description="Admin things", parent=probe)

    @probe.command(name="hello", description="Say hello with a panel")
    @app_commands.describe(name="Who to greet")
    async def hello(interaction: discord.Interaction, name: str, loud: bool = False) -> None:
        view = PickView()
        view.add_item(JoinButton(42))
        text = f"hello {name}" + ("!" if loud else "")
        await interaction.response.send_message(text, view=view)
        channel = interaction.channel
        kind = type(channel).__name__ if channel is not None else "None"
        await interaction.followup.send(f"channel {kind}", ephemeral=True)

    @hello.autocomplete("name")
    async def hello_name(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=w.title(), value=w) for w in WORDS if w.startswith(current)
        ]

    @probe.command(name="secret", description="Deferred ephemeral answer")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("the secret", ephemeral=True)
        await interaction.followup.send("second secret", ephemeral=True)

    @probe.command(name="picture", description="Deferred public answer with a picture")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("a picture", file=png())
        original = await interaction.original_response()
        await original.edit(content="a picture, edited")

    @probe.command(name="big", description="An oversized channel post")
    async def big(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        try:
            await channel.send("x" * 2001)
        except discord.HTTPException as exc:
            await interaction.response.send_message(f"rejected {exc.status} {exc.code}")

    @probe.command(name="double", description="Answer twice")
    async def double(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        adapter = async_context.get()
        params = interaction_response_params(4, {"content": "second"})
        try:
            await adapter.create_interaction_response(
                interaction.id,
                interaction.token,
                session=interaction._session,
                params=params,
            )
        except discord.HTTPException as exc:
            await interaction.followup.send(f"second refused {exc.status} {exc.code}")

    @probe.command(name="post", description="Post a picture to the channel")
    async def post(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        try:
            await channel.send("board", file=png())
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot post {exc.status} {exc.code}")
        else:
            await interaction.response.send_message("posted", ephemeral=True)

    @probe.command(name="perms", description="What the bot may do here")
    async def perms(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.GuildChannel | discord.Thread)
        assert interaction.guild is not None
        cached = channel.permissions_for(interaction.guild.me)
        await interaction.response.send_message(
            f"app attach={interaction.app_permissions.attach_files} "
            f"cache attach={cached.attach_files} send={cached.send_messages}",
            ephemeral=True,
        )

    @probe.command(name="burst", description="Numbered posts here and in another channel")
    @app_commands.describe(count="Posts per channel", other="The other channel's id")
    async def burst(interaction: discord.Interaction, count: int, other: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        started = asyncio.get_running_loop().time()
        channel_ids = [interaction.channel_id or 0, int(other)]

        async def post_all(channel_id: int) -> None:
            target = interaction.client.get_partial_messageable(channel_id)
            for i in range(count):
                await target.send(f"burst {channel_id} {i}")

        await asyncio.gather(*(post_all(c) for c in channel_ids))
        took = asyncio.get_running_loop().time() - started
        await interaction.followup.send(f"burst done in {took:.2f}s", ephemeral=True)

    @probe.command(name="phase", description="A phase post through the bot's sender")
    async def phase(interaction: discord.Interaction) -> None:
        from bot.discord_app.sender import DiscordSender
        from bot.outbox import OutFile, OutMessage

        await interaction.response.defer(ephemeral=True, thinking=True)
        sender = DiscordSender(interaction.client)
        channel_id = interaction.channel_id or 0
        pictures = (
            OutFile("board.png", png_bytes("navy"), "The board: Hulls on space 3"),
            OutFile("ships.png", png_bytes("teal"), "Your ships: one finished"),
        )
        post = OutMessage(
            text=f"**Round 1** <@{interaction.user.id}> plays next. @everyone",
            files=pictures,
            mention_user_ids=(interaction.user.id,),
            components="play",
            game_id=7,
            version=3,
            nonce=555001,
        )
        message_id = await sender.send(channel_id, post)
        print(f"PHASE POSTED {message_id}", flush=True)
        redrawn = OutMessage(
            text="**Round 1** redrawn", files=pictures[:1], components="play", game_id=7, version=4
        )
        await sender.edit(channel_id, message_id, redrawn)
        print("PHASE EDITED", flush=True)
        await sender.edit(channel_id, message_id, OutMessage(text="✅ Round 1 over", game_id=7))
        await interaction.followup.send(f"phase {message_id}", ephemeral=True)

    @admin.command(name="ping", description="Nested subcommand")
    @app_commands.describe(count="How many")
    async def ping(interaction: discord.Interaction, count: app_commands.Range[int, 1, 5]) -> None:
        await interaction.response.send_message("pong " * count)

    return probe


def main() -> None:
    apply_api_base(os.environ["DISCORD_API_BASE"])
    ready_timeout = float(os.environ.get("FAKE_READY_TIMEOUT", "0.1"))
    bot = ProbeBot(int(os.environ["FAKE_GUILD_ID"]), ready_timeout)
    bot.run(os.environ["FAKE_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
