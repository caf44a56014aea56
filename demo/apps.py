"""The demo app: loads the demo club through every other app's services, above them all."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    name = "demo"
    verbose_name = _("Demo")
