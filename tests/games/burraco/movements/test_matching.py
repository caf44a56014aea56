"""The no_rematch pairing is a true minimum, checked against brute force and the full graph."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from games.burraco.movements.matching import _edge_cost, pair_ranks


def _all_pairings(ranks: list[int]):
    if not ranks:
        yield []
        return
    first, rest = ranks[0], ranks[1:]
    for i, other in enumerate(rest):
        for tail in _all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def _key(pairing, met) -> tuple[int, int, int]:
    """(rematches, sum of distances, sum of squared distances): smaller is better."""
    return (
        sum(b in met[a] for a, b in pairing),
        sum(abs(a - b) for a, b in pairing),
        sum((a - b) ** 2 for a, b in pairing),
    )


def _met_sets(count: int, edges: list[tuple[int, int]]) -> list[set[int]]:
    met: list[set[int]] = [set() for _ in range(count)]
    for a, b in edges:
        if a != b:
            met[a].add(b)
            met[b].add(a)
    return met


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda half: st.tuples(
            st.just(2 * half),
            st.lists(
                st.tuples(st.integers(0, 2 * half - 1), st.integers(0, 2 * half - 1)), max_size=30
            ),
        )
    )
)
def test_equals_brute_force(case: tuple[int, list[tuple[int, int]]]) -> None:
    count, edges = case
    met = _met_sets(count, edges)
    pairing = pair_ranks(count, met)
    assert sorted(r for pair in pairing for r in pair) == list(range(count))
    best = min(_key(p, met) for p in _all_pairings(list(range(count))))
    assert _key(pairing, met) == best


def _previous_turns(count: int, turns: int, rng: random.Random) -> list[set[int]]:
    """Earlier opponents as a tournament makes them: random turns, then Danese-like turns."""
    met: list[set[int]] = [set() for _ in range(count)]
    for turn in range(turns):
        order = list(range(count))
        if turn % 2 == 0:
            rng.shuffle(order)
        else:  # neighbours in a shuffled-by-a-little ranking
            order.sort(key=lambda r: r + rng.uniform(-3, 3))
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
    return met


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(0, 10), st.integers(0, 10**6))
def test_pruned_graph_loses_nothing(half: int, turns: int, seed: int) -> None:
    """Against the minimum over the complete graph (the exchange lemma, checked)."""
    count = 2 * half
    met = _previous_turns(count, turns, random.Random(seed))
    pairing = pair_ranks(count, met)
    full = nx.Graph()
    for a in range(count):
        for b in range(a + 1, count):
            full.add_edge(a, b, weight=-_edge_cost(b - a, b in met[a], count))
    reference = nx.max_weight_matching(full, maxcardinality=True)
    assert _key(pairing, met) == _key([tuple(sorted(e)) for e in reference], met)


def test_a_rematch_only_when_every_pairing_has_one() -> None:
    # 0 met everyone: one rematch is unavoidable; the nearest, and 2 v 3 beside it.
    met = _met_sets(4, [(0, 1), (0, 2), (0, 3)])
    assert pair_ranks(4, met) == [(0, 1), (2, 3)]


def test_ties_go_to_the_smaller_squares() -> None:
    # 0 met 1: 0v2 + 1v3 and 0v3 + 1v2 both cost 4; a referee seats 1st v 3rd, 2nd v 4th.
    assert pair_ranks(4, _met_sets(4, [(0, 1)])) == [(0, 2), (1, 3)]
