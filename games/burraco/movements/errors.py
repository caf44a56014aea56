"""The referee's mistakes, as errors with stable codes the site can translate."""

from __future__ import annotations

from typing import Any


class MovementError(Exception):
    """A movement request the referee can fix (not a bug).

    ``code`` is a stable identifier, ``params`` the values the message refers
    to; the site translates ``code`` with ``params`` rather than showing
    ``str(error)``, which is the English message.

    Codes: ``too_few_pairs`` (count, minimum), ``too_few_players`` (count,
    minimum), ``invalid_turns`` (turns), ``too_many_turns`` (turns, maximum,
    reason), ``invalid_step`` (step, tables), ``invalid_groups`` (groups, pairs),
    ``unknown_variant`` (variant, variants), ``invalid_standings`` (where,
    detail), ``duplicate_pair`` (pair). The command adds ``usage`` (detail) and
    ``file_not_found`` (path) for its own arguments.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return str(self)

    def as_dict(self) -> dict[str, Any]:
        """The error as JSON: ``{"code", "params", "message"}``."""
        return {"code": self.code, "params": self.params, "message": self.message}
