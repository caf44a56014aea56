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
Lemma (an exchange argument; tests/games/burraco/movements/test_matching.py checks it): let M be a
rematch-free
perfect matching minimal for (distance, squares), and (a, b) in M with a < b.
For each x strictly between a and b that met neither a nor b, with partner y:
if y > b, {a-x, b-y} is cheaper; if y < a, {a-y, b-x} is cheaper; if y lies
between a and b, both are no dearer and have smaller squares. M being minimal,
the rematch-free alternative is missing: y met b (y > b), y met a (y < a), or y
met both (y between). Those y are distinct, so such x number at most
|met(a) below a| + |met(b) above b| + |met(a) ∩ met(b) between| (``_may_be_needed``;
adding the x that met a or b, b - a - 1 <= |met(a)| + |met(b)|, which bounds the
scan). Edges failing the test are dropped;
if the rest has no perfect matching, no rematch-free pairing exists at all, and
the complete graph (rematches weighted above any distance) is solved instead.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


def _edge_cost(distance: int, rematch: bool, count: int) -> int:
    """(rematches, distance, squared distance) folded into one integer, lexicographically."""
    squares_bound = count * count * count  # above any pairing's sum of squared distances
    distance_bound = count * count * squares_bound  # above any pairing's distance term
    return (distance_bound if rematch else 0) + distance * squares_bound + distance * distance


def _may_be_needed(a: int, b: int, met_a: Set[int], met_b: Set[int], below_a: int) -> bool:
    """The lemma's test: the x between a and b that met neither are no more than the y
    that could block them (met a below a, met b above b, or met both between)."""
    between = {y for y in met_a | met_b if a < y < b}
    free = b - a - 1 - len(between)
    blocking = below_a + sum(1 for y in met_b if y > b) + len(between & met_a & met_b)
    return free <= blocking


def _solve(graph: nx.Graph, count: int) -> list[tuple[int, int]] | None:
    import networkx as nx  # imported when needed: it takes a good part of a second

    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    if 2 * len(matching) != count:
        return None
    return sorted(tuple(sorted(edge)) for edge in matching)


def pair_ranks(count: int, met: Sequence[set[int] | frozenset[int]]) -> list[tuple[int, int]]:
    """The cheapest pairing of ranks 0..count-1 (count even), as (better, worse) rank pairs.

    ``met[r]`` holds the ranks that rank r has played before; it must be symmetric
    (b in met[a] exactly when a in met[b]), as the pruning relies on it.
    """
    if count % 2:
        raise ValueError("pair_ranks needs an even count")
    if count == 0:
        return []
    import networkx as nx  # imported when needed: it takes a good part of a second

    top = _edge_cost(count, True, count) + 1
    sparse = nx.Graph()
    sparse.add_nodes_from(range(count))
    widest = max(len(m) for m in met)
    for a in range(count):
        met_a = met[a]
        reach = 1 + len(met_a) + widest  # b - a - 1 <= |met(a)| + |met(b)| (the lemma)
        below_a = sum(1 for y in met_a if y < a)
        for b in range(a + 1, min(count, a + reach + 1)):
            if b in met_a or not _may_be_needed(a, b, met_a, met[b], below_a):
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
