"""A player's account: the limit on login attempts (django-axes), the download of every match,
and deleting the account with its matches and players."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, models, transaction
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from scorekeeper.accounts import services
from scorekeeper.accounts.lockout import client_address
from scorekeeper.models import Deal, Match, MatchSeat, Player
from tests.conftest import HTMX, PLAYERS4, overwrite_deals
from tests.test_transactions import watched

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-1234"  # the conftest users'


def is_partial(response) -> bool:
    return b"<html" not in response.content


def login(client: Client, username: str, password: str, *, address: str, htmx: bool = False):
    headers = HTMX if htmx else {}
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        headers=headers,
        REMOTE_ADDR=address,
    )


def fail(client: Client, username: str, *, address: str, times: int) -> None:
    """``times`` wrong passwords; those before the limit are refused as wrong, not locked."""
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(times):
        response = login(client, username, "not-the-password", address=address)
        assert response.status_code == (200 if i < limit - 1 else 429), i


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


# --- the limit on login attempts ---------------------------------------------------------------


def test_an_account_is_locked_from_one_address_after_the_limit(client, user):
    limit = settings.AXES_FAILURE_LIMIT
    assert limit == 5
    fail(client, "anna", address="10.0.0.1", times=limit - 1)
    response = login(client, "anna", "not-the-password", address="10.0.0.1")
    assert response.status_code == 429  # the limit-th failure locks at once
    # now even the right password is refused, and the page says why
    response = login(client, "anna", PASSWORD, address="10.0.0.1")
    assert response.status_code == 429
    page = response.content.decode()
    assert 'data-message="login_locked"' in page
    assert "Too many wrong passwords" in page and "15 minutes" in page
    assert 'id="auth-form"' in page and "<html" in page  # the login page, ready to try later
    assert 'value="anna"' in page
    assert not logged_in(client)


def test_the_same_account_from_another_address_and_another_account_still_log_in(
    client, user, other_user, settings
):
    fail(client, "anna", address="10.0.0.1", times=settings.AXES_FAILURE_LIMIT)
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 429

    response = login(Client(), "anna", PASSWORD, address="10.0.0.2")
    assert response.status_code == 302

    other = Client()
    response = login(other, "babis", PASSWORD, address="10.0.0.1")
    assert response.status_code == 302 and logged_in(other)


def test_fewer_failures_than_the_limit_then_the_right_password_logs_in_and_resets(
    client, user, settings
):
    fail(client, "anna", address="10.0.0.1", times=settings.AXES_FAILURE_LIMIT - 1)
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 302
    assert not AccessAttempt.objects.filter(username="anna").exists()
    client.logout()
    fail(client, "anna", address="10.0.0.1", times=settings.AXES_FAILURE_LIMIT - 1)
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 302


def test_the_lock_ends_after_the_cool_off(client, user, settings):
    fail(client, "anna", address="10.0.0.1", times=settings.AXES_FAILURE_LIMIT)
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 429
    # a try while locked does not push the end of the lock further
    attempt = AccessAttempt.objects.get(username="anna")
    assert attempt.failures_since_start == settings.AXES_FAILURE_LIMIT
    AccessAttempt.objects.update(attempt_time=attempt.attempt_time - timedelta(minutes=16))
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 302


def test_the_htmx_login_form_says_it_is_locked_in_place(client, user, settings):
    fail(client, "anna", address="10.0.0.1", times=settings.AXES_FAILURE_LIMIT)
    response = login(client, "anna", PASSWORD, address="10.0.0.1", htmx=True)
    assert response.status_code == 429
    assert is_partial(response)
    page = response.content.decode()
    assert page.lstrip().startswith('<form id="auth-form"')
    assert 'data-message="login_locked"' in page and "Too many wrong passwords" in page
    # swapped where the form is: htmx-config swaps 4xx, and nothing retargets it
    assert "HX-Retarget" not in response
    assert "HX-Redirect" not in response


def test_the_admin_login_is_limited_too(client, django_user_model, settings):
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(
            "/admin/login/?next=/admin/",
            {"username": "root", "password": "guess"},
            REMOTE_ADDR="10.0.0.9",
        )
    assert response.status_code == 429
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )
    assert response.status_code == 429
    page = response.content.decode()
    assert 'data-message="login_locked"' in page and "Too many wrong passwords" in page
    assert not logged_in(client)
    # the admin from another address is not locked out
    admin = Client()
    response = admin.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.8",
    )
    assert response.status_code == 302 and logged_in(admin)


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(rf, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 10.0.0.7")
    assert client_address(request) == "10.0.0.7"  # the first entry is the client's own claim
    assert client_address(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
    # what is not an address (the database keeps addresses in an address column) is ignored
    for junk in ("not-an-address", "10.0.0.7, <script>", "", "1.2.3.4.5"):
        spoofed = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=junk)
        assert client_address(spoofed) == "127.0.0.1"
    settings.CLIENT_IP_HEADER = ""
    assert client_address(request) == "127.0.0.1"


def test_behind_a_proxy_players_are_told_apart_by_the_forwarded_address(client, user, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "anna", "password": "nope"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"9.9.9.{i}, 10.0.0.7",  # a spoofed first entry changes nothing
        )
    locked = client.post(
        "/accounts/login/",
        {"username": "anna", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="10.0.0.7",
    )
    assert locked.status_code == 429
    elsewhere = Client().post(
        "/accounts/login/",
        {"username": "anna", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="10.0.0.8",
    )
    assert elsewhere.status_code == 302


def test_a_forwarded_header_that_is_no_address_is_counted_as_the_connection(client, user, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    response = client.post(
        "/accounts/login/",
        {"username": "anna", "password": "nope"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="999.1.1.1",
    )
    assert response.status_code == 200
    assert AccessAttempt.objects.get().ip_address == "127.0.0.1"


# --- the account page and the download of every match ------------------------------------------


def test_the_top_bar_links_the_account_page(auth_client):
    page = auth_client.get("/").content.decode()
    assert f'href="{reverse("account")}"' in page


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_account_page_counts_and_offers_the_download_and_the_deletion(
    auth_client, make_match, headers
):
    make_match("biriba", deals=1)
    make_match("barbu", deals=2)
    response = auth_client.get("/accounts/", headers=headers)
    assert response.status_code == 200
    page = response.content.decode()
    assert "It keeps 2 matches" in page and "and 4 players." in page
    assert f'href="{reverse("account_export")}"' in page
    assert f'href="{reverse("account_delete")}"' in page


@pytest.mark.parametrize("path", ["/accounts/", "/accounts/export.zip", "/accounts/delete/"])
def test_account_pages_need_a_login(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def _archive(response) -> dict[str, bytes]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-matches-')
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_download_holds_each_match_as_its_own_export_writes_it(
    auth_client, make_match, other_user
):
    mine = [make_match("biriba", deals=2), make_match("burraco", deals=1), make_match("barbu")]
    theirs = make_match("biriba", deals=1, owner=other_user)
    response = auth_client.get("/accounts/export.zip")
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    files = _archive(response)
    assert len(files) == 3
    for match in mine:
        single = auth_client.get(f"/matches/{match.pk}/export.json")
        name = single["Content-Disposition"].split('filename="')[1].rstrip('"')
        assert files[name] == single.content
    assert not any(f"-{theirs.pk}-" in name for name in files)


def test_each_downloaded_document_is_read_back_by_import_match(
    auth_client, make_match, other_user, tmp_path
):
    make_match("biriba", deals=3)
    make_match("barbu", deals=7)
    files = _archive(auth_client.get("/accounts/export.zip"))
    before = Match.objects.filter(owner=other_user).count()
    for name, content in files.items():
        path = tmp_path / name
        path.write_bytes(content)
        out = io.StringIO()
        call_command("import_match", str(path), owner=other_user.username, stdout=out)
        imported = Match.objects.get(pk=int(out.getvalue()))
        document = json.loads(content)
        assert imported.game == document["game"]
        assert imported.deals.count() == len(document["deals"])
        assert [p.name for p in imported.seated_players] == document["players"]
    assert Match.objects.filter(owner=other_user).count() == before + 2


def test_a_match_that_no_longer_passes_the_rules_is_downloaded_as_stored(auth_client, make_match):
    match = make_match("burraco", deals=2)
    overwrite_deals(match, {"sides": []}, number=2)
    files = _archive(auth_client.get("/accounts/export.zip"))
    (content,) = files.values()
    document = json.loads(content)
    assert document["deals"][1] == {"sides": []}
    assert "totals" not in document


def test_an_account_without_matches_downloads_an_empty_zip(auth_client):
    assert _archive(auth_client.get("/accounts/export.zip")) == {}


# --- deleting the account ---------------------------------------------------------------------


def test_the_delete_page_lists_the_matches_offers_the_download_and_asks_the_password(
    auth_client, make_match
):
    matches = [make_match("biriba"), make_match("barbu")]
    response = auth_client.get("/accounts/delete/")
    assert response.status_code == 200
    page = response.content.decode()
    for match in matches:
        assert f'data-account-match="{match.pk}"' in page
    assert "Its 2 matches" in page
    assert f'href="{reverse("account_export")}"' in page
    assert page.index(reverse("account_export")) < page.index('id="delete-form"')
    assert 'type="password" name="password"' in page
    assert "data-delete-account" in page
    # for htmx, the form alone (what its own posts swap)
    response = auth_client.get("/accounts/delete/", headers=HTMX)
    assert response.status_code == 200 and is_partial(response)
    assert response.content.decode().lstrip().startswith('<form id="delete-form"')


def _everything_of(user) -> dict[str, int]:
    return {
        "users": get_user_model().objects.filter(pk=user.pk).count(),
        "matches": Match.objects.filter(owner=user).count(),
        "players": Player.objects.filter(owner=user).count(),
        "seats": MatchSeat.objects.filter(match__owner=user).count(),
        "deals": Deal.objects.filter(match__owner=user).count(),
    }


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_wrong_password_deletes_nothing_and_says_so(auth_client, user, make_match, headers):
    make_match("biriba", deals=2)
    before = _everything_of(user)
    response = auth_client.post("/accounts/delete/", {"password": "nope"}, headers=headers)
    assert response.status_code == 200
    assert "That is not your password. Nothing was deleted." in response.content.decode()
    assert is_partial(response) == bool(headers)
    assert _everything_of(user) == before
    assert logged_in(auth_client)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_deleting_removes_the_account_its_matches_and_players_and_logs_out(
    auth_client, user, other_user, make_match, headers
):
    make_match("biriba", deals=3)
    make_match("barbu", deals=7)
    make_match("burraco", deals=1, players=["Anna", "Eleni"])
    theirs = make_match("biriba", deals=2, owner=other_user)
    kept = _everything_of(other_user)
    response = auth_client.post("/accounts/delete/", {"password": PASSWORD}, headers=headers)
    if headers:
        assert response.status_code == 200 and response["HX-Redirect"] == "/"
    else:
        assert response.status_code == 302 and response["Location"] == "/"
    assert _everything_of(user) == dict.fromkeys(_everything_of(user), 0)
    assert _everything_of(other_user) == kept
    assert Match.objects.filter(pk=theirs.pk).exists()
    assert not logged_in(auth_client)
    home = auth_client.get("/").content.decode()
    assert "Your account anna was deleted, with its 3 matches and 5 players." in home
    assert "You are logged out." in home
    assert 'data-message="account_deleted"' in home
    assert reverse("login") in home


def test_deleting_forgets_what_the_login_limit_noted_under_the_name(auth_client, user, other_user):
    fail(Client(), "anna", address="10.0.0.1", times=2)
    fail(Client(), "babis", address="10.0.0.1", times=2)
    response = auth_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="anna").exists()
    assert AccessAttempt.objects.filter(username="babis").exists()


def test_successful_logins_are_not_logged(client, user):
    assert login(client, "anna", PASSWORD, address="10.0.0.1").status_code == 302
    assert not AccessLog.objects.exists()


def test_wrong_passwords_on_the_delete_page_count_towards_the_lock(
    auth_client, user, make_match, settings
):
    make_match("biriba")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert auth_client.post("/accounts/delete/", {"password": "no"}).status_code == 200
    response = auth_client.post("/accounts/delete/", {"password": "no"})
    assert response.status_code == 429
    assert 'data-message="login_locked"' in response.content.decode()
    response = auth_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 429
    assert _everything_of(user)["matches"] == 1


@pytest.mark.django_db(transaction=True)
def test_the_deletion_is_one_transaction(user, make_match, monkeypatch):
    make_match("biriba", deals=2)
    make_match("barbu", deals=1)
    watch, outcome = watched(monkeypatch, lambda: services.account_delete(user=user))
    assert outcome == services.AccountDeleted(username="anna", matches=2, players=4)
    assert watch.statements and watch.outside == []
    assert (watch.commits, watch.rollbacks) == (1, 0)


@pytest.mark.django_db(transaction=True)
def test_a_deletion_that_fails_halfway_deletes_nothing(user, make_match, monkeypatch):
    make_match("biriba", deals=2)
    before = _everything_of(user)
    User = get_user_model()

    def broken(self, *args, **kwargs):
        raise RuntimeError("the disk is full")

    # the matches and players are gone by the time the account itself fails to go
    monkeypatch.setattr(User, "delete", broken)
    with pytest.raises(RuntimeError):
        services.account_delete(user=user)
    monkeypatch.undo()
    assert not connection.in_atomic_block
    assert _everything_of(user) == before


def test_the_admin_deletes_a_user_who_owns_matches(client, user, make_match, django_user_model):
    make_match("biriba", deals=2)
    make_match("barbu", deals=1, players=list(PLAYERS4))
    admin = django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    client.force_login(admin)
    url = f"/admin/auth/user/{user.pk}/delete/"
    confirm = client.get(url)
    assert confirm.status_code == 200
    assert b"Cannot delete" not in confirm.content
    response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert _everything_of(user) == dict.fromkeys(_everything_of(user), 0)


def test_the_admin_deletes_several_users_at_once(client, user, other_user, make_match):
    make_match("biriba", deals=1)
    make_match("barbu", deals=1, owner=other_user)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    client.force_login(admin)
    response = client.post(
        "/admin/auth/user/",
        {"action": "delete_selected", "_selected_action": [user.pk, other_user.pk], "post": "yes"},
    )
    assert response.status_code == 302
    for gone in (user, other_user):
        assert _everything_of(gone) == dict.fromkeys(_everything_of(gone), 0)
    assert get_user_model().objects.filter(pk=admin.pk).exists()


def test_the_deletion_works_while_a_seat_protects_its_player(user, make_match, monkeypatch):
    """As it was before seats only restricted their players: the matches go first."""
    make_match("biriba", deals=2)
    field = MatchSeat._meta.get_field("player")
    monkeypatch.setattr(field.remote_field, "on_delete", models.PROTECT)
    with pytest.raises(ProtectedError), transaction.atomic():
        get_user_model().objects.get(pk=user.pk).delete()  # what the admin used to run into
    deleted = services.account_delete(user=user)
    assert (deleted.matches, deleted.players) == (1, 4)
    assert _everything_of(user) == dict.fromkeys(_everything_of(user), 0)


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_name_longer_than_any_account_is_refused_and_counted(client, path):
    """The attempts' column holds 255 characters (PostgreSQL refused more: a server error)."""
    name = "ω" * 300
    response = client.post(path, {"username": name, "password": "x"}, REMOTE_ADDR="10.0.0.3")
    assert response.status_code == 200
    assert AccessAttempt.objects.get().username == name[:255]
