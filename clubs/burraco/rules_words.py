"""A club's Burraco rules in sentences (the club's management page): its preset, the
points of each burraco kind and of closing, the pozzetto, the VP tables, in the active
language; what the rules form (rules_form.py) edits, read back."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubs.burraco.rules_form import BONUS_FIELDS, BURRACO_PRESET_LABELS
from clubs.engine_words import problem_message
from scoring.engine import burraco


def describe_burraco(ruleset: dict) -> list[str]:
    """The rules a Burraco tournament of the club plays, a sentence each; the engine's
    objection when the stored rules do not hold."""
    checked, problems = burraco.parse_ruleset(ruleset or {})
    if checked is None:
        return [problem_message(p) for p in problems]
    lines = [
        _("Preset: %(preset)s.")
        % {"preset": BURRACO_PRESET_LABELS.get(checked.preset, checked.preset)}
    ]
    points = [
        f"{BONUS_FIELDS.get(kind, kind)} {value}"
        for kind, value in checked.bonus.items()
        if kind != "semi" or checked.semi_clean
    ]
    lines.append(_("Points: %(points)s.") % {"points": ", ".join(points)})
    if checked.close_needs_clean:
        lines.append(_("Closing needs a clean burraco."))
    lines.append(_("Not taking the pozzetto: %(points)s points.") % {"points": checked.no_pozzetto})
    hands = sorted(checked.vp_tables)
    if hands:
        lines.append(
            _("VP tables for turns of %(hands)s hands (20 VP a table).")
            % {"hands": ", ".join(map(str, hands))}
        )
    lines.append(_("A free match is played to %(target)s points.") % {"target": checked.target})
    return lines
