"""The games app: events, rounds, tables, seats, games, deals, seating and entry."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from clubs.signals import player_merging
        from games.merging import move_player_rows

        player_merging.connect(move_player_rows, dispatch_uid="games.move_player_rows")
