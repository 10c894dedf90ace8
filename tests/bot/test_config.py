"""Settings, the process entry point's exit codes, and the token never reaching any output."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from bot.config import (
    REDACTED,
    ConfigError,
    RedactingFilter,
    Redactor,
    load_config,
)

# Shaped like a real bot token (base64 user id . timestamp . hmac); not a real one.
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhT5xQ.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab"
REPO = Path(__file__).resolve().parents[2]


def test_defaults_and_values() -> None:
    cfg = load_config({})
    assert cfg.token is None
    assert cfg.database_path == Path("nauticus.db")
    assert cfg.dev_guild_id is None and cfg.log_level == "INFO"
    cfg = load_config(
        {
            "DISCORD_TOKEN": f"  {FAKE_TOKEN} ",
            "DATABASE_PATH": "/data/n.db",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
        }
    )
    assert cfg.token == FAKE_TOKEN
    assert cfg.database_path == Path("/data/n.db")
    assert cfg.dev_guild_id == 123456789012345678 and cfg.log_level == "DEBUG"
    assert FAKE_TOKEN not in repr(cfg) and FAKE_TOKEN not in str(cfg)


@pytest.mark.parametrize(
    ("env", "word"),
    [({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID"), ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL")],
)
def test_bad_settings_name_the_setting(env: dict[str, str], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_config(env)


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.example.com",  # not loopback: the token must never go elsewhere
        "http://10.0.0.5:8080",
        "ftp://127.0.0.1:21",
        "http://127.0.0.1:9000/api/v10",
    ],
)
def test_api_base_only_accepts_a_loopback_origin(url: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_API_BASE"):
        load_config({"DISCORD_API_BASE": url})


def test_api_base_loopback_is_accepted() -> None:
    for url in ("http://127.0.0.1:8123", "http://localhost:1", "http://[::1]:80/"):
        assert load_config({"DISCORD_API_BASE": url}).api_base == url


def test_missing_token_message_says_how_to_fix() -> None:
    with pytest.raises(ConfigError) as exc:
        load_config({}).require_token()
    assert "DISCORD_TOKEN" in str(exc.value) and ".env" in str(exc.value)


def test_filter_redacts_messages_arguments_and_tracebacks() -> None:
    redact = Redactor([FAKE_TOKEN])
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler = Keep()
    handler.addFilter(RedactingFilter(redact))
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("token is %s", FAKE_TOKEN)
        try:
            raise RuntimeError(f"HTTP 401 for Authorization: Bot {FAKE_TOKEN}")
        except RuntimeError:
            logger.exception("login failed")
        # Only the user-id part of the token, as a decoded log might show it.
        logger.error("user part %s", FAKE_TOKEN.split(".")[0])
    finally:
        logger.removeHandler(handler)
    text = "\n".join(records)
    assert FAKE_TOKEN not in text
    assert FAKE_TOKEN.split(".")[0] not in text
    assert text.count(REDACTED) == 3
    assert "RuntimeError" in text  # the traceback itself is kept


def _run(
    args: list[str], *, cwd: Path, env_extra: dict[str, str], code: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DISCORD_") and k not in ("DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL")
    }
    env["PYTHONPATH"] = str(REPO)
    env.update(env_extra)
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "bot", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_missing_token_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    proc = _run(["run"], cwd=tmp_path, env_extra={})
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert proc.stdout == ""
    # No subcommand means run.
    assert _run([], cwd=tmp_path, env_extra={}).returncode == 2


class _RejectingDiscord(BaseHTTPRequestHandler):
    """Answers every API call with 401, echoing the token like a careless proxy might."""

    requests: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.requests.append(self.path)
        body = json.dumps(
            {"message": f"401: Unauthorized ({self.headers.get('Authorization')})", "code": 0}
        ).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def fake_discord() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RejectingDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_rejected_token_exits_nonzero_and_never_shows_the_token(
    tmp_path: Path, fake_discord: str
) -> None:
    # The token comes from .env in the working directory, like an admin would set it up.
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")
    _RejectingDiscord.requests.clear()
    proc = _run(
        ["run"],
        cwd=tmp_path,
        env_extra={"LOG_LEVEL": "DEBUG", "DISCORD_API_BASE": fake_discord},
    )
    assert _RejectingDiscord.requests == ["/api/v10/users/@me"]
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "Discord rejected DISCORD_TOKEN" in proc.stderr
    # At DEBUG the chained HTTP error (which echoes the token) is logged with its traceback.
    assert "Traceback" in proc.stderr and REDACTED in proc.stderr
    for part in (FAKE_TOKEN, *FAKE_TOKEN.split(".")[::2]):
        assert part not in proc.stderr and part not in proc.stdout
    assert (tmp_path / "nauticus.db").exists()  # the database path defaults to the cwd


def test_uncaught_exceptions_and_prints_are_redacted(tmp_path: Path) -> None:
    code = (
        "import logging, os, threading\n"
        "from bot.config import install_redaction, setup_logging\n"
        "tok = os.environ['DISCORD_TOKEN']\n"
        "install_redaction(tok)\n"
        "setup_logging('INFO')\n"
        "print('stdout', tok)\n"
        "logging.getLogger('x').error('log %s', tok)\n"
        "t = threading.Thread(target=lambda: (_ for _ in ()).throw(ValueError(tok)))\n"
        "t.start(); t.join()\n"
        "raise RuntimeError('boom ' + tok)\n"
    )
    proc = _run([], cwd=tmp_path, env_extra={"DISCORD_TOKEN": FAKE_TOKEN}, code=code)
    assert proc.returncode == 1
    assert FAKE_TOKEN not in proc.stdout + proc.stderr
    assert "stdout [redacted]" in proc.stdout
    assert "RuntimeError: boom [redacted]" in proc.stderr
    assert "ValueError: [redacted]" in proc.stderr
    assert "log [redacted]" in proc.stderr
