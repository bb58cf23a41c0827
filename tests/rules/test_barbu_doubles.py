"""Barbu doubles for the site: which doubles each seat may make (and why not), the shortcuts,
and the settlement formula."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.barbu import Action, Contract, Double
from scorekeeper.rules.errors import RuleError

NAMES = ["Anna", "Babis", "Chris", "Dora"]
KING = barbu.parse_rules({"variant": "king"})


def choices(declarer, contract, existing=(), rules=barbu.DEFAULT_RULES):
    found = barbu.allowed_doubles(declarer, contract, existing, rules=rules, names=NAMES)
    return {(c.by, c.on): c for c in found}


def test_allowed_doubles_in_a_negative_contract():
    got = choices(0, Contract.NO_HEARTS)
    assert len(got) == 12
    for on in (1, 2, 3):
        c = got[(0, on)]
        assert c.action is Action.DOUBLE and not c.allowed
        assert c.reason.code == "declarer_cannot_double"
        assert c.reason.text.startswith("Anna declares this deal")
    for by in (1, 2, 3):
        for on in set(range(4)) - {by}:
            assert got[(by, on)].allowed and got[(by, on)].action is Action.DOUBLE
            assert not got[(by, on)].made


def test_allowed_doubles_in_a_positive_contract():
    got = choices(2, Contract.DOMINO)
    assert got[(1, 2)].allowed
    assert got[(1, 3)].reason.code == "positive_only_declarer"
    assert "Chris" in got[(1, 3)].reason.text and "Dora" in got[(1, 3)].reason.text
    assert got[(2, 1)].reason.code == "declarer_cannot_double"


def test_allowed_doubles_after_some_are_made():
    existing = (Double(1, 0), Double(2, 3, redoubled=True))
    got = choices(0, Contract.NO_QUEENS, existing)
    assert got[(1, 0)] == barbu.DoubleChoice(1, 0, Action.DOUBLE, made=True)
    assert got[(0, 1)] == barbu.DoubleChoice(0, 1, Action.REDOUBLE, made=False)  # may redouble
    assert got[(3, 2)] == barbu.DoubleChoice(3, 2, Action.REDOUBLE, made=True)
    assert got[(2, 3)].made and got[(2, 3)].action is Action.DOUBLE
    assert got[(1, 2)].allowed and not got[(1, 2)].made


def test_no_doubles_in_king():
    got = choices(0, Contract.NO_BOYS, rules=KING)
    assert all(c.reason.code == "no_doubling" for c in got.values())


def test_double_refusal():
    refusal = barbu.double_refusal(1, 1, declarer=0, contract=Contract.BARBU, names=NAMES)
    assert refusal.code == "double_self"
    assert refusal.error("deal 2", "Babis").message == (
        "deal 2, Babis: Babis cannot double themselves"
    )
    existing = [Double(2, 1)]
    refusal = barbu.double_refusal(
        1, 2, declarer=0, contract=Contract.BARBU, existing=existing, names=NAMES
    )
    assert refusal.code == "one_business_per_pair"
    assert barbu.double_refusal(1, 3, declarer=0, contract=Contract.BARBU) is None


# -- shortcuts --


def expand(kind, by, declarer, contract, existing=(), rules=barbu.DEFAULT_RULES):
    return barbu.expand_shortcut(kind, by, declarer, contract, existing, rules=rules, names=NAMES)


def test_example_2_maximum():
    doubles = expand("maximum", 1, 0, Contract.NO_QUEENS)
    assert doubles == (Double(1, 2), Double(1, 3), Double(1, 0))
    doubles = (*doubles, Double(2, 0))
    doubles = expand("maximum", 0, 0, Contract.NO_QUEENS, doubles)  # the declarer's maximum
    assert set(doubles) == {Double(1, 2), Double(1, 3), Double(1, 0, True), Double(2, 0, True)}


def test_example_4_maximum_redoubles_what_was_received():
    doubles = (Double(2, 1), Double(2, 3))
    doubles = expand("maximum", 3, 1, Contract.NO_HEARTS, doubles)
    assert doubles == (Double(2, 1), Double(2, 3, True), Double(3, 0), Double(3, 1))


def test_family_doubles_the_two_other_non_declarers():
    assert expand("family", 2, 0, Contract.BARBU) == (Double(2, 3), Double(2, 1))
    assert expand("sides", 2, 0, Contract.BARBU) == (Double(2, 3), Double(2, 1))
    # a pair already in business stays as it is
    before = (Double(3, 2),)
    assert expand("family", 2, 0, Contract.BARBU, before) == (Double(3, 2), Double(2, 1))


def test_maximum_in_a_positive_contract_doubles_the_declarer_only():
    assert expand("table", 3, 1, Contract.TRUMPS) == (Double(3, 1),)
    assert expand("maximum", 1, 1, Contract.TRUMPS, (Double(3, 1),)) == (Double(3, 1, True),)


def test_the_declarers_maximum_with_nothing_to_redouble_changes_nothing():
    assert expand("maximum", 0, 0, Contract.NO_TRICKS) == ()


@pytest.mark.parametrize(
    ("kind", "by", "declarer", "contract", "rules", "code"),
    [
        ("family", 0, 0, Contract.NO_TRICKS, barbu.DEFAULT_RULES, "family_by_declarer"),
        ("family", 1, 0, Contract.TRUMPS, barbu.DEFAULT_RULES, "family_in_positive"),
        ("maximum", 1, 0, Contract.NO_BOYS, KING, "no_doubling"),
        ("everyone", 1, 0, Contract.NO_TRICKS, barbu.DEFAULT_RULES, "bad_shortcut"),
    ],
)
def test_shortcuts_refused(kind, by, declarer, contract, rules, code):
    with pytest.raises(RuleError) as caught:
        expand(kind, by, declarer, contract, rules=rules)
    assert caught.value.code == code


# -- settlement --


def test_settlement_per_pair():
    part, lines = barbu.settle([-6, 0, -6, -12], [Double(1, 0), Double(2, 0, True)])
    assert part == (-6, 6, 0, 0)
    assert [line.as_json() for line in lines] == [
        {"by": 1, "on": 0, "factor": 1, "amount": 6},
        {"by": 2, "on": 0, "factor": 2, "amount": 0},
    ]


@pytest.mark.parametrize("variant", ["classic", "ravage_city", "salade", "king"])
def test_who_may_double_whom_for_every_contract_declarer_and_pair(variant):
    """The doubling rules of rules.md, pair by pair: nobody doubles themselves, the declarer
    never doubles, in a positive contract only the declarer may be doubled, no doubling in
    King; everything else is allowed."""
    rules = barbu.parse_rules({"variant": variant})
    for contract in barbu.contracts_of(rules.variant):
        for declarer in range(4):
            for by in range(4):
                for on in range(4):
                    refusal = barbu.double_refusal(
                        by, on, declarer=declarer, contract=contract, rules=rules
                    )
                    if variant == "king":
                        want = "no_doubling"
                    elif by == on:
                        want = "double_self"
                    elif by == declarer:
                        want = "declarer_cannot_double"
                    elif contract in (Contract.TRUMPS, Contract.DOMINO) and on != declarer:
                        want = "positive_only_declarer"
                    else:
                        want = None
                    assert (refusal and refusal.code) == want, (contract, declarer, by, on)
