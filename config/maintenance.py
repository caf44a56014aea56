"""Periodic housekeeping run by Celery beat: expired login sessions are deleted daily."""

from __future__ import annotations

from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone


# Its result (how many went) is kept for a caller who waits for it (CELERY_TASK_IGNORE_RESULT).
@shared_task(name="maintenance.clear_sessions", ignore_result=False)
def clear_sessions() -> int:
    """Delete expired sessions (Django's `clearsessions`); returns how many went."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
