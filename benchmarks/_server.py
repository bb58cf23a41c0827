"""What the benchmarks that serve the site share: gunicorn as ``make serve`` runs it, on a fresh
database, and a few helpers (progress lines, percentiles, PostgreSQL).

The site is served by gunicorn (4 sync workers, DEBUG off, a throwaway SECRET_KEY,
ALLOWED_HOSTS=127.0.0.1, SECURE_COOKIES off: plain http on loopback) on a free port of
127.0.0.1, on a new SQLite file in a temporary directory or a new PostgreSQL database on
127.0.0.1:5432 (user postgres, no password), created and dropped by :func:`database`. Static
files are collected into the temporary directory (the production settings with STATIC_ROOT
moved there, :func:`prepare`), so the checkout is left as it was.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import math
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
WORKERS = 4
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
SETTINGS_MODULE = "bench_settings"
LABELS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
FRAME = re.compile(r'\s+File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<function>\S+)')

STARTED = time.monotonic()


def say(text: str = "") -> None:
    print(text, flush=True)


def step(text: str) -> None:
    """A line of progress, with the time since the start."""
    say(f"[{time.monotonic() - STARTED:5.0f} s] {text}")


class Failure(Exception):
    """The run cannot go on (the server would not start, a step failed): says why."""


def gunicorn_missing() -> str | None:
    """Why the site cannot be served here, or None."""
    if importlib.util.find_spec("gunicorn") is None:
        return (
            f"gunicorn is not installed for {sys.executable}: run `make install` (it is one of "
            "the site's dependencies), or `.venv/bin/pip install gunicorn`, then run this with "
            ".venv/bin/python."
        )
    return None


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return math.nan
    k = max(0, math.ceil(p / 100 * len(sorted_values)) - 1)
    return sorted_values[k]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def run_quiet(command: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise Failure(f"{what} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")


def run_step(script: str, name: str, job: Any, env: dict[str, str], tmp: Path) -> Any:
    """Run ``script _step name`` with the server's settings: it reads ``job`` from a JSON file
    and writes its answer beside it (``.out``), which is returned."""
    path = tmp / f"{name}-{secrets.token_hex(4)}.json"
    path.write_text(json.dumps(job))
    run_quiet([sys.executable, str(Path(script).resolve()), "_step", name, str(path)], env, name)
    return json.loads(Path(str(path) + ".out").read_text())


def server_env(database_url: str, tmp: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_VERSION", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SECURE_COOKIES": "0",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT)]),
            "LOG_LEVEL": "WARNING",
        }
    )
    # The site's own connections (settings: persistent, 60 s, health-checked) unless the run
    # asks for others (CONN_MAX_AGE=0: one a request, as before they were kept).
    if "CONN_MAX_AGE" in os.environ:
        env["CONN_MAX_AGE"] = os.environ["CONN_MAX_AGE"]
    return env


def prepare(tmp: Path) -> None:
    """The production settings with the static files collected into ``tmp``."""
    (tmp / f"{SETTINGS_MODULE}.py").write_text(
        "from scorekeeper.settings import *  # noqa: F403\n\n"
        f"STATIC_ROOT = {str(tmp / 'static')!r}\n"
    )
    step("collecting static files into the temporary directory…")
    run_quiet(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        server_env(f"sqlite:///{tmp / 'unused.sqlite3'}", tmp),
        "collectstatic",
    )


def postgres(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=5) as c:
        c.execute(sql)


@contextlib.contextmanager
def database(db: str, tmp: Path, name: str) -> Iterator[dict[str, str]]:
    """A fresh, migrated database (``db``: sqlite or postgresql; ``name``: the file's or the
    PostgreSQL database's), dropped after; yields the server's environment."""
    if db == "sqlite":
        url = f"sqlite:///{tmp / f'{name}.sqlite3'}"
    else:
        url = f"{PG_SERVER}/{name}"
        try:
            postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            postgres(f"CREATE DATABASE {name}")
        except Exception as e:
            raise Failure(f"PostgreSQL at {PG_SERVER} cannot be used: {e}") from e
    env = server_env(url, tmp)
    try:
        step(f"{LABELS[db]}: migrating a fresh database…")
        run_quiet([sys.executable, "manage.py", "migrate", "--noinput"], env, "migrate")
        yield env
    finally:
        if db == "postgresql":
            try:
                postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            except Exception as e:
                say(f"PostgreSQL: could not drop {name}: {e}")


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept-Language": "en"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


class Server:
    """gunicorn with 4 sync workers on a free port; its output (tracebacks) goes to a log file."""

    def __init__(self, env: dict[str, str], log: Path):
        self.env, self.log_path = env, log
        self.port = free_port()
        self.origin = f"http://{HOST}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            str(WORKERS),
            "--worker-class",
            "sync",
            "--bind",
            f"{HOST}:{self.port}",
            "--chdir",
            str(ROOT),
            "scorekeeper.wsgi:application",
        ]
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            command, env=self.env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT
        )
        waited = time.monotonic() + 60
        while time.monotonic() < waited:
            if self.process.poll() is not None:
                raise Failure(f"gunicorn exited at start:\n{self.log_path.read_text()[-3000:]}")
            try:
                if get(self.port, "/accounts/login/") == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__()
        raise Failure(f"gunicorn did not answer within 60 s:\n{self.log_path.read_text()[-3000:]}")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def baseline(self) -> tuple[str, str]:
        for path in ("/healthz", "/healthz/"):
            try:
                if get(self.port, path) == 200:
                    return path, f"GET {path}"
            except OSError:
                pass
        return "/accounts/login/", "GET /accounts/login/ (anonymous; the site has no /healthz)"

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    def exceptions(self, since: int = 0) -> Counter[str]:
        """The server's exceptions logged since ``since`` bytes: each one's last line, and the
        innermost frames of the project it went through (where it was raised, and from where)."""
        with self.log_path.open("rb") as f:
            f.seek(since)
            lines = f.read().decode(errors="replace").splitlines()
        found: Counter[str] = Counter()
        for i, line in enumerate(lines):
            if line.startswith("Traceback (most recent call last)"):
                j = i + 1
                frames = []
                while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                    frame = FRAME.match(lines[j])
                    if frame and frame["path"].startswith(str(ROOT)) and ".venv" not in frame[0]:
                        where = Path(frame["path"]).relative_to(ROOT)
                        frames.append(f"{where}:{frame['line']} {frame['function']}")
                    j += 1
                following = [x for x in lines[j + 1 : j + 3] if x.strip()]
                if following and following[0].startswith(
                    ("The above exception", "During handling")
                ):
                    continue  # a chained exception: the one after it is counted
                if j < len(lines):
                    at = f" (at {' < '.join(reversed(frames[-3:]))})" if frames else ""
                    found[lines[j].strip()[:200] + at] += 1
        return found
