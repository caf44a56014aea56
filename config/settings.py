"""Settings, all from environment variables; with none set, the embedded default runs.

Embedded default: SQLite in the project folder, Celery tasks run eagerly in-process,
local-memory cache. Production: DATABASE_URL (PostgreSQL), REDIS_URL (broker,
results and cache), SECRET_KEY, DEBUG=0, ALLOWED_HOSTS, HTTPS=1. See README.md.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# Only for the embedded default: production must set SECRET_KEY (the docker entrypoint
# refuses to start while `check --deploy` warns about it).
SECRET_KEY = (
    os.environ.get("SECRET_KEY") or "django-insecure-tavolo-development-key-never-in-production"
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "clubs",
    "games",
    "scoring",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # HTML and JSON gzipped for clients that ask (a 150-table live part: 390 KiB -> ~15 KiB).
    # BREACH needs a secret in a compressed body beside text an attacker controls; the only
    # secret in our pages is the CSRF token, which Django masks afresh on every response, and
    # GZipMiddleware also pads with random bytes (Django >= 4.2). 304s carry no body.
    "django.middleware.gzip.GZipMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # A request line over REQUEST_LINE_LIMIT: 414, in the API's error shape under /api/.
    "config.request_line.RequestLineLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A chunked request body (no Content-Length) to the API: read within the size limit.
    "config.chunked.ChunkedBodyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Django's, but unprefixed URLs keep the visitor's language (clubs/middleware.py).
    "clubs.middleware.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A club evening is twenty tables writing at once: the write-ahead log lets readers
    # go on while one writes, IMMEDIATE takes the write lock at BEGIN (no deadlocking
    # upgrade from a read lock), and the busy timeout queues writers instead of failing.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file (not memory) so threads share it; one per process, so that two
    # test runs on one machine never write to the same file.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
        Path(tempfile.gettempdir()) / f"tavolo-test-{os.getpid()}.sqlite3"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -----------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# How long a request waits for Redis to connect or to answer one command before taking it
# for dead: a live Redis answers in well under a millisecond. A request meeting a dead or
# silent Redis waits about this long once or twice (the cache, then the queue), never more
# (tests/config/test_redis_wait.py).
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "0.5"))
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, with one client and connection pool per process (clubs/cache.py).
            "BACKEND": "clubs.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "tavolo"),
            # Redis down answers as a miss (clubs/cache.py), after one timeout at most.
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # No broker: tasks run in-process, at the moment they are queued (after commit).
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# Reliability: a task is acknowledged only once it has run, and goes back to the queue
# when its worker dies; a worker takes one task at a time. Tasks must be idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_TIME_LIMIT = 600
CELERY_TASK_SOFT_TIME_LIMIT = 540
# A task whose worker died is handed out again after the visibility timeout: longer
# than the hard time limit (a running task is never handed to a second worker), short
# enough that a lost task runs again the same evening. Standings do not wait for it: the
# sweep below rebuilds them (scoring/healing.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 900,
    # Without them a publish to a Redis that went silent (its host gone, a network cut)
    # waits for ever: the deal's request with it.
    "socket_connect_timeout": REDIS_TIMEOUT,
    "socket_timeout": REDIS_TIMEOUT,
}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
# A task sent by a request (after a deal's commit) is tried once: a send that fails is
# Redis failing right then (a connection that Redis closed while it sat in the pool is
# replaced before the send, by redis-py), and the request gives up on it and answers
# (scoring/tasks.py): the standings sweep rebuilds what it would have once Redis is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
# Nobody reads a standings task's result: keeping one would make every send subscribe to
# it in Redis, and every run store it. The tasks whose result is read say so
# (config/health.py, config/maintenance.py).
CELERY_TASK_IGNORE_RESULT = True
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_TIMEOUT
# Losing Redis does not stop a worker: it retries its connection for ever, at start too.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = "UTC"
# Standings (scoring/tasks.py, scoring/healing.py): a queue of their own if set; the sweep
# every STANDINGS_SWEEP_SECONDS requeues any scope whose games changed within
# STANDINGS_SWEEP_WINDOW seconds and whose standings are behind them, past an "already
# queued" mark older than STANDINGS_HEAL_GRACE seconds.
STANDINGS_QUEUE = os.environ.get("STANDINGS_QUEUE") or None
STANDINGS_SWEEP_SECONDS = float(os.environ.get("STANDINGS_SWEEP_SECONDS", "30"))
STANDINGS_SWEEP_WINDOW = int(os.environ.get("STANDINGS_SWEEP_WINDOW", str(24 * 60 * 60)))
STANDINGS_HEAL_GRACE = float(os.environ.get("STANDINGS_HEAL_GRACE", "15"))
_standings_options = {"queue": STANDINGS_QUEUE} if STANDINGS_QUEUE else {}
# Run by exactly one `celery -A config beat` (docker/compose.yaml); add entries, keep the name.
CELERY_BEAT_SCHEDULE = {
    "clear-expired-sessions": {"task": "maintenance.clear_sessions", "schedule": 24 * 60 * 60},
    # Safety net behind the per-deal tasks: every standing and rating rebuilt from the deals.
    "rebuild-standings": {"task": "scoring.rebuild_all", "schedule": 24 * 60 * 60},
    # Standings left behind (a worker killed with its task, Redis down) rebuilt within a
    # sweep; a sweep not run before the next one is dropped, not piled up.
    "heal-standings": {
        "task": "scoring.heal_standings",
        "schedule": STANDINGS_SWEEP_SECONDS,
        "options": {**_standings_options, "expires": STANDINGS_SWEEP_SECONDS},
    },
}

# --- Auth, languages, time ------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (clubs/login_limits.py): this many wrong passwords for one user name, or
# from one client address, within LOGIN_LOCKOUT_SECONDS lock it for LOGIN_LOCKOUT_SECONDS.
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS", "30"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
# Proxies in front of the site that append the client's address to X-Forwarded-For: the
# client address (login limits, API throttles) is the one the outermost of them saw. 0:
# REMOTE_ADDR, and X-Forwarded-For is ignored (a client could write anything in it).
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("it", _("Italian")),
    ("es", _("Spanish")),
    ("de", _("German")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_I18N = True
# One date style per language (config/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
# Where collectstatic writes (STATIC_ROOT: a benchmark collects into its own folder, so a
# test run beside it never sees the checkout's folder half-written).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files need `collectstatic` first (the docker image runs it).
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

# Where the pages' Help links send a reader for the guides (docs/): empty, this site serves
# them at /docs/ from site/ (`make docs-build`; built on demand while DEBUG is on).
DOCS_URL = os.environ.get("DOCS_URL", "")

# --- HTTPS and security headers (production behind a TLS proxy: HTTPS=1) -----------------
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if env_bool("TRUST_PROXY_HEADERS", HTTPS):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- REST framework -------------------------------------------------------------------
REST_FRAMEWORK = {
    # Those of every API view (games/api/views.py ApiMixin): a token, a table's key, a
    # session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "games.api.permissions.TableKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": ["games.api.throttles.WritesThrottle"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "auth": os.environ.get("THROTTLE_AUTH", "20/min"),
        "writes": os.environ.get("THROTTLE_WRITES", "600/min"),
    },
    # The client address of the throttles: as NUM_PROXIES above (clubs/login_limits.py).
    "NUM_PROXIES": NUM_PROXIES,
    # One JSON error shape for every API error (games/api/errors.py).
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tavolo API",
    "DESCRIPTION": "Barbu club results: submit deals from the tables, read games, "
    "events, leagues, standings and ratings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the site's own static files (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a "status" and the contracts appear twice: name each choice set.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "DealStatusEnum": "games.models.Deal.Status",
        "EventStatusEnum": "games.models.Event.Status",
        "RoundStatusEnum": "games.models.Round.Status",
        "ContractEnum": "games.api.serializers.CONTRACT_CHOICES",
        "LineEnum": "games.burraco.scorecards.LINES",
        # The Burraco answers of the standings endpoint (a tournament, free matches).
        "BurracoGameEnum": [("burraco", "burraco")],
        # An evening's and a league season's answers of free matches.
        "FreeFormatEnum": [("free", "free")],
    },
}

# Content-Security-Policy (django-csp): scripts, styles, images and fonts from this site
# only, no inline script or style, no eval; data: images for the SVG icons of Swagger
# UI's stylesheet. Forms post to this site only; no site may frame the pages.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # One line per task run is noise in a worker's log and in `make demo`; failures
        # are still logged (ERROR).
        "celery.app.trace": {"level": os.environ.get("CELERY_TRACE_LOG_LEVEL", "WARNING")},
    },
}

DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
# The longest request line (method, address with its query, protocol) answered; longer is
# a 414 (config/request_line.py). Below gunicorn's own limit (config/gunicorn_conf.py), so
# that Tavolo answers it, in the API's error shape under /api/.
REQUEST_LINE_LIMIT = 4094
