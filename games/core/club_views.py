"""The organiser's club page (/manage/<club slug>/): the club's events, leagues and rules.

It lives in games because it lists the club's events; the other club pages are in clubs.
"""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubs.burraco.rules_words import describe_burraco
from clubs.models import Club, League
from clubs.views import describe, organiser_required
from games.models import Event


@organiser_required
def club_manage(request: HttpRequest, club: Club) -> HttpResponse:
    events = (
        Event.objects.filter(club=club)
        .select_related("league")
        .annotate(round_count=Count("rounds", distinct=True))
        .order_by("-starts_at", "-id")[:50]
    )
    leagues = League.objects.filter(club=club).annotate(event_count=Count("events"))
    return render(
        request,
        "clubs/manage.html",
        {
            "club": club,
            "events": events,
            "leagues": leagues,
            # The rules of the game(s) the club plays: a Burraco club's are not Barbu's.
            "rules": describe(club.ruleset) if club.plays(Club.Games.BARBU) else [],
            "burraco_rules": describe_burraco(club.burraco_ruleset)
            if club.plays(Club.Games.BURRACO)
            else [],
        },
    )
