""" "Download all my data" (one ``scorekeeper-data/1`` file: every match document the
account owns, and its players) and its import back: whole, or refused whole naming the
match and the reason, with nothing stored."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.exports import selectors
from scorekeeper.exports import services as exports
from scorekeeper.history.document import match_export_document
from scorekeeper.models import Match, MatchChange, Player
from scorekeeper.rules.errors import RuleError
from tests.conftest import HTMX, deal_for, rummy_deal, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def account(make_match, user):
    """Matches of every game, one with a history of corrections, deletions and an undo; a
    player who sits in no match; a match someone else owns that this account joined."""
    biriba = make_match("biriba", deals=3, players=["Άννα", "Μπάμπης", "Chris", "Dora"])
    services.deal_correct(match=biriba, number=1, data=rummy_deal("biriba", 3), by="Chris")
    services.deal_delete(match=biriba, number=2, by="Dora")
    deleted = biriba.changes.get(kind="deleted").pk
    services.deal_restore(match=biriba, change=deleted, by="Anna")
    services.deal_record(match=biriba, data=deal_for("biriba", 5), by="Babis")
    newest = biriba.changes.order_by("-id").first().pk
    services.change_undo(match=biriba, change=newest, by="Babis")
    make_match("barbu", deals=9)
    make_match("burraco", deals=3, rules={"target": 40})
    make_match("burraco")
    services.player_get_or_create(owner=user, name="Eleni")
    return user


def download(client) -> dict:
    response = client.get(reverse("account_data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-data-')
    assert "no-store" in response["Cache-Control"]
    return json.loads(response.content.decode("utf-8"))


def upload(client, document, headers=None):
    content = json.dumps(document, ensure_ascii=False).encode()
    file = SimpleUploadedFile("data.json", content, content_type="application/json")
    return client.post(reverse("account_data_import"), {"file": file}, headers=headers or {})


def test_one_file_with_every_match_document_and_the_players(auth_client, account):
    data = download(auth_client)
    assert list(data) == ["format", "exported", "players", "matches"]
    assert data["format"] == "scorekeeper-data/1" and data["exported"].endswith("Z")
    kept = Player.objects.filter(owner=account).order_by("key").values_list("name", flat=True)
    assert data["players"] == list(kept) and len(kept) == 7
    assert "Eleni" in data["players"] and "Μπάμπης" in data["players"]
    owned = Match.objects.filter(owner=account).order_by("created", "pk")
    # each document the one every export writes, oldest first
    assert data["matches"] == [match_export_document(m) for m in owned]
    assert [m["game"] for m in data["matches"]] == ["biriba", "barbu", "burraco", "burraco"]
    assert data["matches"][0]["changes"][-1].get("undo_of") is not None


def test_the_documents_are_those_of_the_match_export_for_every_kind_of_history(account):
    """The data file writes each history from rows read for every match at once; the one
    export of a match writes it from its own query: the two are the same."""
    matches = selectors.data_matches(account)
    assert {row.kind for row in MatchChange.objects.all()} >= {
        "entered",
        "corrected",
        "deleted",
        "restored",
    }
    for match in matches:
        assert selectors._exported(match) == match_export_document(match)


def test_download_then_import_gives_the_same_documents(auth_client, account, client, other_user):
    data = download(auth_client)
    client.force_login(other_user)
    response = upload(client, data)
    assert response.status_code == 302 and response["Location"] == reverse("match_list")
    page = client.get(response["Location"])
    assert "4 matches imported, with your players." in text(page)
    assert b'data-message="data_imported"' in page.content
    again = download(client)
    assert again["matches"] == data["matches"]
    assert again["players"] == data["players"]  # Eleni too, who sits in no match
    assert Match.objects.filter(owner=other_user, imported__isnull=False).count() == 4
    # the history page lists them in the order they were played
    mine = list(Match.objects.filter(owner=other_user).order_by("-created", "-pk"))
    assert [m.game for m in mine] == ["burraco", "burraco", "barbu", "biriba"]


def test_a_refused_match_refuses_the_file_and_names_it(auth_client, account, other_user, client):
    data = download(auth_client)
    data["matches"][2]["deals"][1]["sides"][0]["melds"] = [["3H", "JK", "2D"]]  # two wild cards
    client.force_login(other_user)
    before = (Match.objects.count(), Player.objects.count(), MatchChange.objects.count())
    for headers in ({}, HTMX):
        response = upload(client, data, headers)
        assert response.status_code == 200
        body = response.content.decode()
        assert 'data-refused-match="3"' in body
        page = text(response)
        assert "Refused, nothing was stored." in page
        assert "Match 3 of 4 in the file: Burraco · Anna, Babis, Chris, Dora" in page
        assert "deal 2" in page
    assert (Match.objects.count(), Player.objects.count(), MatchChange.objects.count()) == before


def test_the_service_refuses_with_the_match_named(user, make_match):
    good = match_export_document(make_match("biriba", deals=1))
    bad = {**good, "players": ["Anna"]}
    document = {"format": "scorekeeper-data/1", "matches": [good, good, bad]}
    with pytest.raises(exports.MatchRefused) as refused:
        exports.account_data_import(owner=user, document=document)
    error = refused.value
    assert (error.position, error.game, error.players) == (3, "Biriba", ["Anna"])
    assert error.code == error.refusal.code and isinstance(error, RuleError)
    assert error.message.startswith("match 3 (Biriba: Anna)")
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("document", "code"),
    [
        ([], "data_not_object"),
        ({"format": "scorekeeper-data/2", "matches": []}, "data_format"),
        ({"format": "scorekeeper-match/1", "game": "biriba"}, "data_is_a_match"),
        ({"format": "scorekeeper-data/1", "matches": [], "extra": 1}, "data_unknown_key"),
        ({"format": "scorekeeper-data/1"}, "data_bad_type"),
        ({"format": "scorekeeper-data/1", "matches": {}}, "data_bad_type"),
        ({"format": "scorekeeper-data/1", "matches": [], "players": [""]}, "data_bad_type"),
        (
            {"format": "scorekeeper-data/1", "matches": [], "players": ["A", "a"]},
            "duplicate_player",
        ),
        ({"format": "scorekeeper-data/1", "matches": [], "exported": 5}, "data_bad_type"),
        ({"format": "scorekeeper-data/1", "matches": [7]}, None),
    ],
)
def test_a_file_that_is_no_data_file_is_refused_whole(auth_client, user, document, code):
    with pytest.raises(RuleError) as refused:
        exports.account_data_import(owner=user, document=document)
    if code is not None:
        assert refused.value.code == code
    else:
        assert isinstance(refused.value, exports.MatchRefused) and refused.value.position == 1
    response = upload(auth_client, document)
    assert response.status_code == 200
    assert f'data-message="{refused.value.code}"' in response.content.decode()
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_an_empty_file_brings_back_the_players(user):
    document = {"format": "scorekeeper-data/1", "players": ["Eleni"], "matches": []}
    assert exports.account_data_import(owner=user, document=document) == []
    assert list(Player.objects.filter(owner=user).values_list("name", flat=True)) == ["Eleni"]


def test_what_is_not_json_is_said_beside_the_field(auth_client):
    for content in (b"{nope", b"\xff\xfe", b""):
        file = SimpleUploadedFile("data.json", content, content_type="application/json")
        response = auth_client.post(reverse("account_data_import"), {"file": file})
        assert response.status_code == 200 and b'class="error' in response.content
    assert Match.objects.count() == 0


def test_the_pages_link_to_it(auth_client, make_match):
    make_match("biriba")
    account_page = auth_client.get(reverse("account")).content.decode()
    assert f'href="{reverse("account_data")}" download data-export="data"' in account_page
    assert f'href="{reverse("account_data_import")}"' in account_page
    import_page = auth_client.get(reverse("match_import")).content.decode()
    assert f'href="{reverse("account_data_import")}"' in import_page
    page = auth_client.get(reverse("account_data_import"))
    assert page.status_code == 200 and b'data-export="data-import"' in page.content
    assert b'enctype="multipart/form-data"' in page.content


def test_only_the_account_s_own_matches_go_in(auth_client, make_match, other_user, user):
    from scorekeeper.sharing import services as sharing

    theirs = make_match("biriba", deals=1, owner=other_user)
    link = sharing.share_link_get_or_create(match=theirs, kind="score")
    sharing.member_join(link=link, user=user)
    make_match("barbu")
    assert [m["game"] for m in download(auth_client)["matches"]] == ["barbu"]


def test_nobody_logged_in_is_asked_to_log_in(client):
    for name in ("account_data", "account_data_import"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_download_s_queries_do_not_grow_with_the_matches(auth_client, make_match, user):
    def counted() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = auth_client.get(reverse("account_data"))
        assert response.status_code == 200
        return len(captured)

    make_match("biriba", deals=2)
    few = counted()
    for game in ("barbu", "burraco", "biriba", "barbu", "burraco"):
        make_match(game, deals=2)
    assert counted() == few
    assert len(download(auth_client)["matches"]) == 6


@pytest.mark.django_db(transaction=True)
def test_a_refusal_in_the_third_match_stores_nothing_committed(django_user_model):
    """Outside any test transaction (on PostgreSQL too): the two matches imported before the
    refused third are not kept."""
    owner = django_user_model.objects.create_user(username="zoe", password="pass-word-1234")
    source = django_user_model.objects.create_user(username="yannis", password="pass-word-1234")
    made = services.match_create(
        owner=source, game="burraco", players=["Anna", "Babis"], first_dealer=0, rules={}
    )
    for i in range(2):
        services.deal_record(match=made, data=rummy_deal("burraco", i))
    good = match_export_document(Match.objects.get(pk=made.pk))
    bad = {**good, "rules": {"target": 0}}
    document = {"format": "scorekeeper-data/1", "players": ["Eleni"], "matches": [good, good, bad]}
    with pytest.raises(exports.MatchRefused) as refused:
        exports.account_data_import(owner=owner, document=document)
    assert refused.value.position == 3
    assert not Match.objects.filter(owner=owner).exists()
    assert not Player.objects.filter(owner=owner).exists()
    assert exports.account_data_import(owner=owner, document={**document, "matches": [good] * 2})
    assert Match.objects.filter(owner=owner).count() == 2
