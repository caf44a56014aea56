"""The shortest names that tell a table's players apart: pure, no Django.

Buttons and score columns on a phone have room for a first name, not for "Paola
Giordano"; but two Paolas at one table must not become two "Paola" buttons. Each player
gets the shortest of: the first name; the first name and the surname's initial ("Paola
G."); then more of the surname ("Paola Gi."), and the full name as a last resort. A
name is shortened only as far as it stays different from every other player's at the
table, so the shortening of one player never depends on luck of ordering.
"""

from __future__ import annotations

from collections.abc import Sequence


def _candidates(name: str) -> list[str]:
    """The ways to write one name, shortest first, the full name (tidied) last."""
    words = name.split()
    if len(words) < 2:
        return [" ".join(words) or name]
    first, rest = words[0], words[1:]
    surname = " ".join(rest)
    out = [first]
    # An abbreviation drops two letters at least: "Rossin." saves nothing on "Rossini".
    for length in range(1, len(surname) - 1):
        part = surname[:length].rstrip()
        candidate = f"{first} {part}."
        if candidate not in out:
            out.append(candidate)
    out.append(" ".join(words))
    return out


def short_names(names: Sequence[str]) -> list[str]:
    """For each name, the shortest form no other name at the table shares, in order.

    A form is taken for a player only if it is not also a way to write another player's
    name, so "Anna" is not given to Anna Rossi when another player is "Anna Bianchi"
    (both would read "Anna"). Identical full names stay identical: nothing can tell
    them apart.
    """
    options = [_candidates(name) for name in names]
    # "Maria Rossi." would read as "Maria Rossi": forms are compared without their dots,
    # and an abbreviation is not given if another player's full name starts with it
    # ("Maria Ross." next to "Maria Rossi").
    plain = [{form.replace(".", "") for form in opts} for opts in options]
    fulls = [opts[-1] for opts in options]
    result = []
    for i, mine in enumerate(options):
        others = [j for j in range(len(options)) if j != i]
        chosen = mine[-1]
        for form in mine:
            bare = form.replace(".", "")
            if any(bare in plain[j] for j in others):
                continue
            if form.endswith(".") and any(fulls[j].startswith(bare) for j in others):
                continue
            chosen = form
            break
        result.append(chosen)
    return result


def name_pairs(names: Sequence[str]) -> list[dict[str, str]]:
    """Each name as {"full", "short"}: what templates/_short_name.html shows."""
    return [
        {"full": full, "short": short}
        for full, short in zip(names, short_names(names), strict=True)
    ]


def unique_names(names: list[str]) -> list[str]:
    """Names for a game record: as entered, with a number added where two are the same."""
    out: list[str] = []
    for name in names:
        label, n = name.strip() or "?", 1
        while label in out:
            n += 1
            label = f"{name.strip()} ({n})"
        out.append(label)
    return out
