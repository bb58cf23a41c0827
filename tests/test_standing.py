"""The scoring kept on a match (scorekeeper/standing.py, ``Deal.score``): a tap, a save and a
scoreboard cost the same at any length, and what they show is what scoring the whole match
gives."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Match
from scorekeeper.rules import incremental
from scorekeeper.rules import match as rules_match
from scorekeeper.scoreboard import board_window, scoreboard
from scorekeeper.selectors import match_document, match_scored
from scorekeeper.sharing import services as sharing
from scorekeeper.standing import match_state
from tests.conftest import (
    BARBU_DATA,
    HTMX,
    deal_for,
    draft_of,
    posted_by,
    press,
    rummy_deal,
    text,
)

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def whole_state(match: Match) -> dict:
    parsed = rules_match.parse_document(match_document(fresh(match)))
    return incremental.state_json(incremental.state_of(parsed))


def assert_kept_scores_are_the_whole_match_s(match: Match) -> None:
    """Each deal's kept score and running totals are the whole match's, and its kept state
    (where there is one: a change that does not score deal by deal leaves none) the state
    after it as the whole match gives it."""
    _, result, _ = match_scored(fresh(match))
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d.score for d in deals] == result.deal_scores
    assert [d.running for d in deals] == [list(r) for r in result.running]
    parsed = rules_match.parse_document(match_document(fresh(match)))
    for deal in deals:
        if deal.state is not None:
            expected = incremental.state_json(incremental.state_of(parsed, deal.number))
            assert deal.state == expected, f"deal {deal.number}"


def assert_every_state_kept(match: Match) -> None:
    assert_kept_scores_are_the_whole_match_s(match)
    assert not Deal.objects.filter(match=match, state__isnull=True).exists()


@pytest.mark.parametrize("game", ["biriba", "burraco", "barbu"])
def test_a_save_keeps_the_state_after_it_and_the_deal_s_score(make_match, game):
    match = make_match(game, deals=5)
    kept = fresh(match).scoring_state
    assert kept["version"] == fresh(match).deals_version
    assert kept["state"] == whole_state(match)
    assert_every_state_kept(match)


def test_every_change_keeps_the_scores_and_leaves_no_stale_state(make_match):
    match = make_match("barbu", deals=9)
    services.deal_correct(
        match=match, number=2, data={**deal_for("barbu", 1), "hearts": [5, 3, 3, 2]}
    )
    assert_every_state_kept(match)
    assert fresh(match).scoring_state["state"] == whole_state(match)
    services.deal_delete(match=match, number=9)
    assert_every_state_kept(match)
    services.deal_restore(match=match, change=match.changes.get(kind="deleted").pk)
    assert_every_state_kept(match)
    services.deal_swap(match=match, number=3, other=5)
    assert_every_state_kept(match)
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


def _undoubled(make_match, deals: int) -> Match:
    """A Barbu match whose compulsory doubles are only warned of, where one player alone
    doubles each declarer: each series' end warns that the others owed doubles."""
    match = make_match("barbu", rules={"compulsory_doubles": "warn"})
    for index in range(deals):
        deal = deal_for("barbu", index)
        services.deal_record(match=match, data={**deal, "doubles": deal["doubles"][:1]})
    return match


def test_the_scoreboard_s_window_is_what_the_whole_match_shows(make_match, user):
    """The latest ten deals drawn from their kept scores (and the notices of a deal found
    again from the state before it) are the whole match's last ten rows, in any language."""
    match = _undoubled(make_match, 20)
    for language in ("en", "fr"):
        with translation.override(language):
            board = board_window(fresh(match), 11, 20, viewer=Actor(name="anna"))
            parsed, result, exported = match_scored(fresh(match))
            whole = scoreboard(fresh(match), parsed.header, result, exported, viewer=Actor("anna"))
        assert board["columns"] == whole["columns"] and board["next"] == whole["next"]
        assert board["rows"] == whole["rows"][10:]
        assert any(row["notices"] for row in board["rows"])  # the compulsory doubles warned
        assert {k: v for k, v in board.items() if k != "rows"} == {
            k: v for k, v in whole.items() if k != "rows"
        }


def test_a_deal_s_notices_name_the_players_as_they_are_called_now(make_match, user):
    match = _undoubled(make_match, 14)
    board = board_window(fresh(match), 5, 14)
    before = [n["message"] for row in board["rows"] for n in row["notices"]]
    assert before and any("Babis" in m for m in before)
    player = fresh(match).seated_players[1]
    player.name = "Vasilis"
    player.save()
    board = board_window(fresh(match), 5, 14)
    after = [n["message"] for row in board["rows"] for n in row["notices"]]
    assert after and not any("Babis" in m for m in after) and any("Vasilis" in m for m in after)


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


@pytest.mark.parametrize("game", ["biriba", "barbu"])
def test_a_correction_scores_from_the_deal_before_it_never_reading_those_before(make_match, game):
    """A correction of deal k reads the state kept on deal k - 1 and the deals from k on: the
    deals before are neither read nor scored again (their rows are not even loaded)."""
    match = make_match(game, deals=12)
    data = deal_for(game, 9)
    with CaptureQueriesContext(connection) as captured:
        services.deal_correct(match=match, number=10, data=data)
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].lstrip().startswith("SELECT")]
    deal_reads = [sql for sql in reads if '"scorekeeper_deal"' in sql and '"data"' in sql]
    assert deal_reads and all(
        '"number" >' in sql or '"number" IN' in sql or '"number" =' in sql for sql in deal_reads
    ), deal_reads
    assert_every_state_kept(match)
    assert fresh(match).scoring_state["state"] == whole_state(match)
    # the history has the points it brought before and after, as the whole match scores them
    change = fresh(match).changes.get(kind="corrected")
    _, result, _ = match_scored(fresh(match))
    after, before = result.running[9], result.running[8]
    assert change.points_after == [a - b for a, b in zip(after, before, strict=True)]


def test_a_deal_without_a_kept_state_is_worked_out_from_the_deals_before(make_match):
    match = make_match("barbu", deals=6)
    Deal.objects.filter(match=match).update(state=None)
    services.deal_correct(match=match, number=5, data=deal_for("barbu", 4))
    assert_kept_scores_are_the_whole_match_s(match)
    assert list(
        Deal.objects.filter(match=match, state__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    ) == [1, 2, 3, 4]  # worked out, not kept: only the deals it scored keep theirs


def test_a_deal_deleted_in_the_middle_rescores_the_later_ones_in_their_new_places(make_match):
    match = make_match("biriba", deals=8)
    services.deal_delete(match=match, number=3)
    assert_every_state_kept(match)
    services.change_undo(match=match, change=fresh(match).changes.order_by("-id")[0].pk)
    assert_every_state_kept(match)
    assert Deal.objects.filter(match=match).count() == 8
    assert fresh(match).scoring_state is None or match_state(fresh(match)).deals == 8


@pytest.mark.parametrize("game", ["biriba", "barbu"])
def test_a_tap_reads_the_kept_state_once(auth_client, make_match, game, monkeypatch):
    match = make_match(game, deals=4)
    url = reverse("deal_new", args=[match.pk])
    page = auth_client.get(url)
    key = "trump:S" if game == "biriba" else "contract:" + deal_for(game, 4)["contract"]
    press(auth_client, url, draft_of(page), key)  # the first tap opens the deal in progress
    reads = []
    read = incremental.state_from_json

    def counted(*args, **kwargs):
        reads.append(1)
        return read(*args, **kwargs)

    monkeypatch.setattr(incremental, "state_from_json", counted)
    answer = auth_client.post(url, posted_by(page, key), headers=HTMX)
    assert answer.status_code == 200 and 'name="draft"' in answer.content.decode()
    assert len(reads) == 1


def test_a_correction_s_verdict_is_scored_from_the_deal_before_it(
    auth_client, make_match, monkeypatch
):
    """The correction page scores the deal being corrected from the state kept on the deal
    before it, with the deals after it (never those before); its verdict is what the whole
    match says."""
    match = make_match("biriba", deals=6)
    scored = []
    score_deals = incremental.score_deals

    def counted(state, deals):
        deals = list(deals)
        scored.append((state.deals, len(deals)))
        return score_deals(state, deals)

    monkeypatch.setattr(incremental, "score_deals", counted)
    page = auth_client.get(reverse("deal_edit", args=[match.pk, 4]))
    assert page.status_code == 200
    assert scored and set(scored) == {(3, 3)}  # from deal 3's state: deals 4, 5 and 6
    _, result, _ = match_scored(fresh(match))
    totals = re.findall(r"<td><strong>([−-]?[\d\u202f,.]+)</strong></td>", page.content.decode())
    shown = [int(re.sub(r"[^\d-]", "", t.replace("−", "-"))) for t in totals]
    assert shown == list(result.running[3])
