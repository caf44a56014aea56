"""Signals of the games app, sent only after the transaction that caused them commits."""

from django.dispatch import Signal

# Sent with game_ids (list[int]) and event_ids (list[int]) once deals are stored or changed.
deals_changed = Signal()
