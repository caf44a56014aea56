"""Settings of bench/bench_api.py's "cold" server: the bench settings with a cache that
forgets each value as it is read (bench/api_bench_cache.py), so that every read misses
what an earlier request stored, as after a new deal on a live evening. Its keys have a
prefix of their own: reading takes a value out, and taking the warm server's versions
and pages out too would make the warm reads cold (the cached lists' generation is one
key for all of them)."""

from api_bench_settings import *  # noqa: F403

CACHES = {
    "default": {
        **CACHES["default"],  # noqa: F405
        "BACKEND": "api_bench_cache.ForgetfulRedisCache",
        "KEY_PREFIX": f"{CACHES['default'].get('KEY_PREFIX', '')}-cold",  # noqa: F405
    }
}
