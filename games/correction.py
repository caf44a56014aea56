"""The organiser's correction page: a stored deal as the deal form, the posted form as a deal.

The form is the table's (games/deal_form.py), pre-filled with the stored deal and offering
what its dealer could have chosen given the game's other deals; games.services.deal_correct
judges the result against the whole game and keeps the version in the audit trail.
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from games import deal_form
from games.errors import EntryError
from games.history import HistoryLine, history
from games.models import Deal, DealRevision, Game
from scoring.messages import translate_problems


def correction_form(game: Game, deal: Deal, posted: QueryDict | None = None) -> dict[str, Any]:
    """The deal form for `deal`: as stored, or as last posted after a refusal."""
    names = list(game.player_names)
    stored = [d.data for d in game.deals.order_by("number")]
    choices = deal_form.stored_deal_choices(
        ruleset=game.ruleset, names=names, deals=stored, number=deal.number
    )
    selected = (
        deal_form.selected_from_post(posted)
        if posted is not None
        else deal_form.selected_from_deal(deal.data, names)
    )
    return deal_form.form_context(choices, names, ruleset=game.ruleset, selected=selected)


def corrected_deal(posted: QueryDict, game: Game, deal: Deal) -> dict[str, Any]:
    """The posted form as the new content of `deal` (its number, hence its dealer, fixed)."""
    return deal_form.deal_from_form(
        posted, list(game.player_names), ruleset=game.ruleset, number=deal.number
    )


def refusal_messages(error: EntryError) -> list[dict[str, Any]]:
    """Why a correction was refused, in the active language: [{"deal": n | None, "message"}]."""
    problems = translate_problems(error.problems)
    if not problems:
        return [{"deal": None, "message": error.message}]
    return [{"deal": p.get("deal"), "message": p["message"]} for p in problems]


def deal_scores(game: Game, deal: Deal) -> list[tuple[str, Any]]:
    """The deal's points per player, in seat order."""
    score = (deal.scores or {}).get("score", {})
    return [(name, score.get(name, "")) for name in game.player_names]


def deal_history(deal: Deal) -> list[HistoryLine]:
    """Every version of this deal, newest first, in words."""
    revisions = (
        DealRevision.objects.filter(game_id=deal.game_id, number=deal.number)
        .select_related("by_user")
        .order_by("-version", "-id")
    )
    return history(revisions)
