"""Services (writes through the rules core) and selectors (the match document, the scores)."""

import copy
import json
from pathlib import Path

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from scorekeeper import services
from scorekeeper.models import Deal, Match, MatchSeat, Player
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import rules_with_defaults, score_document
from scorekeeper.selectors import (
    match_document,
    match_for_owner_or_404,
    match_scored,
    matches_for_user,
)
from tests.conftest import PLAYERS4, rummy_deal

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent / "data"  # the worked examples of docs/rules.md


def biriba_going_out(trump: str = "D") -> dict:
    """Side 0 goes out with a clean 3C..9C run: 345 with trump D, 545 with trump C."""
    return {
        "trump": trump,
        "sides": [
            {
                "melds": [["3C", "4C", "5C", "6C", "7C", "8C", "9C"]],
                "hand": [],
                "took_pot": True,
                "went_out": True,
            },
            {"melds": [["3S", "4S", "5S"]], "hand": ["KD"], "took_pot": True},
        ],
    }


def counts() -> tuple[int, int, int, int]:
    return (
        Match.objects.count(),
        MatchSeat.objects.count(),
        Player.objects.count(),
        Deal.objects.count(),
    )


# --- match_create ---------------------------------------------------------------------------


def test_match_create_stores_every_rule_resolved_and_the_seats(user):
    match = services.match_create(
        owner=user, game="biriba", players=PLAYERS4, first_dealer=2, rules={"target": 500}
    )
    assert match.rules == rules_with_defaults("biriba", {"target": 500})
    assert match.rules["trump_doubles"] is True  # a default, stored with the match
    assert [p.name for p in match.seated_players] == PLAYERS4
    assert match.first_dealer == 2
    assert match.owner == user
    assert match.status == Match.Status.IN_PROGRESS
    assert match.totals == [0, 0] and match.deal_count == 0 and match.winner is None


def test_match_create_reuses_the_owners_players_ignoring_case(user, other_user):
    first = services.match_create(
        owner=user, game="barbu", players=PLAYERS4, first_dealer=0, rules={}
    )
    second = services.match_create(
        owner=user,
        game="burraco",
        players=["dora", " ANNA ", "Eleni", "babis"],
        first_dealer=0,
        rules={},
    )
    assert Player.objects.filter(owner=user).count() == 5
    assert [p.name for p in second.seated_players] == ["Dora", "Anna", "Eleni", "Babis"]
    by_name = {p.name: p.pk for p in first.seated_players}
    assert second.seated_players[1].pk == by_name["Anna"]
    services.match_create(
        owner=other_user, game="barbu", players=PLAYERS4, first_dealer=0, rules={}
    )
    assert Player.objects.filter(owner=other_user).count() == 4  # people of their own


@pytest.mark.parametrize(
    ("kwargs", "code", "where"),
    [
        ({"game": "poker"}, "bad_game", ("game",)),
        ({"game": "barbu", "players": ["A", "B", "C"]}, "player_count", ("players",)),
        ({"players": ["Anna", "Babis", "anna", "Dora"]}, "duplicate_player", ("players[2]",)),
        ({"players": ["Anna", "", "Chris", "Dora"]}, "empty_name", ("players[1]",)),
        ({"players": ["Anna", "B" * 41, "Chris", "Dora"]}, "name_too_long", ("players[1]",)),
        # a control character (PostgreSQL refuses NUL in text; none belongs in a name)
        ({"players": ["Anna", "Ba\x00bis", "Chris", "Dora"]}, "name_control", ("players[1]",)),
        ({"players": ["Anna", "Babis", "Chris", "Do\x1b[2Jra"]}, "name_control", ("players[3]",)),
        ({"first_dealer": 4}, "out_of_range", ("first_dealer",)),
        ({"rules": {"colour": "red"}}, "unknown_key", ("rules", "colour")),
        ({"rules": {"target": "lots"}}, "bad_type", ("rules", "target")),
    ],
)
def test_match_create_refuses_and_stores_nothing(user, kwargs, code, where):
    arguments = {"owner": user, "game": "biriba", "players": PLAYERS4, "first_dealer": 0}
    arguments |= {"rules": {}} | kwargs
    with pytest.raises(RuleError) as refused:
        services.match_create(**arguments)
    assert refused.value.code == code
    assert refused.value.where == where
    assert counts() == (0, 0, 0, 0)


# --- deal_record ----------------------------------------------------------------------------


def test_deal_record_stores_the_canonical_deal_and_refreshes_the_cache(make_match):
    match = make_match("biriba")
    deal = services.deal_record(
        match=match,
        data={
            "trump": "♦",
            "sides": [
                {
                    "melds": [["4h", "5H", "6♥", "7H", "8H", "9H", "T♥"], ["QS", "KS", "AS"]],
                    "hand": ["3C", "KD"],
                    "took_pot": True,
                    "went_out": True,
                },
                {
                    "melds": [["5C", "6C", "joker", "8C"], ["9D", "10D", "JD"]],
                    "hand": ["2S", "AH", "4D"],
                    "took_pot": True,
                },
            ],
        },
    )
    assert deal.number == 1
    assert deal.data["trump"] == "D"
    assert deal.data["sides"][0]["melds"][0] == ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    assert deal.data["sides"][1]["melds"][0] == ["5C", "6C", "JK", "8C"]
    assert "score" not in deal.data
    match.refresh_from_db()
    assert match.totals == [370, 40]
    assert match.deal_count == 1
    assert match.status == Match.Status.IN_PROGRESS


def test_deal_record_refuses_an_illegal_deal_and_stores_nothing(make_match):
    match = make_match("biriba", deals=1)
    bad = rummy_deal("biriba")
    bad["sides"][0]["melds"] = [["AD", "2D", "3D", "JK", "5D", "2C", "7D"]]
    with pytest.raises(RuleError) as refused:
        services.deal_record(match=match, data=bad)
    assert refused.value.where[0] == "deal 2"
    assert "meld 1" in refused.value.message
    assert Deal.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.deal_count == 1


def test_deal_record_refuses_a_deal_someone_else_already_entered(make_match):
    match = make_match("biriba", deals=2)
    with pytest.raises(RuleError) as refused:
        services.deal_record(match=match, data=rummy_deal("biriba"), number=2)
    assert refused.value.code == "deal_already_entered"
    assert services.deal_record(match=match, data=rummy_deal("biriba"), number=3).number == 3


def test_deal_record_finishes_the_match_and_refuses_a_deal_after_it(make_match):
    match = make_match("biriba", rules={"target": 500})
    services.deal_record(match=match, data=biriba_going_out("C"))  # 545
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.winner == 0
    assert match.finished_at is not None
    with pytest.raises(RuleError) as refused:
        services.deal_record(match=match, data=rummy_deal("biriba"))
    assert refused.value.code == "match_finished"
    assert Deal.objects.filter(match=match).count() == 1


def test_deal_record_locks_the_match_row(make_match):
    match = make_match("burraco")
    with CaptureQueriesContext(connection) as queries:
        services.deal_record(match=match, data=rummy_deal("burraco"))
    if connection.features.has_select_for_update:
        assert any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)


def test_deal_record_keeps_the_callers_copy_fresh(make_match):
    match = make_match("biriba")
    match = match_for_owner_or_404(match.owner, match.pk)  # deals prefetched
    services.deal_record(match=match, data=rummy_deal("biriba"))
    assert match.deal_count == 1
    assert len(match_document(match)["deals"]) == 1


# --- deal_correct ---------------------------------------------------------------------------


def test_deal_correct_rescores_the_whole_match(make_match):
    match = make_match("biriba", deals=3)
    before = match_scored(match)[1].running
    services.deal_correct(match=match, number=1, data=biriba_going_out("D"))
    _, result, exported = match_scored(match)
    assert exported["deals"][0]["score"]["sides"][0]["total"] == 345
    assert result.running[2][0] == before[2][0] - 15 + 345
    match.refresh_from_db()
    assert match.totals == result.totals


def test_deal_correct_refuses_a_correction_that_makes_a_later_deal_illegal(make_match):
    match = make_match("biriba", rules={"target": 500})
    services.deal_record(match=match, data=biriba_going_out("D"))  # 345: the match goes on
    services.deal_record(match=match, data=rummy_deal("biriba"))
    with pytest.raises(RuleError) as refused:
        # trump clubs doubles the biriba: 545 would have ended the match after deal 1
        services.deal_correct(match=match, number=1, data=biriba_going_out("C"))
    assert refused.value.code == "correction_breaks_later_deal"
    assert refused.value.where == ("deal 1",)
    assert refused.value.params["later"] == 2
    assert "no deal may be added" in refused.value.message
    assert Deal.objects.get(match=match, number=1).data["trump"] == "D"
    match.refresh_from_db()
    assert match.totals == [360, 10]


def test_deal_correct_refuses_an_illegal_deal_naming_it(make_match):
    match = make_match("burraco", deals=2)
    bad = rummy_deal("burraco")
    bad["sides"][1]["went_out"] = True  # going out needs a burraco
    with pytest.raises(RuleError) as refused:
        services.deal_correct(match=match, number=1, data=bad)
    assert refused.value.where[0] == "deal 1"
    assert refused.value.code != "correction_breaks_later_deal"


def test_deal_correct_of_a_missing_deal(make_match):
    """A deal deleted meanwhile (another phone) is a refusal, not a server error."""
    match = make_match("burraco", deals=1)
    with pytest.raises(RuleError) as refused:
        services.deal_correct(match=match, number=2, data=rummy_deal("burraco"))
    assert refused.value.code == "deal_gone"
    assert "deal 2 is no longer there" in refused.value.message


# --- deal_delete_last -----------------------------------------------------------------------


def test_deal_delete_last_reopens_a_finished_match(make_match):
    match = make_match("biriba", rules={"target": 500})
    services.deal_record(match=match, data=biriba_going_out("C"))
    assert services.deal_delete_last(match=match, number=1) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert match.finished_at is None and match.winner is None
    assert match.totals == [0, 0] and match.deal_count == 0


def test_deal_delete_last_refuses_without_a_deal_or_with_a_stale_number(make_match):
    match = make_match("barbu", deals=2)
    with pytest.raises(RuleError) as refused:
        services.deal_delete_last(match=match, number=1)
    assert refused.value.code == "not_last_deal"
    assert Deal.objects.filter(match=match).count() == 2
    services.deal_delete_last(match=match)
    services.deal_delete_last(match=match)
    with pytest.raises(RuleError) as refused:
        services.deal_delete_last(match=match)
    assert refused.value.code == "no_deal"


# --- match_import and the selectors ---------------------------------------------------------


def example(name: str) -> dict:
    folder = "barbu" if name.startswith("barbu") else "rummy"
    return json.loads((DATA / folder / f"{name}.json").read_text(encoding="utf-8"))["doc"]


@pytest.mark.parametrize("name", ["biriba-ex1", "burraco-ex1", "barbu-ex2", "barbu-ex4"])
def test_import_then_export_gives_the_same_document(user, name):
    document = example(name)
    match = services.match_import(owner=user, document=document)
    exported = match_scored(match)[2]
    expected = score_document(document)
    expected["rules"] = rules_with_defaults(document["game"], document.get("rules"))
    assert exported == {**expected, "rules": exported["rules"]}
    assert exported["rules"] == match.rules
    # and once more: exporting an imported export gives it back unchanged
    again = services.match_import(owner=user, document=copy.deepcopy(exported))
    assert match_scored(again)[2] == exported


def test_import_refuses_a_player_name_with_a_control_character(user):
    document = example("biriba-ex1")
    document["players"][2] = "Chr\x00is"
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert (refused.value.code, refused.value.where) == ("name_control", ("players[2]",))
    assert counts() == (0, 0, 0, 0)


def test_import_of_a_refused_document_stores_nothing(user):
    document = example("biriba-ex1")
    document["deals"].append(copy.deepcopy(document["deals"][0]))
    document["deals"][1]["sides"][0]["went_ot"] = True
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert refused.value.where[0] == "deal 2"
    assert "went_ot" in refused.value.message
    assert counts() == (0, 0, 0, 0)


def test_import_ignores_the_scores_it_is_given(user):
    document = score_document(example("barbu-ex3"))
    document["totals"] = [1, 2, 3, 4]
    document["deals"][0]["score"]["total"] = [0, 0, 0, 0]
    match = services.match_import(owner=user, document=document)
    assert match.totals == score_document(example("barbu-ex3"))["totals"]


def test_match_document_appends_or_replaces_without_storing(make_match):
    match = make_match("barbu", deals=2)
    doc = match_document(match)
    assert doc["format"] == "scorekeeper-match/1"
    assert doc["players"] == PLAYERS4 and doc["rules"] == match.rules
    assert [d["contract"] for d in doc["deals"]] == ["no_tricks", "no_hearts"]
    extra = {"contract": "no_queens", "doubles": [], "queens": [1, 1, 1, 1]}
    assert match_document(match, append=extra)["deals"][2] == extra
    assert match_document(match, replace=(1, extra))["deals"][0] == extra
    with pytest.raises(ValueError):
        match_document(match, replace=(3, extra))
    assert Deal.objects.filter(match=match).count() == 2


def test_matches_for_user_in_progress_first(make_match, user, other_user):
    finished = make_match("biriba", rules={"target": 500})
    services.deal_record(match=finished, data=biriba_going_out("C"))
    older = make_match("barbu", deals=1)
    newer = make_match("burraco")
    make_match("barbu", owner=other_user)
    assert list(matches_for_user(user)) == [newer, older, finished]


def test_match_for_owner_or_404(make_match, user, other_user):
    from django.contrib.auth.models import AnonymousUser

    match = make_match("barbu")
    assert match_for_owner_or_404(user, match.pk) == match
    for someone in (other_user, AnonymousUser()):
        with pytest.raises(Http404):
            match_for_owner_or_404(someone, match.pk)
    with pytest.raises(Http404):
        match_for_owner_or_404(user, match.pk + 1000)


@pytest.mark.django_db
def test_deal_correct_refuses_a_correction_drawn_from_a_deal_changed_meanwhile(make_match):
    """Two phones correct deal 1: the second, drawn from the deal before the first saved,
    is refused under the row lock and changes nothing."""
    match = make_match("burraco", deals=2)
    seen = services.deal_fingerprint(Deal.objects.get(match=match, number=1).data)
    first = rummy_deal("burraco")
    first["sides"][1]["hand"] = ["QD"]
    services.deal_correct(match=match, number=1, data=first, drawn_from=seen)
    stored = Deal.objects.get(match=match, number=1).data
    second = rummy_deal("burraco")
    second["sides"][1]["hand"] = ["4D"]
    with pytest.raises(RuleError) as caught:
        services.deal_correct(match=match, number=1, data=second, drawn_from=seen)
    assert caught.value.code == "deal_changed"
    assert Deal.objects.get(match=match, number=1).data == stored
    # drawn from the deal as it is now, the same correction goes through
    now = services.deal_fingerprint(stored)
    services.deal_correct(match=match, number=1, data=second, drawn_from=now)
    assert Deal.objects.get(match=match, number=1).data["sides"][1]["hand"] == ["4D"]
