"""Abstract bases of the games app's models (imported by games.models and its Burraco half)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Revision(models.Model):
    """What every audit trail keeps of a change (a Barbu deal's, a Burraco score card's):
    which version of what, its content before and after, who, why and when."""

    number = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_label = models.CharField(max_length=80, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
