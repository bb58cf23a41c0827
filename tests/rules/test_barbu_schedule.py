"""The Barbu schedule: declarers under each rotation, contracts named once, King's quotas,
the end of the match, compulsory doubles, what may happen next, and the zero-sum check."""

import dataclasses

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import contracts as barbu_contracts
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import FORMAT, parse_document, score_document, score_document_full
from tests.rules.test_barbu_deals import DATA, PLAYERS, doc

CLASSIC = ["no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"]
KING_NEGATIVES = ["no_king", "no_girls", "no_boys", "no_hearts", "no_last_two", "no_tricks"]


def played(contract, declarer, doublers=None):
    """A played deal in which ``doublers`` (default: everyone else) double the declarer."""
    if doublers is None:
        doublers = [s for s in range(4) if s != declarer]
    doubles = [{"by": s, "on": declarer} for s in doublers]
    return {"contract": contract, "doubles": doubles, **DATA[contract]}


def full_match(variant="classic", rotation="series", first_dealer=0):
    """Every deal of a whole match, each declarer rotating through its contracts."""
    rules = barbu.parse_rules({"variant": variant, "rotation": rotation})
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=first_dealer)
    contracts = [c.value for c in barbu.contracts_of(rules.variant)]
    seen = {s: 0 for s in range(4)}
    deals = []
    for index in range(barbu.match_length(rules)):
        declarer = barbu.declarer_of(header, rules, index)
        j = seen[declarer]
        seen[declarer] += 1
        if rules.variant is barbu.Variant.KING:
            negatives = KING_NEGATIVES[:3] if declarer % 2 == 0 else KING_NEGATIVES[3:]
            contract = [negatives[0], "trumps", negatives[1], "trumps", negatives[2]][j]
            deals.append(played(contract, declarer, doublers=[]))
        else:
            contract = contracts[(j + declarer) % len(contracts)]
            deals.append(played(contract, declarer))
    return doc(deals, {"variant": variant, "rotation": rotation}, first_dealer)


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


# -- declarers --


def test_declarers_under_series_rotation():
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=2)
    rules = barbu.parse_rules({})
    got = [barbu.declarer_of(header, rules, n) for n in range(28)]
    assert got == [2] * 7 + [3] * 7 + [0] * 7 + [1] * 7
    rules = barbu.parse_rules({"variant": "ravage_city"})
    assert [barbu.declarer_of(header, rules, n) for n in (7, 8, 31)] == [2, 3, 1]


def test_declarers_under_quick_rotation_and_in_king():
    header = MatchHeader(game="barbu", players=tuple(PLAYERS), first_dealer=1)
    quick = barbu.parse_rules({"rotation": "quick"})
    assert [barbu.declarer_of(header, quick, n) for n in range(6)] == [1, 2, 3, 0, 1, 2]
    king = barbu.parse_rules({"variant": "king", "rotation": "series"})
    assert [barbu.declarer_of(header, king, n) for n in range(6)] == [1, 2, 3, 0, 1, 2]


@pytest.mark.parametrize(
    ("variant", "rotation", "deals"),
    [
        ("classic", "series", 28),
        ("classic", "quick", 28),
        ("ravage_city", "series", 32),
        ("ravage_city", "quick", 32),
        ("salade", "series", 24),
        ("king", "quick", 20),
    ],
)
def test_a_whole_match_ends_and_the_next_deal_is_refused(variant, rotation, deals):
    document = full_match(variant, rotation, first_dealer=3)
    assert len(document["deals"]) == deals
    _, result, out = score_document_full(document)
    assert out["finished"] is True
    assert result.next_deal["finished"] is True
    if variant != "salade":
        assert sum(out["totals"]) == 0
    else:
        assert sum(out["totals"]) == 4 * (-65 - 30 - 130 - 80 - 50 - 355)
    # one deal fewer: not finished, no winner
    shorter = score_document(dict(document, deals=document["deals"][:-1]))
    assert shorter["finished"] is False and shorter["winner"] is None
    extra = dict(document, deals=[*document["deals"], document["deals"][0]])
    error = refused(extra)
    assert error.code == "match_over"
    assert error.where[0] == f"deal {deals + 1}"


def test_a_deal_after_the_end_is_refused_as_such_whatever_it_states():
    """Regression: a 29th deal stating a declarer was refused as 'Babis cannot declare deal 29:
    under series rotation Anna declares it', and ``score_deal`` scored a deal 29."""
    document = full_match()
    extra = dict(document, deals=[*document["deals"], played("no_tricks", 1) | {"declarer": 1}])
    error = refused(extra)
    assert error.code == "match_over"
    assert error.where == ("deal 29",)
    # near miss: the same deal stated as the last one's replacement is judged normally
    last = played("no_queens", 3) | {"declarer": 3}
    score_document(dict(document, deals=[*document["deals"][:-1], last]))
    match = parse_document(dict(document, deals=document["deals"][:1]))
    (first,) = match.deals
    with pytest.raises(RuleError) as caught:
        barbu.score_deal(match.header, match.rules, first, index=28)
    assert caught.value.code == "match_over"
    assert caught.value.where == ("deal 29",)
    assert barbu.score_deal(match.header, match.rules, first, index=0)["declarer"] == 0
    with pytest.raises(RuleError) as caught:
        barbu.preview_deal(match.header, match.rules, parse_document(document).deals, first)
    assert caught.value.code == "match_over"


def test_series_sum_to_zero_after_each_series():
    _, result, _ = score_document_full(full_match("ravage_city"))
    assert [sum(result.running[n]) for n in (7, 15, 23, 31)] == [0, 0, 0, 0]


def test_winner_is_the_highest_total_or_none_on_a_tie():
    out = score_document(full_match())
    totals = out["totals"]
    assert out["winner"] == totals.index(max(totals)) and totals.count(max(totals)) == 1


# -- contracts --


def test_each_declarer_names_each_contract_once_per_series():
    first = played("no_tricks", 0)
    error = refused(doc([first, played("no_hearts", 0), played("no_tricks", 0)]))
    assert error.code == "contract_already_named"
    assert error.where == ("deal 3", "Anna", "contract")
    assert "deal 1" in error.message
    score_document(doc([first, played("no_hearts", 0), played("no_queens", 0)]))


def test_the_next_declarer_names_the_same_contracts_again():
    deals = full_match()["deals"][:7]
    again = played(deals[0]["contract"], 1)
    out = score_document(doc([*deals, again]))
    assert out["deals"][7]["score"]["declarer"] == 1


def test_quick_rotation_each_declarer_names_each_contract_once_in_the_match():
    quick = {"rotation": "quick"}
    deals = [played(c, n % 4) for n, c in enumerate(["no_tricks"] * 4)]
    score_document(doc(deals, quick))
    error = refused(doc([*deals, played("no_tricks", 0)], quick))
    assert error.code == "contract_already_named"
    assert error.where == ("deal 5", "Anna", "contract")
    score_document(doc([*deals, played("trumps", 0)], quick))


KING = {"variant": "king"}


def king_deal(contract, declarer):
    return played(contract, declarer, doublers=[])


def test_king_two_trumps_each():
    deals = [king_deal("trumps", n % 4) for n in range(8)]
    score_document(doc(deals, KING))
    error = refused(doc([*deals, king_deal("trumps", 0)], KING))
    assert error.code == "king_trumps_used"
    assert error.where == ("deal 9", "Anna", "contract")
    score_document(doc([*deals, king_deal("no_boys", 0)], KING))


def test_king_three_negatives_each():
    order = ["no_king", "no_girls", "no_boys", "no_hearts", "no_last_two", "no_tricks"]
    deals = [king_deal(order[n % 6], n % 4) for n in range(12)]
    score_document(doc(deals, KING))
    error = refused(doc([*deals, king_deal("no_boys", 0)], KING))
    assert error.code == "king_negatives_used"
    assert error.where == ("deal 13", "Anna", "contract")
    score_document(doc([*deals, king_deal("trumps", 0)], KING))


def test_king_each_negative_twice_in_the_match_and_a_player_may_repeat_one():
    deals = [king_deal("no_girls", 0), king_deal("no_boys", 1), king_deal("no_hearts", 2)]
    deals += [king_deal("trumps", 3), king_deal("no_girls", 0)]  # Anna names no_girls again
    score_document(doc(deals, KING))
    error = refused(doc([*deals, king_deal("no_girls", 1)], KING))
    assert error.code == "king_contract_used"
    assert error.where == ("deal 6", "Babis", "contract")
    score_document(doc([*deals, king_deal("no_boys", 1)], KING))


def test_king_winners_are_all_positive_players_the_document_names_the_highest():
    rules = barbu.parse_rules(KING)
    assert barbu.winners(rules, [300, 100, -150, -250]) == [0, 1]
    classic = barbu.parse_rules({})
    assert barbu.winners(classic, [30, 10, -15, -25]) == [0]
    assert barbu.winners(classic, [30, 30, -35, -25]) == []
    out = score_document(full_match("king"))
    assert out["winner"] == out["totals"].index(max(out["totals"]))


# -- compulsory doubles --


def series(declarer, owes_doubles_from, deals_with_double, rules=None):
    """Seven deals by ``declarer``: seat ``owes_doubles_from`` doubles only in the deals of
    ``deals_with_double``; the other two double every deal."""
    out = []
    for j, contract in enumerate(CLASSIC):
        doublers = [s for s in range(4) if s not in (declarer, owes_doubles_from)]
        if j in deals_with_double:
            doublers.append(owes_doubles_from)
        out.append(played(contract, declarer, doublers))
    return out


def test_compulsory_doubles_refused_when_they_can_no_longer_be_made():
    # Babis has not doubled Anna in her first five deals and skips the sixth: refused there.
    deals = series(0, 1, {6})
    error = refused(doc(deals))
    assert error.code == "compulsory_doubles"
    assert error.where == ("deal 6", "Babis", "doubles")
    assert "Anna" in error.message
    # near miss: he doubles in the last two deals
    score_document(doc(series(0, 1, {5, 6})))
    # and the document may stop before it is decided
    score_document(doc(series(0, 1, set())[:5]))


def test_compulsory_doubles_warn():
    _, result, out = score_document_full(doc(series(0, 1, {6}), {"compulsory_doubles": "warn"}))
    assert [n.code for n in result.notices] == ["compulsory_doubles"]
    notice = result.notices[0]
    assert notice.where == ("deal 6", "Babis", "doubles")
    assert notice.message.startswith("deal 6, Babis, doubles: Babis must double Anna")
    assert out["deals"][5]["score"]["warnings"][0]["code"] == "compulsory_doubles"
    assert "warnings" not in out["deals"][6]["score"]  # flagged once


def test_compulsory_doubles_off():
    _, result, _ = score_document_full(doc(series(0, 1, set()), {"compulsory_doubles": "off"}))
    assert result.notices == []
    assert result.next_deal["doubles_owed"] == []


def test_compulsory_doubles_count_a_redoubled_business():
    deals = series(0, 1, {5, 6})
    deals[6]["doubles"] = [
        {**d, "redoubled": True} if d["by"] == 1 else d for d in deals[6]["doubles"]
    ]
    score_document(doc(deals))


def test_an_undoubled_split_deal_counts_against_the_compulsory_doubles():
    """A deal that nobody doubled is one of the declarer's deals gone by without a double."""
    deals = series(0, 1, {4, 5})
    score_document(doc(deals))
    deals[4] = {"contract": deals[4]["contract"], "doubles": []}  # no_last_two, split
    error = refused(doc(deals))
    assert error.code == "compulsory_doubles"
    assert error.where == ("deal 7", "Babis", "doubles")
    near = series(0, 1, {4, 5, 6})
    near[4] = {"contract": near[4]["contract"], "doubles": []}
    out = score_document(doc(near))
    assert out["deals"][4]["score"]["split"] is True


def test_compulsory_doubles_under_quick_rotation_count_the_declarers_deals_in_the_match():
    """Under quick rotation Anna declares deals 1, 5, 9, ... 25: each other player must double
    her at least twice in those seven deals."""
    quick = {"rotation": "quick"}
    deals = []
    for n in range(28):
        declarer = n % 4
        contract = CLASSIC[n // 4]
        doublers = [s for s in range(4) if s != declarer]
        if declarer == 0 and n < 24:  # Dora doubles Anna only in her last deal (deal 25)
            doublers.remove(3)
        deals.append(played(contract, declarer, doublers))
    error = refused(doc(deals, quick))
    assert error.code == "compulsory_doubles"
    assert error.where == ("deal 21", "Dora", "doubles")
    deals[20]["doubles"].append({"by": 3, "on": 0})
    out = score_document(doc(deals, quick))
    assert out["finished"] is True and sum(out["totals"]) == 0


# -- what may happen next --


def test_next_deal_at_the_start():
    _, result, _ = score_document_full(doc([], first_dealer=1))
    assert result.next_deal == {
        "finished": False,
        "number": 1,
        "of": 28,
        "declarer": 1,
        "contracts": CLASSIC,
        "deals_left": 7,
        "doubles_owed": [
            {"seat": 2, "owed": 2, "deals_left": 7, "must_double": False},
            {"seat": 3, "owed": 2, "deals_left": 7, "must_double": False},
            {"seat": 0, "owed": 2, "deals_left": 7, "must_double": False},
        ],
        "to_enter": [],
    }


def test_next_deal_in_the_middle_of_a_series():
    match = parse_document(doc(series(0, 1, set())[:5]))
    status = barbu.next_deal(match.header, match.rules, match.deals)
    assert status["number"] == 6 and status["declarer"] == 0
    assert status["contracts"] == ["trumps", "domino"]
    assert status["doubles_owed"][0] == {
        "seat": 1,
        "owed": 2,
        "deals_left": 2,
        "must_double": True,
    }
    assert status["doubles_owed"][1]["owed"] == 0
    left = barbu.contracts_left(match.header, match.rules, match.deals)
    assert [c.value for c in left] == ["trumps", "domino"]
    assert barbu.contracts_left(match.header, match.rules, match.deals, declarer=1) == tuple(
        barbu.Contract(c) for c in CLASSIC
    )


def test_contracts_left_refuses_a_declarer_who_is_not_a_seat():
    """Regression: ``contracts_left(..., declarer=4)`` raised a bare KeyError."""
    match = parse_document(doc(series(0, 1, set())[:2]))
    for bad in (4, -1, True):
        with pytest.raises(RuleError) as caught:
            barbu.contracts_left(match.header, match.rules, match.deals, declarer=bad)
        assert caught.value.where == ("declarer",)
    left = barbu.contracts_left(match.header, match.rules, match.deals, declarer=3)
    assert [c.value for c in left] == CLASSIC


def test_next_deal_in_king_lists_what_the_declarer_may_still_name():
    deals = [king_deal("trumps", 0), king_deal("no_boys", 1), king_deal("trumps", 2)]
    deals += [king_deal("no_boys", 3), king_deal("trumps", 0)]
    match = parse_document(doc(deals, KING))
    status = barbu.next_deal(match.header, match.rules, match.deals)
    assert status["declarer"] == 1
    assert status["contracts"] == ["no_king", "no_girls", "no_hearts", "no_last_two", "no_tricks",
                                   "trumps"]  # fmt: skip
    assert status["doubles_owed"] == []


def test_preview_deal_checks_against_the_deals_before():
    match = parse_document(doc(series(0, 1, set())[:5], {"compulsory_doubles": "warn"}))
    header, rules = match.header, match.rules
    nxt = barbu.parse_deal(played("trumps", 0, [2, 3]), header=header, rules=rules, index=5)
    preview = barbu.preview_deal(header, rules, match.deals, nxt)
    assert preview["warnings"][0]["code"] == "compulsory_doubles"
    again = barbu.parse_deal(played("no_tricks", 0), header=header, rules=rules, index=5)
    with pytest.raises(RuleError) as caught:
        barbu.preview_deal(header, rules, match.deals, again)
    assert caught.value.code == "contract_already_named"


# -- the zero-sum check is the program's own --


def test_a_zero_sum_breach_is_reported_as_the_programs_fault(monkeypatch):
    """A match is checked for zero when its contract totals add up to 0: values that break
    that, with the program still judging the match zero-sum, are its own fault."""
    from scorekeeper.rules.barbu import scoring

    classic = barbu_contracts.VALUES[barbu.Variant.CLASSIC]
    broken = dataclasses.replace(classic, trump_trick=6)
    monkeypatch.setitem(barbu_contracts.VALUES, barbu.Variant.CLASSIC, broken)
    assert not barbu.zero_sum(barbu.DEFAULT_RULES)  # the totals no longer add up to 0
    monkeypatch.setattr(scoring, "zero_sum", lambda rules: True)
    with pytest.raises(barbu.ScoringFault) as caught:
        score_document(full_match())
    assert not isinstance(caught.value, RuleError)
    assert isinstance(caught.value, AssertionError)
    assert "internal error" in str(caught.value) and "deal 7" in str(caught.value)
    assert "document is not at fault" in str(caught.value)


def test_a_deal_whose_sum_changes_is_reported_as_the_programs_fault(monkeypatch):
    from scorekeeper.rules.barbu import scoring

    monkeypatch.setattr(scoring, "settle", lambda raw, doubles: ((1, 0, 0, 0), ()))
    with pytest.raises(barbu.ScoringFault) as caught:
        score_document(doc([played("no_tricks", 0)]))
    assert "deal 1" in str(caught.value)


def test_contracts_for_a_past_deal_leave_out_what_the_declarer_names_elsewhere():
    """Correcting deal 2 of Anna's series: she may name what she named there or what she has
    not named yet, never a contract she names in deal 1 or a later deal."""
    deals = [played(c, 0) for c in CLASSIC[:4]]  # deals 1-4: no_tricks .. barbu
    match = parse_document(doc(deals))
    got = [c.value for c in barbu.contracts_for_deal(match.header, match.rules, match.deals, 1)]
    assert got == ["no_hearts", "no_last_two", "trumps", "domino"]
    # the next deal (index == number of deals) is what contracts_left says
    nxt = barbu.contracts_for_deal(match.header, match.rules, match.deals, 4)
    assert nxt == barbu.contracts_left(match.header, match.rules, match.deals)
    with pytest.raises(RuleError):
        barbu.contracts_for_deal(match.header, match.rules, match.deals, 5)


def test_contracts_for_a_past_king_deal_respect_the_quotas_of_the_other_deals():
    deals = [king_deal("trumps", 0), king_deal("no_boys", 1), king_deal("trumps", 2)]
    deals += [king_deal("no_boys", 3), king_deal("trumps", 0)]
    match = parse_document(doc(deals, {"variant": "king"}))
    # deal 1 (Anna): she declares trumps again in deal 5, so trumps stays open (2 allowed);
    # no_boys is played twice elsewhere, so it is full.
    got = [c.value for c in barbu.contracts_for_deal(match.header, match.rules, match.deals, 0)]
    assert "trumps" in got and "no_boys" not in got
    assert "no_king" in got


def test_next_deal_says_how_many_deals_the_declarer_still_declares():
    """King: each declarer names 5 contracts out of 7 (three negatives, two trumps): the next
    deal says 5 deals left beside the 7 contracts they may name; classic: one deal a contract."""
    king = {
        "format": FORMAT,
        "game": "barbu",
        "rules": {"variant": "king"},
        "players": ["A", "B", "C", "D"],
        "first_dealer": 0,
        "deals": [],
    }
    _, result, _ = score_document_full(king)
    assert result.next_deal["deals_left"] == 5 and len(result.next_deal["contracts"]) == 7
    match = parse_document(doc(series(0, 1, set())[:3]))
    status = barbu.next_deal(match.header, match.rules, match.deals)
    assert status["deals_left"] == 4 == len(status["contracts"])
