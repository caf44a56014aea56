"""The docker files (Docker cannot run here): compose services, health, and the env they set."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings

DOCKER = Path(settings.BASE_DIR) / "docker"
APP_SERVICES = ("web", "worker", "beat")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def names_settings_read() -> set[str]:
    source = (Path(settings.BASE_DIR) / "config" / "settings.py").read_text()
    return set(re.findall(r'(?:environ\.get|env_bool|env_list)\(\s*"([A-Z0-9_]+)"', source))


def names_entrypoint_reads() -> set[str]:
    """What the start script reads, and gunicorn's settings (config/gunicorn_conf.py)."""
    source = (DOCKER / "entrypoint.sh").read_text()
    source += (Path(settings.BASE_DIR) / "config" / "gunicorn_conf.py").read_text()
    return set(re.findall(r"\$\{([A-Z0-9_]+)", source)) | set(
        re.findall(r'os\.environ\.get\("([A-Z0-9_]+)"', source)
    )


def env_example() -> dict[str, str]:
    pairs = {}
    for line in (DOCKER / "env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def test_compose_has_the_six_services_started_in_order(compose):
    services = compose["services"]
    assert set(services) == {"web", "worker", "beat", "db", "redis", "backup", "proxy"}
    assert services["proxy"]["profiles"] == ["scale"]  # the seventh, only to scale out
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert services[name]["build"]["dockerfile"] == "docker/Dockerfile"
    assert services["web"]["command"] == ["web"]
    assert services["worker"]["command"] == ["worker"]
    assert services["beat"]["command"] == ["beat"]
    assert services["beat"]["deploy"]["replicas"] == 1


def test_database_and_redis_have_volumes_and_health_checks(compose):
    services = compose["services"]
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert services["db"]["volumes"] == ["postgres:/var/lib/postgresql/data"]
    assert services["redis"]["volumes"] == ["redis:/data"]
    assert set(compose["volumes"]) == {"postgres", "redis", "backups"}


def test_every_variable_given_to_the_app_is_read_by_settings_or_the_entrypoint(compose):
    known = names_settings_read() | names_entrypoint_reads()
    given = set(env_example()) - {"POSTGRES_PASSWORD"}  # for compose's interpolation only
    for name in APP_SERVICES:
        given |= set(compose["services"][name]["environment"])
    dockerfile_env = re.search(r"^ENV (.*?)\n\n", (DOCKER / "Dockerfile").read_text(), re.S | re.M)
    given |= set(re.findall(r"([A-Z_]+)=", dockerfile_env.group(1)))
    assert "DATABASE_URL" in given and "REDIS_URL" in given and "SECRET_KEY" in given
    unread = (
        given
        - known
        - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"}
        - {
            "PIP_NO_CACHE_DIR",
            "PIP_DISABLE_PIP_VERSION_CHECK",
            "DJANGO_SETTINGS_MODULE",
        }
    )
    assert unread == set()


def test_the_example_env_is_a_production_configuration():
    env = env_example()
    assert env["DEBUG"] == "0" and env["HTTPS"] == "1"
    assert env["SECRET_KEY"] == ""  # must be filled in: the entrypoint refuses the default
    assert "REDIS_URL" not in env and "DATABASE_URL" not in env  # compose builds them


def test_the_dockerfile_starts_files_that_exist():
    text = (DOCKER / "Dockerfile").read_text()
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    entrypoint = re.search(r"^ENTRYPOINT (.+)$", text, re.M).group(1)
    cmd = re.search(r"^CMD (.+)$", text, re.M).group(1)
    script = yaml.safe_load(entrypoint)[0]
    assert script.startswith("/app/")
    assert (Path(settings.BASE_DIR) / script.removeprefix("/app/")).is_file()
    assert yaml.safe_load(cmd) == ["web"]
    for line in re.findall(r"^COPY (.+)$", text, re.M):
        sources = shlex.split(line)[:-1]
        for source in sources:
            assert source == "." or (Path(settings.BASE_DIR) / source).exists(), source
    assert re.search(r"^USER (?!root)\w+", text, re.M)
    assert "collectstatic" in text and "compile_catalogues" in text


def test_the_entrypoint_guards_then_starts_each_role():
    text = (DOCKER / "entrypoint.sh").read_text()
    check = text.index("check --deploy --fail-level WARNING")
    gunicorn = text.index("exec gunicorn -c config/gunicorn_conf.py config.wsgi:application")
    assert text.index("ensure_connection") < check < gunicorn
    assert "exec celery -A config worker" in text and "exec celery -A config beat" in text
    assert '"${MIGRATE:-0}" = "1"' in text
    assert (DOCKER / "entrypoint.sh").stat().st_mode & 0o111


def test_what_runs_the_app_restarts_it_when_it_dies(compose):
    """A worker that exits (an unrecoverable broker error, a kill) is started again by
    compose; with the broker retried for ever it then waits for Redis to come back."""
    for name in APP_SERVICES:
        assert compose["services"][name]["restart"] in ("unless-stopped", "always"), name
    assert settings.CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP is True
    assert settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None


def test_the_backup_service_dumps_the_database_every_night_into_its_volume(compose, tmp_path):
    """Its script run here, with stand-ins for `sleep` (the second night stops it) and
    `pg_dump` (fails on the second night): a night's dump is written whole, a failed one
    leaves no file, and dumps past BACKUP_KEEP_DAYS are deleted."""
    backup, db = compose["services"]["backup"], compose["services"]["db"]
    assert backup["image"] == db["image"]  # pg_dump of the server's own version
    assert backup["depends_on"]["db"]["condition"] == "service_healthy"
    assert backup["volumes"] == ["backups:/backups"]
    env = backup["environment"]
    assert (env["PGHOST"], env["PGUSER"], env["PGDATABASE"]) == ("db", "tavolo", "tavolo")
    script = backup["command"][0].replace("$$", "$")
    assert "pg_dump -Fc" in script

    folder, bin_ = tmp_path / "backups", tmp_path / "bin"
    folder.mkdir()
    bin_.mkdir()
    old = folder / "tavolo-2020-01-01.dump"
    old.write_text("old")
    os.utime(old, (0, 0))
    stubs = {
        "sleep": 'n=$(cat "$0.n" 2>/dev/null || echo 0); echo $((n + 1)) > "$0.n"; [ "$n" -lt 2 ]',
        "pg_dump": '[ ! -e "$0.ran" ] || exit 1; touch "$0.ran"; echo dump > "$3"',
    }
    for name, body in stubs.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_ / name).chmod(0o755)
    run = subprocess.run(
        ["/bin/sh", "-c", script.replace("/backups", str(folder))],
        env={"PATH": f"{bin_}:/usr/bin:/bin", "BACKUP_AT": "03:30", "BACKUP_KEEP_DAYS": "14"},
        capture_output=True,
        text=True,
        timeout=20,
    )

    assert run.returncode == 1  # the third sleep stops it
    assert "backup written" in run.stdout and "backup FAILED" in run.stderr
    # The date as the script read it: in its environment, without the TZ that Django set
    # in this process (near midnight, UTC and the site's zone name different days).
    today = subprocess.check_output(["date", "+%F"], text=True, env={"PATH": "/usr/bin:/bin"})
    assert [p.name for p in folder.iterdir()] == [f"tavolo-{today.strip()}.dump"]


def test_the_proxy_balances_every_web_container_and_refuses_past_capacity(compose):
    """docker/haproxy/haproxy.cfg as compose mounts it: every web container found by
    Docker's DNS, at most WEB_CONCURRENCY requests at once on each, 503 with Retry-After
    after 2 s in the queue (bench/bench_capacity.py --nodes runs the same file)."""
    proxy = compose["services"]["proxy"]
    assert proxy["volumes"] == ["./haproxy:/usr/local/etc/haproxy:ro"]
    assert proxy["ports"] == ["127.0.0.1:8080:8080"]
    config = (DOCKER / "haproxy" / "haproxy.cfg").read_text()
    assert "server-template web 10 web:8000 resolvers docker" in config
    assert f"maxconn {env_example()['WEB_CONCURRENCY']} observe layer4" in config
    assert "timeout queue 2s" in config
    assert "errorfile 503 /usr/local/etc/haproxy/503.http" in config
    assert b"Retry-After: 5\r\n" in (DOCKER / "haproxy" / "503.http").read_bytes()


def test_compose_publishes_gunicorn_on_the_host_s_loopback_only(compose):
    """Where the TLS proxy is; inside the container gunicorn listens on its own address,
    never on all of them (tests/config/test_entrypoint.py)."""
    for port in compose["services"]["web"]["ports"]:
        assert port.startswith("127.0.0.1:"), port
