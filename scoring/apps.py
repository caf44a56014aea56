"""The scoring app: standings, rankings and ratings, and the tasks computing them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from clubs.signals import player_merging
        from games.core.signals import deals_changed
        from scoring import receivers

        deals_changed.connect(
            receivers.on_deals_changed, dispatch_uid="scoring.standings_on_deals_changed"
        )
        player_merging.connect(
            receivers.drop_merged_player_rows, dispatch_uid="scoring.drop_merged_player_rows"
        )
        # Once per migrate (sent for each app; this one's only).
        post_migrate.connect(
            receivers.rebuild_after_migrate, sender=self, dispatch_uid="scoring.rebuild_migrated"
        )
