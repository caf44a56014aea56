"""API endpoints of standings and ratings, included under /api/v1/ by config/urls_api.py."""

from django.urls import path

from scoring import api

urlpatterns = [
    path(
        "events/<int:pk>/standings/",
        api.EventStandingsView.as_view(),
        name="event-standings",
    ),
    path(
        "leagues/<int:pk>/standings/",
        api.LeagueStandingsView.as_view(),
        name="league-standings",
    ),
    path(
        "tournaments/<int:pk>/standings/",
        api.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    path("players/<int:pk>/history/", api.PlayerHistoryView.as_view(), name="player-history"),
    path("players/<int:pk>/rating/", api.PlayerRatingView.as_view(), name="player-rating"),
    path("players/<int:pk>/burraco/", api.PlayerBurracoView.as_view(), name="player-burraco"),
]
