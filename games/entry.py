"""The table-side entry page's logic: the form's state from the engine, the posted form as a deal.

Reads (the table by its key, the page's state) and the form <-> FORMAT.md conversion live
here so that games/views_table.py stays a thin shell. Players are addressed by seat
index (0..3) in the form, so names with odd characters never reach an HTML attribute.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.errors import DealRejected
from games.models import Deal, Game, Table
from games.selectors import game_record
from scoring import engine
from scoring.engine.cards import HEARTS, QUEENS, TRUMPS
from scoring.engine.game import dealer_of
from scoring.messages import contract_name, problem_message

TRUMP_NAMES = {
    "S": pgettext_lazy("trump suit", "♠ Spades"),
    "H": pgettext_lazy("trump suit", "♥ Hearts"),
    "D": pgettext_lazy("trump suit", "♦ Diamonds"),
    "C": pgettext_lazy("trump suit", "♣ Clubs"),
    "NT": pgettext_lazy("trump suit", "No trump"),
}
TRUMP_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
PLACE_NAMES = (
    gettext_lazy("1st out"),
    gettext_lazy("2nd out"),
    gettext_lazy("3rd out"),
    gettext_lazy("4th (optional)"),
)
SESSION_SEATS = "table_seats"


def card_label(card: str) -> str:
    """ "TH" -> "10♥": how the card is printed on the grid's buttons."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def table_by_key(key: str) -> Table | None:
    """The table whose card carries this key, with what the page shows; None if there is none."""
    if not key:
        return None
    return Table.objects.select_related("round__event__club", "game").filter(key=key).first()


def table_game(table: Table) -> Game | None:
    try:
        return table.game
    except Game.DoesNotExist:
        return None


def seat_label(table: Table, position: int | None, names: list[str]) -> str:
    """Who is writing, as the audit trail keeps it: "Table 3, seat 2 (Carla)".

    Stored, and compared to tell seats apart, so it is the same in every language
    (not translated); seat_display() is its translation for the page.
    """
    if position is None or not 0 <= position < len(names):
        return f"Table {table.number}"
    return f"Table {table.number}, seat {position + 1} ({names[position]})"


def seat_display(table: Table, position: int | None, names: list[str]) -> str:
    """The seat this phone is at, in the active language."""
    if position is None or not 0 <= position < len(names):
        return _("Table %(table)s") % {"table": table.number}
    return _("Table %(table)s, seat %(seat)s (%(name)s)") % {
        "table": table.number,
        "seat": position + 1,
        "name": names[position],
    }


def chosen_seat(session: Any, key: str) -> int | None:
    value = session.get(SESSION_SEATS, {}).get(key)
    return value if isinstance(value, int) and 0 <= value <= 3 else None


def remember_seat(session: Any, key: str, position: int | None) -> None:
    seats = dict(session.get(SESSION_SEATS, {}))
    if position is None:
        seats.pop(key, None)
    else:
        seats[key] = position
    session[SESSION_SEATS] = seats


@dataclass
class ScoreRow:
    number: int
    dealer: str
    contract: str
    scores: list[Any]
    status: str
    status_label: str


@dataclass
class PageState:
    """Everything the entry page shows for one game, computed once per request."""

    game: Game
    names: list[str]
    deals: list[Deal]
    state: dict[str, Any]
    rows: list[ScoreRow] = field(default_factory=list)
    totals: list[Any] = field(default_factory=list)
    pending: list[Deal] = field(default_factory=list)

    @property
    def next(self) -> dict[str, Any] | None:
        return self.state.get("next")


def deals_stamp(count: int, versions: int, unconfirmed: int) -> str:
    """Changes whenever a deal is added, corrected or confirmed: the page polls it."""
    return f"{count}.{versions}.{unconfirmed}"


def contract_label(data: dict[str, Any]) -> str:
    """The contract's name in the active language, with the trump suit for trumps."""
    name = contract_name(data.get("contract", ""))
    trump = data.get("trump")
    if data.get("contract") == "trumps" and trump:
        return f"{name} {TRUMP_SIGNS.get(str(trump).upper(), trump)}"
    return name


def page_state(game: Game) -> PageState:
    """The game's deals, the engine's view of what comes next, and the score table."""
    deals = list(game.deals.order_by("number"))
    record = game_record(game, deals)
    names = list(game.player_names)
    page = PageState(game=game, names=names, deals=deals, state=engine.game_state(record))
    labels = dict(Deal.Status.choices)
    for deal in deals:
        score = deal.scores.get("score", {})
        page.rows.append(
            ScoreRow(
                number=deal.number,
                dealer=deal.data.get("dealer", ""),
                contract=contract_label(deal.data),
                scores=[score.get(name, "") for name in names],
                status=deal.status,
                status_label=str(labels.get(deal.status, deal.status)),
            )
        )
        if deal.status == Deal.Status.PENDING:
            page.pending.append(deal)
    page.totals = [(name, game.totals.get(name, 0)) for name in names]
    return page


def _option(
    name: str, value: Any, label: Any, selected: dict[str, list[str]], kind: str = "radio"
) -> dict[str, Any]:
    """One tap target: a radio (or checkbox) inside its big label, checked as last posted.

    Built here rather than by an {% include %} per cell: the page has some 150 of them.
    """
    value = str(value)
    ident = f"{name}-{value}"
    checked = value in selected.get(name, ())
    html = format_html(
        '<label class="tap" for="{}"><input type="{}" id="{}" name="{}" value="{}"{}>'
        "<span>{}</span></label>",
        ident,
        kind,
        ident,
        name,
        value,
        mark_safe(" checked") if checked else "",
        label,
    )
    return {
        "name": name,
        "value": value,
        "label": label,
        "id": ident,
        "checked": checked,
        "html": html,
    }


def form_context(page: PageState, posted: QueryDict | None = None) -> dict[str, Any]:
    """What the entry form needs: every input by seat index, checked as last posted.

    `posted` refills the form after a refused entry, so nobody taps it all again.
    """
    nxt = page.next
    if nxt is None:
        return {}
    selected = {key: posted.getlist(key) for key in posted} if posted is not None else {}
    names = page.names
    index = {name: i for i, name in enumerate(names)}
    dealer = index[nxt["dealer"]]
    ruleset = engine.ruleset_from_json(page.game.ruleset)
    allowed = {
        contract: sorted(f"{index[d['by']]}-{index[d['against']]}" for d in pairs)
        for contract, pairs in nxt["doubles_allowed"].items()
    }
    every_pair = {pair for pairs in allowed.values() for pair in pairs}
    doublers = [
        {
            "name": names[by],
            "cells": [
                {
                    "against": names[against],
                    "double": _option(
                        "double", f"{by}-{against}", names[against], selected, "checkbox"
                    ),
                    "redouble": _option("redouble", f"{by}-{against}", _("redoubled"), selected),
                }
                for against in range(4)
                if f"{by}-{against}" in every_pair
            ],
        }
        for by in range(4)
        if by != dealer
    ]
    trumps = [t for t in TRUMPS if t != "NT" or ruleset.trumps_allow_no_trump]
    owed = [
        _("%(by)s must still double %(against)s %(needed)s times (%(left)s deals left)")
        % {"by": o["by"], "against": o["against"], "needed": o["needed"], "left": o["deals_left"]}
        for o in nxt["doubles_owed"]
    ]
    must = [
        _("%(by)s must double %(against)s in this deal.") % {"by": m["by"], "against": m["against"]}
        for m in nxt["must_double_now"]
    ]

    def seats(name: str) -> list[dict[str, Any]]:
        return [_option(name, i, player, selected) for i, player in enumerate(names)]

    tricks = []
    for i, player in enumerate(names):
        value = (selected.get(f"tricks_{i}") or ["0"])[0]
        tricks.append({"name": f"tricks_{i}", "id": f"tricks_{i}", "label": player, "value": value})
    return {
        "number": nxt["number"],
        "dealer": nxt["dealer"],
        "names": names,
        "contracts": [
            _option("contract", c, contract_name(c), selected) for c in nxt["contracts_left"]
        ],
        "doublers": doublers,
        "owed": owed,
        "must": must,
        "trumps": [_option("trump", t, TRUMP_NAMES[t], selected) for t in trumps],
        "king": seats("king_of_hearts"),
        "hearts": [{"card": card_label(c), "options": seats(f"hearts_{c}")} for c in HEARTS],
        "queens": [{"card": card_label(c), "options": seats(f"queens_{c}")} for c in QUEENS],
        "twelfth": seats("twelfth"),
        "thirteenth": seats("thirteenth"),
        "tricks": tricks,
        "places": [
            {"label": label, "options": seats(f"place_{p}")} for p, label in enumerate(PLACE_NAMES)
        ],
        "script": {
            "allowed": allowed,
            "must": [
                {
                    "pair": f"{index[m['by']]}-{index[m['against']]}",
                    "by": m["by"],
                    "against": m["against"],
                }
                for m in nxt["must_double_now"]
            ],
            "names": names,
            "hearts": [f"hearts_{c}" for c in HEARTS],
            "queens": [f"queens_{c}" for c in QUEENS],
            "cardLabels": {
                f"{k}_{c}": card_label(c)
                for k, cards in (("hearts", HEARTS), ("queens", QUEENS))
                for c in cards
            },
            "messages": _script_messages(),
        },
    }


def _script_messages() -> dict[str, str]:
    """The live checks' sentences, translated here so the script has no text of its own."""
    return {
        "contract": _("Choose the contract."),
        "trump": _("Choose the trump suit."),
        "king": _("Who took the king of hearts?"),
        "hearts": _("%(count)s hearts not assigned: %(cards)s"),
        "queens": _("%(count)s queens not assigned: %(cards)s"),
        "twelfth": _("Who took the 12th trick?"),
        "thirteenth": _("Who took the 13th trick?"),
        "tricks": _("Tricks add up to %(total)s of 13."),
        "order": _("Choose who went out 1st, 2nd and 3rd."),
        "order_repeated": _("%(name)s is chosen for two places."),
        "must": _("%(by)s must double %(against)s in this deal."),
        "ok": _("Ready to save."),
    }


def _seat(value: str | None, names: list[str]) -> str | None:
    try:
        position = int(value or "")
    except ValueError:
        return None
    return names[position] if 0 <= position < len(names) else None


def deal_from_form(
    data: QueryDict, names: list[str], *, ruleset: dict[str, Any], next_number: int
) -> dict[str, Any]:
    """The posted form as one deal of FORMAT.md, with the "number" the table was entering.

    Nothing is judged here: what is missing is left out, so that the engine says what is
    wrong in its own words (and the same words as the API). The dealer is the one of the
    posted number, so a phone resending an earlier deal is recognised as the same deal.
    """
    raw = data.get("number", "")
    number = int(raw) if raw.isdigit() else next_number
    rules = engine.ruleset_from_json(ruleset)
    # Past the last deal there is no dealer: deal_submit answers "the game is complete".
    seat = dealer_of(rules, number) if 1 <= number <= rules.deals_per_game else 0
    deal: dict[str, Any] = {"number": number, "dealer": names[seat]}
    contract = data.get("contract", "")
    if contract:
        deal["contract"] = contract
    if contract == "trumps" and data.get("trump"):
        deal["trump"] = data["trump"]
    redoubled = set(data.getlist("redouble"))
    doubles = []
    for pair in data.getlist("double"):
        by, _sep, against = pair.partition("-")
        by_name, against_name = _seat(by, names), _seat(against, names)
        if by_name and against_name:
            entry: dict[str, Any] = {"by": by_name, "against": against_name}
            if pair in redoubled:
                entry["redoubled"] = True
            doubles.append(entry)
    if doubles:
        deal["doubles"] = doubles
    deal["result"] = _result_from_form(data, contract, names)
    return deal


def _result_from_form(data: QueryDict, contract: str, names: list[str]) -> dict[str, Any]:
    if contract == "barbu":
        taker = _seat(data.get("king_of_hearts"), names)
        return {"king_of_hearts": taker} if taker else {}
    if contract in ("hearts", "queens"):
        taken: dict[str, list[str]] = {}
        for card in HEARTS if contract == "hearts" else QUEENS:
            taker = _seat(data.get(f"{contract}_{card}"), names)
            if taker:
                taken.setdefault(taker, []).append(card)
        return {contract: taken}
    if contract == "last_two":
        out = {}
        for key in ("twelfth", "thirteenth"):
            taker = _seat(data.get(key), names)
            if taker:
                out[key] = taker
        return out
    if contract in ("no_tricks", "trumps"):
        tricks: dict[str, Any] = {}
        for i, name in enumerate(names):
            raw = data.get(f"tricks_{i}", "").strip()
            if raw:
                # A non-number goes to the engine as it is: it says "should be a whole number".
                tricks[name] = int(raw) if raw.lstrip("-").isdigit() else raw
        return {"tricks": tricks}
    if contract == "domino":
        order = [_seat(data.get(f"place_{i}"), names) for i in range(4)]
        while order and order[-1] is None:
            order.pop()
        if None in order:
            # Closing the gap would silently move a player up a place.
            place = str(PLACE_NAMES[order.index(None)])
            raise DealRejected(
                _("Choose who went out in the place “%(place)s”.") % {"place": place},
                code="domino_order_gap",
                params={"place": order.index(None) + 1},
            )
        return {"order": order}
    return {}


def problem_messages(problems: list[dict[str, Any]]) -> list[str]:
    """The engine's problems in the active language, one sentence each."""
    return [problem_message(p) for p in problems]


def deal_summary(stored: dict[str, Any]) -> str:
    """A stored deal in a few words: "Hearts, dealer Anna: Anna −8, Bruno −12, …"."""
    deal = stored.get("deal") or {}
    score = (stored.get("scores") or {}).get("score") or {}
    points = ", ".join(f"{name} {value}" for name, value in score.items())
    return _("%(contract)s, dealer %(dealer)s: %(points)s") % {
        "contract": contract_label(deal),
        "dealer": deal.get("dealer", ""),
        "points": points,
    }
