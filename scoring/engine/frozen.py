"""A read-only dict for the parts of a rule set that are mappings (points, bonuses, VP
tables), so that every game's Ruleset stays hashable, comparable and picklable."""

from __future__ import annotations

from typing import Any


class Frozen(dict):  # type: ignore[type-arg]
    """A dict that refuses every change after it is built."""

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("rule sets are read-only; use ruleset_from_json to change them")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]
    __ior__ = _read_only  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))
