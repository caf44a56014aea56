"""The organiser's mistakes, as errors with stable codes the site can translate."""

from __future__ import annotations

from typing import Any


class SeatingError(Exception):
    """A seating request the organiser can fix (not a bug).

    ``code`` is a stable identifier, ``params`` the values the message refers
    to; the site translates ``code`` with ``params`` rather than showing
    ``str(error)``, which is the English message.

    Codes: ``too_few_players`` (count), ``too_many_players`` (count, maximum),
    ``duplicate_player`` (player),
    ``unknown_method`` (method, methods), ``invalid_rounds`` (rounds),
    ``invalid_time_limit`` (time_limit), ``invalid_history`` (key, weight),
    ``invalid_byes_so_far`` and ``invalid_dealt_first_so_far`` (player, value),
    ``fixed_rounds`` (rounds), ``fixed_table_size`` (table, size),
    ``fixed_unknown_player`` and ``fixed_duplicate_player`` (table, player),
    ``fixed_not_covering`` (unseated, allowed). Tables are numbered from 1.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return str(self)
