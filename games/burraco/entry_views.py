"""The entries at a Burraco tournament's desk: a pair (or a player) checked in, out,
withdrawn or back; every entry checked in at once; pairs imported from a pasted text or a
spreadsheet's CSV, previewed first. Organisers of the club only; each view calls a
service, which writes the tournament's history.

A check-in sent by htmx (the desk's rows) is answered with the row alone, swapped in
place: the referee keeps the place on the page. Without script, the desk comes back at
the row's anchor."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.views import organiser_required
from games.burraco import pair_import, tournaments
from games.burraco.desk_forms import PairImportForm
from games.burraco.mitchell_outlook import mitchell_outlook
from games.core.errors import EntryError
from games.models import BurracoPair, Event


def _event(club: Club, event_id: int) -> Event:
    return get_object_or_404(Event, club=club, pk=event_id, game="burraco")


def _desk(club: Club, event: Event, anchor: str = "") -> str:
    url = reverse("burraco-desk", kwargs={"slug": club.slug, "event_id": event.pk})
    return f"{url}#{anchor}" if anchor else url


def entry_actions(event: Event, turns_seated: int) -> dict[str, Any]:
    """What the desk offers each entry: check-in counts before a tournament's first turn
    only (turn_sides._refuse_absent), and all evening long at free matches (a pair sits
    down from a card once checked in); a withdrawal is undone while no turn was seated
    since (entries.pair_reinstate)."""
    checkin = turns_seated == 0 or event.is_free_matches
    return {
        "pair_actions": [
            *([("checkin", _("Check in")), ("checkout", _("Undo check-in"))] if checkin else []),
            ("withdraw", _("Withdraw")),
        ],
        "checkin_offered": checkin,
        "turns_seated": turns_seated,
    }


def late_entry_warning(event: Event) -> str:
    """Said when a pair enters late: whether the Mitchell can still seat the next turns,
    and that an odd field gives a pair a bye each turn."""
    playing = event.pairs.filter(active=True).count()
    words = [mitchell_outlook(event)]
    if playing % 2:
        words.append(
            _("%(count)s pairs: an odd field, one pair rests each turn (a bye).")
            % {"count": playing}
        )
    return " ".join(w for w in words if w)


def _row(request: HttpRequest, club: Club, event: Event, pair: BurracoPair) -> HttpResponse:
    context = {"club": club, "event": event, "p": pair}
    context.update(entry_actions(event, event.rounds.count()))
    return render(request, "games/burraco/_entry_row.html", context)


@organiser_required
@require_POST
def pair_change(request: HttpRequest, club: Club, event_id: int, pair_id: int) -> HttpResponse:
    """Check a pair in (or out), withdraw it (confirmed: never one stray click), or undo
    its withdrawal."""
    event = _event(club, event_id)
    pair = get_object_or_404(
        BurracoPair.objects.select_related("player_a", "player_b"), event=event, pk=pair_id
    )
    action = request.POST.get("action")
    htmx = request.headers.get("HX-Request") == "true"
    by_user = request.user
    try:
        if event.status == Event.Status.CLOSED:
            raise tournaments.closed_error(event)
        if action == "withdraw" and request.POST.get("confirm") != "1":
            messages.error(request, _("Confirm the withdrawal: nothing was changed."))
        elif action == "reinstate":
            tournaments.pair_reinstate(pair=pair, by_user=by_user)
            if event.individual:
                messages.info(
                    request, _("Player %(player)s is back in the tournament.") % {"player": pair}
                )
            else:
                messages.info(
                    request, _("Pair %(pair)s is back in the tournament.") % {"pair": pair}
                )
        elif action == "withdraw":
            tournaments.pair_withdraw(pair=pair, by_user=by_user)
            if event.individual:
                messages.info(request, _("Player %(player)s withdrawn.") % {"player": pair})
            else:
                messages.info(request, _("Pair %(pair)s withdrawn.") % {"pair": pair})
        elif action in ("checkin", "checkout"):
            tournaments.pair_checkin(pair=pair, present=action == "checkin", by_user=by_user)
            if htmx:  # the row alone, swapped in place
                return _row(request, club, event, pair)
    except EntryError as error:
        messages.error(request, error.message)
    url = _desk(club, event, f"pair-{pair.number}")
    if htmx:  # anything else is said at the top of the page: load it there
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@organiser_required
@require_POST
def checkin_all(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Check in every entry not checked in yet, in one action (one line of history)."""
    event = _event(club, event_id)
    try:
        if event.status == Event.Status.CLOSED:
            raise tournaments.closed_error(event)
        numbers = tournaments.checkin_all(event=event, by_user=request.user)
    except EntryError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            ngettext("%(count)s entry checked in.", "%(count)s entries checked in.", len(numbers))
            % {"count": len(numbers)},
        )
    return redirect(_desk(club, event, "pairs"))


@organiser_required
def pairs_import(request: HttpRequest, club: Club, event_id: int) -> HttpResponse:
    """Pairs pasted or from a CSV file: "Check" shows what each line would enter (new
    players, membership numbers learnt, every error with its line); "Import" enters them
    all, or nothing when a line is wrong."""
    event = _event(club, event_id)
    form = PairImportForm(request.POST or None, request.FILES or None)
    preview = None
    refused = ""
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        if "confirm" in request.POST:
            try:
                pairs = pair_import.pairs_import(event=event, text=text, by_user=request.user)
            except EntryError as error:
                refused = error.message
            else:
                messages.success(
                    request,
                    ngettext("%(count)s pair entered.", "%(count)s pairs entered.", len(pairs))
                    % {"count": len(pairs)},
                )
                if any(p.late for p in pairs):
                    warning = late_entry_warning(event)
                    if warning:
                        messages.warning(request, warning)
                return redirect(_desk(club, event, "pairs"))
        preview = pair_import.pairs_import_preview(event=event, text=text)
        # The preview posts the text again: a chosen file need not be chosen again.
        form = PairImportForm(initial={"text": text})
    context = {"club": club, "event": event, "form": form, "preview": preview}
    context["refused"] = refused
    return render(
        request, "games/burraco/pairs_import.html", context, status=400 if refused else 200
    )
