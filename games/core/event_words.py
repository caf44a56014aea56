"""The organiser's messages about an event as a whole, in words that agree with it: an
evening ("serata", "velada", "soirée") is feminine where a tournament is not, so each has
its own entry (pgettext context "evening" or "tournament")."""

from __future__ import annotations

from django.utils.translation import pgettext

from games.models import Event


def event_words(event: Event, what: str) -> str:
    """The organiser's message that `event` was created, closed or reopened, in words that
    agree with it: an evening is feminine in it/es/fr ("creata"), a tournament is not."""
    name = {"name": event.name}
    if event.kind == Event.Kind.TOURNAMENT:
        words = {
            "created": pgettext("tournament", "%(name)s created."),
            "closed": pgettext("tournament", "%(name)s is closed."),
            "reopened": pgettext(
                "tournament", "%(name)s is open again: its last round may enter deals."
            ),
        }
    else:
        words = {
            "created": pgettext("evening", "%(name)s created."),
            "closed": pgettext("evening", "%(name)s is closed."),
            "reopened": pgettext(
                "evening", "%(name)s is open again: its last round may enter deals."
            ),
        }
    return words[what] % name
