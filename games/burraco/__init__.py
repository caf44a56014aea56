"""Running a Burraco pair tournament: the services that write its rows (docs/rules/burraco.md).

tournaments.py  create a tournament, enter, check in and withdraw pairs, seat a turn
scorecards.py   a table's hands submitted, the score card confirmed or disputed,
                the referee's corrections and penalties
results.py      each pair's turn result written from its score card (or its bye), and
                the ranking so far as the pure ranking (scoring.engine.burraco.ranking) gives it
"""
