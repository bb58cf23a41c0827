"""Barbu deals still to enter (``"to_enter": true``) and the swap of two deals' contracts.

A deal still to enter has its contract named (and its doubles, when known) and no contract data
yet: it counts in the schedule, scores nothing, and keeps the match from finishing. Swapping
the contracts of two deals of one declarer leaves both to enter. Each refusal comes with a near
miss that is accepted."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Contract, Double
from scorekeeper.rules.errors import Place, RuleError
from scorekeeper.rules.match import (
    document_json,
    export_document,
    parse_document,
    score_document,
    score_document_full,
    score_match,
)
from tests.profiles import examples

from .test_barbu_deals import DATA, DOUBLED, PLAYERS, VARIANT_OF, doc, rules_for
from .test_barbu_properties import matches
from .test_barbu_schedule import CLASSIC, full_match, played, series
from .test_places import checked, mutations, paths

ZEROS = [0, 0, 0, 0]


def to_enter(deal: dict) -> dict:
    """``deal`` with its contract data left out and marked as still to enter."""
    keep = {k: v for k, v in deal.items() if k in ("contract", "declarer", "doubles")}
    return keep | {"to_enter": True}


def entered(deal: dict, variant: str = "classic") -> dict:
    """A deal still to enter with its data entered (the default data of its contract), or
    none when it is an undoubled negative contract that is split."""
    out = {k: v for k, v in deal.items() if k != "to_enter"}
    rules = barbu.parse_rules({"variant": variant})
    doubles = [Double(d["by"], d["on"]) for d in out.get("doubles", [])]
    if not barbu.is_split(rules, Contract(out["contract"]), doubles):
        out |= DATA[out["contract"]]
    return out


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(copy.deepcopy(document))
    return caught.value


def assert_refused(document, code, *mentions) -> RuleError:
    error = checked(copy.deepcopy(document))  # and its place is what its words say
    assert error is not None, "not refused"
    assert error.code == code, error.message
    for text in mentions:
        assert text in error.message, error.message
    return error


def doubles_of(contract: str) -> list[dict]:
    return [] if VARIANT_OF.get(contract) == "king" else list(DOUBLED)


# -- the document form --


@pytest.mark.parametrize("contract", list(DATA))
def test_a_deal_to_enter_reads_scores_nothing_and_round_trips(contract):
    deal = {"contract": contract, "doubles": doubles_of(contract), "to_enter": True}
    document = doc([deal], rules_for(contract))
    match = parse_document(document)
    (parsed,) = match.deals
    assert parsed.to_enter is True and parsed.data_given() == []
    written = barbu.deal_json(parsed)
    assert written == deal
    assert list(written) == ["contract", "doubles", "to_enter"]
    again = barbu.parse_deal(written, header=match.header, rules=match.rules, index=0)
    assert again == parsed and barbu.deal_json(again) == written
    score = score_document(document)["deals"][0]["score"]
    assert score == {
        "declarer": 0,
        "raw": ZEROS,
        "doubles": ZEROS,
        "total": ZEROS,
        "settlement": [],
        "to_enter": True,
    }


def test_a_deal_to_enter_keeps_its_declarer_and_doubles_in_canonical_form():
    deal = {
        "contract": "no_queens",
        "declarer": 0,
        "doubles": [{"by": 2, "on": 0, "redoubled": False}, {"by": 1, "on": 3, "redoubled": True}],
        "to_enter": True,
        "score": {"raw": [1, 2, 3, 4]},  # an old score is recomputed
    }
    out = score_document(doc([deal]))["deals"][0]
    assert out["declarer"] == 0 and out["to_enter"] is True
    assert out["doubles"] == [{"by": 2, "on": 0}, {"by": 1, "on": 3, "redoubled": True}]
    assert out["score"]["total"] == ZEROS and out["score"]["settlement"] == []


def test_to_enter_false_means_the_same_as_absent_and_is_not_written():
    deal = played("no_tricks", 0)
    plain = parse_document(doc([deal]))
    marked = parse_document(doc([deal | {"to_enter": False}]))
    assert marked.deals == plain.deals
    assert "to_enter" not in barbu.deal_json(marked.deals[0])
    assert score_document(doc([deal | {"to_enter": False}])) == score_document(doc([deal]))


@pytest.mark.parametrize(
    "contract,key",
    [(c, k) for c in DATA for k in Contract(c).data_keys] + [("no_queens", "tricks")],
)
def test_a_deal_to_enter_with_contract_data_is_refused(contract, key):
    variant = barbu.Variant(VARIANT_OF.get(contract, "classic"))
    king = variant is barbu.Variant.KING
    others = [c.value for c in barbu.contracts_of(variant) if c.value != contract]
    declarers = (0, 1) if king else (0, 0)  # King: the deal passes every hand
    deals = [played(c, s, [] if king else None) for c, s in zip(others, declarers, strict=False)]
    bad = {"contract": contract, "doubles": doubles_of(contract), "to_enter": True}
    value = "7" if key == "start_rank" else DATA[contract].get(key, [4, 3, 3, 3])
    rules = rules_for(contract)
    error = assert_refused(
        doc([*deals, bad | {key: value}], rules), "to_enter_with_data", "deal 3", f'"{key}"'
    )
    assert error.place == Place(deal=3, field=key)
    assert error.where == ("deal 3", key)
    assert "still to enter" in error.message
    assert ("Chris" if king else "Anna") in error.message
    # near miss: the same deal without its data
    score_document(doc([*deals, bad], rules))


def test_a_deal_to_enter_with_its_data_is_refused_by_check_deal_too():
    match = parse_document(doc([played("no_tricks", 0)]))
    (deal,) = match.deals
    marked = dataclasses.replace(deal, to_enter=True)
    with pytest.raises(RuleError) as caught:
        barbu.score_deal(match.header, match.rules, marked, index=0)
    assert caught.value.code == "to_enter_with_data"
    assert caught.value.where == ("deal 1", "tricks")
    bare = dataclasses.replace(marked, tricks=None)
    assert barbu.score_deal(match.header, match.rules, bare, index=0)["to_enter"] is True


@pytest.mark.parametrize("value", [None, 1, 0, "true", "yes", [], {}, [True]])
def test_to_enter_is_true_or_false_and_nothing_else(value):
    bad = {"contract": "no_tricks", "doubles": DOUBLED, "to_enter": value}
    error = assert_refused(doc([bad]), "bad_type", "deal 1", "to_enter", "true or false")
    assert error.place == Place(deal=1, field="to_enter")
    for near in (True, False):
        deal = bad | {"to_enter": near} | ({} if near else DATA["no_tricks"])
        score_document(doc([deal]))


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_rummy_deal_refuses_to_enter_as_an_unknown_key(game):
    sides = [{"melds": [["3S", "4S", "5S"]], "hand": [], "took_pot": True}] + [
        {"melds": [], "hand": [], "took_pot": True}
    ]
    deal = {"sides": sides} | ({"trump": "H"} if game == "biriba" else {})
    document = {
        "format": "scorekeeper-match/1",
        "game": game,
        "players": PLAYERS[:2],
        "deals": [deal],
    }
    score_document(document)
    for value in (True, False):
        bad = dict(document, deals=[deal | {"to_enter": value}])
        error = assert_refused(bad, "unknown_key", "deal 1", "to_enter")
        assert error.place == Place(deal=1, field="to_enter")


def test_a_deal_to_enter_keeps_its_doubles_checked():
    bad = {"contract": "trumps", "doubles": [{"by": 1, "on": 2}], "to_enter": True}
    error = assert_refused(doc([bad]), "positive_only_declarer", "deal 1", "Babis")
    assert error.place.deal == 1 and error.place.field == "doubles"
    assert_refused(doc([bad | {"doubles": [{"by": 0, "on": 1}]}]), "declarer_cannot_double", "Anna")
    assert_refused(doc([bad | {"declarer": 1}]), "declarer_mismatch", "Babis")
    score_document(doc([bad | {"doubles": [{"by": 2, "on": 0}], "declarer": 0}]))


def test_a_deal_to_enter_is_never_an_undoubled_negative_split():
    deal = {"contract": "no_tricks", "doubles": [], "to_enter": True}
    score = score_document(doc([deal]))["deals"][0]["score"]
    assert "split" not in score and score["raw"] == ZEROS and score["to_enter"] is True
    # near miss: entered without doubles, it is not played and split
    split = score_document(doc([{"contract": "no_tricks", "doubles": []}]))["deals"][0]["score"]
    assert split["split"] is True and split["raw"] == [1, -9, -9, -9]
    rules = barbu.parse_rules({})
    assert barbu.is_split(rules, Contract.NO_TRICKS, ())
    assert not barbu.is_split(rules, Contract.NO_TRICKS, (), to_enter=True)


def test_a_deal_to_enter_alone_and_previewed_scores_nothing():
    match = parse_document(doc([played("no_tricks", 0), to_enter(played("no_hearts", 0))]))
    first, second = match.deals
    alone = barbu.score_deal(match.header, match.rules, second, index=1)
    assert alone["total"] == ZEROS and alone["to_enter"] is True
    preview = barbu.preview_deal(match.header, match.rules, [first], second)
    assert preview == alone
    check = barbu.deal_sum(match.rules, second.contract, alone)
    assert check.ok and check.want == 0 and check.to_enter is True
    played_score = barbu.score_deal(match.header, match.rules, first, index=0)
    check = barbu.deal_sum(match.rules, first.contract, played_score)
    assert check.ok and check.want == -26 and check.to_enter is False


# -- the schedule and the end of the match --


def test_a_contract_to_enter_cannot_be_named_again_by_its_declarer():
    first = to_enter(played("no_tricks", 0))
    error = assert_refused(
        doc([first, played("no_hearts", 0), played("no_tricks", 0)]),
        "contract_already_named",
        "deal 1",
    )
    assert error.where == ("deal 3", "Anna", "contract")
    # the other way round: played first, named again to enter
    error = assert_refused(
        doc([played("no_tricks", 0), to_enter(played("no_tricks", 0))]), "contract_already_named"
    )
    assert error.where == ("deal 2", "Anna", "contract")
    # near miss: another contract
    score_document(doc([first, played("no_hearts", 0), played("no_queens", 0)]))
    match = parse_document(doc([first, played("no_hearts", 0)]))
    left = barbu.contracts_left(match.header, match.rules, match.deals)
    assert [c.value for c in left] == CLASSIC[2:]
    for_first = barbu.contracts_for_deal(match.header, match.rules, match.deals, 0)
    assert Contract.NO_TRICKS in for_first and Contract.NO_HEARTS not in for_first


def test_king_quotas_count_the_deals_to_enter():
    king = {"variant": "king"}
    deals = [played("trumps", n % 4, doublers=[]) for n in range(8)]
    deals[4] = to_enter(deals[4])
    score_document(doc(deals, king))
    error = assert_refused(
        doc([*deals, played("trumps", 0, doublers=[])], king), "king_trumps_used", "Anna"
    )
    assert error.where == ("deal 9", "Anna", "contract")


def test_the_declarer_rotation_is_unchanged_by_a_deal_to_enter():
    deals = full_match()["deals"]
    marked = [to_enter(d) if n in (3, 7, 20) else d for n, d in enumerate(deals)]
    out = score_document(doc(marked))
    expected = score_document(doc(deals))
    got = [d["score"]["declarer"] for d in out["deals"]]
    assert got == [d["score"]["declarer"] for d in expected["deals"]]
    assert got == [0] * 7 + [1] * 7 + [2] * 7 + [3] * 7


@pytest.mark.parametrize(
    ("variant", "rotation"),
    [
        ("classic", "series"),
        ("classic", "quick"),
        ("ravage_city", "series"),
        ("ravage_city", "quick"),
        ("salade", "series"),
        ("king", "quick"),
    ],
)
def test_the_match_is_not_finished_while_a_deal_is_to_enter(variant, rotation):
    document = full_match(variant, rotation, first_dealer=2)
    whole = score_document(document)
    assert whole["finished"] is True
    last = len(document["deals"]) - 1
    for k in (0, 5, last):
        deals = list(document["deals"])
        deals[k] = to_enter(deals[k])
        _, result, out = score_document_full(dict(document, deals=deals))
        assert out["finished"] is False and out["winner"] is None
        assert result.next_deal == {
            "finished": False,
            "number": None,
            "of": len(deals),
            "declarer": None,
            "contracts": [],
            "deals_left": 0,
            "doubles_owed": [],
            "to_enter": [k + 1],
        }
        # the other deals score as before; this one nothing
        skipped = whole["deals"][k]["score"]["total"]
        assert out["totals"] == [t - s for t, s in zip(whole["totals"], skipped, strict=True)]
        # no deal may be added, and entering it finishes the match again
        extra = dict(document, deals=[*deals, document["deals"][0]])
        assert refused(extra).code == "match_over"
        deals[k] = document["deals"][k]
        assert score_document(dict(document, deals=deals)) == whole


def test_next_deal_lists_the_deals_to_enter_in_the_middle_of_a_match():
    deals = full_match()["deals"][:9]
    deals[1] = to_enter(deals[1])
    deals[8] = to_enter(deals[8])
    match = parse_document(doc(deals))
    status = barbu.next_deal(match.header, match.rules, match.deals)
    assert status["finished"] is False and status["number"] == 10 and status["declarer"] == 1
    assert status["to_enter"] == [2, 9]
    assert deals[8]["contract"] not in status["contracts"]


# -- compulsory doubles --


def test_the_doubles_of_a_deal_to_enter_count_as_made():
    # Babis doubles Anna only in deals 6 and 7, which are still to enter: that is enough
    deals = series(0, 1, {5, 6})
    deals[5], deals[6] = to_enter(deals[5]), to_enter(deals[6])
    out = score_document(doc(deals))
    assert [d["score"].get("to_enter", False) for d in out["deals"]] == [False] * 5 + [True] * 2
    # near miss: without his double in deal 6 he can no longer make two, refused there
    deals[5]["doubles"] = [d for d in deals[5]["doubles"] if d["by"] != 1]
    error = assert_refused(doc(deals), "compulsory_doubles", "Babis", "Anna")
    assert error.where == ("deal 6", "Babis", "doubles")
    # under warn the warning is on the deal still to enter
    _, result, out = score_document_full(doc(deals, {"compulsory_doubles": "warn"}))
    assert [n.place for n in result.notices] == [Place(deal=6, seat=1, field="doubles")]
    assert out["deals"][5]["score"]["warnings"][0]["code"] == "compulsory_doubles"
    assert out["deals"][5]["score"]["to_enter"] is True


def test_next_deal_counts_the_doubles_of_a_deal_to_enter():
    deals = series(0, 1, {0})[:3]
    deals[0] = to_enter(deals[0])
    match = parse_document(doc(deals))
    owed = barbu.next_deal(match.header, match.rules, match.deals)["doubles_owed"]
    assert owed[0] == {"seat": 1, "owed": 1, "deals_left": 4, "must_double": False}


# -- round trips --


def test_a_document_with_deals_to_enter_round_trips():
    deals = full_match()["deals"]
    deals = [to_enter(d) if n in (0, 13, 27) else d for n, d in enumerate(deals)]
    document = doc(deals)
    match = parse_document(document)
    written = document_json(match)
    again = parse_document(written)
    assert again.deals == match.deals
    assert document_json(again) == written
    exported = export_document(match, score_match(match))
    assert [n for n, d in enumerate(exported["deals"]) if d.get("to_enter")] == [0, 13, 27]
    assert score_document(exported) == exported


# -- the swap --


def test_swap_partner_finds_the_deal_of_the_declarers_series_naming_the_contract():
    document = full_match()
    match = parse_document(document)
    # Anna: deal 1 no_tricks, 2 no_hearts, ..., 6 trumps, 7 domino
    assert [d.contract.value for d in match.deals[:7]] == CLASSIC
    assert barbu.swap_partner(match, 2, "trumps") == 6
    assert barbu.swap_partner(match, 6, "no_hearts") == 2
    assert barbu.swap_partner(match, 2, Contract.NO_TRICKS) == 1
    assert barbu.swap_partner(match, 2, "no_hearts") is None  # its own contract: no correction
    # Babis (deals 8-14) starts at no_hearts: deal 8's no_tricks is in deal 14
    assert match.deals[13].contract is Contract.NO_TRICKS
    assert barbu.swap_partner(match, 8, "no_tricks") == 14
    # mid-series, a contract the declarer has not named yet: an ordinary correction
    partial = parse_document(doc(document["deals"][:3]))
    assert barbu.swap_partner(partial, 2, "trumps") is None
    assert barbu.swap_partner(partial, 2, "no_queens") == 3


def test_swap_partner_under_quick_rotation_looks_at_the_declarers_deals_in_the_match():
    match = parse_document(full_match(rotation="quick"))
    anna = [n for n in range(28) if n % 4 == 0]
    contracts = {match.deals[n].contract: n + 1 for n in anna}
    assert barbu.swap_partner(match, 1, "trumps") == contracts[Contract.TRUMPS]
    # the contract Babis names in deal 2 is Anna's in another deal: that one, never Babis's
    babis = match.deals[1].contract
    assert barbu.swap_partner(match, 1, babis.value) == contracts[babis] != 2
    # early in the match, a contract only Babis has named: an ordinary correction
    early = parse_document(doc(full_match(rotation="quick")["deals"][:2], {"rotation": "quick"}))
    assert barbu.swap_partner(early, 1, babis.value) is None


def test_swap_partner_in_ravage_city_and_salade():
    match = parse_document(full_match("ravage_city"))
    assert [d.contract for d in match.deals[:8]][5] is Contract.RAVAGE_CITY
    assert barbu.swap_partner(match, 1, "ravage_city") == 6
    match = parse_document(full_match("salade"))
    numbers = {d.contract: n + 1 for n, d in enumerate(match.deals[:6])}
    assert barbu.swap_partner(match, 1, "salade") == numbers[Contract.SALADE]
    with pytest.raises(RuleError) as caught:
        barbu.swap_partner(match, 1, "trumps")  # no Trumps in Salade
    assert caught.value.code == "bad_contract" and "Anna" in caught.value.message


def test_swap_partner_in_king_only_when_the_quotas_leave_no_room():
    king = {"variant": "king"}
    # Anna declares deals 1, 5, 9 and 13: no_girls, trumps, no_boys, no_hearts
    contracts = [
        "no_girls", "no_king", "no_hearts", "trumps",
        "trumps", "no_tricks", "no_last_two", "trumps",
        "no_boys", "trumps", "trumps", "no_king",
        "no_hearts",
    ]  # fmt: skip
    match = parse_document(doc([played(c, n % 4, []) for n, c in enumerate(contracts)], king))
    # deal 5 (trumps) corrected to no_boys: Anna would declare four negatives: swap with 9
    assert barbu.swap_partner(match, 5, "no_boys") == 9
    # ... to no_hearts: four negatives, and no_hearts played three times: swap with 13
    assert barbu.swap_partner(match, 5, "no_hearts") == 13
    # deal 1 corrected to no_boys: she may name it twice (played once so far): ordinary
    assert barbu.swap_partner(match, 1, "no_boys") is None
    # deal 1 corrected to trumps: she has one trumps left: ordinary
    assert barbu.swap_partner(match, 1, "trumps") is None
    # deal 9 corrected to no_king, played twice already but never by Anna: ordinary (and
    # refused as such when entered)
    assert barbu.swap_partner(match, 9, "no_king") is None
    # the swap itself keeps every quota
    fifth, ninth = barbu.swap_contracts(match, 5, 9)
    deals = [played(c, n % 4, []) for n, c in enumerate(contracts)]
    deals[4], deals[8] = fifth, ninth
    assert score_document(doc(deals, king))["finished"] is False


def test_swap_partner_refuses_a_deal_that_is_not_there_and_a_rummy_match():
    match = parse_document(doc(full_match()["deals"][:3]))
    for number in (0, 4, -1):
        with pytest.raises(RuleError) as caught:
            barbu.swap_partner(match, number, "trumps")
        assert caught.value.code == "no_such_deal"
        assert f"deal {number}" in caught.value.message and "3 deals" in caught.value.message
    with pytest.raises(RuleError) as caught:
        barbu.swap_partner(match, True, "trumps")  # type: ignore[arg-type]
    assert caught.value.code == "bad_type"
    rummy = parse_document(
        {
            "format": "scorekeeper-match/1",
            "game": "burraco",
            "players": PLAYERS[:2],
            "deals": [],
        }
    )
    with pytest.raises(RuleError) as caught:
        barbu.swap_partner(rummy, 1, "trumps")
    assert caught.value.code == "swap_not_barbu" and "Burraco" in caught.value.message


def test_swap_contracts_swaps_the_contracts_and_leaves_both_to_enter():
    document = full_match()
    # deal 2 (no_hearts): Babis also doubles Chris, and Anna states she declares
    document["deals"][1]["doubles"].append({"by": 1, "on": 2, "redoubled": True})
    document["deals"][1]["declarer"] = 0
    match = parse_document(document)
    second, sixth = barbu.swap_contracts(match, 2, 6)
    assert second == {
        "contract": "trumps",
        "declarer": 0,
        "doubles": [{"by": 1, "on": 0}, {"by": 2, "on": 0}, {"by": 3, "on": 0}],
        "to_enter": True,
    }
    assert sixth == {
        "contract": "no_hearts",
        "doubles": [{"by": 1, "on": 0}, {"by": 2, "on": 0}, {"by": 3, "on": 0}],
        "to_enter": True,
    }
    # which doubles were dropped, and why
    a, b = barbu.swapped_deals(match, 2, 6)
    assert (a.number, a.contract, a.deal) == (2, Contract.TRUMPS, second)
    assert (b.number, b.contract, b.deal, b.dropped) == (6, Contract.NO_HEARTS, sixth, ())
    (dropped,) = a.dropped
    assert dropped.double == Double(1, 2, redoubled=True)
    assert dropped.reason.code == "positive_only_declarer"
    assert "Chris" in dropped.reason.text and "Anna" in dropped.reason.text
    # the order of the two deals does not matter
    assert barbu.swap_contracts(match, 6, 2) == (sixth, second)
    # the document with the two deals swapped reads and scores, and is not finished
    deals = list(document["deals"])
    deals[1], deals[5] = second, sixth
    _, result, out = score_document_full(dict(document, deals=deals))
    assert out["finished"] is False and out["winner"] is None
    assert result.next_deal["to_enter"] == [2, 6]
    # entering both again finishes it
    deals[1], deals[5] = entered(second), entered(sixth)
    assert score_document(dict(document, deals=deals))["finished"] is True


def test_swap_contracts_refuses_the_same_deal_and_deals_of_two_declarers():
    match = parse_document(full_match())
    with pytest.raises(RuleError) as caught:
        barbu.swap_contracts(match, 3, 3)
    assert caught.value.code == "swap_same_deal"
    assert "deal 3" in caught.value.message and "Anna" in caught.value.message
    assert caught.value.place == Place(deal=3)
    with pytest.raises(RuleError) as caught:
        barbu.swap_contracts(match, 3, 8)
    error = caught.value
    assert error.code == "swap_other_declarer"
    assert error.message == (
        "deal 3 is declared by Anna and deal 8 by Babis: contracts are swapped only between "
        "two deals of one declarer"
    )
    with pytest.raises(RuleError) as caught:
        barbu.swap_contracts(match, 3, 29)
    assert caught.value.code == "no_such_deal"
    # near misses: deals 3 and 7 are both Anna's
    barbu.swap_contracts(match, 3, 7)
    quick = parse_document(full_match(rotation="quick"))
    with pytest.raises(RuleError) as caught:
        barbu.swap_contracts(quick, 1, 2)
    assert caught.value.code == "swap_other_declarer"
    barbu.swap_contracts(quick, 1, 5)


def test_swapping_a_deal_to_enter_again_and_back():
    document = full_match()
    match = parse_document(document)
    second, sixth = barbu.swap_contracts(match, 2, 6)
    deals = list(document["deals"])
    deals[1], deals[5] = second, sixth
    swapped = parse_document(dict(document, deals=deals))
    back2, back6 = barbu.swap_contracts(swapped, 2, 6)
    assert back2 == to_enter(document["deals"][1]) and back6 == to_enter(document["deals"][5])
    # a deal to enter swaps with a played one too
    fourth, sixth_again = barbu.swap_contracts(swapped, 4, 6)
    assert fourth["contract"] == "no_hearts" and sixth_again["contract"] == "barbu"


@pytest.mark.parametrize(
    ("variant", "rotation"),
    [
        ("classic", "series"),
        ("classic", "quick"),
        ("ravage_city", "series"),
        ("ravage_city", "quick"),
        ("salade", "series"),
        ("king", "quick"),
    ],
)
def test_swapping_any_two_deals_of_a_declarer_gives_a_document_that_scores(variant, rotation):
    document = full_match(variant, rotation, first_dealer=1)
    match = parse_document(document)
    n = len(document["deals"])
    header, rules = match.header, match.rules
    anna = [k + 1 for k in range(n) if barbu.declarer_of(header, rules, k) == 0]
    for i in anna:
        for j in anna:
            if i >= j:
                continue
            first, second = barbu.swap_contracts(match, i, j)
            assert first["contract"] == document["deals"][j - 1]["contract"]
            assert second["contract"] == document["deals"][i - 1]["contract"]
            deals = list(document["deals"])
            deals[i - 1], deals[j - 1] = first, second
            out = score_document(dict(document, deals=deals))
            assert out["finished"] is False and out["winner"] is None
            deals[i - 1], deals[j - 1] = entered(first, variant), entered(second, variant)
            again = score_document(dict(document, deals=deals))
            assert again["finished"] is True
            if variant != "salade":
                assert sum(again["totals"]) == 0
            if first["contract"] == second["contract"]:
                continue  # King: a declarer may name a negative twice
            # the corrected deal's new contract finds its partner, and vice versa (King: the
            # first deal of the declarer naming it, when they name it twice)
            for a, b, wanted in ((i, j, first["contract"]), (j, i, second["contract"])):
                partner = barbu.swap_partner(match, a, wanted)
                if variant == "king":
                    named = [k for k in anna if document["deals"][k - 1]["contract"] == wanted]
                    assert partner == named[0]
                else:
                    assert partner == b


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), document=matches(compulsory=True))
def test_swapping_any_two_deals_of_one_series_of_a_random_match(data, document):
    match = parse_document(document)
    header, rules = match.header, match.rules
    n = len(match.deals)
    declarer = data.draw(st.integers(0, 3))
    own = [k + 1 for k in range(n) if barbu.declarer_of(header, rules, k) == declarer]
    i, j = data.draw(st.lists(st.sampled_from(own), min_size=2, max_size=2, unique=True))
    assert barbu.swap_partner(match, i, match.deals[j - 1].contract.value) == j
    first, second = barbu.swap_contracts(match, i, j)
    deals = list(document["deals"])
    deals[i - 1], deals[j - 1] = first, second
    swapped = dict(document, deals=deals)
    _, result, out = score_document_full(swapped)  # compulsory doubles still made
    assert out["finished"] is False and out["winner"] is None
    assert result.next_deal["to_enter"] == sorted((i, j))
    for k in (i, j):
        assert out["deals"][k - 1]["score"]["total"] == ZEROS
        assert out["deals"][k - 1]["to_enter"] is True
    # a double on the declarer is never dropped
    for a in (i, j):
        on_declarer = [d for d in document["deals"][a - 1]["doubles"] if d["on"] == declarer]
        kept = [d for d in deals[a - 1]["doubles"] if d["on"] == declarer]
        assert len(kept) == len(on_declarer)
    # round trip stable
    again = parse_document(document_json(parse_document(swapped)))
    assert document_json(again) == document_json(parse_document(swapped))


# -- refusals point where their words say --


def test_every_mutation_of_a_document_with_deals_to_enter_points_where_its_words_say():
    deals = full_match()["deals"][:4]
    deals[1] = to_enter(deals[1]) | {"declarer": 0}
    deals[3] = {"contract": deals[3]["contract"], "doubles": [], "to_enter": True}
    document = doc(deals)
    score_document(document)
    refused_count = 0
    codes = set()
    for path in paths(document):
        if path[:1] != ("deals",):
            continue
        for mutated in mutations(document, path):
            error = checked(mutated)
            if error is not None:
                refused_count += 1
                codes.add(error.code)
    assert refused_count > 100
    assert {"bad_type", "unknown_key", "declarer_mismatch", "bad_contract"} <= codes
