"""Signals of the clubs app, for the apps built on it."""

from django.dispatch import Signal

# Sent by clubs.services.player_merge inside its transaction, after both players are locked
# and checked and before the clubs app changes its own rows, with club, keep and duplicate
# (Player). Each app moves its own rows of `duplicate` to `keep`; a receiver that finds the
# merge impossible raises clubs.services.ClubError, which rolls the whole merge back.
player_merging = Signal()
