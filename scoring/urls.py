"""Public pages of the scoring app: clubs, evenings, leagues, players, score sheets."""

from django.urls import path

from scoring import views
from scoring.burraco import pages as burraco

app_name = "scoring"
urlpatterns = [
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("events/<int:pk>/", views.event, name="event"),
    path("events/<int:pk>/live/", views.event_live, name="event-live"),
    path("events/<int:pk>/standings.csv", views.event_csv, name="event-csv"),
    path("events/<int:pk>/results.pdf", views.event_pdf, name="event-pdf"),
    # A Burraco tournament's entries' pages, papers for the room and the room's screen.
    path("events/<int:pk>/pairs/<int:number>/", burraco.entry_page, name="burraco-entry"),
    path(
        "events/<int:pk>/turns/<int:number>/pairings.pdf",
        burraco.pairing_sheet,
        name="burraco-pairings",
    ),
    path(
        "events/<int:pk>/turns/<int:number>/ranking.pdf",
        burraco.turn_ranking,
        name="burraco-turn-ranking",
    ),
    path("events/<int:pk>/screen/", burraco.room_screen, name="burraco-screen"),
    path("leagues/<int:pk>/", views.league, name="league"),
    path("leagues/<int:pk>/standings.csv", views.league_csv, name="league-csv"),
    path("players/<int:pk>/", views.player, name="player"),
    path("games/<int:pk>/", views.game, name="game"),
]
