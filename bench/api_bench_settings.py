"""Settings of bench/bench_api.py's server: the site's, plus the trivial baseline endpoints."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "api_bench_urls"
