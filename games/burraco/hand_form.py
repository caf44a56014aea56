"""A Burraco hand read from the score card's form (the table page and the referee's
correction page): each line's MP, or the cards counted by kind for the calculator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.core.errors import DealRejected

KIND_LABELS = {
    "jokers": gettext_lazy("jokers"),
    "twos": gettext_lazy("twos"),
    "aces": gettext_lazy("aces"),
    "high": gettext_lazy("K to 8"),
    "low": gettext_lazy("7 to 3"),
    "clean": gettext_lazy("clean burracos"),
    "semi": gettext_lazy("semi-clean burracos"),
    "dirty": gettext_lazy("dirty burracos"),
}

KINDS = ("jokers", "twos", "aces", "high", "low")
BURRACOS = ("clean", "semi", "dirty")


def line_label(line: str) -> str:
    return {"NS": _("North-South"), "EW": _("East-West")}.get(line, line)


def _whole(form: Mapping[str, Any], name: str, label: str, *, default: int | None = 0) -> int:
    raw = (form.get(name) or "").strip()
    if raw == "":
        if default is None:
            raise _refused(name, _("%(field)s is missing.") % {"field": label})
        return default
    try:
        return int(raw)
    except ValueError:
        raise _refused(
            name,
            _("%(field)s should be a whole number, not %(value)s.")
            % {"field": label, "value": raw[:20]},
        ) from None


def _refused(field: str, message: str) -> DealRejected:
    return DealRejected(
        message,
        code="hand_rejected",
        problems=[
            {
                "hand": None,
                "field": field,
                "code": "invalid_input",
                "params": {},
                "message": message,
            }
        ],
    )


def hand_from_form(form: Mapping[str, Any]) -> dict[str, Any]:
    """The hand as games.burraco.scorecards.hand_submit takes it."""
    if form.get("mode") == "cards":
        closed = form.get("closed") or None
        hand: dict[str, Any] = {"closed": closed if closed in ("NS", "EW") else None}
        for line in ("NS", "EW"):
            name = line_label(line)
            melded = {
                kind: _whole(form, f"{line}-melded-{kind}", f"{name}: {KIND_LABELS[kind]}")
                for kind in KINDS
            }
            entry: dict[str, Any] = {
                "melded": melded,
                "in_hand": _whole(
                    form, f"{line}-in_hand", _("%(line)s: points in hand") % {"line": name}
                ),
                "pozzetto": form.get(f"{line}-pozzetto") == "on",
            }
            for kind in BURRACOS:
                count = _whole(form, f"{line}-{kind}", f"{name}: {KIND_LABELS[kind]}")
                if count:
                    entry[kind] = count
            hand[line] = entry
        return hand
    return {
        "mp": {
            "NS": _whole(form, "NS-mp", _("MP of North-South"), default=None),
            "EW": _whole(form, "EW-mp", _("MP of East-West"), default=None),
        }
    }
