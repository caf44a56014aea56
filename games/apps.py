"""The games app: events, rounds, tables, seats, games, deals, seating and entry."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from clubs.models import Club
        from clubs.signals import player_merging
        from games.core import live
        from games.core.merging import move_player_rows
        from games.core.signals import deals_changed
        from games.models import BurracoPair, Event, Round

        player_merging.connect(move_player_rows, dispatch_uid="games.move_player_rows")
        # The live pages' versions (games/core/live.py): dropped when what they show changes.
        deals_changed.connect(live.on_deals_changed, dispatch_uid="games.live_deals")
        for signal in (post_save, post_delete):
            signal.connect(live.on_event_saved, sender=Event, dispatch_uid="games.live_event")
            signal.connect(live.on_round_saved, sender=Round, dispatch_uid="games.live_round")
            signal.connect(live.on_pair_saved, sender=BurracoPair, dispatch_uid="games.live_pair")
        post_save.connect(live.on_club_saved, sender=Club, dispatch_uid="games.live_club")
