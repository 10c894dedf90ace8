"""The test side: Discord users who type slash commands and click components, and readers.

    alice = TestUser(fake, fake.add_user("alice"), channel)
    reply = await alice.slash("nauticus new", players=3)
    panel = await reply.message()          # the bot's answer, once it stopped "thinking"
    join = await bob.click(panel, "Join")  # by label or custom_id
    await (await join.message()).images()

Every interaction is built from the commands the bot registered, like a real Discord client
would: unknown commands/options, missing required options, values outside the option's choices
or bounds, disabled components and select values not offered all fail in the test, not in the
bot. `raw_options=`/`strict=False` send what a forged client could.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    DEFERRED_UPDATE,
    MESSAGE_COMPONENT,
    UPDATE_MESSAGE,
    Callback,
    Channel,
    FakeDiscord,
    Interaction,
    Message,
    Role,
    User,
)
from tests.e2e.limits import JSON

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class Reply:
    """One interaction the user sent, and what the bot did with it."""

    def __init__(self, fake: FakeDiscord, interaction: Interaction) -> None:
        self.fake = fake
        self.interaction = interaction

    @property
    def id(self) -> str:
        return self.interaction.id

    async def callback(self, *, timeout: float = 5.0) -> Callback:
        """The bot's first interaction response as the fake answered it (possibly an error)."""
        ix = self.interaction
        result: Callback = await self.fake.wait_for(
            lambda: ix.callbacks[0] if ix.callbacks else None,
            timeout=timeout,
            what=f"a response to interaction {ix.id}",
        )
        return result

    async def message(self, *, timeout: float = 5.0) -> Message:
        """The response message: the reply, the deferred reply once filled, or the updated panel."""
        ix = self.interaction
        first = await self.callback(timeout=timeout)
        if first.status >= 400:
            raise AssertionError(f"the bot's response was refused: {first.status} {first.code}")

        def ready() -> Message | None:
            mid = ix.original_message_id
            if mid is None:
                return None
            msg = self.fake.messages[mid]
            if msg.loading and ix.response_type != DEFERRED_UPDATE:
                return None
            return msg

        result: Message = await self.fake.wait_for(
            ready, timeout=timeout, what=f"the response message of {ix.id}"
        )
        return result

    async def followups(self, count: int = 1, *, timeout: float = 5.0) -> list[Message]:
        """The first `count` follow-up messages (not counting one that filled a deferral)."""
        ix = self.interaction

        def enough() -> list[Message] | None:
            if len(ix.followup_ids) < count:
                return None
            return [self.fake.messages[m] for m in ix.followup_ids]

        result: list[Message] = await self.fake.wait_for(
            enough, timeout=timeout, what=f"{count} follow-ups to {ix.id}"
        )
        return result

    def messages(self) -> list[Message]:
        """Every message this interaction produced so far (response first, then follow-ups)."""
        ids = [self.interaction.original_message_id, *self.interaction.followup_ids]
        return [self.fake.messages[m] for m in ids if m is not None]


class TestUser:
    """A guild member (or DM user) acting through the Discord client."""

    __test__ = False  # not a pytest test class

    def __init__(self, fake: FakeDiscord, user: User, channel: Channel) -> None:
        self.fake = fake
        self.user = user
        self.channel = channel
        if channel.guild_id is not None:
            guild = fake.guilds[channel.guild_id]
            guild.members.setdefault(user.id, [])

    @property
    def id(self) -> str:
        return self.user.id

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def ephemerals(self) -> list[Message]:
        """Ephemeral messages only this user sees, oldest first."""
        return self.fake.ephemerals_for(self.user)

    # ------------------------------------------------------------------ slash commands

    async def slash(
        self,
        command: str,
        *,
        channel: Channel | None = None,
        options: dict[str, Any] | None = None,
        raw_options: list[JSON] | None = None,
        strict: bool = True,
        age: float = 0.0,
        guild_id: str | None = None,
        **kwargs: Any,
    ) -> Reply:
        """Run `/command sub ...` with options given as keywords (or `options=` for odd names)."""
        where = channel or self.channel
        values = {**(options or {}), **kwargs}
        data = self._command_data(where, command, values, raw_options, strict, focused=None)
        ix = await self.fake.create_interaction(
            self.user, where, APPLICATION_COMMAND, data, age=age, guild_id=guild_id
        )
        return Reply(self.fake, ix)

    async def autocomplete(
        self,
        command: str,
        *,
        focused: str,
        value: str = "",
        channel: Channel | None = None,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[JSON]:
        """Type `value` into option `focused`; return the choices the bot offered."""
        where = channel or self.channel
        data = self._command_data(where, command, kwargs, None, True, focused=(focused, value))
        ix = await self.fake.create_interaction(self.user, where, AUTOCOMPLETE, data)
        reply = Reply(self.fake, ix)
        callback = await reply.callback(timeout=timeout)
        if callback.status >= 400 or callback.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"autocomplete answered {callback.status}/{callback.code}")
        choices: list[JSON] = callback.data.get("choices") or []
        return choices

    def _command_data(
        self,
        channel: Channel,
        command: str,
        values: dict[str, Any],
        raw_options: list[JSON] | None,
        strict: bool,
        focused: tuple[str, str] | None,
    ) -> JSON:
        words = command.split()
        definition = self.fake.find_command(channel.guild_id, words[0])
        data: JSON = {"id": definition["id"], "name": definition["name"], "type": 1}
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        resolved: JSON = {}
        container = data
        level = definition
        for word in words[1:]:
            sub = next((o for o in level.get("options") or [] if o["name"] == word), None)
            if sub is None or sub["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                raise AssertionError(f"/{command}: {word!r} is not a subcommand of {level['name']}")
            node: JSON = {"name": word, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(node)
            container, level = node, sub
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in level.get("options") or []):
            raise AssertionError(f"/{command} needs a subcommand")
        if raw_options is not None:
            container["options"] = raw_options
            return data
        leaf: list[JSON] = []
        defs = {o["name"]: o for o in level.get("options") or []}
        for name, value in values.items():
            if name not in defs:
                raise AssertionError(f"/{command} has no option {name!r} (has {sorted(defs)})")
            leaf.append(self._option(defs[name], value, strict, resolved, channel))
        if focused is not None:
            name, typed = focused
            if name not in defs or not defs[name].get("autocomplete"):
                raise AssertionError(f"/{command} option {name!r} has no autocomplete")
            leaf = [o for o in leaf if o["name"] != name]
            leaf.append({"name": name, "type": defs[name]["type"], "value": typed, "focused": True})
        else:
            missing = [n for n, d in defs.items() if d.get("required") and n not in values]
            if missing and strict:
                raise AssertionError(f"/{command} misses required options {missing}")
        container["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self, definition: JSON, value: Any, strict: bool, resolved: JSON, channel: Channel
    ) -> JSON:
        kind = definition["type"]
        name = definition["name"]
        out: JSON = {"name": name, "type": kind}
        if kind in (USER, MENTIONABLE) and isinstance(value, User | TestUser):
            user = value.user if isinstance(value, TestUser) else value
            out["value"] = user.id
            resolved.setdefault("users", {})[user.id] = user.to_json()
            if channel.guild_id is not None:
                guild = self.fake.guilds[channel.guild_id]
                if user.id in guild.members:
                    member = self.fake.member_json(guild, user)
                    member.pop("user")
                    member["permissions"] = str(self.fake.permissions(user.id, channel))
                    resolved.setdefault("members", {})[user.id] = member
            return out
        if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
            out["value"] = value.id
            resolved.setdefault("roles", {})[value.id] = value.to_json()
            return out
        if kind == CHANNEL and isinstance(value, Channel):
            out["value"] = value.id
            ch = value.to_json() | {"permissions": str(self.fake.permissions(self.id, value))}
            resolved.setdefault("channels", {})[value.id] = ch
            return out
        if strict:
            _check_value(definition, value)
        out["value"] = value
        return out

    # ------------------------------------------------------------------ components

    async def click(self, message: Message, key: str, *, age: float = 0.0) -> Reply:
        """Click the button whose label or custom_id is `key`."""
        comp = message.component(key)
        if comp.get("type") != 2:
            raise AssertionError(f"{key!r} is not a button")
        if comp.get("disabled"):
            raise AssertionError(f"button {key!r} is disabled; Discord would not send the click")
        if comp.get("style") in (5, 6):
            raise AssertionError(f"button {key!r} is a link/premium button, not an interaction")
        self._check_visible(message)
        data = {"custom_id": comp["custom_id"], "component_type": 2, "id": comp.get("id")}
        return await self._component(message, data, age)

    async def select(
        self,
        message: Message,
        values: list[str],
        *,
        key: str | None = None,
        strict: bool = True,
        age: float = 0.0,
    ) -> Reply:
        """Pick `values` in the select menu `key` (or the message's only select)."""
        if key is None:
            selects = [c for c in message.iter_components() if c.get("type") == 3]
            if len(selects) != 1:
                raise AssertionError(f"message has {len(selects)} selects; pass key=")
            comp = selects[0]
        else:
            comp = message.component(key)
        if strict:
            if comp.get("disabled"):
                raise AssertionError("the select is disabled")
            offered = {o["value"] for o in comp.get("options") or []}
            if not set(values) <= offered:
                raise AssertionError(f"values {values} not offered ({sorted(offered)})")
            low, high = comp.get("min_values", 1), comp.get("max_values", 1)
            if not low <= len(values) <= high:
                raise AssertionError(f"{len(values)} values outside {low}..{high}")
        self._check_visible(message)
        data = {
            "custom_id": comp["custom_id"],
            "component_type": comp["type"],
            "values": list(values),
            "id": comp.get("id"),
        }
        return await self._component(message, data, age)

    def _check_visible(self, message: Message) -> None:
        if message.visible_to is not None and message.visible_to != self.id:
            raise AssertionError("this user cannot see that ephemeral message")
        if message.deleted:
            raise AssertionError("the message was deleted")

    async def _component(self, message: Message, data: JSON, age: float) -> Reply:
        data = {k: v for k, v in data.items() if v is not None}
        channel = self.fake.channels[message.channel_id]
        ix = await self.fake.create_interaction(
            self.user, channel, MESSAGE_COMPONENT, data, message=message, age=age
        )
        return Reply(self.fake, ix)


def _check_value(definition: JSON, value: Any) -> None:
    """What a Discord client enforces before sending an option value."""
    kind = definition["type"]
    name = definition["name"]
    expected: dict[int, tuple[type, ...]] = {
        STRING: (str,),
        INTEGER: (int,),
        BOOLEAN: (bool,),
        NUMBER: (int, float),
        USER: (str,),
        CHANNEL: (str,),
        ROLE: (str,),
        MENTIONABLE: (str,),
    }
    types = expected.get(kind)
    if (
        types is None
        or not isinstance(value, types)
        or (kind != BOOLEAN and isinstance(value, bool))
    ):
        raise AssertionError(f"option {name!r} does not take {value!r}")
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise AssertionError(f"option {name!r}: {value!r} is not one of its choices")
    if (
        kind == STRING
        and isinstance(value, str)
        and not (
            definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000)
        )
    ):
        raise AssertionError(f"option {name!r}: length {len(value)} out of bounds")
    if kind in (INTEGER, NUMBER) and isinstance(value, int | float):
        low = definition.get("min_value")
        high = definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise AssertionError(f"option {name!r}: {value} out of bounds")


__all__ = ["UPDATE_MESSAGE", "Reply", "TestUser"]
