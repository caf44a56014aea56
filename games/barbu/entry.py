"""The table-side entry page's logic: the table by its key, this phone's seat, the page's state.

Reads live here so that games/barbu/table_views.py stays a thin shell; the deal form itself (its
inputs and the posted form as a deal) is games/barbu/deal_form.py, shared with the organiser's
correction page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from clubs.engine_words import problem_message
from games.barbu import deal_form
from games.barbu.deal_form import contract_label
from games.barbu.selectors import game_record, seat_notes, seat_players
from games.core.short_names import name_pairs
from games.models import Deal, Event, Game, Round, Table
from scoring.engine import barbu

SESSION_SEATS = "table_seats"


def closed_notice(table: Table) -> str:
    """What the page says when the table's round or evening is closed ("" while open)."""
    rnd = table.round
    if rnd.event.status == Event.Status.CLOSED:
        return _("This evening is closed: no more deals can be entered.")
    if rnd.status == Round.Status.CLOSED:
        return _("Round %(round)s is closed: no more deals can be entered.") % {"round": rnd.number}
    return ""


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
    # The seats' players as they sit now (not the record's names once a substitute took
    # over a seat: games/barbu/seat_history.py).
    shown: list[str] = field(default_factory=list)
    rows: list[ScoreRow] = field(default_factory=list)
    totals: list[Any] = field(default_factory=list)
    pending: list[Deal] = field(default_factory=list)

    @property
    def heads(self) -> list[dict[str, str]]:
        """The score table's column heads: short names unique at the table, and full ones."""
        return name_pairs(self.shown or self.names)

    @property
    def players(self) -> list[str]:
        """The seats' players as the page shows them: who sits there now."""
        return self.shown or self.names

    @property
    def notes(self) -> list[str]:
        """Who played which deals of a seat that changed players."""
        return seat_notes(self.game)

    @property
    def next(self) -> dict[str, Any] | None:
        return self.state.get("next")


def deals_stamp(count: int, versions: int, unconfirmed: int) -> str:
    """Changes whenever a deal is added, corrected or confirmed: the page polls it."""
    return f"{count}.{versions}.{unconfirmed}"


def page_state(game: Game) -> PageState:
    """The game's deals, the engine's view of what comes next, and the score table."""
    deals = list(game.deals.order_by("number"))
    record = game_record(game, deals)
    names = list(game.player_names)
    page = PageState(game=game, names=names, deals=deals, state=barbu.game_state(record))
    if game.substituted:
        page.shown = [player.name for player in seat_players(game)]
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


def form_context(page: PageState, posted: QueryDict | None = None) -> dict[str, Any]:
    """The next deal's form, checked as last posted (nobody taps it all again after a refusal)."""
    nxt = page.next
    if nxt is None:
        return {}
    return deal_form.form_context(
        deal_form.next_deal_choices(nxt),
        page.names,
        ruleset=page.game.ruleset,
        selected=deal_form.selected_from_post(posted),
        shown=page.shown or None,
    )


def deal_from_form(
    data: QueryDict, names: list[str], *, ruleset: dict[str, Any], next_number: int
) -> dict[str, Any]:
    """The posted form as one deal of docs/rules/format.md, with the "number" the table was
    entering.

    The dealer is the one of the posted number, so a phone resending an earlier deal is
    recognised as the same deal.
    """
    raw = data.get("number", "")
    number = int(raw) if raw.isdigit() else next_number
    return deal_form.deal_from_form(data, names, ruleset=ruleset, number=number)


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
