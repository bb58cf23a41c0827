"""Random and malformed input to every page: never a server error, and a refused request
changes no row.

Every endpoint is taken from ``scorekeeper.urls`` as it is when the tests run (the accounts,
the admin and anything added later included): its path is generated from its own pattern (with
the ids of real matches, players and users mixed in), and it is sent GETs with random query
strings and POSTs of random and malformed fields: those its own page carries, with their values
or with unicode digits, huge and negative numbers, the bytes of a lone surrogate, empty and long
values, JSON documents with a malformed value somewhere; plain and from htmx, as the owner of
the matches, as another user and anonymous. The two deal-entry pads are walked key by key: each
step presses one of the page's keys or a malformed one (every verb the pads know, with
arguments that are not theirs), the draft, the deal number or the digest sometimes garbled.

After each request every model's rows are compared with those before it: a change is allowed
only when the response reports success (a success message, or a redirect with no error: a
save, a login). Sessions (drafts and messages live there) and django-axes' record of login
attempts are not the site's data and are left out. Django's test client re-raises an exception
of a view, so a failure shows its traceback. Bounded: the whole file runs in well under a
minute.
"""

from __future__ import annotations

import ast
import html
import inspect
import json
import re
import textwrap
import urllib.parse
from dataclasses import dataclass
from http.cookies import SimpleCookie
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client, override_settings
from django.test.client import encode_multipart
from django.urls import URLPattern, URLResolver, resolve
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from scorekeeper import services, urls
from scorekeeper.entry import barbu as entry_barbu
from scorekeeper.entry import drafts as entry_state
from scorekeeper.models import Match
from tests.conftest import HTMX, PLAYERS4, deal_for
from tests.profiles import examples
from tests.test_services import example

FUZZ = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- the endpoints, from the URL configuration ------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    name: str  # namespaced name ("admin:login"), or the route of an unnamed pattern
    regex: str  # the whole path's pattern, without the leading "^"
    route: str  # as Django's resolver reports it (ResolverMatch.route)


def _endpoints(patterns: list[Any], regex: str = "", route: str = "", namespace: str = ""):
    for pattern in patterns:
        piece = pattern.pattern.regex.pattern.removeprefix("^")
        shown = str(pattern.pattern).removeprefix("^")
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _endpoints(pattern.url_patterns, regex + piece, route + shown, inner)
        else:
            assert isinstance(pattern, URLPattern)
            name = f"{namespace}{pattern.name}" if pattern.name else route + shown
            yield Endpoint(name=name, regex=regex + piece, route=route + shown)


ENDPOINTS = list(_endpoints(urls.urlpatterns))
GROUP = re.compile(r"\(\?P<(\w+)>")
PATH_CHARS = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="?#%")
#: What a path parameter is given besides what its own pattern generates (and the ids of real
#: matches, players and users): numbers that are none of them.
NOT_IDS = ("0", "1", "2", "3", "99999", "9" * 20, "9" * 40)


def _group_end(regex: str, start: int) -> int:
    """The index just after the group that opens at ``start``."""
    depth, i, in_class = 0, start, False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError(f"no end to the group at {start} in {regex!r}")


def _literal(piece: str) -> str:
    """A pattern's text between its groups as the path spells it (``export\\.json`` →
    ``export.json``, the end anchor dropped)."""
    piece = piece.removesuffix("\\Z").removesuffix("$")
    return re.sub(r"\\(.)", r"\1", piece)


def _pieces(regex: str) -> list[tuple[str, str, str]]:
    """``[("text", "matches/", ""), ("group", "[0-9]+", "pk"), ("text", "/", "")...]``."""
    out, i = [], 0
    for found in GROUP.finditer(regex):
        if found.start() < i:
            continue  # a group inside a group: generated with it
        end = _group_end(regex, found.start())
        out.append(("text", _literal(regex[i : found.start()]), ""))
        out.append(("group", regex[found.end() : end - 1], found.group(1)))
        i = end
    return [*out, ("text", _literal(regex[i:]), "")]


def sample_path(endpoint: Endpoint, ids: list[str], named: dict[str, str] | None = None) -> str:
    """One path to ``endpoint``: each parameter given its ``named`` value, else the first id (or
    word of an alternation) its pattern takes."""
    path = "/"
    for kind, text, name in _pieces(endpoint.regex):
        if kind == "text":
            path += text
            continue
        given_value = (named or {}).get(name)
        candidates = [*([given_value] if given_value else []), *ids, *NOT_IDS, *text.split("|")]
        path += next(c for c in [*candidates, "x"] if re.fullmatch(text, c))
    return path


@st.composite
def paths(draw, endpoint: Endpoint, ids: list[str], favoured: list[str]) -> str:
    """Paths to ``endpoint``: its parameters real ids (``favoured`` ones most: the matches,
    which most paths name), numbers that are none, or anything their pattern takes."""
    path = "/"
    for kind, text, _name in _pieces(endpoint.regex):
        if kind == "text":
            path += text
        else:
            own = st.from_regex(text, fullmatch=True, alphabet=PATH_CHARS)
            real, most = st.sampled_from(ids), st.sampled_from(favoured)
            path += draw(st.one_of(most, most, real, st.sampled_from(NOT_IDS), own))
    return path


def test_the_endpoints_are_enumerated_from_the_url_configuration():
    names = {e.name for e in ENDPOINTS}
    assert {"home", "login", "match_import", "deal_new", "deal_edit", "admin:login"} <= names
    assert len(ENDPOINTS) == len({e.route for e in ENDPOINTS})


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_the_generated_paths_lead_to_their_endpoint(endpoint):
    """The fuzzing of an endpoint reaches that endpoint, not only its neighbours: an endpoint
    whose pattern the path generator cannot follow fails here, by name."""
    path = sample_path(endpoint, ["17"])
    assert resolve(path).route == endpoint.route, path


# --- the world the requests meet --------------------------------------------------------------

EXCLUDED_APPS = {
    "sessions",  # a phone's own view of a deal in progress, and messages: UI state
    "axes",  # the record of login attempts, which a refused login is meant to add to
}
#: The deal in progress: every tap on a pad writes it (the keys are writes, by design);
#: what a refused tap may not do is checked in tests/test_entry_*.py.
EXCLUDED_MODELS = {"scorekeeper.DealDraft"}
USERS = ("owner", "other", "anonymous")


#: Columns that cache what the rules make of the deals (scorekeeper/standing.py): a request may
#: fill them in (the first to need them), which changes nothing the table entered.
CACHE_COLUMNS = {
    "scorekeeper.Match": {"scoring_state", "stats"},
    "scorekeeper.Deal": {"score", "running", "state"},
}


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every model (but sessions', login attempts' and deals in progress'), but
    the cache columns."""
    out = {}
    for model in apps.get_models():
        label = model._meta.label
        if model._meta.app_label in EXCLUDED_APPS or label in EXCLUDED_MODELS:
            continue
        cached = CACHE_COLUMNS.get(label, set())
        fields = [f.attname for f in model._meta.concrete_fields if f.attname not in cached]
        out[label] = list(model._default_manager.order_by("pk").values_list(*fields))
    return out


def _diff(before: dict[str, list[Any]], after: dict[str, list[Any]]) -> str:
    lines = []
    for label in before:
        old, new = set(map(repr, before[label])), set(map(repr, after[label]))
        if old != new:
            gone, added = sorted(old - new)[:3], sorted(new - old)[:3]
            lines.append(f"{label}: -{gone} +{added}")
    return "\n".join(lines)


@dataclass(repr=False)
class World:
    matches: dict[str, Match]
    sessions: dict[str, str]  # user → the session key of a logged-in client
    clients: dict[str, Client]  # one per user: a client's first request loads the middleware
    ids: list[str]  # of matches, players and users, for the generated paths
    baseline: dict[str, list[Any]]  # every row, as each example starts
    fields: dict[str, list[str]]  # form field name → the values the site's pages offer
    page_fields: dict[str, dict[str, list[str]]]  # endpoint → the fields of its own page

    def __repr__(self) -> str:
        return f"World(matches={sorted(self.matches)})"


FORM_FIELD = re.compile(
    r'<(?:input|button|select|textarea)\b[^>]*?\bname="([^"]+)"(?:[^>]*?\bvalue="([^"]*)")?'
)
OPTION = re.compile(r'<option\b[^>]*?\bvalue="([^"]*)"')


def _scrape(page: str, into: dict[str, list[str]]) -> None:
    for name, value in FORM_FIELD.findall(page):
        values = into.setdefault(html.unescape(name), [])
        value = html.unescape(value)
        if value and value not in values and len(values) < 40:
            values.append(value)
    for value in OPTION.findall(page):
        into.setdefault("*option", []).append(html.unescape(value))
    into.pop("csrfmiddlewaretoken", None)


def _logged_in(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Stored for the module (each example runs in a transaction rolled back after it), and
    removed at its end."""
    # what conftest's _test_settings gives each test, for the module's set-up
    test_settings = override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        STORAGES={
            **django_settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        STATIC_ROOT=None,
        WHITENOISE_USE_FINDERS=True,
    )
    with django_db_blocker.unblock(), test_settings:
        User = get_user_model()
        owner = User.objects.create_user(username="fuzz-owner", password="pass-word-1234")
        other = User.objects.create_user(username="fuzz-other", password="pass-word-1234")

        def make(game: str, deals: int, *, players=PLAYERS4, user=owner, rules=None) -> Match:
            match = services.match_create(
                owner=user, game=game, players=list(players), first_dealer=0, rules=rules or {}
            )
            for i in range(deals):
                services.deal_record(match=match, data=deal_for(game, i))
            return match

        matches = {
            "biriba": make("biriba", 2),
            "burraco": make("burraco", 1, players=["Anna", "Babis"]),
            "barbu": make("barbu", 3),
            "burraco-empty": make("burraco", 0),
            "finished": make("biriba", 1, players=["Anna", "Babis"], rules={"target": 5}),
            "other": make("biriba", 1, players=["Eva", "Filia"], user=other),
        }
        assert matches["finished"].is_finished
        sessions = {"owner": _logged_in(owner), "other": _logged_in(other)}
        ids = sorted(
            {str(m.pk) for m in matches.values()}
            | {str(owner.pk), str(other.pk)}
            | {str(pk) for m in matches.values() for pk in m.players.values_list("pk", flat=True)}
        )
        clients = {who: Client() for who in USERS}
        clients["owner"].cookies[django_settings.SESSION_COOKIE_NAME] = sessions["owner"]
        fields: dict[str, list[str]] = {}
        page_fields: dict[str, dict[str, list[str]]] = {}
        for endpoint in ENDPOINTS:
            own: dict[str, list[str]] = {}
            for match in (matches["biriba"], matches["barbu"]):
                path = sample_path(endpoint, ids, named={"pk": str(match.pk), "number": "1"})
                for who in ("owner", "anonymous"):
                    response = clients[who].get(path)
                    if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                        _scrape(response.content.decode(), own)
            page_fields[endpoint.name] = own
            for name, offered in own.items():
                known = fields.setdefault(name, [])
                known.extend(v for v in offered if v not in known)
        state = World(matches, sessions, clients, ids, snapshot(), fields, page_fields)
    yield state
    with django_db_blocker.unblock():
        Match.objects.filter(owner__in=[owner, other]).delete()
        for user in (owner, other):
            user.players.all().delete()
            user.delete()
        apps.get_model("sessions", "Session").objects.filter(
            session_key__in=list(sessions.values())
        ).delete()


def client_as(world: World, who: str) -> Client:
    """The client of ``who`` with fresh cookies (logged in, no messages), or anonymous."""
    client = world.clients[who]
    client.cookies = SimpleCookie()
    if who in world.sessions:
        client.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions[who]
    return client


class _RolledBack:
    def __enter__(self) -> None:
        self.atomic = transaction.atomic()
        self.atomic.__enter__()

    def __exit__(self, *exc: Any) -> bool:
        transaction.set_rollback(True)
        self.atomic.__exit__(*exc)
        return False


@pytest.fixture
def rolled_back(world, db):
    """Each example in a transaction rolled back after it: every one meets the same world."""
    return _RolledBack


# --- what the requests carry ------------------------------------------------------------------

SURROGATE_BYTES = "\ud800".encode("utf-8", "surrogatepass")  # what no UTF-8 text holds
NASTY = [
    "", " ", "0", "1", "-1", "+1", "²", "①", "٣", "３", "1²", " 1", "1 ", "1.5", "1e3", "0x1f",
    "9" * 25, "-" + "9" * 25, "None", "null", "true", "yes", ":", "::", "a\x00b", "\x00",
    "\u202eAnna", "Anna\u200b", "<script>", "'\"", "%", "\\ud800", "{}", "[]",
]  # fmt: skip
UNICODE_DIGITS = ("⁰¹²³⁴⁵⁶⁷⁸⁹", "⓪①②③④⑤⑥⑦⑧⑨", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")

values = st.one_of(
    st.sampled_from(NASTY),
    st.integers(-(10**30), 10**30).map(str),
    st.text(max_size=20),
    st.text(min_size=200, max_size=300),
    st.just("x" * 30_000),
)
raw_values = st.one_of(
    values.map(str.encode), st.sampled_from([SURROGATE_BYTES, b"\xff\xfe", b"\xc3", b"%zz"])
)
field_names = st.one_of(st.sampled_from(sorted(NASTY)), st.text(min_size=1, max_size=8))


@st.composite
def unicode_digits(draw, text: str) -> str:
    """``text`` with its ASCII digits written in another script's digits (``side:1`` →
    ``side:¹``): what ``str.isdigit()`` accepts and ``int()`` refuses, or reads."""
    digits = draw(st.sampled_from(UNICODE_DIGITS))
    if not any("0" <= c <= "9" for c in text):
        return text + digits[draw(st.integers(0, 9))]
    return "".join(digits[int(c)] if "0" <= c <= "9" else c for c in text)


# A malformed value put somewhere in a JSON document or a draft
json_nasty = st.one_of(
    st.sampled_from(["\ud800", "x\udfffy", "\udc00" * 3]),  # no page, file or database holds it
    st.sampled_from(["", "²", "٣", "JK", "10H", "m²", "m99999", "x" * 5_000, None, True]),
    st.integers(-(2**70), 2**70),
    st.sampled_from([1e308, -0.0, 0.5]),
    st.recursive(st.none(), lambda inner: st.lists(inner, max_size=2), max_leaves=4),
    st.just(json.loads("[" * 40 + '"AH"' + "]" * 40)),
    st.just(["AH"] * 3_000),
    st.dictionaries(st.sampled_from(["\ud800", "v", "game", "x" * 300]), st.integers(), max_size=2),
)


@st.composite
def mutated(draw, value: Any) -> Any:
    """``value`` (a JSON value) with one place replaced, dropped or given an extra key. The
    place is found by descending from the top, so that each key of a document (its players,
    its rules, its deals) is as likely as another."""
    value = json.loads(json.dumps(value))
    path: list[Any] = []
    node = value
    while isinstance(node, dict | list) and node and (not path or draw(st.integers(0, 3))):
        key = draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        return draw(json_nasty)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["replace", "replace", "drop", "add", "halve"]))
    if how == "halve" and isinstance(parent[path[-1]], str):
        # half of a character put into text that was there (a name, a card, a key's value)
        parent[path[-1]] = parent[path[-1]][:1] + "\ud800" + parent[path[-1]][1:]
    elif how == "drop":
        del parent[path[-1]]
    elif how == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["\ud800", "extra", "x" * 500]))] = draw(json_nasty)
    else:
        parent[path[-1]] = draw(json_nasty)
    return value


def as_json(value: Any) -> str:
    """As a page or a person sends it: a lone surrogate travels as its JSON escape."""
    return json.dumps(value, ensure_ascii=True)


DOCUMENTS = [example(name) for name in ("biriba-ex1", "burraco-ex1", "barbu-ex2")]
documents = st.one_of(
    st.sampled_from(DOCUMENTS),
    st.sampled_from(DOCUMENTS).flatmap(mutated),
    st.sampled_from(DOCUMENTS).flatmap(mutated).flatmap(mutated),
)
document_texts = st.one_of(
    documents.map(as_json),
    st.sampled_from(['{"format": "scorekeeper-match/1"', "[" * 5_000, "1" * 5_000, "\ufeff{}"]),
)


def malformed(name: str, value: str) -> st.SearchStrategy[Any]:
    """What may stand in a field instead of ``value``."""
    if name in ("draft", "text"):
        return st.one_of(document_texts, document_texts, values)
    return st.one_of(unicode_digits(value), values, raw_values)


@st.composite
def form_fields(draw, world: World, endpoint: Endpoint) -> list[tuple[str, Any]]:
    """Half the time the endpoint's own form as its page sends it, with one field malformed;
    else fields of its page, of the site's other pages or of none, with values
    the pages offer or malformed ones."""
    own = {k: v for k, v in world.page_fields.get(endpoint.name, {}).items() if k[0] != "*"}
    if own and draw(st.booleans()):
        pairs = [
            (name, draw(st.sampled_from(offered or [f"{name}-{i}"])))
            for i, (name, offered) in enumerate(sorted(own.items()))
        ]
        i = draw(st.integers(0, len(pairs) - 1))
        pairs[i] = (pairs[i][0], draw(malformed(*pairs[i])))
        return pairs
    names = [st.sampled_from(sorted(own))] * 3 if own else []
    names += [st.sampled_from(sorted(world.fields)), field_names]
    pairs = []
    for _ in range(draw(st.integers(0, 8))):
        name = draw(st.one_of(*names))
        offered = world.fields.get(name) or world.fields.get("*option") or ["0"]
        value = draw(st.sampled_from(offered))
        pairs.append((name, draw(st.one_of(st.just(value), malformed(name, value)))))
    return pairs


def urlencoded(pairs: list[tuple[str, Any]]) -> bytes:
    """A form body; a value may be bytes that are not UTF-8 (what a browser may well send)."""
    return urllib.parse.urlencode(
        [(name.encode("utf-8", "surrogatepass"), value) for name, value in pairs]
    ).encode("ascii")


# --- one checked request ----------------------------------------------------------------------


def reported_success(response: Any) -> bool:
    """The response says something was done: a success message, or a redirect (the page that
    follows a save, a login) with no error message."""
    levels = {m.level for m in get_messages(response.wsgi_request)}
    if messages.ERROR in levels:
        return False
    if messages.SUCCESS in levels:
        return True
    return response.status_code in (301, 302, 303) or "HX-Redirect" in response.headers


def checked(before: dict[str, list[Any]], send: Any, method: str) -> tuple[Any, dict[str, Any]]:
    """Send one request: no 5xx, and no row changed unless the response reports success.
    Returns the response and the rows after it."""
    response = send()
    assert response.status_code < 500, response.status_code
    after = snapshot()
    if after != before:
        assert method == "POST" and reported_success(response), (
            f"{method} changed rows without reporting success "
            f"(status {response.status_code}):\n{_diff(before, after)}"
        )
    return response, after


# --- every endpoint ---------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_every_endpoint_refuses_bad_input_without_a_server_error(endpoint, world, rolled_back):
    """An endpoint whose page has a form is fuzzed longer than one that has none (the admin's
    pages, to users who are not staff, are all a redirect to its login)."""
    form = world.page_fields.get(endpoint.name)

    @settings(FUZZ, max_examples=examples(30) if form else examples(6))
    @given(data=st.data())
    def fuzz(data):
        request_endpoint(endpoint, world, rolled_back, data)

    fuzz()


def request_endpoint(endpoint: Endpoint, world: World, rolled_back: Any, data: Any) -> None:
    favoured = [str(m.pk) for m in world.matches.values()]
    path = data.draw(paths(endpoint, world.ids, favoured), label="path")
    who = data.draw(st.sampled_from(("owner", *USERS)), label="as")
    headers = dict(HTMX) if data.draw(st.booleans(), label="htmx") else {}
    method = data.draw(st.sampled_from(["POST", "POST", "POST", "POST", "GET", "GET", "PUT"]))
    body = data.draw(st.sampled_from(["urlencoded", "urlencoded", "multipart", "json", "bytes"]))
    pairs = data.draw(form_fields(world, endpoint), label="fields")
    quoted = urllib.parse.quote(path)
    note(f"{endpoint.name}: {method} {quoted} as {who}, {body}")
    with rolled_back():
        client = client_as(world, who)
        if method == "GET":
            query = urlencoded(pairs).decode("ascii")

            def send():
                return client.get(f"{quoted}?{query}", headers=headers)
        elif body == "multipart":
            form: dict[str, Any] = {
                name: value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                for name, value in pairs
            }
            if data.draw(st.booleans(), label="upload"):
                upload = data.draw(st.one_of(document_texts.map(str.encode), st.binary()))
                name = data.draw(st.sampled_from(["file", "text", "document"]), label="upload as")
                form[name] = SimpleUploadedFile("match.json", upload)
            payload = encode_multipart("BoUnDaRy", form)

            def send():
                return client.generic(
                    method,
                    quoted,
                    payload,
                    content_type="multipart/form-data; boundary=BoUnDaRy",
                    headers=headers,
                )
        else:
            if body == "json":
                payload = json.dumps(dict(pairs), default=repr).encode()
            elif body == "bytes":
                payload = data.draw(st.binary(max_size=300), label="body")
            else:
                payload = urlencoded(pairs)
            kind = "application/json" if body == "json" else "application/x-www-form-urlencoded"

            def send():
                return client.generic(method, quoted, payload, content_type=kind, headers=headers)

        checked(world.baseline, send, method)


# --- the deal-entry pads, key by key ----------------------------------------------------------


def _verbs() -> set[str]:
    """Every verb the pads' actions start with (the ``case "verb", [...]`` of each pad), and
    those the Barbu page expands itself (the doubling shortcuts)."""
    verbs: set[str] = set()
    for function in (entry_state.rummy_apply, entry_state.barbu_apply):
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(function)))):
            if isinstance(node, ast.MatchSequence) and node.patterns:
                first = node.patterns[0]
                if isinstance(first, ast.MatchValue) and isinstance(first.value, ast.Constant):
                    verbs.add(first.value.value)
    source = textwrap.dedent(inspect.getsource(entry_barbu.BarbuPage.apply))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and isinstance(node.comparators[0], ast.Tuple):
            verbs |= {e.value for e in node.comparators[0].elts if isinstance(e, ast.Constant)}
    return verbs


VERBS = sorted(_verbs() | {"save", "reset", "edit", "offer"})
ACTION = re.compile(r'<button\b[^>]*\bname="action"[^>]*\bvalue="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
ARGUMENTS = st.one_of(
    st.sampled_from(["²", "①", "٣", "+²", "-¹", "m²", "m٣"]),
    st.sampled_from(
        [
            "-1",
            "+1",
            "99999999999999999999",
            "-99999",
            "",
            " ",
            "x" * 70,
            "m-1",
            "m99999",
            "in_hand",
            "melded",
            "H",
            "JK",
            "1H",
            "no_tricks",
            "0",
            "3",
            "4",
            "+0",
        ]
    ),  # fmt: skip
)


def test_the_pads_verbs_are_read_from_the_code():
    assert {"rank", "remove", "digit", "step", "side", "double", "maximum", "family"} <= set(VERBS)


def _verb(key: str) -> str:
    return key.split(":", 1)[0]


@st.composite
def malformed_key(draw, offered: list[str]) -> str:
    """A key of the page (its verb chosen first, so that a verb with one key is as likely as
    one with forty), malformed: its digits in another script, an argument that is not one (a
    huge or negative number, empty, long), one argument more or fewer, another pad's verb or
    none, or any text."""
    own = sorted({_verb(k) for k in offered})
    verb = draw(st.one_of(*[st.sampled_from(own)] * (4 if own else 0), st.sampled_from(VERBS)))
    keys = [k for k in offered if _verb(k) == verb] or [f"{verb}:0:0"]
    parts = draw(st.sampled_from(keys)).split(":")
    how = draw(st.sampled_from(["digits"] * 4 + ["argument", "more", "fewer", "verb", "text"]))
    if how == "digits":
        return draw(unicode_digits(":".join(parts)))
    if how == "argument" and len(parts) > 1:
        parts[draw(st.integers(1, len(parts) - 1))] = draw(ARGUMENTS)
    elif how in ("more", "argument"):
        parts.append(draw(ARGUMENTS))
    elif how == "fewer":
        parts = parts[: max(1, len(parts) - 1)]
    elif how == "verb":
        parts[0] = draw(st.one_of(st.sampled_from(VERBS), st.text(max_size=8)))
    else:
        return draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=70)))
    return ":".join(parts)


def _page_state(page: str) -> tuple[dict[str, str], list[str]]:
    """The page's hidden fields (the draft, the deal, the digest) and its keys."""
    hidden = {
        name: html.unescape(value)
        for name, value in HIDDEN.findall(page)
        if name != "csrfmiddlewaretoken"
    }
    return hidden, [html.unescape(v) for v in ACTION.findall(page)]


@st.composite
def garbled(draw, fields: dict[str, str], *, preview: bool) -> tuple[dict[str, str], str]:
    """The page's fields with one of them malformed (or none). The preview is also told which
    deal it shows (``number``), as a correction's preview is."""
    fields = dict(fields)
    if preview:
        fields["number"] = fields.get("deal") or "1"
    which = draw(st.sampled_from(["none"] * 3 + ["draft", "deal", "base", "confirm", "number"]))
    if preview and draw(st.booleans()):
        which = "number"
    if which == "draft":
        try:
            draft = json.loads(fields.get("draft") or "{}")
        except ValueError:
            draft = {}
        fields["draft"] = as_json(draw(mutated(draft)))
    elif which != "none":
        current = fields.get(which) or "1"
        fields[which] = draw(
            st.one_of(unicode_digits(current), st.sampled_from(NASTY), st.just("yes"))
        )
    return fields, which


@pytest.mark.parametrize("game", ("biriba", "burraco", "barbu", "burraco-empty", "finished"))
@settings(FUZZ, max_examples=examples(20))
@given(data=st.data())
def test_entry_pads_refuse_malformed_keys_without_a_server_error(game, world, rolled_back, data):
    """A few of the page's own keys (to reach its other states: a contract named, the totals
    keypad), then malformed ones, each with the page's fields or a garbled one."""
    match = world.matches[game]
    number = data.draw(st.sampled_from([None, None, 1, match.deal_count or 1]), label="correct")
    url = f"/matches/{match.pk}/deals/" + ("new/" if number is None else f"{number}/edit/")
    preview = f"/matches/{match.pk}/deals/preview/"
    with rolled_back():
        client = client_as(world, "owner")
        response, before = checked(world.baseline, lambda: client.get(url), "GET")
        hidden, offered = {}, []
        if response.status_code == 200:
            hidden, offered = _page_state(response.content.decode())
        plain = data.draw(st.integers(0, 3), label="keys first")
        for step in range(plain + data.draw(st.integers(1, 4), label="malformed keys")):
            if step < plain and offered:
                action = data.draw(st.sampled_from(offered), label=f"key {step}")
            else:
                action = data.draw(malformed_key(offered), label=f"key {step}")
            target = data.draw(st.sampled_from([url, url, url, preview]), label="to")
            fields, which = data.draw(
                garbled({**hidden, "action": action}, preview=target == preview), label="fields"
            )
            headers = HTMX if data.draw(st.booleans(), label="htmx") else {}
            note(f"POST {target} {action!r}, garbled: {which}")
            payload = urlencoded(list(fields.items()))
            response, before = checked(
                before,
                lambda target=target, payload=payload, headers=headers: client.post(
                    target,
                    payload,
                    content_type="application/x-www-form-urlencoded",
                    headers=headers,
                ),
                "POST",
            )
            if response.status_code == 200 and "HX-Redirect" not in response.headers:
                page, keys = _page_state(response.content.decode())
                if "draft" in page:
                    hidden, offered = page, keys
            else:  # saved, or sent to the scoreboard: the page as it is now
                response, before = checked(before, lambda: client.get(url), "GET")
                if response.status_code == 200:
                    hidden, offered = _page_state(response.content.decode())


# --- match documents: the import page and the commands ------------------------------------------

REFUSAL = re.compile(r'<div class="refusal".*?</div>', re.S)


@settings(FUZZ, max_examples=examples(40))
@given(
    document=st.one_of(documents, documents.flatmap(mutated)),
    how=st.sampled_from(["paste", "file"]),
    htmx=st.booleans(),
)
def test_match_documents_are_stored_whole_or_refused_briefly(
    world, rolled_back, tmp_path, document, how, htmx
):
    """A malformed document (a lone surrogate in a name or a key, a number too long, a value of
    the wrong kind...) is refused by the import page with a short reason, and by ``score`` and
    ``import_match`` with exit 1 and the reason: never a server error or a traceback, and
    nothing is stored unless the whole document is."""
    text = as_json(document)
    with rolled_back():
        client = client_as(world, "owner")
        if how == "paste":
            form: dict[str, Any] = {"text": text}
        else:
            form = {"file": SimpleUploadedFile("match.json", text.encode())}
        response, after = checked(
            world.baseline,
            lambda: client.post("/matches/import/", form, headers=HTMX if htmx else {}),
            "POST",
        )
        if response.status_code == 200:
            for refusal in REFUSAL.findall(response.content.decode()):
                assert len(refusal) < 2_000, refusal[:300]
        source = tmp_path / "match.json"
        source.write_text(text, encoding="utf-8")
        for command, options in (("score", {}), ("import_match", {"owner": "fuzz-owner"})):
            out, err = StringIO(), StringIO()
            try:
                call_command(command, str(source), stdout=out, stderr=err, **options)
            except CommandError as refused:
                message = str(refused)
                assert message.encode("utf-8") and len(message) < 2_000, message[:300]
                assert snapshot() == after, f"{command} refused, and changed rows"
            else:
                out.getvalue().encode("utf-8")
            after = snapshot()
