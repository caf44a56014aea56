"""The table-side entry pages (a phone at the table, opened from the table card's QR code)."""

from django.urls import path

from games.barbu import table_views as views_table
from games.burraco import event_table_views as burraco_day
from games.burraco import free_views as burraco_free
from games.burraco import table_views as burraco

urlpatterns = [
    # A free-match evening's table card: two pairs sit down at that table.
    path("t/free/<str:key>/", burraco_free.table_sit, name="burraco-free-sit"),
    # A tournament's table card for the whole day: that table's score card of every turn.
    path("t/e/<str:key>/", burraco_day.table_of_day, name="burraco-table-of-day"),
    path("t/<str:key>/", views_table.table_entry, name="table-entry"),
    path("t/<str:key>/deal/", views_table.table_deal, name="table-deal"),
    path("t/<str:key>/seat/", views_table.table_seat, name="table-seat"),
    path(
        "t/<str:key>/deals/<int:number>/confirm/",
        views_table.table_confirm,
        name="table-confirm",
    ),
    path("t/<str:key>/state/", views_table.table_state, name="table-state"),
    # A Burraco table's score card.
    path("t/<str:key>/card/", burraco.card_page, name="burraco-card"),
    path("t/<str:key>/card/state/", burraco.card_state, name="burraco-card-state"),
    path("t/<str:key>/card/line/", burraco.card_line, name="burraco-card-line"),
    path("t/<str:key>/card/hand/", burraco.card_hand, name="burraco-card-hand"),
    path("t/<str:key>/card/confirm/", burraco.card_confirm_view, name="burraco-card-confirm"),
    path("t/<str:key>/card/preview/", burraco.card_preview, name="burraco-card-preview"),
    path("t/<str:key>/card/undo/", burraco.card_undo, name="burraco-card-undo"),
    path("t/<str:key>/card/rematch/", burraco.card_rematch, name="burraco-card-rematch"),
]
