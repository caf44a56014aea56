"""Settings of bench/bench_api.py's "cold" server: the bench settings with a cache that
forgets each value as it is read (bench/api_bench_cache.py), so that every read misses
what an earlier request stored, as after a new deal on a live evening."""

from api_bench_settings import *  # noqa: F403

CACHES = {
    "default": {
        **CACHES["default"],  # noqa: F405
        "BACKEND": "api_bench_cache.ForgetfulRedisCache",
    }
}
