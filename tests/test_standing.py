"""The scoring kept on a match (scorekeeper/standing.py, ``Deal.score``): a tap, a save and a
scoreboard cost the same at any length, and what they show is what scoring the whole match
gives."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Match
from scorekeeper.rules import incremental
from scorekeeper.rules import match as rules_match
from scorekeeper.scoreboard import scoreboard
from scorekeeper.selectors import match_document, match_scored
from scorekeeper.sharing import services as sharing
from scorekeeper.standing import match_state
from tests.conftest import BARBU_DATA, HTMX, deal_for, draft_of, press, rummy_deal, text

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def whole_state(match: Match) -> dict:
    parsed = rules_match.parse_document(match_document(fresh(match)))
    return incremental.state_json(incremental.state_of(parsed))


def assert_kept_scores_are_the_whole_match_s(match: Match) -> None:
    _, result, _ = match_scored(fresh(match))
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d.score for d in deals] == result.deal_scores
    assert [d.running for d in deals] == [list(r) for r in result.running]


@pytest.mark.parametrize("game", ["biriba", "burraco", "barbu"])
def test_a_save_keeps_the_state_after_it_and_the_deal_s_score(make_match, game):
    match = make_match(game, deals=5)
    kept = fresh(match).scoring_state
    assert kept["version"] == fresh(match).deals_version
    assert kept["state"] == whole_state(match)
    assert_kept_scores_are_the_whole_match_s(match)


def test_every_change_keeps_the_scores_and_leaves_no_stale_state(make_match):
    match = make_match("barbu", deals=9)
    services.deal_correct(
        match=match, number=2, data={**deal_for("barbu", 1), "hearts": [5, 3, 3, 2]}
    )
    assert_kept_scores_are_the_whole_match_s(match)
    services.deal_delete(match=match, number=9)
    services.deal_restore(match=match, change=match.changes.get(kind="deleted").pk)
    services.deal_swap(match=match, number=3, other=5)
    assert_kept_scores_are_the_whole_match_s(match)
    # the kept state is stale after them: the next use works it out again, the same
    assert match_state(fresh(match)).deals == 9
    assert fresh(match).scoring_state["state"] == whole_state(match)
    services.deal_record(match=match, data=deal_for("barbu", 9))
    assert fresh(match).scoring_state["state"] == whole_state(match)
    assert_kept_scores_are_the_whole_match_s(match)


def test_a_co_scorer_joining_does_not_make_the_kept_state_stale(make_match):
    match = make_match("biriba", deals=3)
    before = fresh(match)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, guest_key="a" * 64, name="Eleni")
    after = fresh(match)
    assert after.version > before.version
    assert after.scoring_state == before.scoring_state
    assert after.deals_version == before.deals_version


def test_a_refused_next_deal_is_refused_as_in_the_whole_match(make_match):
    match = make_match("biriba", deals=2)
    bad = rummy_deal("biriba")
    bad["sides"][0]["melds"] = [["3H", "4H", "JK", "2D"]]
    with pytest.raises(Exception) as incremental_refusal:
        services.deal_record(match=match, data=bad)
    with pytest.raises(Exception) as whole_refusal:
        rules_match.score_document_full(match_document(fresh(match), append=bad))
    assert incremental_refusal.value.as_dict() == whole_refusal.value.as_dict()
    assert "deal 3" in incremental_refusal.value.message
    assert Deal.objects.filter(match=match).count() == 2


def _queries(client, url, data=None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        if data is None:
            client.get(url)
        else:
            client.post(url, data, headers=HTMX)
    return len(ctx.captured_queries)


@pytest.mark.parametrize("game", ["biriba", "barbu"])
def test_a_tap_reads_no_deal_whatever_the_length(auth_client, make_match, game):
    counts = []
    for length in (1, 20):
        match = make_match(game, deals=length)
        url = reverse("deal_new", args=[match.pk])
        page = auth_client.get(url)
        key = "trump:S" if game == "biriba" else "contract:" + deal_for(game, length)["contract"]
        press(auth_client, url, draft_of(page), key)  # the first tap opens the deal in progress
        with CaptureQueriesContext(connection) as ctx:
            press(auth_client, url, draft_of(page), key)
        sql = " ".join(q["sql"] for q in ctx.captured_queries)
        assert '"scorekeeper_deal"' not in sql.replace('"scorekeeper_dealdraft"', "")
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_the_scoreboard_draws_the_latest_deals_and_every_deal_a_page_at_a_time(
    auth_client, make_match
):
    match = make_match("burraco", deals=62)
    url = reverse("match_detail", args=[match.pk])
    page = auth_client.get(url).content.decode()
    assert 'data-deals-window="53-62"' in page
    assert 'data-deal="53"' in page and 'data-deal="52"' not in page
    assert "Deals 53–62 of 62" in text(auth_client.get(url))
    first = auth_client.get(url, {"deals": "all", "page": "1"}).content.decode()
    assert 'data-deal="1"' in first and 'data-deal="50"' in first and 'data-deal="51"' not in first
    assert 'data-deals-page="2"' in first
    second = auth_client.get(url, {"deals": "all", "page": "2"}).content.decode()
    assert 'data-deal="51"' in second and 'data-deal="62"' in second
    assert 'data-deals-page="1"' in second
    # a page out of range is the first; the delete of any deal still asks for that deal
    assert 'data-deal="1"' in auth_client.get(url, {"deals": "all", "page": "9"}).content.decode()
    asked = auth_client.get(url, {"delete": "7"}).content.decode()
    assert 'name="number" value="7"' in asked


def test_the_scoreboard_s_window_is_what_the_whole_match_shows(make_match, rf, user):
    from scorekeeper.access import Access, Role
    from scorekeeper.views import _board_window, _shown, _window

    match = make_match("barbu", deals=20, rules={"compulsory_doubles": "warn"})
    access = Access(match=fresh(match), role=Role.OWNER, member=None, label="anna")
    request = rf.get("/")
    window = _window(request, 20)
    board = _board_window(access.match, access, window, _shown(access.match, window))
    parsed, result, exported = match_scored(fresh(match))
    whole = scoreboard(fresh(match), parsed.header, result, exported, viewer=access.actor)
    assert board["columns"] == whole["columns"] and board["next"] == whole["next"]
    assert board["rows"] == whole["rows"][10:]
    assert {k: v for k, v in board.items() if k != "rows"} == {
        k: v for k, v in whole.items() if k != "rows"
    }


def test_deals_stored_before_their_scores_were_kept_get_them_once(auth_client, make_match):
    match = make_match("biriba", deals=4)
    Deal.objects.filter(match=match).update(score=None, running=None)
    Match.objects.filter(pk=match.pk).update(scoring_state=None)
    page = auth_client.get(reverse("match_detail", args=[match.pk]))
    assert page.status_code == 200 and 'data-deal="4"' in page.content.decode()
    assert_kept_scores_are_the_whole_match_s(match)


def test_a_barbu_deal_entered_on_the_kept_state_is_scored_as_in_the_whole_match(make_match):
    match = make_match("barbu", deals=6)
    services.deal_record(
        match=match, data={"contract": "domino", "doubles": [], **BARBU_DATA["domino"]}
    )
    assert_kept_scores_are_the_whole_match_s(match)
