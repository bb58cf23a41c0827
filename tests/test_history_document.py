"""The history travels with the match: every export writes ``changes`` (the download of one
match, the zip of an account's matches, ``export_match``), the import stores it, and export →
import → export gives the same document. ``score`` checks it and writes it back, never scores
from it. (scorekeeper/history/document.py; the format: docs/match-format.md.)"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.history.document import (
    changes_export,
    changes_import,
    match_export_document,
)
from scorekeeper.history.record import Actor, change_record
from scorekeeper.models import Deal, Match, MatchChange
from scorekeeper.rules import changes as rules_changes
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.sharing import services as sharing
from tests.conftest import deal_for, overwrite_deals
from tests.test_services import example

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def lived(user, other_user, make_match) -> Match:
    """A match with a history of every kind the site writes: deals entered until it finished,
    the last deleted (it goes on again) and put back by Undo (it finished again), a deal
    corrected and the correction undone, a co-scorer joined and removed, a link made anew."""
    match = make_match("biriba", rules={"target": 300})
    anna = Actor(name="anna", user_id=user.pk)
    n = 0
    while not fresh(match).is_finished:
        services.deal_record(match=fresh(match), data=deal_for("biriba", n), by="Chris")
        n += 1
    services.deal_delete(match=fresh(match), number=n, by=anna)
    undoable = fresh(match).changes.order_by("-id").filter(kind="deleted").first()
    services.change_undo(match=fresh(match), change=undoable.pk, by=anna)
    data = deal_for("biriba", 0)
    data["sides"][1]["melds"].append(["8C", "9C", "10C"])
    services.deal_correct(match=fresh(match), number=1, data=data, by="Babis")
    corrected = fresh(match).changes.get(kind="corrected")
    services.change_undo(match=fresh(match), change=corrected.pk, by="Babis")
    link = sharing.share_link_get_or_create(match=fresh(match), kind="score")
    member = sharing.member_join(link=link, user=other_user)
    sharing.member_remove(member=member, by=anna)
    sharing.share_link_regenerate(match=fresh(match), kind="watch", by=anna)
    return fresh(match)


def kinds(match: Match) -> list[str]:
    return list(match.changes.order_by("id").values_list("kind", flat=True))


def view_export(client, match: Match) -> dict:
    response = client.get(reverse("match_export", args=[match.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_models_kinds_are_the_formats():
    assert list(MatchChange.Kind.values) == list(rules_changes.KINDS)


def test_the_history_is_exported_oldest_first_in_one_query(lived, django_assert_num_queries):
    with django_assert_num_queries(1):
        exported = changes_export(lived)
    rows = list(lived.changes.order_by("id"))
    assert [c["kind"] for c in exported] == [r.kind for r in rows]
    assert set(kinds(lived)) == {
        "entered",
        "finished",
        "deleted",
        "reopened",
        "restored",
        "corrected",
        "joined",
        "removed",
        "link",
    }
    for change, row in zip(exported, rows, strict=True):
        # who by name, never the account; when in UTC, to the microsecond
        assert change["by"] == row.by and "by_user" not in change
        assert rules_changes.moment_of(change["at"]) == row.at
        assert change["at"].endswith("Z")
        assert change.get("deal") == row.number
        assert change.get("before") == row.before and change.get("after") == row.after
        assert set(change) <= set(rules_changes.KEY_ORDER)
    # references are positions in the list, pointing at the change the row points at
    ids = [r.pk for r in rows]
    restored = next(c for c in exported if c["kind"] == "restored")
    row = rows[exported.index(restored)]
    assert ids[restored["restores"]] == row.detail["restores"]
    assert exported[restored["restores"]]["kind"] == "deleted"
    assert restored["undo_of"] == restored["restores"]
    undone = [c for c in exported if c["kind"] == "corrected" and "undo_of" in c]
    assert len(undone) == 1 and exported[undone[0]["undo_of"]]["kind"] == "corrected"
    assert next(c for c in exported if c["kind"] == "joined")["member"] == "babis"
    assert next(c for c in exported if c["kind"] == "link")["link"] == "watch"
    finished = next(c for c in exported if c["kind"] == "finished")
    assert finished["winner"] == lived.winner and len(finished["totals"]) == 2
    # as the rules read it: nothing to change
    header = MatchHeader(game="biriba", players=tuple(p.name for p in lived.seated_players))
    assert list(rules_changes.parse_changes(exported, header)) == exported


def test_the_exported_document_ends_with_the_history(lived):
    document = match_export_document(lived)
    assert list(document)[-4:] == ["totals", "finished", "winner", "changes"]
    assert document["changes"] == changes_export(lived)
    assert document["finished"] is True


def test_export_import_export_is_the_same_document(lived, user, other_user):
    first = match_export_document(lived)
    copy = services.match_import(owner=other_user, document=json.loads(json.dumps(first)))
    assert match_export_document(copy) == first
    assert json.dumps(match_export_document(copy)) == json.dumps(first)
    rows = list(copy.changes.order_by("id"))
    assert len(rows) == len(first["changes"])
    assert all(row.by_user is None for row in rows)  # the document names people, not accounts
    assert {r.pk for r in rows}.isdisjoint(set(lived.changes.values_list("pk", flat=True)))
    # its references are to its own changes
    restored = next(r for r in rows if r.kind == "restored")
    assert MatchChange.objects.get(pk=restored.detail["restores"]).match_id == copy.pk
    # and once more
    again = services.match_import(owner=user, document=match_export_document(copy))
    assert match_export_document(again) == first


def test_export_import_export_through_the_download_and_the_import_page(lived, auth_client):
    document = view_export(auth_client, lived)
    assert document["changes"] == changes_export(lived)
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "match.json"
    response = auth_client.post(reverse("match_import"), {"file": upload})
    copy = Match.objects.latest("created")
    assert response["Location"] == reverse("match_detail", args=[copy.pk])
    assert copy.pk != lived.pk and copy.changes.count() == lived.changes.count()
    assert view_export(auth_client, copy) == document


def test_export_import_export_through_the_commands(lived, user, tmp_path):
    out = io.StringIO()
    call_command("export_match", str(lived.pk), stdout=out)
    first = out.getvalue()
    assert json.loads(first) == match_export_document(lived)
    path = tmp_path / "match.json"
    path.write_text(first, encoding="utf-8")
    ids = io.StringIO()
    call_command("import_match", str(path), owner=user.username, stdout=ids)
    again = io.StringIO()
    call_command("export_match", ids.getvalue().strip(), stdout=again)
    assert again.getvalue() == first


def test_the_account_download_carries_each_history_and_reads_back(
    lived, auth_client, other_user, tmp_path
):
    response = auth_client.get("/accounts/export.zip")
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        (name,) = archive.namelist()
        content = archive.read(name)
    document = json.loads(content)
    assert document == match_export_document(lived)
    path = tmp_path / name
    path.write_bytes(content)
    out = io.StringIO()
    call_command("import_match", str(path), owner=other_user.username, stdout=out)
    assert match_export_document(fresh(Match(pk=int(out.getvalue())))) == document


def test_a_match_without_history_is_exported_without_changes(user, auth_client):
    match = services.match_import(owner=user, document=example("biriba-ex2"))
    assert match.changes.count() == 0
    document = match_export_document(match)
    assert "changes" not in document
    assert view_export(auth_client, match) == document
    copy = services.match_import(owner=user, document=document)
    assert match_export_document(copy) == document and copy.changes.count() == 0
    # an empty history is no history
    empty = services.match_import(owner=user, document={**document, "changes": []})
    assert match_export_document(empty) == document


def test_the_imported_times_keep_their_precision(user):
    document = {
        **example("biriba-ex1"),
        "changes": [
            {"at": "2026-12-01T20:14:03Z", "kind": "link", "link": "score"},
            {"at": "2026-12-01T20:14:03.5Z", "by": "Dora", "kind": "joined", "member": "Dora"},
        ],
    }
    match = services.match_import(owner=user, document=document)
    rows = list(match.changes.order_by("id"))
    assert rows[0].at == datetime(2026, 12, 1, 20, 14, 3, tzinfo=UTC)
    assert rows[1].at == datetime(2026, 12, 1, 20, 14, 3, 500000, tzinfo=UTC)
    assert [c["at"] for c in changes_export(match)] == [
        "2026-12-01T20:14:03Z",
        "2026-12-01T20:14:03.500000Z",
    ]


def test_a_refused_history_stores_nothing_and_names_the_change(user, tmp_path):
    document = {
        **example("burraco-ex1"),
        "changes": [{"at": "yesterday", "kind": "link", "link": "score"}],
    }
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert refused.value.place.as_dict() == {"field": "changes", "index": 0, "key": "at"}
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match=r'refused, nothing stored: change 1, "at": '):
        call_command("import_match", str(path), owner=user.username)
    assert (Match.objects.count(), MatchChange.objects.count()) == (0, 0)


def test_the_history_is_stored_in_the_transaction_of_the_import(user, monkeypatch, lived):
    document = match_export_document(lived)
    before = (Match.objects.count(), Deal.objects.count(), MatchChange.objects.count())

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(MatchChange.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        services.match_import(owner=user, document=document)
    assert (Match.objects.count(), Deal.objects.count(), MatchChange.objects.count()) == before


def test_a_long_history_is_stored_in_a_few_batches(user, make_match):
    match = make_match("biriba")
    deal = deal_for("biriba", 0)
    at = "2026-12-01T20:14:03Z"
    changes: list[dict] = [{"at": at, "kind": "entered", "deal": 1, "after": deal}]
    for i in range(1, 200):
        undo = i % 50 == 0
        change = {"at": at, "kind": "corrected", "deal": 1, "before": deal, "after": deal}
        changes.append({**change, "undo_of": i - 1} if undo else change)
    with CaptureQueriesContext(connection) as queries:
        changes_import(match, changes)
    inserts = [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) <= 8
    assert len(changes_export(match)) == 200
    exported = changes_export(match)
    assert [i for i, c in enumerate(exported) if "undo_of" in c] == [50, 100, 150]
    assert all(exported[i]["undo_of"] == i - 1 for i in (50, 100, 150))


def test_a_detail_the_format_does_not_name_stays_out_of_the_export(user, make_match):
    """A key a later change of the site adds to ``detail`` without adding it to the format is
    left out: the export is always a document the import reads back."""
    from django.db import transaction

    match = make_match("biriba")
    with transaction.atomic():
        change_record(match=match, kind="joined", by="Dora", detail={"member": "Dora", "x": 1})
    (exported,) = changes_export(match)
    assert exported == {"at": exported["at"], "by": "Dora", "kind": "joined", "member": "Dora"}
    copy = services.match_import(owner=user, document=match_export_document(match))
    assert changes_export(copy) == [exported]


def test_a_match_the_rules_refuse_is_exported_as_stored_with_its_history(lived):
    overwrite_deals(lived, {"sides": []}, number=1)
    document = match_export_document(fresh(lived))
    assert "totals" not in document and document["deals"][0] == {"sides": []}
    assert document["changes"] == changes_export(lived)
    with pytest.raises(RuleError):
        match_export_document(fresh(lived), strict=True)
    with pytest.raises(CommandError, match="does not pass the rules"):
        call_command("export_match", str(lived.pk), stdout=io.StringIO())


# --- `manage.py score` checks the history and writes it back, never scores from it ------------


def score(tmp_path, document: dict) -> tuple[dict, str]:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("score", str(path), stdout=out, stderr=err)
    return json.loads(out.getvalue()), err.getvalue()


@pytest.mark.parametrize("name", ["biriba-ex2", "burraco-ex1", "barbu-ex2"])
def test_score_ignores_the_history(tmp_path, lived, name):
    history = changes_export(lived)
    plain, plain_err = score(tmp_path, example(name))
    with_history, err = score(tmp_path, {**example(name), "changes": history})
    assert err == plain_err
    assert {k: v for k, v in with_history.items() if k != "changes"} == plain
    assert with_history["changes"] == list(rules_changes.parse_changes(history, _header(name)))
    # what score writes, score reads back as it is
    assert score(tmp_path, with_history)[0] == with_history


def _header(name: str) -> MatchHeader:
    return rules_match.parse_header(example(name))[0]


def test_score_refuses_a_bad_change_naming_it(tmp_path):
    document = {**example("biriba-ex1"), "changes": [{"at": "2026-12-01T20:14:03Z"}]}
    with pytest.raises(CommandError, match=r"^refused: change 1: the required key \"kind\""):
        score(tmp_path, document)


def test_an_imported_match_offers_no_undo_of_a_change_made_where_it_came_from(
    lived, other_user, client
):
    """A probe: the copy's scoreboard offered "Undo: take deal 2 off again", a change of the
    original match; tapping it would have deleted that deal from the copy."""
    from scorekeeper.history.selectors import change_undoable

    assert change_undoable(lived) is not None
    copy = services.match_import(owner=other_user, document=match_export_document(lived))
    assert change_undoable(copy) is None
    client.force_login(other_user)
    page = client.get(reverse("match_detail", args=[copy.pk])).content.decode()
    assert "data-undo=" not in page
    # a change made here is offered, and only it
    services.deal_delete(match=fresh(copy), number=fresh(copy).deals.count(), by="Dora")
    undoable = change_undoable(fresh(copy))
    assert undoable is not None and undoable.kind == "deleted" and undoable.by == "Dora"
    page = client.get(reverse("match_detail", args=[copy.pk])).content.decode()
    assert f'data-undo="{undoable.pk}"' in page
    # the export says nothing of it: the document is the same as the original's but that deletion
    assert "imported" not in json.dumps(match_export_document(copy)["changes"])
