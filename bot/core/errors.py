"""The refusals of the core: each says what is wrong and what to do instead (`str(exc)`),
and carries a `code` the Discord layer and the tests tell apart."""

from __future__ import annotations

from typing import Any

from bot.i18n import tr


class ServiceError(Exception):
    """A request the service refuses; `str(exc)` says what is wrong and what to do instead."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params


class NoGame(ServiceError):
    code = "no_game"


class NotInGame(ServiceError):
    code = "not_in_game"


class NotYourTurn(ServiceError):
    code = "not_your_turn"


class StaleVersion(ServiceError):
    code = "stale_version"

    def __init__(self, message: str, *, current: int) -> None:
        super().__init__(message, current=current)
        self.current = current


class NeedsConfirmation(ServiceError):
    code = "needs_confirmation"

    def __init__(self, reason: str) -> None:
        super().__init__(tr("{reason} Confirm to go ahead (or use confirm:true).", reason=reason))
        self.reason = reason


class NotAllowed(ServiceError):
    code = "not_allowed"


class UndoRefused(ServiceError):
    code = "undo_refused"


class LobbyError(ServiceError):
    code = "lobby"


class GameUnavailable(ServiceError):
    """The stored game can't be used safely (replay mismatch, other engine version)."""

    code = "unavailable"

    def __init__(self, message: str, *, code: str, error_id: str) -> None:
        super().__init__(message, code=code, error_id=error_id)
        self.error_id = error_id
