"""A Burraco hand as a table sends it, read and scored by the engine's calculator
(scoring.engine.burraco): what the score card stores (games/burraco/scorecards.py) and
what the phone's preview shows before saving (games/burraco/hand_preview.py), one reading
for both."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from clubs.engine_words import engine_problems, problem_message
from games.core.errors import DealRejected
from scoring.engine import burraco

LINES = ("NS", "EW")
# Far past any real hand (1,080 card points and a few burracos): a typo, not a score.
MP_LIMIT = 5000


def problem(field: str, code: str, message: str, params: dict | None = None) -> dict:
    return {"hand": None, "field": field, "code": code, "params": params or {}, "message": message}


def reject(field: str, code: str, message: str, params: dict | None = None) -> DealRejected:
    return DealRejected(
        message, code="hand_rejected", problems=[problem(field, code, message, params)]
    )


def read_hand(entry: Any, ruleset: dict, number: int) -> tuple[str, dict, dict]:
    """(mode, data as stored, the hand's scores) of a hand as a table sends it, or
    DealRejected saying what is wrong: {"mp": {"NS": 120, "EW": -40}} (each line's MP),
    or {"closed": "NS", "NS": {...}, "EW": {...}} counted by the engine's calculator."""
    if not isinstance(entry, dict):
        raise reject("hand", "invalid_type", _("A hand should be an object."))
    if "mp" in entry:
        counts = sorted(k for k in set(entry) - {"mp"} if not (k == "closed" and entry[k] is None))
        if counts:
            # Both ways at once: which one the table meant cannot be told; say so rather
            # than keep the MP and drop the counts.
            raise reject(
                "mp",
                "mp_with_counts",
                _(
                    "Give either each line's MP (mp) or what each line counted (closed, NS, "
                    "EW), not both."
                ),
                {"fields": counts},
            )
        mp = entry["mp"]
        if not isinstance(mp, dict) or set(mp) != set(LINES):
            raise reject("mp", "invalid_type", _("Give the MP of both lines, NS and EW."))
        for line in LINES:
            value = mp[line]
            if isinstance(value, bool) or not isinstance(value, int):
                raise reject(
                    f"mp.{line}",
                    "invalid_mp",
                    _("%(line)s: the MP should be a whole number.") % {"line": line},
                    {"line": line},
                )
            if value % 5:
                raise reject(
                    f"mp.{line}",
                    "mp_not_multiple_of_5",
                    _("%(line)s: %(value)s is not a multiple of 5, as every Burraco score is.")
                    % {"line": line, "value": value},
                    {"line": line, "value": value},
                )
            if abs(value) > MP_LIMIT:
                raise reject(
                    f"mp.{line}",
                    "mp_out_of_range",
                    _("%(line)s: %(value)s MP in one hand is not possible.")
                    % {"line": line, "value": value},
                    {"line": line, "value": value},
                )
        data = {"NS": mp["NS"], "EW": mp["EW"]}
        return "mp", {"mp": data}, {line: {"score": data[line]} for line in LINES}
    extra = set(entry) - {"closed", "NS", "EW"}
    if extra:
        raise reject(
            "hand",
            "unknown_field",
            _("Unknown field %(field)s.") % {"field": sorted(extra)[0]},
        )
    closed = entry.get("closed")
    ns, ew = entry.get("NS"), entry.get("EW")
    if not isinstance(ns, dict) or not isinstance(ew, dict):
        raise reject("hand", "invalid_type", _("Give what each line counted, NS and EW."))
    calculation = burraco.calculate_hand(closed, ns, ew, ruleset, number)
    if not calculation.ok:
        problems = calculation.problems
        raise DealRejected(
            problem_message(problems[0]), code="hand_rejected", problems=engine_problems(problems)
        )
    score = calculation.score
    assert score is not None
    data = {"closed": closed, "NS": dict(ns), "EW": dict(ew)}
    return "cards", data, {line: dict(score[line]) for line in LINES}
