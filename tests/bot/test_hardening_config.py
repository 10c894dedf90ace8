"""A token pasted into the wrong setting never shows in the error that quotes the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from tests.bot.test_config import FAKE_TOKEN, _run

PARTS = [FAKE_TOKEN, *(p for p in FAKE_TOKEN.split(".") if len(p) >= 16)]

SETTINGS = {
    "DEV_GUILD_ID": FAKE_TOKEN,
    "LOG_LEVEL": FAKE_TOKEN,
    "LOBBY_IDLE_DAYS": FAKE_TOKEN,
    "DISCORD_API_BASE": f"http://{FAKE_TOKEN}.example.com",
}


@pytest.mark.parametrize("setting", list(SETTINGS))
@pytest.mark.parametrize("token_set", [True, False], ids=["token-set", "token-only-there"])
def test_a_token_in_another_setting_is_redacted_in_the_config_error(
    tmp_path: Path, setting: str, token_set: bool
) -> None:
    env = {setting: SETTINGS[setting]}
    if token_set:
        env["DISCORD_TOKEN"] = FAKE_TOKEN
    proc = _run(["check"], cwd=tmp_path, env_extra=env)
    assert proc.returncode == 2, proc.stderr
    assert setting in proc.stderr and "[redacted]" in proc.stderr, proc.stderr
    for part in PARTS:  # in any letter case: a URL's host comes out lowercased
        assert part.lower() not in proc.stderr.lower() + proc.stdout.lower()


def test_load_config_errors_never_quote_a_token() -> None:
    for setting, value in SETTINGS.items():
        with pytest.raises(ConfigError) as exc:
            load_config({setting: value})
        assert all(p.lower() not in str(exc.value).lower() for p in PARTS), str(exc.value)
    # An ordinary mistake is still quoted, so the admin sees what is wrong.
    with pytest.raises(ConfigError, match="'my server'"):
        load_config({"DEV_GUILD_ID": "my server"})
