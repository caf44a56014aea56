"""A tournament's tables for the whole day: the page a table card's QR code opens (the
score card of that table in the turn being played, or a page saying why there is none)
and the referee's print of those cards, one A4 sheet per table (games/burraco/cards_print.py).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clubs.language import offer_club_language
from clubs.models import Club
from clubs.views import organiser_required
from games.burraco import event_tables
from games.burraco.cards_print import table_cards_pdf
from games.core.table_pages import not_found_page
from games.models import Event


@never_cache
@require_safe
def table_of_day(request: HttpRequest, key: str) -> HttpResponse:
    """A day's table card scanned: that table's score card in the newest turn; a page that
    says so when the table is not seated in it (or no turn is yet)."""
    now = event_tables.table_now(key)
    if now is None:
        return not_found_page(request)
    if now.table is not None:
        return redirect("burraco-card", key=now.table.key)
    offer_club_language(request, now.event.club)
    context = {
        "event": now.event,
        "number": now.number,
        "turn": now.turn,
        "event_url": reverse("scoring:event", args=[now.event.pk]),
    }
    return render(request, "games/burraco/table_of_day.html", context)


@organiser_required
@require_safe
def table_cards(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """The day's table cards to print: one A4 sheet per table (as many as the tournament
    seats), each QR code opening its table's score card of every turn. A tournament's
    only: an evening of free matches prints its own (games/burraco/free_views.py)."""
    event = get_object_or_404(
        Event, club=club, pk=event_id, game="burraco", burraco_format=Event.BurracoFormat.TURNS
    )
    keys = event_tables.table_keys(event, event_tables.tables_of_day(event))
    tables = [
        (n, request.build_absolute_uri(reverse("burraco-table-of-day", args=[keys[n]])))
        for n in sorted(keys)
    ]
    data = table_cards_pdf(
        event_name=f"{club.name} – {event.name}", tables=tables, language=get_language()
    )
    response = HttpResponse(data, content_type="application/pdf")
    filename = f"event-{event.pk}-table-cards.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    if request.method == "HEAD":
        response.content = b""
    return response
