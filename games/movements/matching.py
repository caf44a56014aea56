"""Minimum-cost pairing of ranked pairs (Danese ``no_rematch``), exact.

The pairs are ranks 0..n-1 (n even). Pairing ranks a and b costs their rank
distance |a - b|; ties between pairings of the same total go to the smaller sum
of squared distances (1v3 and 2v4 rather than 1v4 and 2v3, as a referee would
seat them). Pairs that met before may only play again when no pairing without a
rematch exists, and then the pairing has the fewest rematches first, then the
smallest distance.

The solver is networkx's maximum-weight matching (Edmonds' blossom algorithm,
exact, integer weights) on the weights ``BIG - cost``, with maximum cardinality:
every perfect matching has n/2 edges, so the heaviest is the cheapest.

Speed: the complete graph of 200 pairs has 19,900 edges and takes about a
second; the graph we hand over keeps only the edges an optimal pairing can use.
Lemma (an exchange argument, in the module's tests too): let M be a rematch-free
perfect matching minimal for (distance, squares), and (a, b) in M with a < b.
For each x strictly between a and b that met neither a nor b, with partner y:
if y > b, {a-x, b-y} is cheaper; if y < a, {a-y, b-x} is cheaper; if y lies
between a and b, both are no dearer and have smaller squares. M being minimal,
the rematch-free alternative is missing: y met b (y > b), y met a (y < a), or y
met both. Those y are distinct, so the x number at most |met(a) ∪ met(b)|, and
b - a - 1 <= |met(a)| + |met(b)| + |met(a) ∪ met(b)| <= 2 (|met(a)| + |met(b)|).
Longer edges are dropped;
if the rest has no perfect matching, no rematch-free pairing exists at all, and
the complete graph (rematches weighted above any distance) is solved instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx


def _edge_cost(distance: int, rematch: bool, count: int) -> int:
    """(rematches, distance, squared distance) folded into one integer, lexicographically."""
    squares_bound = count * count * count  # above any pairing's sum of squared distances
    distance_bound = count * count * squares_bound  # above any pairing's distance term
    return (distance_bound if rematch else 0) + distance * squares_bound + distance * distance


def _solve(graph: nx.Graph, count: int) -> list[tuple[int, int]] | None:
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    if 2 * len(matching) != count:
        return None
    return sorted(tuple(sorted(edge)) for edge in matching)


def pair_ranks(count: int, met: Sequence[set[int] | frozenset[int]]) -> list[tuple[int, int]]:
    """The cheapest pairing of ranks 0..count-1 (count even), as (better, worse) rank pairs.

    ``met[r]`` holds the ranks that rank r has played before.
    """
    if count % 2:
        raise ValueError("pair_ranks needs an even count")
    if count == 0:
        return []
    top = _edge_cost(count, True, count) + 1
    sparse = nx.Graph()
    sparse.add_nodes_from(range(count))
    widest = max(len(m) for m in met)
    for a in range(count):
        met_a = met[a]
        # |met(a) ∪ met(b)| <= |met(a)| + |met(b)|: a slightly wider reach, still exact.
        for b in range(a + 1, min(count, a + 2 + 2 * (len(met_a) + widest))):
            if b in met_a or b - a > 1 + 2 * (len(met_a) + len(met[b])):
                continue
            sparse.add_edge(a, b, weight=top - _edge_cost(b - a, False, count))
    pairing = _solve(sparse, count)
    if pairing is not None:
        return pairing
    full = nx.Graph()
    for a in range(count):
        for b in range(a + 1, count):
            full.add_edge(a, b, weight=top - _edge_cost(b - a, b in met[a], count))
    pairing = _solve(full, count)
    assert pairing is not None  # a complete graph on an even count has a perfect matching
    return pairing
