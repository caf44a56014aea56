"""What the score card's page gives its offline script (static/burraco_offline.js) so that
a phone without a network can go on entering hands: the next hand's number, the turn's
last, the totals so far, how many cards of each kind two decks hold (the engine's own
figures), and the texts of its checks in the page's language.

The phone checks only what needs no engine: whole numbers, MP in steps of 5, no more cards
of a kind than two decks hold. The hand's score is the server's, once it has the hand:
until then the page shows it as provisional (or "…" for a hand counted from the cards).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.engine_words import MESSAGES
from games.burraco.hand_form import KIND_LABELS, KINDS
from scoring.engine.burraco.hand import DECK_COUNTS


def offline_plan(body: dict[str, Any], *, free: bool) -> dict[str, Any]:
    """The plan of a score card whose form is shown: `body` is the card as card_body
    reads it. A free match has no last hand (the server says when it is won)."""
    return {
        "next": len(body["hands"]) + 1,
        "last": None if free else body["hands_per_turn"],
        "totals": {
            "NS": sum(hand["NS"].get("score", 0) for hand in body["hands"]),
            "EW": sum(hand["EW"].get("score", 0) for hand in body["hands"]),
        },
        "deck": DECK_COUNTS,
        "kinds": {kind: str(KIND_LABELS[kind]) for kind in KINDS},
        "lines": {"NS": pgettext("line", "NS"), "EW": pgettext("line", "EW")},
        "texts": {
            "heading": _("Hand %(number)s"),
            "counted": _("Counted from the cards"),
            "whole": _("%(field)s should be a whole number, not %(value)s."),
            "missing": _("%(field)s is missing."),
            "step": _("%(line)s: %(value)s is not a multiple of 5, as every Burraco score is."),
            "deck": str(MESSAGES["card_kind_over_total"]),
            "refused": _("Hand %(number)s was not stored: %(hand)s"),
            "unknown": _("The server did not accept this hand."),
            "after": _(
                "The hands after it wait. Drop this one to send them; the referee can "
                "correct a stored hand."
            ),
        },
    }
