"""Clubs: the organiser's club pages, under /manage/<club slug>/."""

from django.urls import path

from clubs import views

urlpatterns = [
    path("manage/<slug:slug>/settings/", views.club_settings, name="club-settings"),
    path("manage/<slug:slug>/rules/", views.club_rules, name="club-rules"),
    path("manage/<slug:slug>/players/", views.club_players, name="club-players"),
    path(
        "manage/<slug:slug>/players/<int:player_id>/",
        views.club_player_edit,
        name="club-player-edit",
    ),
    path("manage/<slug:slug>/players/merge/", views.club_players_merge, name="club-players-merge"),
    path(
        "manage/<slug:slug>/players/import/", views.club_players_import, name="club-players-import"
    ),
    path("manage/<slug:slug>/leagues/", views.club_leagues, name="club-leagues"),
    path("manage/<slug:slug>/leagues/new/", views.club_league_edit, name="club-league-create"),
    path(
        "manage/<slug:slug>/leagues/<int:league_id>/",
        views.club_league_edit,
        name="club-league-edit",
    ),
]
