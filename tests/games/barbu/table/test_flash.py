"""Flash messages (templates/base.html): a banner inside <main>, read out by screen readers."""

from __future__ import annotations

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.template.loader import render_to_string
from django.test import RequestFactory

from tests.games.barbu.table.pages import HEARTS_DEAL, entry_url, post_deal


def test_a_saved_deal_is_told_in_a_status_banner_inside_main(client, game):
    answer = post_deal(client, game, HEARTS_DEAL, 1)
    assert answer.status_code == 302
    html = client.get(entry_url(game)).content.decode()
    main = html.split("<main>", 1)[1].split("</main>", 1)[0]
    assert '<div class="flash success" role="status">Deal 1 saved.</div>' in main
    assert 'class="messages"' not in html
    # Shown once.
    assert "Deal 1 saved." not in client.get(entry_url(game)).content.decode()


def test_an_error_is_an_alert(db):
    request = RequestFactory().get("/")
    messages = [
        Message(constants.ERROR, "Write the guest's name."),
        Message(constants.INFO, "Saved."),
    ]
    html = render_to_string(
        "base.html",
        {"messages": messages, "DEFAULT_MESSAGE_LEVELS": constants.DEFAULT_LEVELS},
        request=request,
    )
    main = html.split("<main>", 1)[1]
    assert '<div class="flash error" role="alert">Write the guest&#x27;s name.</div>' in main
    assert '<div class="flash info" role="status">Saved.</div>' in main
