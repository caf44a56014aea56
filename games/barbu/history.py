"""A game's audit trail (DealRevision rows) told in words: who, when, what, before → after.

The organiser reads "Result: K♥ Anna → K♥ Carla", not two JSON documents; only the parts
of the deal a change touched are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.barbu.deal_form import card_label, contract_label
from games.models import DealRevision
from scoring.engine.barbu.cards import parse_card


@dataclass(frozen=True)
class Change:
    """One part of the deal as it was and as it became (either may be empty)."""

    part: str
    before: str
    after: str


@dataclass
class HistoryLine:
    at: datetime
    who: str
    number: int
    version: int
    action: str
    action_label: str
    reason: str
    changes: list[Change] = field(default_factory=list)


def _cards(cards: Iterable[Any]) -> str:
    return " ".join(card_label(card) if (card := parse_card(c)) else str(c) for c in cards)


def _doubles(deal: Mapping[str, Any]) -> str:
    doubles = deal.get("doubles") or []
    if not doubles:
        return _("no doubles")
    words = []
    for d in doubles:
        names = {"by": d.get("by", ""), "against": d.get("against", "")}
        if d.get("redoubled"):
            words.append(_("%(by)s doubled %(against)s, redoubled") % names)
        else:
            words.append(_("%(by)s doubled %(against)s") % names)
    return "; ".join(words)


def _result(deal: Mapping[str, Any]) -> str:
    contract = deal.get("contract")
    result = deal.get("result") or {}
    if contract == "barbu":
        return _("king of hearts: %(name)s") % {"name": result.get("king_of_hearts", "?")}
    if contract in ("hearts", "queens"):
        taken = result.get(contract) or {}
        return " · ".join(f"{name} {_cards(cards)}" for name, cards in taken.items() if cards)
    if contract == "last_two":
        return _("12th trick: %(twelfth)s, 13th trick: %(thirteenth)s") % {
            "twelfth": result.get("twelfth", "?"),
            "thirteenth": result.get("thirteenth", "?"),
        }
    if contract in ("no_tricks", "trumps"):
        tricks = result.get("tricks") or {}
        return _("tricks: %(tricks)s") % {
            "tricks": ", ".join(f"{name} {count}" for name, count in tricks.items())
        }
    if contract == "domino":
        return _("out in this order: %(order)s") % {"order": ", ".join(result.get("order") or [])}
    return ""


def deal_parts(deal: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """A deal in words, part by part: contract, doubles, result."""
    if not deal:
        return []
    return [
        (_("Contract"), contract_label(deal)),
        (_("Doubles"), _doubles(deal)),
        (_("Result"), _result(deal)),
    ]


def changes(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[Change]:
    """The parts that differ between two versions of a deal (every part of a new deal)."""
    old = dict(deal_parts(before))
    new = dict(deal_parts(after))
    out = []
    for part in dict.fromkeys([*old, *new]):
        if old.get(part) != new.get(part):
            out.append(Change(part, old.get(part, ""), new.get(part, "")))
    return out


def history(revisions: Iterable[DealRevision]) -> list[HistoryLine]:
    """The revisions as the organiser's pages show them (load by_user with them)."""
    lines = []
    for r in revisions:
        who = " ".join(
            part for part in (r.by_user.get_username() if r.by_user else "", r.by_label) if part
        )
        shown = r.action in (
            DealRevision.Action.ENTERED,
            DealRevision.Action.CORRECTED,
            DealRevision.Action.RESEATED,
            DealRevision.Action.DELETED,
        )
        lines.append(
            HistoryLine(
                at=r.at,
                who=who,
                number=r.number,
                version=r.version,
                action=r.action,
                action_label=r.get_action_display(),
                reason=r.reason,
                changes=changes(r.before, r.after) if shown else [],
            )
        )
    return lines
