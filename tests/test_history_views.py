"""The pages of a match's history (scorekeeper/history/views.py): one sentence a change, newest
first, 25 a page; Restore for a deleted deal, plain and htmx; one change's deal before | after
with what differs marked; who may look; a fixed number of queries however long the history."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.access import GUEST_COOKIE, guest_key_digest_of, guest_key_new
from scorekeeper.history.record import Actor
from scorekeeper.history.selectors import PAGE_SIZE, change_undoable
from scorekeeper.models import Match, MatchChange
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX, deal_for, text

pytestmark = pytest.mark.django_db

ENTRY = re.compile(r'<li class="change[^"]*" data-change="(\d+)">(.*?)</li>', re.S)


def history_url(match: Match, **query: object) -> str:
    url = reverse("match_history", args=[match.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def change_url(match: Match, change: MatchChange | int) -> str:
    pk = change if isinstance(change, int) else change.pk
    return reverse("match_change", args=[match.pk, pk])


def _squeeze(fragment: str) -> str:
    """A piece of a page in words, as :func:`text` reads it (an inline span is no space)."""

    class Page:
        content = re.sub(r"</?span\b[^>]*>", "", fragment).encode()

    return text(Page).strip()


def words_of(response) -> str:
    return _squeeze(response.content.decode())


def entries(response) -> list[tuple[int, str]]:
    """Each entry of the history page: its change's id and its words (time included)."""
    page = response.content.decode()
    return [(int(pk), _squeeze(body)) for pk, body in ENTRY.findall(page)]


def sentences(response) -> list[str]:
    """Each entry's words without its time and Restore button."""
    out = []
    for _pk, words in entries(response):
        words = re.sub(r"^(\d+ \w+ (\d{4} )?)?\d\d:\d\d ", "", words)
        out.append(re.sub(r" ↺ Restore deal \d+$", "", words))
    return out


def corrected(index: int) -> dict:
    """Deal ``index`` of the fixtures with one more run for Babis & Dora (5 → 35 points)."""
    data = deal_for("biriba", index)
    data["sides"][1]["melds"].append(["8C", "9C", "10C"])
    return data


# --- the sentences ------------------------------------------------------------------------------


def test_each_change_to_a_deal_is_one_sentence_newest_first(auth_client, make_match):
    match = make_match("biriba")
    for i in range(3):
        services.deal_record(match=match, data=deal_for("biriba", i), by="Babis")
    services.deal_correct(match=match, number=2, data=corrected(1), by="Babis")
    services.deal_delete(match=match, number=3, by=Actor(name="Anna"))
    services.change_undo(match=match, change=change_undoable(match).pk, by="Chris")
    services.deal_delete(match=match, number=1, by="Anna")
    deleted = match.changes.filter(kind="deleted").latest("id")
    services.deal_restore(match=match, change=deleted.pk, by="Dora")

    response = auth_client.get(history_url(match))
    assert response.status_code == 200
    assert sentences(response) == [
        "Dora restored deal 1: Anna & Chris 15, Babis & Dora 5",
        "Anna deleted deal 1 (Anna & Chris 15, Babis & Dora 5)",
        "Chris undid: the deletion of deal 3",
        "Anna deleted deal 3 (Anna & Chris 15, Babis & Dora 5)",
        "Babis corrected deal 2: Anna & Chris 15, Babis & Dora 5 → 35",
        "Babis entered deal 3: Anna & Chris 15, Babis & Dora 5",
        "Babis entered deal 2: Anna & Chris 15, Babis & Dora 5",
        "Babis entered deal 1: Anna & Chris 15, Babis & Dora 5",
    ]
    ids = [pk for pk, _words in entries(response)]
    assert (
        ids
        == sorted(ids, reverse=True)
        == list(match.changes.order_by("-id").values_list("pk", flat=True))
    )
    # both deletions were put back: nothing to restore
    assert b"data-restore" not in response.content


def test_an_undo_says_what_it_took_back(auth_client, make_match):
    match = make_match("biriba", deals=2)
    services.change_undo(match=match, change=change_undoable(match).pk, by="Babis")
    services.deal_correct(match=match, number=1, data=corrected(0), by="Anna")
    services.change_undo(match=match, change=change_undoable(match).pk, by="Babis")
    restore = match.changes.get(kind="deleted")
    services.deal_restore(match=match, change=restore.pk, by="Anna")
    services.change_undo(match=match, change=change_undoable(match).pk, by="Chris")
    response = auth_client.get(history_url(match))
    said = sentences(response)
    assert said[:5] == [
        "Chris undid: deal 2 restored",
        "Anna restored deal 2: Anna & Chris 15, Babis & Dora 5",
        "Babis undid: the correction of deal 1",
        "Anna corrected deal 1: Anna & Chris 15, Babis & Dora 5 → 35",
        "Babis undid: deal 2 entered",
    ]
    # the undo of the restoration deleted deal 2 again: it may be put back
    newest = match.changes.latest("id")
    assert newest.kind == "deleted"
    assert b'data-restore="2"' in response.content
    assert entries(response)[0][0] == newest.pk


def test_who_made_a_change_is_someone_when_the_history_does_not_know(auth_client, make_match):
    match = make_match("burraco", deals=1, players=["Anna", "Babis"])
    assert sentences(auth_client.get(history_url(match))) == [
        "Someone entered deal 1: Anna 15, Babis 5"
    ]


def test_co_scorers_and_links_in_the_history(auth_client, make_match, other_user):
    match = make_match("biriba")
    score = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=score, user=other_user)
    phone = sharing.member_join(
        link=score, guest_key=guest_key_digest_of(guest_key_new()), name="Eleni"
    )
    sharing.member_remove(member=phone, by=Actor(name="anna"))
    sharing.share_link_regenerate(match=match, kind="watch", by="anna")
    sharing.share_link_regenerate(match=match, kind="score", by="anna")
    assert sentences(auth_client.get(history_url(match))) == [
        "anna made a new score link",
        "anna made a new watch link",
        "anna removed Eleni",
        "Eleni joined",
        "babis joined",
    ]


def test_the_match_finishing_and_going_on_again(auth_client, make_match):
    match = make_match("biriba", players=["Anna", "Babis"], rules={"target": 5})
    services.deal_record(match=match, data=deal_for("biriba", 0), by="Babis")
    assert Match.objects.get(pk=match.pk).is_finished
    services.deal_delete(match=match, number=1, by="Anna")
    assert sentences(auth_client.get(history_url(match))) == [
        "The match went on again: it is no longer finished",
        "Anna deleted deal 1 (Anna 15, Babis 5)",
        "The match finished: Anna won",
        "Babis entered deal 1: Anna 15, Babis 5",
    ]


def test_a_tie_and_the_lines_of_confirmations_and_swaps(auth_client, make_match):
    match = make_match("barbu")
    for kind, detail in (
        ("confirmed", {}),
        ("confirmed", {"on_behalf": True}),
        ("rejected", {}),
        ("rejected", {"reason": "Chris took the king"}),
        ("rejected", {"reason": "no", "on_behalf": True}),
        ("swapped", {"other_deal": 5}),
        ("swapped", {}),
        ("finished", {"winner": None, "totals": [0, 0, 0, 0]}),
    ):
        MatchChange.objects.create(match=match, kind=kind, by="Dora", number=3, detail=detail)
    assert sentences(auth_client.get(history_url(match))) == [
        "The match finished: a tie at the top",
        "Dora swapped the contract of deal 3",
        "Dora swapped the contracts of deals 3 and 5",
        "Dora rejected deal 3 on behalf of the table: “no”",
        "Dora rejected deal 3: “Chris took the king”",
        "Dora rejected deal 3",
        "Dora confirmed deal 3 on behalf of the table",
        "Dora confirmed deal 3",
    ]


def test_a_barbu_line_names_the_players_and_the_contract(auth_client, make_match):
    match = make_match("barbu", deals=2)
    said = sentences(auth_client.get(history_url(match)))
    assert said[1] == "Someone entered deal 1: Anna −14, Babis −4, Chris −4, Dora −4 · No tricks"
    assert said[0].endswith(" · No hearts")
    data = deal_for("barbu", 1)
    data["hearts"] = [3, 4, 3, 3]
    services.deal_correct(match=match, number=2, data=data, by="Babis")
    assert sentences(auth_client.get(history_url(match)))[0].startswith(
        "Babis corrected deal 2: Anna "
    )


def test_names_are_isolated_and_escaped(auth_client, make_match):
    match = make_match("biriba", players=["<b>Anna</b>", "דנה", "Chris", "Dora"])
    services.deal_record(match=match, data=deal_for("biriba", 0), by="<i>x</i>")
    page = auth_client.get(history_url(match)).content.decode()
    assert "<bdi>&lt;i&gt;x&lt;/i&gt;</bdi> entered deal 1" in page
    assert (
        '<bdi>&lt;b&gt;Anna&lt;/b&gt;</bdi> &amp; <bdi>Chris</bdi> <span class="nowrap">15' in page
    )
    assert '<bdi>דנה</bdi> &amp; <bdi>Dora</bdi> <span class="nowrap">5</span>' in page
    assert "<b>Anna" not in page and "<i>x" not in page


# --- when ---------------------------------------------------------------------------------------


def test_the_time_of_day_today_the_date_otherwise_where_the_site_is(
    auth_client, make_match, settings
):
    settings.TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: the day is another than UTC's, often
    zone = ZoneInfo(settings.TIME_ZONE)
    match = make_match("biriba")
    now = timezone.now()
    times = {
        "today": now,
        "days ago": now - timedelta(days=3),
        "last year": now - timedelta(days=400),
    }
    made = {
        when: MatchChange.objects.create(
            match=match, kind="link", by="anna", detail={"link": "score"}, at=at
        )
        for when, at in times.items()
    }
    shown = dict(entries(auth_client.get(history_url(match))))
    local = {when: at.astimezone(zone) for when, at in times.items()}
    assert shown[made["today"].pk] == f"{local['today']:%H:%M} anna made a new score link"
    d = local["days ago"]
    if d.year == local["today"].year:
        assert shown[made["days ago"].pk].startswith(f"{d.day} {d:%b} {d:%H:%M} ")
    y = local["last year"]
    assert shown[made["last year"].pk].startswith(f"{y.day} {y:%b} {y.year} {y:%H:%M} ")
    page = auth_client.get(history_url(match)).content.decode()
    assert f'datetime="{local["today"]:%Y-%m-%dT%H:%M:%S}' in page


# --- pages --------------------------------------------------------------------------------------


def _many(match: Match, count: int) -> list[int]:
    """``count`` changes (links made anew), oldest first: their ids."""
    return [
        MatchChange.objects.create(
            match=match, kind="link", by=f"p{i}", detail={"link": "watch"}
        ).pk
        for i in range(count)
    ]


def test_the_history_is_paginated_newest_first(auth_client, make_match):
    match = make_match("biriba")
    ids = _many(match, 60)[::-1]
    assert PAGE_SIZE == 25
    first = auth_client.get(history_url(match))
    assert [pk for pk, _ in entries(first)] == ids[:25]
    assert "Page 1 of 3" in text(first) and 'href="?page=2"' in first.content.decode()
    second = auth_client.get(history_url(match, page=2))
    assert [pk for pk, _ in entries(second)] == ids[25:50]
    assert 'href="?page=1"' in second.content.decode()
    last = auth_client.get(history_url(match, page=3))
    assert [pk for pk, _ in entries(last)] == ids[50:]
    assert "Page 3 of 3" in text(last)


@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        ("0", 1),
        ("-1", 1),
        ("x", 1),
        ("", 1),
        ("²", 1),
        ("٣", 1),
        ("1.5", 1),
        ("9" * 40, 1),
        ("4", 3),
        ("999999999", 3),
    ],
)
def test_a_page_that_is_none_is_the_first_or_the_last(auth_client, make_match, asked, shown):
    match = make_match("biriba")
    _many(match, 60)
    response = auth_client.get(history_url(match), {"page": asked})
    assert response.status_code == 200
    assert f"Page {shown} of 3" in text(response)


def test_an_empty_history_says_so(auth_client, make_match):
    match = make_match("biriba")
    response = auth_client.get(history_url(match))
    assert response.status_code == 200
    assert entries(response) == []
    assert "Nothing has changed yet" in text(response)
    assert "Page 1" not in text(response)


def test_the_history_with_htmx_is_its_partial(auth_client, make_match):
    match = make_match("biriba", deals=1)
    response = auth_client.get(history_url(match, page=1), headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="history"') and "<html" not in page
    assert len(entries(response)) == 1


# --- restore ------------------------------------------------------------------------------------


def _deleted(match: Match, number: int) -> MatchChange:
    services.deal_delete(match=match, number=number, by="Anna")
    return match.changes.filter(kind="deleted").latest("id")


def test_a_deleted_deal_is_restored_from_the_history(auth_client, make_match):
    match = make_match("biriba", deals=3)
    deleted = _deleted(match, 2)
    page = auth_client.get(history_url(match)).content.decode()
    assert page.count("data-restore=") == 1 and 'data-restore="2"' in page
    form = re.search(r'<form class="change-restore"(.*?)</form>', page, re.S).group(0)
    assert 'method="post"' in form and 'name="action" value="restore"' in form
    assert f'name="change" value="{deleted.pk}"' in form

    response = auth_client.post(history_url(match), {"action": "restore", "change": deleted.pk})
    assert response.status_code == 302 and response["Location"] == history_url(match)
    assert Match.objects.get(pk=match.pk).deal_count == 3
    restored = match.changes.latest("id")
    assert restored.kind == "restored" and restored.detail["restores"] == deleted.pk
    assert restored.by == "anna" and restored.by_user_id == match.owner_id
    after = auth_client.get(response["Location"])
    assert 'data-message="deal_restored"' in after.content.decode()
    assert "Deal 2 restored." in text(after)
    assert b"data-restore" not in after.content
    assert sentences(after)[0] == "anna restored deal 2: Anna & Chris 15, Babis & Dora 5"

    # the same button pressed again, from a page drawn before: refused, and said why
    again = auth_client.post(
        history_url(match), {"action": "restore", "change": deleted.pk}, follow=True
    )
    assert 'data-message="deal_restored_already"' in again.content.decode()
    assert Match.objects.get(pk=match.pk).deal_count == 3


def test_restoring_with_htmx_redraws_the_history(auth_client, make_match):
    match = make_match("biriba", deals=3)
    deleted = _deleted(match, 3)
    response = auth_client.post(
        history_url(match, page=1), {"action": "restore", "change": deleted.pk}, headers=HTMX
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="history"') and "<html" not in page
    assert 'data-message="deal_restored"' in page and "Deal 3 restored." in text(response)
    assert "data-restore" not in page
    assert sentences(response)[0].startswith("anna restored deal 3:")

    again = auth_client.post(
        history_url(match), {"action": "restore", "change": deleted.pk}, headers=HTMX
    )
    assert again.status_code == 200
    assert 'data-message="deal_restored_already"' in again.content.decode()


def test_a_restore_the_rules_refuse_is_shown_with_its_code(auth_client, make_match):
    match = make_match("barbu", deals=3)
    deleted = _deleted(match, 3)
    # deal 3 again, as the next deal: the deal deleted no longer fits after it
    services.deal_record(match=match, data=deal_for("barbu", 2), by="Babis")
    response = auth_client.post(
        history_url(match), {"action": "restore", "change": deleted.pk}, headers=HTMX
    )
    page = response.content.decode()
    assert 'data-message="restore_breaks_later_deal"' in page
    assert Match.objects.get(pk=match.pk).deal_count == 3
    assert 'data-restore="3"' in page  # still there to be put back, once it fits


@pytest.mark.parametrize(
    "posted",
    [{}, {"action": "restore"}, {"action": "restore", "change": "x"}, {"action": "other"}],
)
def test_a_post_that_does_not_say_what_changes_nothing(auth_client, make_match, posted):
    match = make_match("biriba", deals=2)
    _deleted(match, 2)
    before = match.changes.count()
    response = auth_client.post(history_url(match), posted, follow=True)
    assert response.status_code == 200
    assert 'class="msg error"' in response.content.decode()
    assert match.changes.count() == before


def test_restoring_a_change_that_deleted_nothing_is_refused(auth_client, make_match):
    match = make_match("biriba", deals=2)
    entered = match.changes.first()
    response = auth_client.post(
        history_url(match), {"action": "restore", "change": entered.pk}, follow=True
    )
    assert 'data-message="no_deleted_deal"' in response.content.decode()


# --- one change, before | after ------------------------------------------------------------------

LINE = re.compile(
    r'<div class="cmp( changed)?"( data-changed)?>(.*?)</div>\s*(?=<div class="cmp[ "]|</section>)',
    re.S,
)


def lines(response) -> list[tuple[bool, str]]:
    """Each line of the comparison: whether it is marked as changed, and its words."""
    page = response.content.decode()
    out = []
    for changed, hook, body in LINE.findall(page):
        assert bool(changed) == bool(hook)
        out.append((bool(changed), _squeeze(body)))
    return out


def test_a_correction_side_by_side_marks_what_differs(auth_client, make_match):
    match = make_match("biriba", deals=2)
    services.deal_correct(match=match, number=2, data=corrected(1), by="Babis")
    change = match.changes.get(kind="corrected")
    response = auth_client.get(change_url(match, change))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'data-change="{change.pk}"' in page
    words = words_of(response)
    assert "Babis corrected deal 2: Anna & Chris 15, Babis & Dora 5 → 35" in words
    assert "<span>Before</span><span>After</span>" in page
    assert '<h2 class="cmp-title col-0"><bdi>Anna</bdi> &amp; <bdi>Chris</bdi></h2>' in page
    # each label begins with a capital, written so (a stylesheet's capital would drop the
    # Greek accent: "Εμειναν" for "Έμειναν")
    assert lines(response) == [
        (False, "Trump ♥ ♥"),
        (False, "Melds 3♥ 4♥ 5♥ 3♥ 4♥ 5♥"),
        (False, "Cards in hand no cards no cards"),
        (False, "Took the biribaki yes yes"),
        (False, "Went out no no"),
        (False, "Deal total 15 15"),
        (True, "Melds changed 3♠ 4♠ 5♠ 3♠ 4♠ 5♠ 8♣ 9♣ 10♣"),
        (False, "Cards in hand K♦ K♦"),
        (False, "Took the biribaki yes yes"),
        (False, "Went out no no"),
        (True, "Deal total changed 5 35"),
    ]
    # the meld the correction added is the one marked within its line
    assert page.count('class="meld differs"') == 1


def test_an_entry_shows_after_only_and_a_deletion_before_only(auth_client, make_match):
    match = make_match("burraco", deals=2, players=["Anna", "Babis"])
    entered = match.changes.filter(kind="entered").first()
    response = auth_client.get(change_url(match, entered))
    words = words_of(response)
    assert "After" in words and "Before" not in words
    assert "data-changed" not in response.content.decode()
    assert (False, "Took the pozzetto yes") in lines(response)

    deleted = _deleted(match, 1)
    response = auth_client.get(change_url(match, deleted))
    words = words_of(response)
    assert "Before" in words and "After" not in words
    assert "Anna deleted deal 1 (Anna 15, Babis 5)" in words
    assert 'data-restore="1"' in response.content.decode()  # put back from here too


def test_a_barbu_deal_side_by_side(auth_client, make_match):
    match = make_match("barbu", deals=3)
    data = deal_for("barbu", 2)
    data["queens"] = [0, 2, 1, 1]
    data["doubles"] = [{"by": 1, "on": 0, "redoubled": True}, *data["doubles"][1:]]
    services.deal_correct(match=match, number=3, data=data, by="Babis")
    change = match.changes.get(kind="corrected")
    response = auth_client.get(change_url(match, change))
    found = dict(
        (words.split(" changed")[0] if changed else words, changed)
        for changed, words in lines(response)
    )
    assert found["Contract No queens No queens"] is False
    assert found["Declarer Anna Anna"] is False
    assert found["Queens"] is True  # the label of a line that changed, before its values
    assert found["Doubles"] is True
    words = words_of(response)
    assert "Babis doubled Anna, Anna redoubled" in words
    assert "Babis doubled Anna Chris doubled Anna" in words


def test_a_barbu_declarer_follows_the_rotation(auth_client, make_match):
    match = make_match("barbu", deals=8)
    eighth = match.changes.get(kind="entered", number=8)
    assert (False, "Declarer Babis") in lines(auth_client.get(change_url(match, eighth)))
    first = match.changes.get(kind="entered", number=1)
    assert (False, "Declarer Anna") in lines(auth_client.get(change_url(match, first)))


def test_a_change_not_about_a_deal_has_nothing_to_compare(auth_client, make_match):
    match = make_match("biriba")
    sharing.share_link_regenerate(match=match, kind="watch", by="anna")
    change = match.changes.get()
    response = auth_client.get(change_url(match, change))
    assert response.status_code == 200
    assert "anna made a new watch link" in words_of(response)
    assert "nothing to compare" in words_of(response)


def test_the_history_links_each_deal_change_to_its_page(auth_client, make_match):
    match = make_match("biriba", deals=1)
    sharing.share_link_regenerate(match=match, kind="watch", by="anna")
    page = auth_client.get(history_url(match)).content.decode()
    entered = match.changes.get(kind="entered")
    link = match.changes.get(kind="link")
    assert f'href="{change_url(match, entered)}"' in page
    assert f'href="{change_url(match, link)}"' not in page


def test_another_match_s_change_or_none_is_not_found(auth_client, make_match):
    match = make_match("biriba", deals=1)
    other = make_match("biriba", deals=1)
    theirs = other.changes.get()
    for pk in (theirs.pk, theirs.pk + 1000, 0, 2**63, 10**30):
        response = auth_client.get(change_url(match, pk))
        assert response.status_code == 404, pk
        assert b'data-message="not_found"' in response.content
    assert auth_client.post(change_url(match, match.changes.get())).status_code == 405


# --- who may look -------------------------------------------------------------------------------


def test_who_may_see_the_history(client, make_match, other_user, user):
    match = make_match("biriba", deals=1)
    change = match.changes.get()
    for url in (history_url(match), change_url(match, change)):
        anonymous = client.get(url)
        assert anonymous.status_code == 302
        assert anonymous["Location"].startswith(reverse("login") + "?next=")
        client.force_login(other_user)
        response = client.get(url)
        assert response.status_code == 404 and b'data-message="not_found"' in response.content
        client.logout()
    # another user's restore restores nothing
    deleted = _deleted(match, 1)
    client.force_login(other_user)
    client.post(history_url(match), {"action": "restore", "change": deleted.pk})
    assert Match.objects.get(pk=match.pk).deal_count == 0


def test_co_scorers_see_the_history_and_restore(client, make_match, other_user):
    match = make_match("biriba", deals=2)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, user=other_user)
    deleted = _deleted(match, 2)
    client.force_login(other_user)
    assert client.get(change_url(match, deleted)).status_code == 200
    response = client.post(
        history_url(match), {"action": "restore", "change": deleted.pk}, follow=True
    )
    assert "babis restored deal 2" in words_of(response)
    assert match.changes.latest("id").by_user_id == other_user.pk

    phone = client.__class__()
    phone.cookies[GUEST_COOKIE] = key = guest_key_new()
    sharing.member_join(link=link, guest_key=guest_key_digest_of(key), name="Eleni")
    assert phone.get(history_url(match)).status_code == 200
    _deleted(match, 1)
    deleted = match.changes.filter(kind="deleted").latest("id")
    phone.post(history_url(match), {"action": "restore", "change": deleted.pk})
    assert match.changes.latest("id").by == "Eleni"


# --- queries ------------------------------------------------------------------------------------


def _history_of(make_match, count: int) -> Match:
    """A match whose history holds ``count`` changes, the newest a deletion, an undo that put
    a deal back and another deletion (what the lines look up besides)."""
    match = make_match("biriba", deals=2)
    _many(match, count - 5)
    services.deal_delete(match=match, number=2, by="Anna")
    services.change_undo(match=match, change=change_undoable(match).pk, by="Babis")
    services.deal_delete(match=match, number=1, by="Anna")
    assert match.changes.count() == count
    return match


def test_the_history_costs_the_same_queries_however_long(auth_client, make_match):
    """session, user, match (with this phone's membership), its seats, its deals; the count
    of changes, the page of them; the changes the page's undos took back and the deletions
    restored since (one query, when the page shows an undo or a deletion)."""
    counts = {}
    for size in (5, 60):
        match = _history_of(make_match, size)
        for page in (1, 2, 3):
            for headers in ({}, HTMX):
                with CaptureQueriesContext(connection) as queries:
                    response = auth_client.get(history_url(match, page=page), headers=headers)
                assert response.status_code == 200
                counts[size, page, bool(headers)] = len(queries)
    assert counts[5, 1, False] == counts[60, 1, False] == counts[60, 1, True] == 8
    assert max(counts.values()) == 8, counts


def test_a_change_s_page_costs_a_fixed_number_of_queries(
    auth_client, make_match, django_assert_num_queries
):
    for size in (5, 60):
        match = _history_of(make_match, size)
        change = match.changes.filter(kind="deleted").latest("id")
        with django_assert_num_queries(7):
            assert auth_client.get(change_url(match, change)).status_code == 200
