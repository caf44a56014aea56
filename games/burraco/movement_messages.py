"""The movements' problems in the reader's language (games/burraco/movements is pure and English).

``MovementError`` carries a stable code and its parameters; ``movement_message`` turns
them into a sentence in the active language, for the referee's pages, the API and the
pairing import. An unknown code keeps the English message it came with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.burraco.movements import MovementError

MOVEMENT_MESSAGES: dict[str, Promise] = {
    "too_few_pairs": _("This movement needs at least %(minimum)s pairs, not %(count)s."),
    "too_few_players": _(
        "An individual tournament needs at least %(minimum)s players, not %(count)s."
    ),
    "invalid_turns": _("The number of turns must be 1 or more, not %(turns)s."),
    "invalid_step": _(
        "The step must be between 1 and the number of tables less one (%(tables)s tables), "
        "not %(step)s."
    ),
    "invalid_groups": _("%(pairs)s pairs cannot make %(groups)s groups of at least 2 pairs."),
    "unknown_variant": _("There is no Danese variant %(variant)s; use one of %(variants)s."),
    "duplicate_pair": _("Pair %(pair)s is listed twice."),
    "invalid_standings": _("The standings cannot be read (%(where)s: %(detail)s)."),
    # The pairing pasted from the referee's desktop program.
    "empty_pairing": _("The pairing has no table: paste one line per table."),
    "malformed_line": _(
        "Line %(line)s: “%(text)s” is not “table, NS pair, EW pair” nor “bye, pair”."
    ),
    "unknown_pair": _("Line %(line)s: there is no pair %(pair)s in this tournament."),
    "pair_twice": _("Line %(line)s: pair %(pair)s is already seated on line %(first_line)s."),
    "table_twice": _("Line %(line)s: table %(table)s is already on line %(first_line)s."),
}
TOO_MANY_TURNS = {
    "rematch": _(
        "This Mitchell has only %(maximum)s turns before pairs meet again, not %(turns)s."
    ),
    "complete": _(
        "This round robin is complete after %(maximum)s turns (everyone has met everyone "
        "of their group), not %(turns)s."
    ),
}


def movement_message(error: MovementError | Mapping[str, Any]) -> str:
    """The error's message in the active language, from its code and params (or its
    ``as_dict()`` form)."""
    if isinstance(error, MovementError):
        code, params, message = error.code, dict(error.params), error.message
    else:
        code = error.get("code", "")
        params = dict(error.get("params") or {})
        message = error.get("message", "")
    if isinstance(params.get("variants"), list | tuple):
        params["variants"] = ", ".join(str(v) for v in params["variants"])
    if code == "pairs_missing":
        template: Any = ngettext(
            "Pair %(pairs)s is neither seated nor resting.",
            "Pairs %(pairs)s are neither seated nor resting.",
            params.get("count", 0),
        )
    elif code == "too_many_turns":
        template = TOO_MANY_TURNS.get(params.get("reason", ""))
    else:
        template = MOVEMENT_MESSAGES.get(code)
    if template is None:
        return str(message)
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(message)


# A seated turn's movement and Danese variant as the desk and its history name them
# (Round.movement).
MOVEMENT_NAMES = {
    "mitchell": pgettext_lazy("movement", "Mitchell"),
    "danese": pgettext_lazy("movement", "Danese"),
    "round_robin": pgettext_lazy("movement", "round robin"),
    "hand": pgettext_lazy("movement", "pairing given by the referee"),
    "individual": pgettext_lazy("movement", "individual"),
}
VARIANT_NAMES = {
    "pure": pgettext_lazy("danese", "pure"),
    "modified": pgettext_lazy("danese", "modified"),
    "no_rematch": pgettext_lazy("danese", "no rematch"),
}
# A first turn's order as the desk names it: a first turn "by draw" is no Mitchell to the
# referee yet, though the Mitchell's calendar seats it (Round.first_order).
FIRST_ORDER_NAMES = {
    "entry": pgettext_lazy("movement", "first turn by entry order"),
    "draw": pgettext_lazy("movement", "first turn by draw"),
    "hand": pgettext_lazy("movement", "first turn by hand"),
}
