"""Running a Burraco pair tournament: the services that write its rows (docs/rules/burraco.md).

tournaments.py  create a tournament, enter, check in and withdraw pairs, seat a turn
scorecards.py   a table's hands submitted, the score card confirmed or disputed,
                the referee's corrections and penalties
hand_reading.py a hand as a table sends it, read and scored by the engine
hand_preview.py the preview of a hand being typed, the breakdown of a counted hand
hand_undo.py    the entering phone takes back its last hand before confirmation
turn_clock.py   the turn's time: the phones' clock, hands after time, late tables
results.py      each pair's turn result written from its score card (or its bye), and
                the ranking so far as the pure ranking (scoring.engine.burraco.ranking) gives it
"""
