"""The cache of bench/bench_api.py's cold server: the site's Redis cache, except that a
read takes the value out (GETDEL, one round trip like GET), so no request finds what
another stored before it. Writes, adds and counters are the site's: a cold request
pays the miss, the work and the store, as on a live evening after each new deal."""

from __future__ import annotations

from typing import Any

from clubs.cache import RedisCache


class ForgetfulRedisCache(RedisCache):
    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        value = client.getdel(key)
        return default if value is None else self._cache._serializer.loads(value)

    def get_many(self, keys: Any, version: int | None = None) -> dict:
        return {k: v for k in keys if (v := self.get(k, version=version)) is not None}
