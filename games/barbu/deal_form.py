"""The deal form shared by the table's entry page and the organiser's correction page.

One deal's inputs (dealer, contract among the legal ones, trump suit, doubles, each
contract's result) built from what the engine allows, checked as posted or as stored, and
the posted form read back as one deal of docs/rules/format.md. Both pages render it with
templates/games/_deal_fields.html and drive it with static/deal_form.js, so the two cannot
drift apart. Players are addressed by seat index (0..3), so names with odd characters never
reach an HTML attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from clubs.engine_words import card_rank, contract_name
from games.core.errors import DealRejected
from games.core.short_names import short_names
from scoring.engine import barbu
from scoring.engine.barbu.cards import HEARTS, QUEENS, TRUMPS, parse_card
from scoring.engine.barbu.game import allowed_doubles, dealer_of, deals_of
from scoring.engine.barbu.presets import REQUIRED_DOUBLES

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

Selected = Mapping[str, list[str]]


def card_label(card: str) -> str:
    """ "TH" -> "10♥", "QS" -> "D♠" in Italian: how the card is printed on the grid's buttons."""
    rank = "10" if card[0] == "T" else card_rank(card[0])
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def contract_label(data: Mapping[str, Any]) -> str:
    """The contract's name in the active language, with the trump suit for trumps."""
    name = contract_name(data.get("contract", ""))
    trump = data.get("trump")
    if data.get("contract") == "trumps" and trump:
        if str(trump).upper() == "NT":
            # "Senza atout", "Sans-atout": how the players name the deal, not "Atout NT".
            return str(TRUMP_NAMES["NT"])
        return f"{name} {TRUMP_SIGNS.get(str(trump).upper(), trump)}"
    return name


@dataclass(frozen=True)
class DealChoices:
    """What the dealer of one deal may choose, and the doubles the rules still demand."""

    number: int
    dealer: str
    contracts: list[str]
    # {contract: [{"by": name, "against": name}, ...]}
    doubles_allowed: dict[str, list[dict[str, str]]]
    # [{"by", "against", "needed", "deals_left"}]: shown as a reminder at the table
    owed: list[dict[str, Any]] = field(default_factory=list)
    # [{"by", "against"}]: doubles this deal must hold
    must: list[dict[str, str]] = field(default_factory=list)
    # {contract: number}: contracts the dealer chose in another stored deal (the correction
    # page offers them too, to swap the two deals' contracts)
    taken: dict[str, int] = field(default_factory=dict)


def next_deal_choices(nxt: Mapping[str, Any]) -> DealChoices:
    """The choices of the next deal, from barbu.game_state()["next"]."""
    return DealChoices(
        number=nxt["number"],
        dealer=nxt["dealer"],
        contracts=list(nxt["contracts_left"]),
        doubles_allowed=dict(nxt["doubles_allowed"]),
        owed=list(nxt["doubles_owed"]),
        must=list(nxt["must_double_now"]),
    )


def stored_deal_choices(
    *, ruleset: Any, names: list[str], deals: list[Mapping[str, Any]], number: int
) -> DealChoices:
    """The choices of stored deal `number`, given every other stored deal of the game.

    The contracts are those its dealer has not chosen in another deal, earlier or later
    (`taken` names the deal of each of the others); a double is a "must" when the dealer's
    turn has no other deal left to hold it. The engine judges the correction itself: this
    only keeps the form to sensible choices.
    """
    rules = barbu.ruleset_from_json(ruleset)
    seat = dealer_of(rules, number)
    dealer = names[seat]
    others = [n for n in deals_of(rules, seat) if n != number]
    stored = [deals[n - 1] for n in others if n <= len(deals)]
    taken = {
        deals[n - 1].get("contract"): n
        for n in others
        if n <= len(deals) and deals[n - 1].get("contract") in rules.contracts
    }
    contracts = [c for c in rules.contracts if c not in taken]
    must = []
    if rules.mandatory_doubles:
        open_deals = 1 + sum(1 for n in others if n > len(deals))
        for by in range(4):
            if by == seat:
                continue
            count = sum(
                1
                for deal in stored
                if any(
                    d.get("by") == names[by] and d.get("against") == dealer
                    for d in deal.get("doubles") or []
                )
            )
            if 0 < REQUIRED_DOUBLES - count >= open_deals:
                must.append({"by": names[by], "against": dealer})
    return DealChoices(
        number=number,
        dealer=dealer,
        contracts=contracts,
        doubles_allowed={c: allowed_doubles(rules, names, seat, c) for c in rules.contracts},
        must=must,
        taken={c: taken[c] for c in rules.contracts if c in taken},
    )


def selected_from_post(posted: QueryDict | None, prefix: str = "") -> dict[str, list[str]]:
    """The inputs as last posted, to refill the form after a refusal (those of `prefix`)."""
    if posted is None:
        return {}
    return {key[len(prefix) :]: posted.getlist(key) for key in posted if key.startswith(prefix)}


def selected_from_deal(deal: Mapping[str, Any], names: list[str]) -> dict[str, list[str]]:
    """A stored deal (docs/rules/format.md, normalised) as the form's inputs: the form
    pre-filled."""
    seat = {name: str(i) for i, name in enumerate(names)}
    contract = str(deal.get("contract") or "")
    out: dict[str, list[str]] = {"contract": [contract]}
    if contract == "trumps" and deal.get("trump"):
        out["trump"] = [str(deal["trump"]).upper()]
    pairs = [
        (f"{seat[d['by']]}-{seat[d['against']]}", bool(d.get("redoubled")))
        for d in deal.get("doubles") or []
        if d.get("by") in seat and d.get("against") in seat
    ]
    out["double"] = [pair for pair, _redoubled in pairs]
    out["redouble"] = [pair for pair, redoubled in pairs if redoubled]
    result = deal.get("result") or {}
    if contract == "barbu" and result.get("king_of_hearts") in seat:
        out["king_of_hearts"] = [seat[result["king_of_hearts"]]]
    elif contract in ("hearts", "queens"):
        for name, cards in (result.get(contract) or {}).items():
            for card in cards if name in seat else ():
                out[f"{contract}_{parse_card(card) or card}"] = [seat[name]]
    elif contract == "last_two":
        for key in ("twelfth", "thirteenth"):
            if result.get(key) in seat:
                out[key] = [seat[result[key]]]
    elif contract in ("no_tricks", "trumps"):
        for name, count in (result.get("tricks") or {}).items():
            if name in seat:
                out[f"tricks_{seat[name]}"] = [str(count)]
    elif contract == "domino":
        for place, name in enumerate(result.get("order") or []):
            if name in seat:
                out[f"place_{place}"] = [seat[name]]
    return out


def name_label(full: str, short: str) -> str:
    """A player's name on a button: the short name shown, the full name for screen readers."""
    if full == short:
        return full
    return format_html(
        '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span>', short, full
    )


def _option(
    name: str,
    value: Any,
    label: Any,
    selected: Selected,
    kind: str = "radio",
    prefix: str = "",
    what: Any = "",
) -> dict:
    """One tap target: a radio (or checkbox) inside its big label, checked as selected.

    Built here rather than by an {% include %} per cell: the form has some 150 of them.
    `selected` is keyed by the input's name without `prefix` (the second deal of a swap).
    `what` (the card, the trick, the place, who doubles) starts the label for screen
    readers only, so that thirteen buttons of one player are not all just the name.
    """
    value = str(value)
    checked = value in selected.get(name, ())
    name = prefix + name
    ident = f"{name}-{value}"
    html = format_html(
        '<label class="tap" for="{}"><input type="{}" id="{}" name="{}" value="{}"{}>'
        "<span>{}</span></label>",
        ident,
        kind,
        ident,
        name,
        value,
        mark_safe(" checked") if checked else "",
        format_html(
            '<span class="visually-hidden">{}: </span><span class="name">{}</span>', what, label
        )
        if what
        else label,
    )
    return {
        "name": name,
        "value": value,
        "label": label,
        "id": ident,
        "checked": checked,
        "html": html,
    }


def form_context(
    choices: DealChoices,
    names: list[str],
    *,
    ruleset: Any,
    selected: Selected,
    prefix: str = "",
    shown: list[str] | None = None,
) -> dict[str, Any]:
    """What templates/games/_deal_fields.html needs: every input by seat index, as selected.

    `prefix` goes before every input's name and id, so that two deals can share one page
    (the correction page's swap); deal_from_form() reads them back with the same prefix.
    `shown`: the names to show for the seats when they are not the record's (a substitute
    plays a seat the record names by its first player: games/barbu/seat_history.py).
    """
    display = list(shown or names)
    show = dict(zip(names, display, strict=True))

    def option(name: str, value: Any, label: Any, kind: str = "radio", what: Any = "") -> dict:
        return _option(name, value, label, selected, kind, prefix, what)

    index = {name: i for i, name in enumerate(names)}
    dealer = index[choices.dealer]
    # On buttons and column heads, the shortest names unique at the table ("Paola G."):
    # the full names stay in every accessible name.
    short = short_names(display)
    labels = [name_label(full, brief) for full, brief in zip(display, short, strict=True)]
    rules = barbu.ruleset_from_json(ruleset)
    allowed = {
        contract: sorted(f"{index[d['by']]}-{index[d['against']]}" for d in pairs)
        for contract, pairs in choices.doubles_allowed.items()
    }
    every_pair = {pair for pairs in allowed.values() for pair in pairs}
    doublers = [
        {
            "name": display[by],
            "label": labels[by],
            "cells": [
                {
                    "against": display[against],
                    "double": option(
                        "double",
                        f"{by}-{against}",
                        labels[against],
                        "checkbox",
                        _("%(name)s doubles") % {"name": display[by]},
                    ),
                    "redouble": option("redouble", f"{by}-{against}", _("redoubled")),
                    "pair": _("%(by)s doubles %(against)s")
                    % {"by": display[by], "against": display[against]},
                }
                for against in range(4)
                if f"{by}-{against}" in every_pair
            ],
        }
        for by in range(4)
        if by != dealer
    ]
    trumps = [t for t in TRUMPS if t != "NT" or rules.trumps_allow_no_trump]
    owed = [
        ngettext(
            "%(by)s must still double %(against)s %(needed)s time (%(left)s deals left)",
            "%(by)s must still double %(against)s %(needed)s times (%(left)s deals left)",
            o["needed"],
        )
        % {
            "by": show[o["by"]],
            "against": show[o["against"]],
            "needed": o["needed"],
            "left": o["deals_left"],
        }
        if o["deals_left"] != 1
        else ngettext(
            "%(by)s must still double %(against)s %(needed)s time (%(left)s deal left)",
            "%(by)s must still double %(against)s %(needed)s times (%(left)s deal left)",
            o["needed"],
        )
        % {
            "by": show[o["by"]],
            "against": show[o["against"]],
            "needed": o["needed"],
            "left": o["deals_left"],
        }
        for o in choices.owed
    ]
    # Each line goes (static/deal_form.js) once its double is ticked: "Ready to save"
    # never stands beside a double still demanded.
    must = [
        {
            "pair": f"{index[m['by']]}-{index[m['against']]}",
            "text": _("%(by)s must double %(against)s in this deal.")
            % {"by": show[m["by"]], "against": show[m["against"]]},
        }
        for m in choices.must
    ]

    def seats(name: str, what: Any = "", grid: bool = False) -> list[dict[str, Any]]:
        # In the card grids the name is read, not shown (the column's head shows it).
        return [
            option(name, i, player if grid else labels[i], what=what)
            for i, player in enumerate(display)
        ]

    tricks = []
    for i, player in enumerate(display):
        value = (selected.get(f"tricks_{i}") or ["0"])[0]
        name = f"{prefix}tricks_{i}"
        tricks.append(
            {"name": name, "id": name, "label": labels[i], "full": player, "value": value}
        )
    contracts = []
    # In the rules' order when taken contracts are offered too: each keeps its usual place.
    for c in rules.contracts if choices.taken else choices.contracts:
        if c in choices.contracts:
            contracts.append(option("contract", c, contract_name(c)))
        elif c in choices.taken:
            label = _("%(contract)s · deal %(number)s") % {
                "contract": contract_name(c),
                "number": choices.taken[c],
            }
            contracts.append(option("contract", c, label))
    return {
        "number": choices.number,
        "dealer": show[choices.dealer],
        "names": display,
        "short_names": short,
        # "All the rest to …": one tap gives a player every heart (queen) not yet given.
        "players": [
            {"seat": i, "label": labels[i], "full": full} for i, full in enumerate(display)
        ],
        "prefix": prefix,
        "contracts": contracts,
        "swappable": bool(choices.taken),
        "doublers": doublers,
        "owed": owed,
        "must": must,
        "trumps": [option("trump", t, TRUMP_NAMES[t]) for t in trumps],
        "king": seats("king_of_hearts"),
        "hearts": [
            {"card": card_label(c), "options": seats(f"hearts_{c}", card_label(c), grid=True)}
            for c in HEARTS
        ],
        "queens": [
            {"card": card_label(c), "options": seats(f"queens_{c}", card_label(c), grid=True)}
            for c in QUEENS
        ],
        "twelfth": seats("twelfth", _("12th trick")),
        "thirteenth": seats("thirteenth", _("13th trick")),
        "tricks": tricks,
        "places": [
            {"label": label, "options": seats(f"place_{p}", label, grid=True)}
            for p, label in enumerate(PLACE_NAMES)
        ],
        "script_id": f"{prefix}deal-form-data",
        "script": {
            "prefix": prefix,
            "allowed": allowed,
            "must": [
                {
                    "pair": f"{index[m['by']]}-{index[m['against']]}",
                    "by": m["by"],
                    "against": m["against"],
                }
                for m in choices.must
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
        # No count: "1 hearts" would need the language's plural rules in the script.
        "hearts": _("Hearts not given yet: %(cards)s"),
        "queens": _("Queens not given yet: %(cards)s"),
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


class _Prefixed:
    """The posted inputs of one deal of the page: those whose name starts with `prefix`."""

    def __init__(self, data: QueryDict, prefix: str) -> None:
        self.data = data
        self.prefix = prefix

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(self.prefix + key, default)

    def getlist(self, key: str) -> list[str]:
        return self.data.getlist(self.prefix + key)


def deal_from_form(
    data: QueryDict, names: list[str], *, ruleset: Any, number: int, prefix: str = ""
) -> dict[str, Any]:
    """The posted form as deal `number` of docs/rules/format.md (with its "number"), dealt by its
    dealer.

    Nothing is judged here: what is missing is left out, so that the engine says what is
    wrong in its own words (and the same words as the API). `prefix`: as given to
    form_context().
    """
    if prefix:
        data = _Prefixed(data, prefix)  # type: ignore[assignment]
    rules = barbu.ruleset_from_json(ruleset)
    # Past the last deal there is no dealer: deal_submit answers "the game is complete".
    seat = dealer_of(rules, number) if 1 <= number <= rules.deals_per_game else 0
    deal: dict[str, Any] = {"number": number, "dealer": names[seat]}
    contract = data.get("contract", "")
    if contract:
        deal["contract"] = contract
    if contract == "trumps" and data.get("trump"):
        deal["trump"] = data.get("trump")
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
