"""Sharing a match: the share page, score and watch links, joining (with an account or as a
guest on one phone), removing a co-scorer, new links, the short code and its limit."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scorekeeper import access
from scorekeeper.models import Match, MatchMember, ShareLink
from scorekeeper.rules.errors import RuleError
from scorekeeper.sharing import codes, services, tries
from tests.conftest import HTMX, text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_tries_counted():
    """The count of wrong codes lives in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def is_partial(response) -> bool:
    return b"<html" not in response.content


def share_url(match: Match, kind: str) -> str:
    return reverse("match_share", args=[match.pk, kind])


def link_of(match: Match, kind: str = "score") -> ShareLink:
    return services.share_link_get_or_create(match=match, kind=kind)


def join_url(link: ShareLink) -> str:
    return reverse("join", args=[link.token])


def version(match: Match) -> int:
    return Match.objects.get(pk=match.pk).version


def guest_joins(link: ShareLink, name: str = "Chris", client: Client | None = None) -> Client:
    client = client or Client()
    response = client.post(join_url(link), {"name": name})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


# --- the codes ----------------------------------------------------------------------------


def test_a_code_has_ten_characters_none_of_which_reads_as_another():
    assert set(codes.ALPHABET).isdisjoint("0O1IL")
    assert len(codes.ALPHABET) == 31
    made = {codes.code_new() for _ in range(200)}
    assert len(made) == 200
    for code in made:
        assert len(code) == 10 and set(code) <= set(codes.ALPHABET)
    assert codes.code_shown("K7PMQ2XRZT") == "K7PMQ-2XRZT"


@pytest.mark.parametrize(
    "typed",
    ["K7PMQ-2XRZT", "k7pmq2xrzt", " K7PMQ 2XRZT ", "k7pmq–2xrzt", "Ｋ７ＰＭＱ２ＸＲＺＴ"],
)
def test_a_code_is_read_as_people_type_it(typed):
    assert codes.code_read(typed) == "K7PMQ2XRZT"


@pytest.mark.parametrize(
    "typed", ["", "K7PMQ2XRZ", "K7PMQ2XRZTA", "K0PMQ2XRZT", "KOPMQ2XRZT", "K1PMQ2XRZT", "x" * 99, 5]
)
def test_what_cannot_be_a_code_is_not_read_as_one(typed):
    assert codes.code_read(typed) is None


def test_a_token_is_long_and_random():
    tokens = {codes.token_new() for _ in range(100)}
    assert len(tokens) == 100
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)


# --- the share page -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["score", "watch"])
def test_the_owner_makes_a_link_then_sees_its_qr_code_code_and_address(
    auth_client, make_match, kind
):
    match = make_match("biriba", deals=1)
    page = auth_client.get(share_url(match, kind))
    assert page.status_code == 200
    assert not ShareLink.objects.exists()  # looking makes nothing
    assert 'name="action" value="create"' in page.content.decode()

    response = auth_client.post(share_url(match, kind), {"action": "create"})
    assert response.status_code == 302 and response["Location"] == share_url(match, kind)
    link = ShareLink.objects.get(match=match, kind=kind)
    page = auth_client.get(share_url(match, kind)).content.decode()
    assert "<svg" in page and 'class="qr"' in page
    assert codes.code_shown(link.code) in page
    address = "join" if kind == "score" else "watch"
    assert f"http://testserver/{address}/{link.token}/" in page
    assert "http://testserver/join/" in page
    # the strict CSP: no inline style anywhere (the QR code draws with attributes)
    assert " style=" not in page and "<style" not in page


def test_the_share_page_with_htmx_is_its_partial_and_a_post_redraws_it(
    auth_client, make_match, htmx
):
    match = make_match("burraco")
    partial = auth_client.get(share_url(match, "score"), headers=htmx)
    assert partial.status_code == 200 and is_partial(partial)
    assert 'id="share"' in partial.content.decode()
    response = auth_client.post(share_url(match, "score"), {"action": "create"}, headers=htmx)
    assert response.status_code == 200 and is_partial(response)
    page = response.content.decode()
    assert "The link is ready" in page and "<svg" in page


def test_making_the_link_twice_keeps_the_first(auth_client, make_match):
    match = make_match("biriba")
    first = link_of(match)
    auth_client.post(share_url(match, "score"), {"action": "create"})
    assert ShareLink.objects.get(match=match, kind="score").token == first.token


def test_an_unknown_action_does_nothing_and_says_so(auth_client, make_match):
    match = make_match("biriba")
    response = auth_client.post(share_url(match, "score"), {"action": "nonsense"}, follow=True)
    assert "Nothing was done" in text(response)
    assert not ShareLink.objects.exists()


def test_the_share_page_kind_is_score_or_watch(auth_client, make_match):
    match = make_match("biriba")
    assert auth_client.get(f"/matches/{match.pk}/share/other/").status_code == 404


def test_the_scoreboard_offers_the_share_controls_to_the_owner_alone(
    auth_client, make_match, other_user
):
    match = make_match("biriba")
    page = auth_client.get(match.get_absolute_url()).content.decode()
    assert f'href="{share_url(match, "score")}" data-share="score"' in page
    assert f'href="{share_url(match, "watch")}" data-share="watch"' in page
    services.member_join(link=link_of(match), user=other_user)
    babis = Client()
    babis.force_login(other_user)
    page = babis.get(match.get_absolute_url()).content.decode()
    assert "data-share" not in page
    assert "Shared by <bdi>anna</bdi>" in page


# --- joining with an account --------------------------------------------------------------


def test_an_account_joins_as_itself_and_finds_the_match_among_its_own(
    client, make_match, other_user
):
    match = make_match("biriba", deals=2)
    link = link_of(match)
    client.force_login(other_user)
    page = client.get(join_url(link))
    assert page.status_code == 200
    html = page.content.decode()
    assert "data-join" in html and 'name="name"' not in html
    assert "<bdi>anna</bdi> asks you to keep the score" in html
    before = version(match)
    response = client.post(join_url(link))
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    member = MatchMember.objects.get(match=match)
    assert (member.user, member.guest_key, member.removed) == (other_user, None, None)
    assert member.name == "babis"
    assert version(match) == before + 1
    board = client.get(match.get_absolute_url())
    assert board.status_code == 200 and 'data-total="0"' in board.content.decode()
    home = client.get("/").content.decode()
    assert f'href="{match.get_absolute_url()}"' in home
    assert "joined · shared by <bdi>anna</bdi>" in home


def test_joining_twice_is_harmless(client, make_match, other_user):
    match = make_match("biriba")
    link = link_of(match)
    client.force_login(other_user)
    client.post(join_url(link))
    before = version(match)
    again = client.post(join_url(link))
    assert again.status_code == 302
    # opening the link once more goes straight to the scoreboard
    opened = client.get(join_url(link))
    assert opened.status_code == 302 and opened["Location"] == match.get_absolute_url()
    assert MatchMember.objects.filter(match=match).count() == 1
    assert version(match) == before


def test_the_owner_opening_the_score_link_goes_to_the_scoreboard(auth_client, make_match):
    match = make_match("biriba")
    link = link_of(match)
    for response in (auth_client.get(join_url(link)), auth_client.post(join_url(link))):
        assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert not MatchMember.objects.exists()


def test_joining_with_htmx_redirects_the_whole_page(client, make_match, other_user, htmx):
    match = make_match("barbu")
    link = link_of(match)
    client.force_login(other_user)
    partial = client.get(join_url(link), headers=htmx)
    assert partial.status_code == 200 and is_partial(partial)
    assert 'id="join-form"' in partial.content.decode()
    response = client.post(join_url(link), headers=htmx)
    assert response.status_code == 200 and response["HX-Redirect"] == match.get_absolute_url()


# --- joining as a guest on one phone ------------------------------------------------------


def test_a_guest_gives_a_name_and_keeps_score_on_that_phone(client, make_match, settings):
    settings.SESSION_COOKIE_SECURE = True
    match = make_match("biriba", deals=1)
    link = link_of(match)
    page = client.get(join_url(link)).content.decode()
    assert "data-join" in page and 'name="name"' in page
    assert f"/accounts/login/?next=%2Fjoin%2F{link.token}%2F" in page
    response = client.post(join_url(link), {"name": "  Eleni   K. "})
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    cookie = response.cookies[access.GUEST_COOKIE]
    assert cookie["httponly"] and cookie["secure"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 365 * 24 * 3600
    key = cookie.value
    assert len(key) >= 43
    member = MatchMember.objects.get(match=match)
    assert member.name == "Eleni K."  # normalised as player names are
    assert member.user is None
    # only the key's digest is stored
    assert member.guest_key == hashlib.sha256(key.encode()).hexdigest() != key
    board = client.get(match.get_absolute_url())
    assert board.status_code == 200 and "data-deal-count" in board.content.decode()
    export = client.get(reverse("match_export", args=[match.pk]))
    assert export.status_code == 200 and export["Content-Type"].startswith("application/json")


def test_a_guest_cookie_is_not_secure_where_the_session_cookie_is_not(client, make_match, settings):
    settings.SESSION_COOKIE_SECURE = False
    response = client.post(join_url(link_of(make_match("biriba"))), {"name": "Eleni"})
    assert not response.cookies[access.GUEST_COOKIE]["secure"]


def test_one_phone_keeps_one_key_for_every_match(client, make_match):
    first, second = make_match("biriba"), make_match("barbu")
    guest_joins(link_of(first), client=client)
    key = client.cookies[access.GUEST_COOKIE].value
    response = client.post(join_url(link_of(second)), {"name": "Chris"})
    assert response.cookies[access.GUEST_COOKIE].value == key
    keys = set(MatchMember.objects.values_list("guest_key", flat=True))
    assert len(keys) == 1
    # the home page of a phone without an account lists what it keeps score of
    home = client.get("/").content.decode()
    assert first.get_absolute_url() in home and second.get_absolute_url() in home
    assert "Matches you keep score of on this phone" in home


def test_a_guest_joining_twice_is_harmless(client, make_match):
    match = make_match("biriba")
    link = link_of(match)
    guest_joins(link, "Chris", client)
    guest_joins(link, "Somebody else", client)
    assert list(MatchMember.objects.values_list("name", flat=True)) == ["Chris"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "required"),
        ("   ", "required"),
        ("Chris\u202e", "name_direction"),
        ("Ch\u200bris", "name_invisible"),
        ("a\x07b", "name_control"),
        ("x" * 41, "name_too_long"),
    ],
)
def test_a_guest_name_is_checked_as_a_player_name_is(client, make_match, name, code):
    match = make_match("biriba")
    for headers in ({}, HTMX):
        response = client.post(join_url(link_of(match)), {"name": name}, headers=headers)
        assert response.status_code == 200
        form = response.context["form"]
        assert code in [e.code for e in form.errors.as_data()["name"]], form.errors
    assert not MatchMember.objects.exists()
    assert access.GUEST_COOKIE not in client.cookies


def test_a_name_the_service_refuses_raises_a_rule_error(make_match):
    link = link_of(make_match("biriba"))
    with pytest.raises(RuleError) as refused:
        services.member_join(link=link, guest_key="d" * 64, name="\u202eAnna")
    assert refused.value.code == "name_direction"
    assert not MatchMember.objects.exists()


def test_a_watch_link_makes_no_co_scorer(make_match, other_user):
    match = make_match("biriba")
    watch = link_of(match, "watch")
    with pytest.raises(ValueError):
        services.member_join(link=watch, user=other_user)
    assert Client().get(reverse("join", args=[watch.token])).status_code == 404


# --- removing a co-scorer and new links ---------------------------------------------------


def test_a_removed_guest_loses_access_at_once_with_a_page_that_says_so(
    auth_client, make_match, htmx
):
    match = make_match("biriba", deals=2)
    link = link_of(match)
    phone = guest_joins(link)
    member = MatchMember.objects.get(match=match)
    before = version(match)
    response = auth_client.post(
        share_url(match, "score"), {"action": "remove", "member": member.pk}, follow=True
    )
    assert "was removed" in text(response)
    assert version(match) == before + 1
    member.refresh_from_db()
    assert member.removed is not None
    plain = phone.get(match.get_absolute_url())
    assert plain.status_code == 403 and 'data-message="member_removed"' in plain.content.decode()
    assert "removed you as a co-scorer" in text(plain)
    tap = phone.post(match.get_absolute_url(), {"action": "delete_last", "number": 2}, headers=htmx)
    assert tap.status_code == 403 and tap["HX-Retarget"] == "#page"
    assert match.deals.count() == 2
    assert phone.get(reverse("match_export", args=[match.pk])).status_code == 403
    # the link does not let them back in
    again = phone.post(join_url(link), {"name": "Chris"})
    assert again.status_code == 403 and 'data-message="member_removed"' in again.content.decode()
    assert phone.get(join_url(link)).status_code == 403
    # the share page lists them as removed
    page = auth_client.get(share_url(match, "score")).content.decode()
    assert page.index("Removed") < page.index("<bdi>Chris</bdi>")


def test_someone_removed_may_join_again_through_a_new_link(make_match, other_user):
    match = make_match("biriba")
    link = link_of(match)
    member = services.member_join(link=link, user=other_user)
    services.member_remove(member=member)
    with pytest.raises(RuleError) as refused:
        services.member_join(link=link, user=other_user)
    assert refused.value.code == "member_removed"
    new = services.share_link_regenerate(match=match, kind="score")
    back = services.member_join(link=new, user=other_user)
    assert back.pk == member.pk and back.removed is None


def test_removing_someone_twice_changes_nothing(make_match, other_user):
    match = make_match("biriba")
    member = services.member_join(link=link_of(match), user=other_user)
    services.member_remove(member=member)
    removed_at, before = MatchMember.objects.get().removed, version(match)
    services.member_remove(member=member)
    assert MatchMember.objects.get().removed == removed_at and version(match) == before


def test_the_share_page_removes_only_members_of_its_match(
    auth_client, make_match, other_user, django_user_model
):
    mine, theirs = make_match("biriba"), make_match("biriba", owner=other_user)
    stranger = django_user_model.objects.create_user(username="dora", password="x-x-x-x-x-1")
    member = services.member_join(link=link_of(theirs), user=stranger)
    for pk in (member.pk, "x", "", "9" * 30):
        response = auth_client.post(
            share_url(mine, "score"), {"action": "remove", "member": pk}, follow=True
        )
        assert "Nobody was removed" in text(response)
    assert MatchMember.objects.get().removed is None


@pytest.mark.parametrize("kind", ["score", "watch"])
def test_a_new_link_replaces_the_old_one_at_once(auth_client, make_match, kind):
    match = make_match("biriba", deals=1)
    old = link_of(match, kind)
    address = "join" if kind == "score" else "watch"
    assert Client().get(reverse(address, args=[old.token])).status_code == 200
    before = version(match)
    response = auth_client.post(share_url(match, kind), {"action": "regenerate"}, follow=True)
    assert "The old ones no longer work" in text(response)
    new = ShareLink.objects.get(match=match, kind=kind)
    assert (new.token, new.code) != (old.token, old.code)
    assert version(match) == before + 1
    gone = Client().get(reverse(address, args=[old.token]))
    assert gone.status_code == 404
    if kind == "score":  # the old score link says what happened (a probe: "Nothing here")
        assert 'data-message="link_gone"' in gone.content.decode()
        assert "Ask them for the link they use now" in text(gone)
    assert Client().get(reverse(address, args=[new.token])).status_code == 200
    stale = Client().post(reverse("join_code"), {"code": old.code})
    assert stale.status_code == 200 and 'data-message="code_unknown"' in stale.content.decode()
    fresh = Client().post(reverse("join_code"), {"code": new.code})
    assert fresh.status_code == 302


def test_a_join_through_a_link_replaced_meanwhile_is_refused(make_match, other_user):
    match = make_match("biriba")
    old = link_of(match)
    services.share_link_regenerate(match=match, kind="score")
    with pytest.raises(RuleError) as refused:
        services.member_join(link=old, user=other_user)
    assert refused.value.code == "link_gone"
    assert not MatchMember.objects.exists()


def test_the_services_bump_the_version_only_when_something_changes(make_match, other_user):
    match = make_match("biriba")
    start = version(match)
    link = services.share_link_get_or_create(match=match, kind="score")
    assert version(match) == start + 1 and match.version == start + 1
    services.share_link_get_or_create(match=match, kind="score")
    assert version(match) == start + 1
    services.member_join(link=link, user=other_user)
    assert version(match) == start + 2
    services.member_join(link=link, user=other_user)
    assert version(match) == start + 2


def test_a_co_scorer_may_not_open_the_share_page(client, make_match, other_user):
    match = make_match("biriba")
    link = link_of(match)
    services.member_join(link=link, user=other_user)
    client.force_login(other_user)
    assert client.get(share_url(match, "score")).status_code == 404
    response = client.post(share_url(match, "score"), {"action": "regenerate"})
    assert response.status_code == 404
    assert ShareLink.objects.get(kind="score").token == link.token
    guest = guest_joins(link)
    response = guest.get(share_url(match, "watch"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# --- the short code at /join/ -------------------------------------------------------------


def test_the_code_page_plain_and_htmx(client, htmx):
    page = client.get(reverse("join_code"))
    assert page.status_code == 200 and 'name="code"' in page.content.decode()
    partial = client.get(reverse("join_code"), headers=htmx)
    assert is_partial(partial) and 'id="code-form"' in partial.content.decode()


@pytest.mark.parametrize("kind", ["score", "watch"])
def test_a_code_leads_to_its_link(client, make_match, kind, htmx):
    link = link_of(make_match("biriba"), kind)
    address = reverse("join" if kind == "score" else "watch", args=[link.token])
    typed = codes.code_shown(link.code).lower()
    response = client.post(reverse("join_code"), {"code": typed})
    assert response.status_code == 302 and response["Location"] == address
    response = client.post(reverse("join_code"), {"code": link.code}, headers=htmx)
    assert response["HX-Redirect"] == address


def test_what_cannot_be_a_code_is_said_at_once_and_not_counted(client):
    for _ in range(tries.JOIN_TRIES + 3):
        response = client.post(reverse("join_code"), {"code": "K0PMQ-2XRZT"})
        assert response.status_code == 200
        assert 'data-message="code_malformed"' in response.content.decode()
    assert tries.tries_left(response.wsgi_request) == tries.JOIN_TRIES


def test_wrong_codes_are_limited_per_address(client, make_match, htmx):
    link = link_of(make_match("biriba"))
    wrong = "".join(reversed(link.code)) if link.code[::-1] != link.code else "2" * 10
    assert not ShareLink.objects.filter(code=wrong).exists()
    for i in range(tries.JOIN_TRIES - 1):
        response = client.post(reverse("join_code"), {"code": wrong})
        assert response.status_code == 200, i
        assert 'data-message="code_unknown"' in response.content.decode()
    last = client.post(reverse("join_code"), {"code": wrong}, headers=htmx)
    assert last.status_code == 429 and 'data-message="join_locked"' in last.content.decode()
    assert "HX-Retarget" not in last  # the form with its reason, in place
    # now even the right code is not taken from this address
    locked = client.post(reverse("join_code"), {"code": link.code})
    assert locked.status_code == 429
    # another address is not affected
    elsewhere = Client(REMOTE_ADDR="192.0.2.7").post(reverse("join_code"), {"code": link.code})
    assert elsewhere.status_code == 302


def test_the_limit_counts_the_address_the_proxy_saw(client, make_match, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    for _ in range(tries.JOIN_TRIES):
        client.post(
            reverse("join_code"),
            {"code": "2222222222"},
            headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.9"},
        )
    link = link_of(make_match("biriba"))
    same = client.post(
        reverse("join_code"), {"code": link.code}, headers={"X-Forwarded-For": "203.0.113.9"}
    )
    assert same.status_code == 429
    other = client.post(
        reverse("join_code"), {"code": link.code}, headers={"X-Forwarded-For": "203.0.113.10"}
    )
    assert other.status_code == 302


# --- several phones at once ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_one_account_joining_from_two_phones_at_once_joins_once(make_match, other_user):
    from tests.test_concurrency import at_once

    match = make_match("biriba")
    link = link_of(match)
    results, errors = at_once(*[lambda: services.member_join(link=link, user=other_user)] * 4)
    assert errors == []
    assert len({member.pk for member in results}) == 1
    assert MatchMember.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_join_racing_a_new_link_either_joins_first_or_is_refused(make_match, django_user_model):
    """Joins through the old link and a regeneration at once: each join either happened
    before the regeneration (and stays) or is refused (``link_gone``), never half."""
    from tests.test_concurrency import at_once, codes

    match = make_match("biriba")
    link = link_of(match)
    people = [
        django_user_model.objects.create_user(username=f"p{i}", password="x-x-x-x-x-1")
        for i in range(4)
    ]
    calls = [lambda u=u: services.member_join(link=link, user=u) for u in people]
    results, errors = at_once(
        lambda: services.share_link_regenerate(match=match, kind="score"), *calls
    )
    joined = [r for r in results if isinstance(r, MatchMember)]
    assert codes(errors) == ["link_gone"] * (4 - len(joined))
    assert MatchMember.objects.filter(match=match).count() == len(joined)
    assert ShareLink.objects.get(match=match, kind="score").token != link.token


def test_a_phone_that_joined_as_a_guest_can_join_again_as_an_account(make_match, other_user):
    match = make_match("biriba")
    link = link_of(match)
    phone = guest_joins(link, "Babis")
    phone.force_login(other_user)
    page = phone.get(join_url(link))
    assert page.status_code == 200 and 'name="name"' not in page.content.decode()
    phone.post(join_url(link))
    assert sorted(MatchMember.objects.values_list("name", flat=True)) == ["Babis", "babis"]
    assert match.get_absolute_url() in phone.get("/").content.decode()
