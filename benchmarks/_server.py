"""What the benchmarks share: gunicorn as ``make serve`` runs it, on a fresh database, and a few
helpers (progress lines, percentiles, PostgreSQL, the command line, the setup steps, a phone's
requests, client processes started together); and the match documents that score_bench.py and
scoring.py score with the rules core alone. What they print alike is in _report.py.

The site is served by gunicorn (4 sync workers, DEBUG off, a throwaway SECRET_KEY,
ALLOWED_HOSTS=127.0.0.1, SECURE_COOKIES off: plain http on loopback) on a free port of
127.0.0.1, on a new SQLite file in a temporary directory or a new PostgreSQL database on
127.0.0.1:5432 (user postgres, no password), created and dropped by :func:`database`. Static
files are collected into the temporary directory (the production settings with STATIC_ROOT
moved there, :func:`prepare`), so the checkout is left as it was.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import importlib.util
import json
import math
import multiprocessing
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
WORKERS = 4
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
SETTINGS_MODULE = "bench_settings"
LABELS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
FRAME = re.compile(r'\s+File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<function>\S+)')
START_TIMEOUT = 300  # s for the client processes to start (lengths.py: or to be ready for a run)

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


def script_parser(doc: str) -> argparse.ArgumentParser:
    """A script's command line: the first paragraph of its docstring ``doc`` as the
    description, the rest of it left as it is written."""
    return argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_budget(
    parser: argparse.ArgumentParser,
    defaults: dict[str, Any],
    quick: dict[str, Any],
    *,
    seconds: str,
    requests: str,
) -> None:
    """--seconds S or --requests N (one of them), each measurement's budget: ``seconds`` and
    ``requests`` say what of it (their help), ``defaults`` and ``quick`` (the presets) the
    seconds."""
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds",
        type=float,
        help=f"{seconds} (default {defaults['seconds']:g} s; --quick {quick['seconds']:g})",
    )
    budget.add_argument("--requests", type=int, help=requests)


def add_databases(parser: argparse.ArgumentParser, quick: str) -> None:
    """--db (both by default, SQLite with --quick) and --quick (``quick`` says what it is)."""
    parser.add_argument(
        "--db", choices=("sqlite", "postgresql", "both"), help="default both (--quick: sqlite)"
    )
    parser.add_argument("--quick", action="store_true", help=quick)


def apply_presets(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    defaults: dict[str, Any],
    quick: dict[str, Any],
) -> list[str]:
    """The options of :func:`add_budget` and :func:`add_databases` checked and completed: the
    seconds of the preset (``quick`` with --quick, else ``defaults``) when neither budget was
    given, every other value of the preset set in ``args``; returns the databases to run."""
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be positive")
    preset = quick if args.quick else defaults
    if args.seconds is None and args.requests is None:
        args.seconds = preset["seconds"]
    for name, value in preset.items():
        if name != "seconds":
            setattr(args, name, value)
    db = args.db or ("sqlite" if args.quick else "both")
    return database_list(db)


def database_list(db: str) -> list[str]:
    """The databases of ``--db`` (sqlite, postgresql or both)."""
    return ["sqlite", "postgresql"] if db == "both" else [db]


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


def run_script(main: Callable[[], int], steps: dict[str, Callable[[Any], Any]]) -> None:
    """A script's start: ``main()``, or in the child process :func:`run_step` starts
    (``script _step name path``) that step, ``steps[name]``; exits with its status."""
    if sys.argv[1:2] == ["_step"]:
        sys.exit(django_step(sys.argv[2:], steps))
    sys.exit(main())


def django_step(argv: list[str], steps: dict[str, Callable[[Any], Any]]) -> int:
    """The other side of :func:`run_step`, in the child process (``argv``: name, path): Django
    set up with the server's settings, ``steps[name]`` run on the job read from ``path``, its
    answer written beside it."""
    import django

    name, path = argv
    django.setup()
    job = json.loads(Path(path).read_text())
    result = steps[name](job)
    Path(path + ".out").write_text(json.dumps(result))
    return 0


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


def each_database[T](
    databases: list[str],
    prefix: str,
    run: Callable[[str, Path], T],
    name: Callable[[str], str] = LABELS.__getitem__,
) -> tuple[dict[str, T], list[str]]:
    """``run(db, tmp)`` for each database in turn, in one temporary directory (``prefix``) with
    the static files collected (:func:`prepare`), removed after: the answer of each run, and
    the databases whose run stopped on a :class:`Failure` (said after ``name(db)``)."""
    results: dict[str, T] = {}
    failed: list[str] = []
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        prepare(tmp)
        for db in databases:
            try:
                results[db] = run(db, tmp)
            except Failure as e:
                say(f"{name(db)}: {e}")
                failed.append(db)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results, failed


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept-Language": "en"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


def phone_headers(
    origin: str,
    agent: str,
    cookies: dict[str, str],
    *,
    fields: dict[str, str] | None = None,
    target: str = "",
    current: str = "",
    csrf: str = "",
) -> tuple[dict[str, str], bytes | None]:
    """The headers and the body of a request as a phone's browser sends it (English, gzip
    accepted, ``cookies``): ``fields``, a form posted from ``origin``; ``target``, as htmx.ajax
    sends it into that element from the page ``current`` (entry.js's tap queue, site.js's live
    redraw); ``csrf``, the X-CSRFToken header."""
    headers = {"Accept-Language": "en", "Accept-Encoding": "gzip", "User-Agent": agent}
    body = None
    if fields is not None:
        body = urlencode(fields).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Origin"] = origin
    if target:
        headers.update(
            {
                "HX-Request": "true",
                "HX-Current-URL": origin + current,
                "HX-Target": target,
                "HX-Trigger": f"{target}-form" if target == "entry" else target,
            }
        )
    if csrf:
        headers["X-CSRFToken"] = csrf
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    return headers, body


def send(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None, timeout: float
) -> tuple[Any, bytes, float, str]:
    """One request on a connection of its own, timed: (the reply, its body as sent, ms, ""),
    or on a connection error (None, b"", ms, why)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    started = time.perf_counter()
    try:
        connection.request(method, path, body=body, headers=headers)
        reply = connection.getresponse()
        raw = reply.read()
    except (OSError, http.client.HTTPException) as e:
        ms = (time.perf_counter() - started) * 1000
        return None, b"", ms, f"connection: {type(e).__name__}: {e}"
    finally:
        connection.close()
    return reply, raw, (time.perf_counter() - started) * 1000, ""


def keep_cookies(cookies: dict[str, str], headers: Any) -> None:
    """The cookies a reply's ``headers`` set kept in ``cookies``, those it deletes taken out."""
    for line in headers.get_all("Set-Cookie") or []:
        jar = SimpleCookie()
        try:
            jar.load(line)
        except CookieError:
            continue
        for name, morsel in jar.items():
            gone = morsel["max-age"] == "0" or "1970" in morsel["expires"]
            if gone or morsel.value == "":
                cookies.pop(name, None)
            else:
                cookies[name] = morsel.coded_value


def start_together(
    target: Callable[[dict[str, Any], Any, Any], None], configs: list[dict[str, Any]]
) -> tuple[list[Any], Any]:
    """A client process (spawned) for each of ``configs``, ``target(config, barrier, queue)``,
    all started together: once every one has reached the barrier (within START_TIMEOUT), the
    processes and the queue they report on."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(configs) + 1)
    queue = context.Queue()
    processes = []
    for cfg in configs:
        process = context.Process(target=target, args=(cfg, barrier, queue), daemon=True)
        process.start()
        processes.append(process)
    try:
        barrier.wait(timeout=START_TIMEOUT)
    except Exception as e:
        raise Failure(f"the clients did not all start ({type(e).__name__})") from e
    return processes, queue


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


# --- the match documents scored with the rules core alone (score_bench.py, scoring.py) ----------

BIRIBA_DEAL: dict[str, Any] = {
    "trump": "C",
    "sides": [
        {
            "melds": [
                ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                ["8H", "9H", "10H", "JH", "QH", "KH", "JK"],
                ["QS", "KS", "AS"],
            ],
            "hand": ["5D", "7S"],
            "took_pot": True,
        },
        {
            "melds": [["AD", "2D", "3D", "4D", "5D", "6D", "7D"], ["5S", "6S", "2H", "8S"]],
            "hand": ["KS", "QS"],
            "took_pot": True,
            "went_out": False,
        },
    ],
}
BURRACO_DEAL: dict[str, Any] = {
    "sides": [
        {
            "melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
            "hand": ["4C", "QD"],
            "took_pot": True,
            "went_out": True,
        },
        {
            "melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
            "hand": ["AH", "2C", "5D", "KS"],
            "took_pot": True,
        },
    ]
}
BARBU_MATCH = ROOT / "tests" / "data" / "barbu" / "classic-28.json"  # a whole classic match


def rummy_doc(game: str, deal: dict[str, Any], n: int) -> dict[str, Any]:
    """A match document of ``game`` holding ``n`` copies of ``deal``, with a target no match
    reaches."""
    return {
        "format": "scorekeeper-match/1",
        "game": game,
        "rules": {"target": 1_000_000},
        "players": ["Anna", "Babis", "Chris", "Dora"],
        "deals": [json.loads(json.dumps(deal)) for _ in range(n)],
    }
