"""Every write service runs in one transaction of its own.

The services are called with ``transaction=True``, outside any surrounding transaction (a test
transaction would hide a missing ``atomic``). Every statement a service sends must run inside
an atomic block, and the call must end in exactly one commit (or, when refused, one rollback):
a lost ``@transaction.atomic`` fails here on both databases, not only on PostgreSQL's
``select_for_update``. The services are found by walking the package, so a new one without a
scenario below fails the test by name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

import scorekeeper
from scorekeeper import services
from scorekeeper.accounts.services import account_delete
from scorekeeper.confirmation import services as confirmation
from scorekeeper.entry import services as entry_services
from scorekeeper.exports import services as exports_services
from scorekeeper.history.record import Actor
from scorekeeper.i18n.services import account_language_set
from scorekeeper.matches import services as matches_services
from scorekeeper.models import Match, Player
from scorekeeper.players import services as players_services
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.sharing import services as sharing
from tests.conftest import PLAYERS4, deal_for, rummy_deal

pytestmark = pytest.mark.django_db(transaction=True)

#: Public functions of the services modules that write nothing.
NOT_WRITES = {
    "deal_fingerprint",
    "lock_players_of",  # a lock taken inside the writes of players
    "refusal_already_entered",
    "refusal_deal_changed",
}


def write_services() -> dict[str, Callable[..., Any]]:
    """Every public function of every ``services`` module of the site, but those that write
    nothing."""
    found: dict[str, Callable[..., Any]] = {}
    for info in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        if info.name.rsplit(".", 1)[-1] != "services":
            continue
        module = importlib.import_module(info.name)
        for name, function in inspect.getmembers(module, inspect.isfunction):
            defined_here = function.__module__ == info.name
            if defined_here and not name.startswith("_") and name not in NOT_WRITES:
                found[f"{info.name}.{name}"] = function
    return found


class Watch:
    """Records, for the statements sent while it is on, whether each ran in an atomic block,
    and counts the commits and rollbacks of the connection."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.outside: list[str] = []
        self.statements = 0
        self.commits = 0
        self.rollbacks = 0
        commit, rollback = connection.commit, connection.rollback

        def counted_commit() -> None:
            self.commits += 1
            commit()

        def counted_rollback() -> None:
            self.rollbacks += 1
            rollback()

        monkeypatch.setattr(connection, "commit", counted_commit)
        monkeypatch.setattr(connection, "rollback", counted_rollback)

    def __call__(self, execute, sql, params, many, context):
        self.statements += 1
        # SQLite's "BEGIN IMMEDIATE" opens the transaction that the atomic block is entering
        if not connection.in_atomic_block and not sql.startswith("BEGIN"):
            self.outside.append(sql)
        return execute(sql, params, many, context)


def watched(monkeypatch: pytest.MonkeyPatch, call: Callable[[], Any]) -> tuple[Watch, Any]:
    assert not connection.in_atomic_block, "the test itself must not run in a transaction"
    watch = Watch(monkeypatch)
    outcome: Any
    with connection.execute_wrapper(watch):
        try:
            outcome = call()
        except RuleError as refusal:
            outcome = refusal
    monkeypatch.undo()
    return watch, outcome


# Each scenario, given the test's fixtures, returns a call that succeeds and one the rules
# refuse (None for a service that has nothing to refuse).
Calls = tuple[Callable[[], Any], Callable[[], Any] | None]


def _match_create(user, make_match) -> Calls:
    def create(**rules: Any) -> Callable[[], Any]:
        return lambda: services.match_create(
            owner=user, game="biriba", players=PLAYERS4, first_dealer=0, rules=rules
        )

    return create(), create(target=0)


def _match_import(user, make_match) -> Calls:
    document = match_scored(make_match("burraco", deals=2))[2]
    return (
        lambda: services.match_import(owner=user, document=document),
        lambda: services.match_import(owner=user, document={**document, "players": ["Anna"]}),
    )


def _deal_record(user, make_match) -> Calls:
    match = make_match("biriba", deals=1)
    return (
        lambda: services.deal_record(match=match, data=rummy_deal("biriba"), number=2),
        lambda: services.deal_record(match=match, data={"sides": []}),
    )


def _deal_correct(user, make_match) -> Calls:
    match = make_match("burraco", deals=2)
    return (
        lambda: services.deal_correct(match=match, number=1, data=rummy_deal("burraco")),
        lambda: services.deal_correct(match=match, number=1, data={"sides": []}),
    )


def _deal_delete_last(user, make_match) -> Calls:
    match = make_match("barbu", deals=3)
    return (
        lambda: services.deal_delete_last(match=match, number=3),
        lambda: services.deal_delete_last(match=match, number=1),
    )


def _deal_delete(user, make_match) -> Calls:
    match = make_match("biriba", deals=3)
    return (
        lambda: services.deal_delete(match=match, number=2),
        lambda: services.deal_delete(match=match, number=7),
    )


def _deal_restore(user, make_match) -> Calls:
    match = make_match("burraco", deals=3)
    services.deal_delete(match=match, number=2)
    change = match.changes.get(kind="deleted").pk
    return (
        lambda: services.deal_restore(match=match, change=change),
        lambda: services.deal_restore(match=match, change=change + 1000),
    )


def _change_undo(user, make_match) -> Calls:
    match = make_match("biriba", deals=1)
    services.deal_record(match=match, data=deal_for("biriba", 1), by="Babis")
    change = match.changes.filter(kind="entered").order_by("-id").first().pk
    return (
        lambda: services.change_undo(match=match, change=change),
        lambda: services.change_undo(match=match, change=change),  # taken back already
    )


def _player_get_or_create(user, make_match) -> Calls:
    return lambda: services.player_get_or_create(owner=user, name="Eleni"), None


def _in_progress(make_match, *, editing: bool = False) -> Any:
    """A Burraco match with a deal in progress (the next deal's, or deal 1's correction)."""
    match = make_match("burraco", deals=1)
    number = 1 if editing else 2
    entry_services.draft_open(
        match=match, number=number, editing=editing, initial=lambda: {"n": 0}, base=""
    )
    return match, number


def _draft_open(user, make_match) -> Calls:
    match = make_match("burraco", deals=1)
    return (
        lambda: entry_services.draft_open(
            match=match, number=2, editing=False, initial=lambda: {"n": 0}
        ),
        None,
    )


def _draft_tap(user, make_match) -> Calls:
    match, number = _in_progress(make_match)

    def refused(content: dict) -> tuple[dict, dict]:
        raise RuleError("no_such_key", "that key is not one")

    def tap(change, tap_id: str):
        return lambda: entry_services.draft_tap(
            match=match, number=number, editing=False, tap=tap_id, change=change, by="anna"
        )

    return tap(lambda content: ({"n": content["n"] + 1}, {}), "t1"), tap(refused, "t2")


def _draft_reset(user, make_match) -> Calls:
    match, number = _in_progress(make_match)
    entry_services.draft_tap(
        match=match, number=number, editing=False, tap="", change=lambda c: ({"n": 5}, {}), by=""
    )
    return (
        lambda: entry_services.draft_reset(
            match=match, number=number, editing=False, initial=lambda: {"n": 0}, by="anna"
        ),
        None,
    )


def _draft_offer(user, make_match) -> Calls:
    match = make_match("burraco", deals=1)
    return (
        lambda: entry_services.draft_offer(
            match=match, number=1, content={"n": 3}, base="", by="anna"
        ),
        None,
    )


def _draft_rebase(user, make_match) -> Calls:
    match, number = _in_progress(make_match, editing=True)
    return (
        lambda: entry_services.draft_rebase(match=match, number=number, base="abc"),
        None,
    )


def _deal_save(user, make_match) -> Calls:
    def save(data: dict) -> Callable[[], Any]:
        match, number = _in_progress(make_match)  # each call its own deal in progress
        return lambda: entry_services.deal_save(
            match=match,
            number=number,
            editing=False,
            version=None,
            build=lambda content: data,
            by="anna",
        )

    # the second is refused by the rules: nothing is saved, its draft stays
    return save(rummy_deal("burraco")), save({"sides": []})


def _account_delete(user, make_match) -> Calls:
    make_match("biriba", deals=2)
    return lambda: account_delete(user=user), None


def _account_language_set(user, make_match) -> Calls:
    return lambda: account_language_set(user=user, language="el"), None


def _share_link_get_or_create(user, make_match) -> Calls:
    match = make_match("biriba")
    return lambda: sharing.share_link_get_or_create(match=match, kind="score"), None


def _share_link_regenerate(user, make_match) -> Calls:
    match = make_match("biriba")
    sharing.share_link_get_or_create(match=match, kind="watch")
    return lambda: sharing.share_link_regenerate(match=match, kind="watch"), None


def _member_join(user, make_match) -> Calls:
    link = sharing.share_link_get_or_create(match=make_match("burraco"), kind="score")
    return (
        lambda: sharing.member_join(link=link, guest_key="a" * 64, name="Eleni"),
        lambda: sharing.member_join(link=link, guest_key="b" * 64, name="El\u202eeni"),
    )


def _member_remove(user, make_match) -> Calls:
    link = sharing.share_link_get_or_create(match=make_match("barbu"), kind="score")
    member = sharing.member_join(link=link, guest_key="c" * 64, name="Fotis")
    return lambda: sharing.member_remove(member=member), None


def _deal_swap(user, make_match) -> Calls:
    match = make_match("barbu", deals=9)
    return (
        lambda: services.deal_swap(match=match, number=2, other=6),
        lambda: services.deal_swap(match=match, number=2, other=8),  # Babis declares deal 8
    )


def _deal_scores_keep(user, make_match) -> Calls:
    match = make_match("burraco", deals=3)
    match.deals.update(score=None, running=None)  # stored before scores were kept
    broken = make_match("biriba", deals=1)
    broken.deals.update(data={"sides": []})
    return (
        lambda: services.deal_scores_keep(match=match),
        lambda: services.deal_scores_keep(match=broken),
    )


def _waiting(make_match) -> Any:
    """A Biriba match under the confirmation by the other side: deal 1 saved by Anna (seat 0),
    waiting for Babis and Dora's side."""
    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=deal_for("biriba", 0), by=Actor("Anna", seat=0))
    return match


def _seat_claim(user, make_match) -> Calls:
    match = make_match("barbu", confirmation=True)
    return (
        lambda: confirmation.seat_claim(match=match, member=None, seat=1),
        lambda: confirmation.seat_claim(match=match, member=None, seat=4),
    )


def _deal_confirm(user, make_match) -> Calls:
    match = _waiting(make_match)
    return (
        lambda: confirmation.deal_confirm(match=match, number=1, by=Actor("Babis", seat=1)),
        # Chris is Anna's partner: not for him to accept
        lambda: confirmation.deal_confirm(match=match, number=1, by=Actor("Chris", seat=2)),
    )


def _deal_reject(user, make_match) -> Calls:
    match = _waiting(make_match)
    return (
        lambda: confirmation.deal_reject(
            match=match, number=1, reason="we took the pot", by=Actor("Dora", seat=3)
        ),
        lambda: confirmation.deal_reject(
            match=match, number=1, reason="no", by=Actor("Chris", seat=2)
        ),
    )


def _match_archive(user, make_match) -> Calls:
    match = make_match("biriba", deals=1)
    return lambda: matches_services.match_archive(match=match), None


def _match_unarchive(user, make_match) -> Calls:
    match = matches_services.match_archive(match=make_match("barbu"))
    return lambda: matches_services.match_unarchive(match=match), None


def _match_delete(user, make_match) -> Calls:
    match = make_match("burraco", deals=2)
    kept = make_match("biriba", deals=1)
    return (
        lambda: matches_services.match_delete(match=match, version=match.version),
        lambda: matches_services.match_delete(match=kept, version=kept.version - 1),
    )


def _player_rename(user, make_match) -> Calls:
    make_match("biriba")
    anna = Player.objects.get(owner=user, name="Anna")
    return (
        lambda: players_services.player_rename(player=anna, name="Άννα"),
        lambda: players_services.player_rename(player=anna, name="BABIS"),
    )


def _player_merge(user, make_match) -> Calls:
    make_match("biriba", players=["Anna", "Babis"])
    make_match("biriba", players=["Ana", "Chris"])
    ana, anna, babis = (Player.objects.get(owner=user, name=n) for n in ("Ana", "Anna", "Babis"))
    return (
        lambda: players_services.player_merge(player=ana, into=anna),
        lambda: players_services.player_merge(player=babis, into=anna),  # at one table
    )


def _player_remove(user, make_match) -> Calls:
    make_match("biriba", players=["Anna", "Babis"])
    nobody = services.player_get_or_create(owner=user, name="Eleni")
    anna = Player.objects.get(owner=user, name="Anna")
    return (
        lambda: players_services.player_remove(player=nobody),
        lambda: players_services.player_remove(player=anna),  # sits in a match
    )


def _account_data_import(user, make_match) -> Calls:
    from scorekeeper.history.document import match_export_document

    good = match_export_document(make_match("barbu", deals=2))
    bad = {**good, "players": ["Anna"]}

    def data(*matches: Any) -> dict[str, Any]:
        return {"format": "scorekeeper-data/1", "players": ["Eleni"], "matches": list(matches)}

    return (
        lambda: exports_services.account_data_import(owner=user, document=data(good, good)),
        lambda: exports_services.account_data_import(owner=user, document=data(good, good, bad)),
    )


SCENARIOS: dict[str, Callable[[Any, Any], Calls]] = {
    "scorekeeper.confirmation.services.seat_claim": _seat_claim,
    "scorekeeper.confirmation.services.deal_confirm": _deal_confirm,
    "scorekeeper.confirmation.services.deal_reject": _deal_reject,
    "scorekeeper.entry.services.draft_open": _draft_open,
    "scorekeeper.entry.services.draft_tap": _draft_tap,
    "scorekeeper.entry.services.draft_reset": _draft_reset,
    "scorekeeper.entry.services.draft_offer": _draft_offer,
    "scorekeeper.entry.services.draft_rebase": _draft_rebase,
    "scorekeeper.entry.services.deal_save": _deal_save,
    "scorekeeper.accounts.services.account_delete": _account_delete,
    "scorekeeper.i18n.services.account_language_set": _account_language_set,
    "scorekeeper.services.match_create": _match_create,
    "scorekeeper.services.match_import": _match_import,
    "scorekeeper.services.deal_record": _deal_record,
    "scorekeeper.services.deal_correct": _deal_correct,
    "scorekeeper.services.deal_delete_last": _deal_delete_last,
    "scorekeeper.services.deal_delete": _deal_delete,
    "scorekeeper.services.deal_restore": _deal_restore,
    "scorekeeper.services.deal_swap": _deal_swap,
    "scorekeeper.services.deal_scores_keep": _deal_scores_keep,
    "scorekeeper.services.change_undo": _change_undo,
    "scorekeeper.services.player_get_or_create": _player_get_or_create,
    "scorekeeper.sharing.services.share_link_get_or_create": _share_link_get_or_create,
    "scorekeeper.sharing.services.share_link_regenerate": _share_link_regenerate,
    "scorekeeper.sharing.services.member_join": _member_join,
    "scorekeeper.sharing.services.member_remove": _member_remove,
    "scorekeeper.matches.services.match_archive": _match_archive,
    "scorekeeper.matches.services.match_unarchive": _match_unarchive,
    "scorekeeper.matches.services.match_delete": _match_delete,
    "scorekeeper.players.services.player_rename": _player_rename,
    "scorekeeper.players.services.player_merge": _player_merge,
    "scorekeeper.players.services.player_remove": _player_remove,
    "scorekeeper.exports.services.account_data_import": _account_data_import,
}


def test_every_write_service_has_a_scenario():
    missing = sorted(set(write_services()) - set(SCENARIOS))
    assert not missing, f"write services without a scenario in {__name__}: {missing}"
    assert set(SCENARIOS) <= set(write_services())


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_write_service_runs_in_one_transaction(name, user, make_match, monkeypatch):
    succeeds, refused = SCENARIOS[name](user, make_match)

    watch, outcome = watched(monkeypatch, succeeds)
    assert not isinstance(outcome, RuleError), outcome
    assert watch.statements, "the scenario wrote nothing"
    assert watch.outside == [], f"{name} sent statements outside a transaction"
    assert (watch.commits, watch.rollbacks) == (1, 0), f"{name} is not one transaction"

    if refused is None:
        return
    rows = _rows()
    watch, outcome = watched(monkeypatch, refused)
    assert isinstance(outcome, RuleError), f"{name}: the refused scenario was not refused"
    assert watch.outside == [], f"{name} sent statements outside a transaction"
    assert watch.commits == 0 and watch.rollbacks <= 1, f"{name} committed a refused write"
    assert _rows() == rows, f"{name} changed rows although it refused"


def _rows() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the site's tables, to see that a refusal changed none."""
    from django.apps import apps

    out = {}
    for model in apps.get_app_config("scorekeeper").get_models():
        out[model.__name__] = sorted(map(repr, model.objects.values_list()))
    out["Match.updated"] = sorted(map(repr, Match.objects.values_list("pk", "updated")))
    return out
