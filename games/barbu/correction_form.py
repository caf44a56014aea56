"""The organiser's correction page: a stored deal as the deal form, the posted form as a deal.

(The page's logic only; the corrections themselves are stored by games/barbu/corrections.py.)

The form is the table's (games/barbu/deal_form.py), pre-filled with the stored deal and offering
what its dealer could have chosen given the game's other deals;
games.barbu.corrections.deals_correct judges the result against the whole game and keeps
the version in the audit trail.

A contract the dealer chose in another deal N is offered too, marked with N: choosing it
means the table swapped the two deals' contracts. The page then shows deal N's form below
(prefix SWAP_PREFIX), with the freed contract and its result to enter, and both deals are
saved together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from clubs.engine_words import contract_name, translate_problems
from games.barbu import deal_form
from games.barbu.history import HistoryLine, history
from games.core.errors import EntryError
from games.models import Deal, DealRevision, Game

# Before the input names of the second deal of a swap.
SWAP_PREFIX = "swap-"


@dataclass(frozen=True)
class Correction:
    """What the posted correction page asks to store."""

    # {deal number: new content}, {deal number: the version the organiser corrected}
    changes: dict[int, dict[str, Any]]
    versions: dict[int, int | None]
    # The other deal of a swap, when there is one.
    partner: Deal | None = None
    # True: the posted contract is the partner's, and its form was not shown yet: show it
    # (store nothing).
    offer: bool = False


def correction_form(
    game: Game,
    deal: Deal,
    posted: QueryDict | None = None,
    *,
    prefix: str = "",
    others: Mapping[int, Mapping[str, Any]] | None = None,
    start: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The deal form for `deal`: as stored (or `start`), or as last posted after a refusal.

    `others`: other deals of the game as the page has them (a swap's partner), for the
    contracts offered. `prefix`: the partner's form, which offers no further swap.
    """
    names = list(game.player_names)
    stored = [d.data for d in game.deals.order_by("number")]
    for number, content in (others or {}).items():
        stored[number - 1] = content
    choices = deal_form.stored_deal_choices(
        ruleset=game.ruleset, names=names, deals=stored, number=deal.number
    )
    if prefix:
        choices = replace(choices, taken={})
    selected = (
        deal_form.selected_from_post(posted, prefix)
        if posted is not None
        else deal_form.selected_from_deal(start or deal.data, names)
    )
    return deal_form.form_context(
        choices, names, ruleset=game.ruleset, selected=selected, prefix=prefix
    )


def corrected_deal(
    posted: QueryDict, game: Game, deal: Deal, *, prefix: str = ""
) -> dict[str, Any]:
    """The posted form as the new content of `deal` (its number, hence its dealer, fixed)."""
    return deal_form.deal_from_form(
        posted, list(game.player_names), ruleset=game.ruleset, number=deal.number, prefix=prefix
    )


def swap_partner(game: Game, deal: Deal, content: Mapping[str, Any]) -> Deal | None:
    """The other deal in which this deal's dealer chose the contract of `content`."""
    stored = list(game.deals.order_by("number"))
    choices = deal_form.stored_deal_choices(
        ruleset=game.ruleset,
        names=list(game.player_names),
        deals=[d.data for d in stored],
        number=deal.number,
    )
    number = choices.taken.get(str(content.get("contract") or ""))
    return stored[number - 1] if number else None


def swap_start(deal: Deal, partner: Deal) -> dict[str, Any]:
    """The partner's form as first offered: its stored deal, with the contract `deal` frees
    and no result (results differ by contract)."""
    start = {k: v for k, v in partner.data.items() if k not in ("trump", "result")}
    return {**start, "contract": deal.data.get("contract"), "result": {}}


def posted_partner(game: Game, deal: Deal, swap: int | None) -> Deal | None:
    """The other deal of a swap whose form was shown (its number posted as `swap`)."""
    if swap is None or swap == deal.number:
        return None
    return game.deals.filter(number=swap).first()


def read_correction(
    posted: QueryDict,
    game: Game,
    deal: Deal,
    *,
    version: int | None,
    partner: Deal | None = None,
    partner_version: int | None = None,
) -> Correction:
    """The posted page as deals to store: `deal` alone, or with `partner` (posted_partner()).

    Without a partner, a contract its dealer chose in another deal makes that deal the
    partner to offer (`offer`): nothing is to be stored before its form is filled in.
    """
    content = corrected_deal(posted, game, deal)
    if partner is not None:
        return Correction(
            changes={
                deal.number: content,
                partner.number: corrected_deal(posted, game, partner, prefix=SWAP_PREFIX),
            },
            versions={deal.number: version, partner.number: partner_version},
            partner=partner,
        )
    offered = swap_partner(game, deal, content)
    return Correction(
        changes={deal.number: content},
        versions={deal.number: version},
        partner=offered,
        offer=offered is not None,
    )


def _as_posted(posted: QueryDict, game: Game, deal: Deal, prefix: str = "") -> dict[str, Any]:
    """The posted form of `deal` as a deal, for the other form's choices (even if incomplete)."""
    try:
        return corrected_deal(posted, game, deal, prefix=prefix)
    except EntryError:
        return {**deal.data, "contract": posted.get(prefix + "contract", "")}


def swap_context(
    game: Game,
    deal: Deal,
    partner: Deal,
    posted: QueryDict,
    *,
    offer: bool,
    partner_version: int | None,
) -> dict[str, Any]:
    """The page's two forms, `deal`'s and its swap partner's, as offered or as last posted."""
    content = _as_posted(posted, game, deal)
    if offer:
        start = swap_start(deal, partner)
        partner_form = correction_form(
            game, partner, None, prefix=SWAP_PREFIX, others={deal.number: content}, start=start
        )
        partner_content: dict[str, Any] = start
        partner_version = partner.version
    else:
        partner_form = correction_form(
            game, partner, posted, prefix=SWAP_PREFIX, others={deal.number: content}
        )
        partner_content = _as_posted(posted, game, partner, SWAP_PREFIX)
    return {
        "deal_form": correction_form(game, deal, posted, others={partner.number: partner_content}),
        "partner": partner,
        "partner_form": partner_form,
        "partner_version": partner_version,
    }


def saved_message(deal: Deal, stored: list[Deal]) -> str:
    """What the organiser is told once the correction is stored."""
    if not stored:
        # The service keeps no version of a deal posted back as it was.
        return _("Nothing to correct: deal %(number)s is unchanged.") % {"number": deal.number}
    if len(stored) == 1:
        return _("Deal %(number)s corrected.") % {"number": stored[0].number}
    return _("Deals %(first)s and %(second)s corrected together.") % {
        "first": stored[0].number,
        "second": stored[1].number,
    }


def swap_message(deal: Deal, partner: Deal, chosen: str) -> str:
    """What the page says when it offers the swap, in the organiser's language."""
    return _(
        "%(dealer)s chose %(contract)s in deal %(number)s. To swap the two deals' contracts, "
        "enter deal %(number)s as %(freed)s below: both deals are saved together, or neither."
    ) % {
        "dealer": deal.data.get("dealer", ""),
        "contract": contract_name(chosen),
        "number": partner.number,
        "freed": contract_name(str(deal.data.get("contract") or "")),
    }


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
