"""The table-side entry pages: a phone at the table writes that table's game, and only that.

The key in the URL (from the table card's QR code) is the only credential: it names the
table, the table names its game, so no game id ever travels and no other game is reachable.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Q, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.barbu.entry import (
    chosen_seat,
    closed_notice,
    deal_from_form,
    deal_summary,
    deals_stamp,
    form_context,
    page_state,
    problem_messages,
    remember_seat,
    seat_display,
    seat_label,
)
from games.barbu.offline_plan import offline_plan
from games.barbu.submission import Submission, deal_confirm, deal_submit
from games.core import live, offline
from games.core.errors import DealConflict, DealRejected, EntryError
from games.core.table_pages import (
    ids_of_key,
    remember_ids_of_key,
    table_by_key,
    table_game,
    with_table,
)
from games.models import Deal, Game, Table


def _render(
    request: HttpRequest,
    table: Table,
    *,
    errors: list[str] | None = None,
    posted: Any = None,
    status: int = 200,
) -> HttpResponse:
    event = table.round.event
    club = event.club
    game = table_game(table)
    context: dict[str, Any] = {
        "table": table,
        "event": event,
        "club": club,
        "game": game,
        "errors": errors or [],
        "key": table.key,
    }
    context["closed"] = closed_notice(table)
    if game is not None:
        context["state_etag"] = live.etag(live.version("game", game.pk))  # before the reads
        page = page_state(game)
        seat = chosen_seat(request.session, table.key)
        context.update(
            page=page,
            form=form_context(page, posted),
            plan=offline_plan(page) if posted is None else {},
            seat=seat,
            seat_choices=list(enumerate(page.players)),
            confirm=club.confirm_deals,
            needs_seat=club.confirm_deals and seat is None,
            my_label=seat_label(table, seat, page.names),
            my_seat=seat_display(table, seat, page.players),
            stamp=deals_stamp(
                len(page.deals),
                sum(deal.version for deal in page.deals),
                sum(deal.status != Deal.Status.CONFIRMED for deal in page.deals),
            ),
        )
    return render(request, "games/table/entry.html", context, status=status)


def _stamp(game: Game) -> str:
    """Changes whenever a deal is added, corrected or confirmed: the page polls it."""
    agg = Deal.objects.filter(game=game).aggregate(
        n=Count("id"), v=Sum("version"), p=Count("id", filter=~Q(status=Deal.Status.CONFIRMED))
    )
    return deals_stamp(agg["n"], agg["v"] or 0, agg["p"])


@require_GET
@with_table
def table_entry(request: HttpRequest, table: Table) -> HttpResponse:
    game = table_game(table)
    if game is not None and game.kind == Game.Kind.BURRACO:
        # The same QR code opens a Burraco table's score card.
        return redirect("burraco-card", key=table.key)
    return _render(request, table)


@require_POST
@with_table
def table_deal(request: HttpRequest, table: Table) -> HttpResponse:
    """Store the deal the form describes; a refusal re-shows the form with the engine's words.

    The offline queue (static/offline_queue.js) posts the same form with an Idempotency-Key
    made on the phone and asks for JSON: it gets games/core/offline.py's answers instead."""
    if offline.wants_json(request):
        return _queued_deal(request, table)
    key = table.key
    try:
        submission = _submit(request, table)
    except DealConflict as error:
        # The page shows the new state: the other phone's deal is in the table already.
        return _render(request, table, errors=[_conflict_message(error)], status=409)
    except DealRejected as error:
        errors = problem_messages(error.problems) or [error.message]
        return _render(request, table, errors=errors, posted=request.POST, status=400)
    except EntryError as error:
        posted = request.POST if error.code == "choose_seat" else None
        return _render(request, table, errors=[error.message], posted=posted, status=error.status)
    number = submission.deal.number
    if submission.created:
        messages.success(request, _("Deal %(number)s saved.") % {"number": number})
    else:
        messages.info(
            request, _("Deal %(number)s was already saved; nothing changed.") % {"number": number}
        )
    return redirect("table-entry", key=key)


def _submit(request: HttpRequest, table: Table) -> Submission:
    """The posted deal stored (EntryError and its kinds when it cannot be)."""
    game = table_game(table)
    if game is None:
        error = EntryError(_("This table has no game yet."), code="no_game")
        error.status = 409
        raise error
    seat = chosen_seat(request.session, table.key)
    if table.round.event.club.confirm_deals and seat is None:
        raise EntryError(_("Choose your seat first."), code="choose_seat")
    names = list(game.player_names)
    deal = deal_from_form(
        request.POST, names, ruleset=game.ruleset, next_number=game.deals_count + 1
    )
    return deal_submit(
        game_id=game.pk,
        deal=deal,
        by_user=request.user,
        by_label=seat_label(table, seat, names),
        idempotency_key=offline.idempotency_key(request),
        needs_confirmation=table.round.event.club.confirm_deals,
    )


def _conflict_message(error: DealConflict) -> str:
    stored = error.extra.get("stored")
    if not stored:
        return error.message
    return _("Deal %(number)s was already entered from another phone: %(deal)s") % {
        "number": error.params.get("number"),
        "deal": deal_summary(stored),
    }


def _queued_deal(request: HttpRequest, table: Table) -> HttpResponse:
    """A deal the phone kept while offline, sent by its queue: JSON, never a page."""
    try:
        submission = _submit(request, table)
    except DealConflict as error:
        stored = error.extra.get("stored")
        return offline.refused_answer(
            error.code,
            [_conflict_message(error)],
            status=error.status,
            stored=deal_summary(stored) if stored else "",
        )
    except EntryError as error:
        words = problem_messages(error.problems) or [error.message]
        return offline.refused_answer(error.code, words, status=error.status)
    number = submission.deal.number
    # Told on the page the phone opens next, as after a form post.
    if submission.created:
        messages.success(request, _("Deal %(number)s saved.") % {"number": number})
    else:
        messages.info(
            request, _("Deal %(number)s was already saved; nothing changed.") % {"number": number}
        )
    return offline.stored_answer(number, created=submission.created)


@require_POST
@with_table
def table_seat(request: HttpRequest, table: Table) -> HttpResponse:
    """Remember which seat this phone is at (asked once per table, kept in the session)."""
    raw = request.POST.get("seat", "")
    remember_seat(request.session, table.key, int(raw) if raw in ("0", "1", "2", "3") else None)
    return redirect("table-entry", key=table.key)


@require_POST
@with_table
def table_confirm(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """A player at another seat accepts a pending deal, or disputes it for the organiser."""
    key = table.key
    game = table_game(table)
    deal = game.deals.filter(number=number).first() if game is not None else None
    if deal is None:
        return _render(
            request,
            table,
            errors=[_("Deal %(number)s does not exist.") % {"number": number}],
            status=404,
        )
    seat = chosen_seat(request.session, key)
    if seat is None:
        return _render(request, table, errors=[_("Choose your seat first.")], status=400)
    agree = request.POST.get("agree") == "1"
    try:
        deal_confirm(
            deal_id=deal.pk,
            agree=agree,
            by_label=seat_label(table, seat, list(game.player_names)),
            by_user=request.user,
        )
    except EntryError as error:
        return _render(request, table, errors=[error.message], status=error.status)
    if agree:
        messages.success(request, _("Deal %(number)s accepted.") % {"number": number})
    else:
        messages.warning(
            request,
            _("Deal %(number)s marked as disputed: the organiser will look at it.")
            % {"number": number},
        )
    return redirect("table-entry", key=key)


@require_GET
def table_state(request: HttpRequest, key: str) -> HttpResponse:
    """A tiny answer the page polls every second, so a phone sees another phone's deal
    without reloading: 304 without a database query while the game's version
    (games/core/live.py) is the one the phone holds. A table's game never changes once made,
    so which game a key names is kept in the cache."""
    game_id = ids_of_key("table-game", key)
    if game_id is not None:
        unchanged = live.not_modified(request, live.etag(live.version("game", game_id)))
        if unchanged is not None:
            return unchanged
    table = table_by_key(key)
    if table is None:
        return JsonResponse({"error": _("No table has this link.")}, status=404)
    game = table_game(table)
    if game is None:
        return JsonResponse({"stamp": ""})
    remember_ids_of_key("table-game", key, game.pk)
    tag = live.etag(live.version("game", game.pk))  # before the read it labels
    return live.mark(request, JsonResponse({"stamp": _stamp(game)}), tag)
