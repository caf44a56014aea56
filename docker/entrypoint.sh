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
    # Only the proxy may reach gunicorn: it listens on this container's loopback and its
    # own address on the compose network, which compose publishes on the host's 127.0.0.1
    # where the proxy is; never on 0.0.0.0. BIND says otherwise (config/gunicorn_conf.py,
    # which warns at start when NUM_PROXIES is set and an address is public).
    if [ -z "${BIND:-}" ]; then
      BIND="$(python -c '
import os, socket, sys
port = os.environ.get("PORT", "8000")
try:
    own = socket.gethostbyname_ex(socket.gethostname())[2]
except OSError as error:
    sys.exit(f"entrypoint: this container has no address by its name ({error}); set BIND")
print(",".join(f"{host}:{port}" for host in dict.fromkeys(["127.0.0.1", *own])))
')"
      export BIND
    fi
    exec gunicorn -c config/gunicorn_conf.py config.wsgi:application
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
