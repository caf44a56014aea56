"""A Burraco tournament's public pages and papers for the room: each entry's page (its seat
in every turn), a turn's pairing sheet and the ranking after a turn (PDF, A4), and the room
screen (large type, the newest turn's seating and the ranking, scrolling by itself).
Whoever may read the tournament may read them (scoring.selectors.visible_event)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_safe

from clubs.language import offer_club_language
from games.core import live
from games.models import Event
from scoring import selectors
from scoring.burraco import exports, prints, seating
from scoring.burraco.selectors import ranking_after


def _tournament(request: HttpRequest, pk: int) -> Event:
    """The tournament of turns the visitor may read (404 otherwise), in its club's
    language as offered."""
    event = selectors.visible_event(pk, selectors.viewer(request.user))
    if not event.is_burraco or event.is_free_matches:
        raise Http404(_("No such tournament."))
    offer_club_language(request, event.club)
    return event


def _pdf(request: HttpRequest, data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Length"] = str(len(data))
    if request.method == "HEAD":
        response.content = b""
    return response


def _subtitle(event: Event) -> str:
    kind = _("Burraco individual tournament") if event.individual else _("Burraco pair tournament")
    when = formats.date_format(timezone.localtime(event.starts_at), "DATETIME_FORMAT")
    return f"{kind} · {when}"


@require_GET
def entry_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """An entry's page: where it sits in every turn ("turn 3: table 12 NS against pair
    19"), its results and its place now."""
    event = _tournament(request, pk)
    entry = get_object_or_404(event.pairs.select_related("player_a", "player_b"), number=number)
    marks = seating.entry_marks(event).get(number)
    standing = next(
        (row for row in selectors.pair_standings(event.pk) if row["pair"] == number), None
    )
    context = {
        "event": event,
        "entry": entry,
        "seats": seating.entry_seats(event, entry),
        "marks": marks,
        "standing": standing,
    }
    return render(request, "scoring/burraco/entry.html", context)


@require_safe
def pairing_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Turn `number`'s pairing sheet to pin up (A4): table, NS and EW pairs, names, byes."""
    event = _tournament(request, pk)
    turn = seating.turn_seating(event, number)
    if turn is None:
        raise Http404(_("No such turn."))
    data = prints.pairing_pdf(
        turn,
        title=f"{event.club.name} – {event.name}",
        subtitle=_subtitle(event)
        + " · "
        + ngettext("%(count)s hand", "%(count)s hands", turn["turn"].hands_per_turn or 0)
        % {"count": turn["turn"].hands_per_turn or 0},
        individual=event.individual,
    )
    return _pdf(request, data, f"event-{event.pk}-turn-{number}-pairings.pdf")


@require_safe
def turn_ranking(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The ranking after turn `number` (A4), with the marks: withdrawn, short cards."""
    event = _tournament(request, pk)
    turns = event.rounds.count()
    if not 1 <= number <= turns:
        raise Http404(_("No such turn."))
    rows, labels, confirmed = ranking_after(event, number)
    marks = seating.marks_until(seating.entry_marks(event), number)
    planned = max(int(event.ranking.get("turns") or 0), turns)  # "after turn 2 of 4"
    if confirmed:
        status = _("Ranking after turn %(turn)s of %(turns)s") % {"turn": number, "turns": planned}
    else:
        status = _(
            "Provisional ranking after turn %(turn)s: a score card of these turns is "
            "not confirmed yet."
        ) % {"turn": number}
    data = exports.ranking_pdf(
        exports.ranking_rows(rows, labels, individual=event.individual, marks=marks),
        title=f"{event.club.name} – {event.name}",
        subtitle=_subtitle(event),
        status=status,
    )
    return _pdf(request, data, f"event-{event.pk}-turn-{number}-ranking.pdf")


def _screen_context(event: Event) -> dict[str, Any]:
    standings = seating.with_marks(selectors.pair_standings(event.pk), seating.entry_marks(event))
    return {"event": event, "seating": seating.turn_seating(event), "standings": standings}


@require_GET
def room_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The room's screen: the newest turn's seating and the ranking in large type, each
    column scrolling by itself (static/room_screen.js), which fetches the page again with
    the ETag it was given: a 304 without a query while nothing changed."""
    tag = live.etag(live.version("event", pk), "room-screen", live.language_inputs(request))
    unchanged = live.not_modified(request, tag)
    if unchanged is not None:
        return unchanged
    event = _tournament(request, pk)
    response = render(request, "scoring/burraco/screen.html", _screen_context(event))
    return live.mark(request, response, tag)
