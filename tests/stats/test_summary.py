"""A match's summary (scorekeeper/stats/summary.py) read from the rules core's scored document,
checked by hand on matches of each game, and kept on the match by its ``deals_version``."""

from __future__ import annotations

import pytest

from scorekeeper import services
from scorekeeper.models import Deal, Match
from scorekeeper.selectors import match_scored
from scorekeeper.stats.selectors import summaries_of
from scorekeeper.stats.summary import FORMAT
from tests.stats.matches import barbu_match, rummy_deal, rummy_match, side, win_deal

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Babis", "Chris", "Dora"]


def summary_of(match: Match) -> dict:
    match = Match.objects.get(pk=match.pk)
    return summaries_of([match])[match.pk]


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_side_counted_by_its_points_alone_misses_no_pot_unless_told(user, game):
    deals = [
        {"sides": [{"totals": {"points": 700}, "went_out": True}, {"totals": {"points": -100}}]},
        {"sides": [{"totals": {"points": 50}}, {"totals": {"points": -80}, "took_pot": False}]},
    ]
    if game == "biriba":
        for deal in deals:
            deal["trump"] = None
    match = rummy_match(user, game, FOUR, deals, target=5000)
    found = summary_of(match)
    assert [c["pots_missed"] for c in found["columns"]] == [0, 1]
    assert [c["went_out"] for c in found["columns"]] == [1, 0]


@pytest.mark.parametrize(
    ("game", "kinds"),
    [("biriba", ("clean_biriba", "dirty_biriba")), ("burraco", ("clean_burraco", "dirty_burraco"))],
)
def test_a_rummy_match_by_hand(user, game, kinds):
    clean, dirty = kinds
    deals = [
        # side 0: 300 melded + a clean bonus + going out; side 1 never took its pot
        rummy_deal(
            game,
            side(300, bonuses={clean: 1}, went_out=True),
            side(100, in_hand=20, took_pot=False),
            index=0,
        ),
        rummy_deal(
            game,
            side(300, bonuses={clean: 1, dirty: 1}, went_out=True),
            side(100, in_hand=20),
            index=1,
        ),
    ]
    match = rummy_match(user, game, FOUR, deals, target=1000)
    found = summary_of(match)
    # deal 1: 300 + 200 (the clean bonus) + 100 (going out) = 600 against 100 − 20 − 100 (the
    # pot never taken) = −20; deal 2: 300 + 200 + 100 + 100 = 700 against 100 − 20 = 80
    assert found["totals"] == [1300, 60]
    assert found["finished"] and found["winners"] == [0]
    assert found["seat_column"] == [0, 1, 0, 1]
    assert found["deals"] == 2
    assert found["columns"][0] == {
        "points": 1300,
        "deals": 2,
        "went_out": 2,
        "pots_missed": 0,
        "bonuses": {clean: 2, dirty: 1},
    }
    assert found["columns"][1] == {
        "points": 60,
        "deals": 2,
        "went_out": 0,
        "pots_missed": 1,
        "bonuses": {},
    }


def test_two_players_are_a_side_each(user):
    match = rummy_match(user, "biriba", ["Anna", "Babis"], [win_deal("biriba", 1)])
    found = summary_of(match)
    assert found["seat_column"] == [0, 1]
    assert found["winners"] == [1]


def test_a_barbu_match_by_hand(user):
    """The classic 28 deals, what each takes following the declarer round the table: every
    player ends on 0, so all four tie first and all four win; each contract is played four
    times, once with each player as declarer, so each player's average in it is a quarter of
    what the deal hands out (No tricks: 13 tricks at −2, −26: −6.5)."""
    match = barbu_match(user, FOUR, rotate=True)
    found = summary_of(match)
    assert found["totals"] == [0, 0, 0, 0]
    assert found["winners"] == [0, 1, 2, 3]
    for column in found["columns"]:
        assert column["deals"] == 28
        # the three others double the declarer in each deal: 7 deals declared, 21 played
        assert column["made"] == 21 and column["received"] == 21
        assert column["redoubled"] == 0
        assert column["compulsory"] == [3, 3]
        assert column["contracts"]["no_tricks"] == [4, -26]
        assert {code: n for code, (n, _) in column["contracts"].items()} == dict.fromkeys(
            ("no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"),
            4,
        )
        assert column["points"] == 0


def test_barbu_doubles_won_lost_and_net(user):
    """Deal 1 (No tricks, declarer Anna takes 4 tricks, the others 3): each of the three wins
    their double on her by 2 (−6 against −8); what the doubles brought is the score's."""
    match = barbu_match(user, FOUR)
    found = summary_of(match)
    _, _, document = match_scored(Match.objects.get(pk=match.pk))
    for seat in range(4):
        net = sum(deal["score"]["doubles"][seat] for deal in document["deals"])
        assert found["columns"][seat]["net"] == net
    won = [0] * 4
    lost = [0] * 4
    for deal in document["deals"]:
        for line in deal["score"]["settlement"]:
            if line["amount"] > 0:
                won[line["by"]] += 1
                lost[line["on"]] += 1
            elif line["amount"] < 0:
                won[line["on"]] += 1
                lost[line["by"]] += 1
    assert [c["won"] for c in found["columns"]] == won
    assert [c["lost"] for c in found["columns"]] == lost
    assert found["winners"] == [0]  # 468, −36, −96, −336


def test_kept_by_the_deals_version_and_worked_out_again_when_stale(user, django_assert_num_queries):
    match = rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    assert Match.objects.get(pk=match.pk).stats is None
    first = summary_of(match)
    stored = Match.objects.get(pk=match.pk)
    assert stored.stats["version"] == stored.deals_version
    assert stored.stats["format"] == FORMAT
    with django_assert_num_queries(0):
        assert summaries_of([stored])[stored.pk] == first
    # a deal corrected: the version moves, the summary is worked out again
    services.deal_correct(match=stored, number=1, data=win_deal("biriba", 1))
    again = summary_of(match)
    assert again["winners"] == [1]
    assert Match.objects.get(pk=match.pk).stats["summary"] == again


def test_a_summary_kept_for_other_deals_is_never_taken(user):
    """A summary whose version is not the match's (written while the deals changed) is stale."""
    match = rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    stale = summary_of(match) | {"winners": [1]}
    Match.objects.filter(pk=match.pk).update(
        stats={"format": FORMAT, "version": match.deals_version - 1, "summary": stale}
    )
    assert summary_of(match)["winners"] == [0]


@pytest.mark.parametrize("game", ["biriba", "barbu"])
def test_the_kept_scores_and_the_match_scored_again_agree(user, game):
    """The summary read from the deals' kept scores is the one the match scored again by the
    rules core gives (what a match whose deals have no kept score gets)."""
    if game == "barbu":
        match = barbu_match(user, FOUR)
    else:
        match = rummy_match(user, game, FOUR, [win_deal(game, 1)])
    kept = summary_of(match)
    Deal.objects.filter(match=match).update(score=None, running=None)
    Match.objects.filter(pk=match.pk).update(stats=None)
    assert summary_of(match) == kept
