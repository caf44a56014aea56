"""What a Barbu table page needs to go on entering deals without a network: the deals
still to play, each with its dealer and the doubles the rules allow in each contract,
computed here by the engine (scoring.engine.barbu), never by the phone.

static/entry.js keeps the deals entered offline in the queue (static/offline_queue.js)
and moves the form on to the next deal with this plan: the dealer's contracts left are
the rules' contracts less those the dealer chose in the stored and the queued deals
(each contract once per dealer). A double the rules demand in a later deal of the turn
is checked by the server when the deal is sent, and a refusal is shown at its entry.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from clubs.engine_words import contract_name
from games.barbu import deal_form
from games.barbu.entry import PageState
from scoring.engine import barbu
from scoring.engine.barbu.game import allowed_doubles, dealer_of


def offline_plan(page: PageState) -> dict[str, Any]:
    """The rest of the game for static/entry.js: {"deals": [{"number", "dealer" (seat),
    "allowed": {contract: ["1-0", ...]}}], "played": [[seat, contract]], "contracts":
    [[key, name]], "doublers": {seat: html}, "texts": {...}}; empty once complete."""
    if page.next is None:
        return {}
    rules = barbu.ruleset_from_json(page.game.ruleset)
    names = page.names
    display = page.players
    index = {name: seat for seat, name in enumerate(names)}
    first = len(page.deals) + 1
    deals = []
    for number in range(first, rules.deals_per_game + 1):
        seat = dealer_of(rules, number)
        allowed = {
            contract: sorted(
                f"{index[d['by']]}-{index[d['against']]}"
                for d in allowed_doubles(rules, names, seat, contract)
            )
            for contract in rules.contracts
        }
        deals.append({"number": number, "dealer": seat, "allowed": allowed})
    return {
        "deals": deals,
        "names": display,
        # Each stored deal's dealer (seat) and contract: a dealer chooses each contract once.
        "played": [
            [dealer_of(rules, deal.number), deal.data.get("contract", "")] for deal in page.deals
        ],
        "contracts": [[key, contract_name(key)] for key in rules.contracts],
        "doublers": {
            seat: _doublers_html(page, rules.contracts, seat)
            for seat in sorted({deal["dealer"] for deal in deals})
        },
        "texts": {
            "heading": _("Deal %(number)s · dealer %(dealer)s"),
            "save": _("Save deal %(number)s"),
        },
    }


def _doublers_html(page: PageState, contracts: tuple[str, ...], seat: int) -> str:
    """The doubles' rows of the deal form when `seat` deals (templates/games/_doublers.html)."""
    rules = barbu.ruleset_from_json(page.game.ruleset)
    names = page.names
    choices = deal_form.DealChoices(
        number=0,
        dealer=names[seat],
        contracts=list(contracts),
        doubles_allowed={c: allowed_doubles(rules, names, seat, c) for c in contracts},
    )
    form = deal_form.form_context(
        choices, names, ruleset=page.game.ruleset, selected={}, shown=page.shown or None
    )
    return render_to_string("games/_doublers.html", {"form": form})
