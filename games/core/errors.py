"""Errors a user can fix (a refused deal, a stale correction), kept apart from bugs."""

from __future__ import annotations

from typing import Any


class EntryError(Exception):
    """A user's mistake: carries a stable code, its parameters and an English message."""

    status = 400
    code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: dict | None = None,
        problems: list[dict] | None = None,
        extra: dict | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.params = params or {}
        # Engine problems as docs/rules/format.md error dicts (deal, field, code, params, message).
        self.problems = problems or []
        self.extra = extra or {}

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            data["params"] = self.params
        if self.problems:
            data["errors"] = self.problems
        data.update(self.extra)
        return data


class DealRejected(EntryError):
    """The engine refused the deal (or the correction): `problems` says why."""

    status = 400
    code = "deal_rejected"


class DealConflict(EntryError):
    """Another deal is already stored under this number (two phones at one table)."""

    status = 409
    code = "deal_conflict"


class StaleVersion(EntryError):
    """A correction was based on an older version of the deal."""

    status = 412
    code = "stale_version"


class IdempotencyMismatch(EntryError):
    """The Idempotency-Key was used before for a different request."""

    status = 422
    code = "idempotency_key_reused"


class GameClosed(EntryError):
    status = 409
    code = "game_closed"


class EveningClosed(EntryError):
    """The game's round or evening is closed: its games take no more deals (an organiser
    may reopen it, or correct a stored deal). Code "round_closed" or "event_closed"."""

    status = 409
    code = "round_closed"


class EveningError(Exception):
    """An organiser's mistake while running an evening (not a bug)."""

    def __init__(self, message: str, *, code: str, params: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params or {}
