"""The phones at a Burraco table, as the score card tests drive them."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse


def phone(table, line: str | None = None) -> Client:
    """A phone at the table (its own session), its line chosen when `line` is given."""
    client = Client()
    if line:
        client.post(reverse("burraco-card-line", args=[table.key]), {"line": line})
    return client


def hand_form(client: Client, table) -> dict[str, str]:
    """The hidden fields the score card's hand form carries, as the phone shows them."""
    page = client.get(reverse("burraco-card", args=[table.key])).content.decode()
    form = page[page.index('id="hand-entry"') :]
    return dict(re.findall(r'<input type="hidden" name="(number|entry_key)" value="([^"]*)"', form))
