"""The clubs app: clubs, players, memberships and roles, leagues."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.db.models.signals import pre_migrate

        from clubs.downgrades import refuse_lossy_downgrade

        # Once per migrate (sent for each app; this one's only): before anything changes.
        pre_migrate.connect(refuse_lossy_downgrade, sender=self, dispatch_uid="clubs.downgrades")
