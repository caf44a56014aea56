"""Signals of the games app, sent only after the transaction that caused them commits."""

from django.dispatch import Signal

# Sent with game_ids (list[int]) and event_ids (list[int]) once deals are stored or changed;
# optionally complete_league_ids (list[int | None]): the leagues of the complete games among
# game_ids, when the sender knows them (the receiver reads them otherwise); optionally
# burraco_rated (bool): a Burraco score card was confirmed or corrected.
deals_changed = Signal()
