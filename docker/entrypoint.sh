#!/bin/sh
# Start one role of Tavolo: web (gunicorn), worker (Celery), beat (Celery beat), or any
# command given. Before that: wait for the database, and refuse to start while Django's
# deployment check warns (an insecure SECRET_KEY, DEBUG on, HTTPS off...).
set -eu

role="${1:-web}"

python - <<'PY'
import os
import sys
import time

import django

django.setup()
from django.db import connection

deadline = time.monotonic() + int(os.environ.get("DB_WAIT_SECONDS", "60"))
while True:
    try:
        connection.ensure_connection()
        break
    except Exception as error:
        if time.monotonic() > deadline:
            sys.exit(f"entrypoint: the database is not reachable: {error}")
        print("entrypoint: waiting for the database...", flush=True)
        time.sleep(2)
PY

python manage.py check --deploy --fail-level WARNING

case "$role" in
  web)
    # Only one web container should migrate (MIGRATE=1); the others start after it.
    if [ "${MIGRATE:-0}" = "1" ]; then
      python manage.py migrate --noinput
    fi
    exec gunicorn config.wsgi:application \
      --bind "0.0.0.0:${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-3}" \
      --timeout "${WEB_TIMEOUT:-30}" \
      --access-logfile - \
      --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-*}"
    ;;
  worker)
    exec celery -A config worker \
      --loglevel "${LOG_LEVEL:-INFO}" \
      --concurrency "${WORKER_CONCURRENCY:-2}"
    ;;
  beat)
    # Exactly one beat for the whole site, or periodic tasks run more than once.
    exec celery -A config beat \
      --loglevel "${LOG_LEVEL:-INFO}" \
      --schedule /home/tavolo/celerybeat-schedule
    ;;
  *)
    exec "$@"
    ;;
esac
