"""The REST API (/api/v1/), its OpenAPI schema and interactive documentation."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from games.api import deals as deal_views
from games.api import free_matches, tournament_closing, tournaments, turn_seating, views

router = SimpleRouter()
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("events", views.EventViewSet, basename="event")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("tables", views.TableViewSet, basename="table")
router.register("games", views.GameViewSet, basename="game")
router.register("deals", views.DealViewSet, basename="deal")

v1 = [
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("games/<int:pk>/deals/", deal_views.GameDealsView.as_view(), name="game-deals"),
    path(
        "games/<int:pk>/deals/<int:number>/",
        deal_views.DealDetailView.as_view(),
        name="game-deal",
    ),
    path(
        "games/<int:pk>/deals/<int:number>/confirm/",
        deal_views.DealConfirmView.as_view(),
        name="game-deal-confirm",
    ),
    # Burraco tournaments: the tournament, a table's score card, its hands.
    path("tournaments/<int:pk>/", tournaments.TournamentView.as_view(), name="tournament"),
    path(
        "tournaments/<int:pk>/turns/",
        turn_seating.TurnSeatView.as_view(),
        name="tournament-turns",
    ),
    # An evening of free matches: a match started at a table (games/api/free_matches.py).
    path(
        "tournaments/<int:pk>/matches/",
        free_matches.MatchStartView.as_view(),
        name="tournament-matches",
    ),
    path(
        "tournaments/<int:pk>/close/",
        tournament_closing.TournamentCloseView.as_view(),
        name="tournament-close",
    ),
    path(
        "tournaments/<int:pk>/reopen/",
        tournament_closing.TournamentReopenView.as_view(),
        name="tournament-reopen",
    ),
    path("games/<int:pk>/card/", tournaments.ScoreCardView.as_view(), name="game-card"),
    path("games/<int:pk>/hands/", tournaments.HandsView.as_view(), name="game-hands"),
    path(
        "games/<int:pk>/card/confirm/",
        tournaments.CardConfirmView.as_view(),
        name="game-card-confirm",
    ),
    *router.urls,
    # Event and league standings, player history and rating (the standings engineer's).
    path("", include("scoring.urls_api")),
]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI from the sidecar's static files; its start script is a separate request
    # (?script) and the page has no inline style, so the site's CSP needs no exception.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("v1/", include((v1, "api"), namespace="v1")),
    # Anything else under /api/ (a negative id, a typo): 404 in the API's JSON error shape.
    re_path(r"^", views.not_found, name="api-not-found"),
]
