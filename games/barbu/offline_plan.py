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
    """The rest of the game for static/entry.js: {"first": the next deal's number,
    "dealers": [the seat dealing each deal from "first" on], "allowed": {seat: {contract:
    ["1-0", ...]}}, "played": [[seat, contract] of each stored deal], "contracts": [[key,
    name]], "doublers": the form's rows of doubles, every pair, "names", "texts"}; {} once the
    game is complete."""
    if page.next is None:
        return {}
    rules = barbu.ruleset_from_json(page.game.ruleset)
    names = page.names
    display = page.players
    index = {name: seat for seat, name in enumerate(names)}
    first = len(page.deals) + 1
    # Who deals each deal still to play (its seat): what a dealer may do depends on the
    # seat alone, so the doubles allowed and the form's rows are given once per seat.
    dealers = {
        number: dealer_of(rules, number) for number in range(first, rules.deals_per_game + 1)
    }
    seats = sorted(set(dealers.values()))
    return {
        "first": first,
        "dealers": list(dealers.values()),
        "allowed": {
            seat: {
                contract: sorted(
                    f"{index[d['by']]}-{index[d['against']]}"
                    for d in allowed_doubles(rules, names, seat, contract)
                )
                for contract in rules.contracts
            }
            for seat in seats
        },
        "names": display,
        # Each stored deal's dealer (seat) and contract: a dealer chooses each contract once.
        "played": [
            [dealer_of(rules, deal.number), deal.data.get("contract", "")] for deal in page.deals
        ],
        "contracts": [[key, contract_name(key)] for key in rules.contracts],
        "doublers": _every_doubler_html(page, rules.contracts),
        "texts": {
            "heading": _("Deal %(number)s · dealer %(dealer)s"),
            "save": _("Save deal %(number)s"),
        },
    }


def _every_doubler_html(page: PageState, contracts: tuple[str, ...]) -> str:
    """The deal form's rows of doubles with every player doubling every other
    (templates/games/_doublers.html): static/deal_form.js shows those the dealer's
    "allowed" lets through, so one set of rows serves every dealer."""
    rows = _doubler_rows(page, contracts, 0)  # seats 1, 2 and 3 doubling anyone
    first = _doubler_rows(page, contracts, 1)[0]  # seat 0 doubling anyone
    return render_to_string("games/_doublers.html", {"form": {"doublers": [first, *rows]}})


def _doubler_rows(page: PageState, contracts: tuple[str, ...], seat: int) -> list[dict]:
    """The form's rows of doubles when `seat` deals (every other seat's row)."""
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
    return form["doublers"]
