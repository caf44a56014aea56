"""The organiser's club and evening pages under /manage/<club slug>/ (the rest: clubs.urls)."""

from django.urls import path

from games import views as shared
from games.barbu import organiser_views as views
from games.burraco import desk_views as burraco
from games.burraco import entry_views as entries
from games.burraco import event_table_views as burraco_day
from games.burraco import free_views as burraco_free
from games.core import club_views as views_club

E = "manage/<slug:slug>/events/<int:event_id>/"
R = E + "rounds/<int:number>/"

urlpatterns = [
    path("manage/<slug:slug>/", views_club.club_manage, name="club-manage"),
    path("manage/<slug:slug>/events/new/", shared.event_create, name="event-create"),
    path(E, views.event_dashboard, name="event-dashboard"),
    path(E + "checkin/", views.event_checkin, name="event-checkin"),
    path(E + "guest/", views.event_guest, name="event-guest"),
    path(E + "seat/", views.round_seat, name="round-seat"),
    path(E + "close/", views.event_close, name="event-close"),
    path(E + "reopen/", views.event_reopen, name="event-reopen"),
    path(R, views.round_detail, name="round-detail"),
    path(R + "swap/", views.seat_swap, name="seat-swap"),
    path(R + "cards/", views.table_cards, name="table-cards"),
    path(R + "close/", views.round_close, name="round-close"),
    path(R + "reopen/", views.round_reopen, name="round-reopen"),
    path("manage/<slug:slug>/games/<int:game_id>/", views.game_deals, name="game-deals"),
    # A Burraco tournament's referee's desk.
    path(E + "burraco/", burraco.desk, name="burraco-desk"),
    path(E + "burraco/pairs/", burraco.pair_add, name="burraco-pair-add"),
    path(E + "burraco/pairs/<int:pair_id>/", entries.pair_change, name="burraco-pair-change"),
    path(E + "burraco/pairs/check-in/", entries.checkin_all, name="burraco-checkin-all"),
    path(E + "burraco/pairs/import/", entries.pairs_import, name="burraco-pairs-import"),
    path(E + "burraco/seat/", burraco.turn_seat, name="burraco-turn-seat"),
    path(
        E + "burraco/tournament/close/",
        burraco.tournament_close,
        name="burraco-tournament-close",
    ),
    path(
        E + "burraco/tournament/reopen/",
        burraco.tournament_reopen,
        name="burraco-tournament-reopen",
    ),
    path(E + "burraco/matches/", burraco.match_start, name="burraco-match-start"),
    path(E + "burraco/close/", burraco_free.evening_close, name="burraco-free-close"),
    path(E + "burraco/tables/", burraco_free.table_cards, name="burraco-free-cards"),
    path(R + "penalty/", burraco.penalty, name="burraco-penalty"),
    path(E + "burraco/cards/<int:game_id>/", burraco.card_correct, name="burraco-card-correct"),
    path(R + "score-cards.pdf", burraco.score_cards, name="burraco-score-cards"),
    path(E + "burraco/table-cards.pdf", burraco_day.table_cards, name="burraco-day-cards"),
    path(
        "manage/<slug:slug>/deals/<int:deal_id>/correct/",
        views.deal_correct_view,
        name="deal-correct",
    ),
]
