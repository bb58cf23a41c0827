"""Barbu deals: strict reading, contract data checked against itself, doubles, round trips.

Each refusal comes with a near miss that is accepted; a refusal names the deal, the seat
(a player's name) and the rule by its code."""

import pytest

from scorekeeper.rules import barbu
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import parse_document, score_document

PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
HEADER = MatchHeader(game="barbu", players=tuple(PLAYERS))

# Played data for each contract (the declarer of deal 1 is Anna, seat 0).
DATA = {
    "no_tricks": {"tricks": [4, 3, 3, 3]},
    "no_hearts": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0},
    "no_queens": {"queens": [1, 1, 1, 1]},
    "barbu": {"king_of_hearts": 1},
    "no_last_two": {"last_two": [2, 3]},
    "trumps": {"trump": "S", "tricks": [4, 3, 3, 3]},
    "domino": {"finish_order": [0, 1, 2, 3]},
    "ravage_city": {"suits": [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 4]]},
    "no_last_trick": {"last_trick": 0},
    "salade": {
        "tricks": [4, 3, 3, 3],
        "hearts": [4, 3, 3, 3],
        "ace_of_hearts": 0,
        "queens": [1, 1, 1, 1],
        "king_of_hearts": 1,
        "last_trick": 2,
    },
    "no_king": {"king_of_hearts": 1},
    "no_girls": {"queens": [1, 1, 1, 1]},
    "no_boys": {"boys": [2, 2, 2, 2]},
}
VARIANT_OF = {
    "ravage_city": "ravage_city",
    "no_last_trick": "salade",
    "salade": "salade",
    "no_king": "king",
    "no_girls": "king",
    "no_boys": "king",
}
DOUBLED = [{"by": 1, "on": 0}]


def doc(deals, rules=None, first_dealer=0):
    out = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "players": PLAYERS,
        "first_dealer": first_dealer,
        "deals": deals,
    }
    if rules is not None:
        out["rules"] = rules
    return out


def deal(contract, doubles=None, **data):
    """A played deal of ``contract`` with its default data, overridden by ``data``."""
    if doubles is None:
        doubles = [] if VARIANT_OF.get(contract) == "king" else DOUBLED
    return {"contract": contract, "doubles": doubles, **DATA[contract], **data}


def rules_for(contract):
    variant = VARIANT_OF.get(contract)
    return {"variant": variant} if variant else None


def refused(document) -> RuleError:
    with pytest.raises(RuleError) as caught:
        score_document(document)
    return caught.value


def assert_refused(document, code, *mentions):
    error = refused(document)
    assert error.code == code, error.message
    for text in mentions:
        assert text in error.message, error.message
    return error


# -- every contract reads, scores and round-trips --


@pytest.mark.parametrize("contract", list(DATA))
def test_each_contract_is_accepted_and_round_trips(contract):
    document = doc([deal(contract)], rules_for(contract))
    match = parse_document(document)
    (parsed,) = match.deals
    written = barbu.deal_json(parsed)
    again = barbu.parse_deal(written, header=match.header, rules=match.rules, index=0)
    assert again == parsed
    assert barbu.deal_json(again) == written
    total = score_document(document)["deals"][0]["score"]["total"]
    assert sum(total) == barbu.contract_total(match.rules, barbu.Contract(contract))


def test_canonical_writing():
    document = doc(
        [
            {
                "contract": "trumps",
                "declarer": 0,
                "doubles": [{"by": 2, "on": 0, "redoubled": False}, {"by": 1, "on": 0}],
                "trump": "♥",
                "tricks": [4, 3, 3, 3],
                "score": {"anything": "is recomputed"},
            },
        ]
    )
    out = score_document(document)["deals"][0]
    assert out["trump"] == "H"
    assert out["declarer"] == 0
    assert out["doubles"] == [{"by": 2, "on": 0}, {"by": 1, "on": 0}]
    assert "anything" not in out["score"]
    domino = score_document(doc([deal("domino", start_rank="t")]))["deals"][0]
    assert domino["start_rank"] == "10"


def test_declarer_is_only_written_when_given():
    out = score_document(doc([deal("no_tricks")]))["deals"][0]
    assert "declarer" not in out
    assert out["score"]["declarer"] == 0


# -- structure --


def test_unknown_key_is_refused_by_name():
    error = assert_refused(doc([deal("no_tricks", trick=[4, 3, 3, 3])]), "unknown_key", "deal 1")
    assert error.where == ("deal 1", "trick")
    score_document(doc([deal("no_tricks")]))


def test_key_of_another_contract_is_refused():
    bad = deal("no_tricks", hearts=[4, 3, 3, 3])
    assert_refused(doc([bad]), "key_not_used", "deal 1", "hearts", "Anna")
    assert_refused(doc([deal("no_queens", trump="S")]), "key_not_used", "deal 1", "trump")


def test_missing_contract_data_is_refused():
    bad = {"contract": "no_hearts", "doubles": DOUBLED, "hearts": [4, 3, 3, 3]}
    error = assert_refused(doc([bad]), "missing_key", "deal 1", "ace_of_hearts", "Anna")
    assert error.where == ("deal 1", "ace_of_hearts")
    assert_refused(doc([{"doubles": []}]), "missing_key", "deal 1", "contract", "Anna")


def test_trumps_needs_its_trump_suit():
    bad = {"contract": "trumps", "doubles": [], "tricks": [4, 3, 3, 3]}
    assert_refused(doc([bad]), "missing_key", "deal 1", "trump")
    assert_refused(doc([deal("trumps", trump="X")]), "bad_suit", "deal 1, Anna, trump")
    score_document(doc([deal("trumps", trump="d")]))


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("tricks", [4, 3, 3], "bad_length"),
        ("tricks", [4, 3, 3, "3"], "bad_type"),
        ("tricks", [14, -1, 0, 0], "out_of_range"),
        ("tricks", 13, "bad_type"),
    ],
)
def test_wrong_types_are_refused_with_the_path(field, value, code):
    error = assert_refused(doc([deal("no_tricks", **{field: value})]), code, "deal 1", field)
    assert error.where[0] == "deal 1"


@pytest.mark.parametrize(
    ("contract", "field", "bad", "good", "code", "place"),
    [
        ("no_tricks", "tricks", [4, 3, 3, "3"], [4, 3, 3, 3], "bad_type", "Dora, tricks[3]"),
        ("no_hearts", "hearts", [4, -1, 5, 5], [4, 1, 4, 4], "out_of_range", "Babis, hearts[1]"),
        ("no_queens", "queens", [5, 0, 0, 0], [4, 0, 0, 0], "out_of_range", "Anna, queens[0]"),
        ("no_boys", "boys", [2, 2, 2.0, 2], [2, 2, 2, 2], "bad_type", "Chris, boys[2]"),
        (
            "ravage_city",
            "suits",
            [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13], [0, 0, 0, 4]],
            [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 4]],
            "bad_length",
            "Chris, suits[2]",
        ),
        ("trumps", "trump", "X", "C", "bad_suit", "Anna, trump"),
        ("domino", "start_rank", "1", "A", "bad_rank", "Anna, start_rank"),
    ],
)
def test_a_bad_entry_names_the_seat_it_concerns(contract, field, bad, good, code, place):
    """Regression: a bad entry of a per-seat list was refused as ``deal 1, tricks[3]: ...``
    without the player's name; a bad trump or start rank without the declarer's."""
    rules = rules_for(contract)
    assert_refused(doc([deal(contract, **{field: bad})], rules), code, f"deal 1, {place}")
    score_document(doc([deal(contract, **{field: good})], rules))


def test_a_bad_doubles_entry_or_contract_names_the_player():
    """Regression: ``deal 1, doubles[0], on: ...`` did not say who doubled."""
    bad = [{"by": 2, "on": 7}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "out_of_range", "deal 1, Chris, doubles")
    bad = [{"by": 2, "on": 3, "redouble": True}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "unknown_key", "deal 1, Chris, doubles")
    # a doubler that is not a seat cannot be named
    bad = [{"by": 9, "on": 3}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "out_of_range", "deal 1, doubles[0], by")
    score_document(doc([deal("no_tricks", doubles=[{"by": 2, "on": 3}])]))
    bad = deal("no_tricks") | {"contract": 7}
    assert_refused(doc([bad]), "bad_type", "deal 1, Anna, contract")


def test_doubles_entries_are_strict():
    assert_refused(doc([deal("no_tricks", doubles=[{"by": 1}])]), "missing_key", "doubles[0]")
    bad = [{"by": 1, "on": 0, "redouble": True}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "unknown_key", "doubles[0]")
    bad = [{"by": 1, "on": 4}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "out_of_range", "doubles[0], on")
    bad = [{"by": 1, "on": 0, "redoubled": 1}]
    assert_refused(doc([deal("no_tricks", doubles=bad)]), "bad_type", "redoubled")


def test_unknown_contract_is_refused_naming_the_declarer():
    assert_refused(doc([deal("no_tricks") | {"contract": "no_kings"}]), "bad_contract", "Anna")
    # A contract of another variant
    assert_refused(doc([deal("salade")]), "bad_contract", "deal 1", "Anna", "salade")
    assert_refused(doc([deal("ravage_city")]), "bad_contract", "deal 1")
    score_document(doc([deal("ravage_city")], {"variant": "ravage_city"}))


def test_declarer_that_disagrees_with_the_rotation_is_refused():
    error = assert_refused(doc([deal("no_tricks", declarer=1)]), "declarer_mismatch", "deal 1")
    assert "Babis" in error.message and "Anna" in error.message
    score_document(doc([deal("no_tricks", declarer=0)]))
    score_document(doc([deal("no_tricks", declarer=2, doubles=[{"by": 1, "on": 2}])], None, 2))


# -- contract data agrees with itself --


@pytest.mark.parametrize(
    ("contract", "bad", "good", "code", "seat"),
    [
        ("no_tricks", {"tricks": [4, 3, 3, 4]}, {"tricks": [4, 3, 3, 3]}, "tricks_sum", "Dora 4"),
        ("trumps", {"tricks": [0, 0, 0, 12]}, {"tricks": [0, 0, 0, 13]}, "tricks_sum", "Dora"),
        ("no_hearts", {"hearts": [4, 3, 3, 2]}, {"hearts": [4, 3, 3, 3]}, "hearts_sum", "Dora"),
        ("no_queens", {"queens": [2, 1, 1, 1]}, {"queens": [1, 1, 1, 1]}, "queens_sum", "Anna 2"),
        ("no_boys", {"boys": [2, 2, 2, 1]}, {"boys": [2, 2, 2, 2]}, "boys_sum", "Dora 1"),
    ],
)
def test_counts_must_add_up(contract, bad, good, code, seat):
    rules = rules_for(contract)
    assert_refused(doc([deal(contract, **bad)], rules), code, "deal 1", seat)
    score_document(doc([deal(contract, **good)], rules))


def test_ace_of_hearts_is_held_by_a_seat_that_took_hearts():
    bad = deal("no_hearts", hearts=[0, 4, 4, 5], ace_of_hearts=0)
    error = assert_refused(doc([bad]), "ace_of_hearts_without_hearts", "deal 1, Anna")
    assert error.where == ("deal 1", "Anna", "ace_of_hearts")
    score_document(doc([deal("no_hearts", hearts=[0, 4, 4, 5], ace_of_hearts=1)]))


def test_king_of_hearts_is_exactly_one_seat():
    assert_refused(doc([deal("barbu", king_of_hearts=[1, 2])]), "bad_type", "deal 1")
    assert_refused(doc([deal("barbu", king_of_hearts=4)]), "out_of_range", "deal 1")
    assert_refused(doc([deal("barbu", king_of_hearts=None)]), "bad_type", "deal 1")
    score_document(doc([deal("barbu", king_of_hearts=3)]))


def test_last_two_tricks_are_two_seats():
    assert_refused(doc([deal("no_last_two", last_two=[1])]), "bad_length", "deal 1")
    assert_refused(doc([deal("no_last_two", last_two=[1, 5])]), "out_of_range", "last_two[1]")
    out = score_document(doc([deal("no_last_two", last_two=[3, 3])]))
    assert out["deals"][0]["score"]["raw"] == [0, 0, 0, -30]


def test_finishing_order_is_a_permutation_of_the_seats():
    bad = deal("domino", finish_order=[2, 1, 2, 3])
    error = assert_refused(doc([bad]), "finish_order_not_permutation", "deal 1", "Chris")
    assert "Anna" in error.message  # the player missing from the order
    short = assert_refused(
        doc([deal("domino", finish_order=[0, 2, 1])]), "finish_order_incomplete", "deal 1"
    )
    assert "Dora not placed" in short.message  # the player, not a count of entries
    assert_refused(doc([deal("domino", finish_order=[0, 1, 2, 3, 0])]), "bad_length", "deal 1")
    assert_refused(doc([deal("domino", finish_order=[0, 0, 1])]), "bad_length", "deal 1")
    assert_refused(doc([deal("domino", start_rank="1")]), "bad_rank", "deal 1")
    score_document(doc([deal("domino", finish_order=[2, 1, 0, 3], start_rank="K")]))


RC = {"variant": "ravage_city"}


def test_ravage_city_suit_table():
    suits = [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 4]]
    score_document(doc([deal("ravage_city", suits=suits)], RC))
    bad = [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 5]]  # clubs 14
    assert_refused(doc([deal("ravage_city", suits=bad)], RC), "suit_sum", "deal 1", "Dora 5")
    bad = [[13, 0, 0, 2], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 5]]  # Anna 15 cards
    error = assert_refused(doc([deal("ravage_city", suits=bad)], RC), "suit_cards_not_tricks")
    assert error.where == ("deal 1", "Anna", "suits[0]")
    assert_refused(doc([deal("ravage_city", suits=bad[:3])], RC), "bad_length", "deal 1")


@pytest.mark.parametrize(
    ("suits", "raw"),
    [
        ([[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 13, 3], [0, 0, 0, 4]], [-8, -8, -8, 0]),
        ([[13, 0, 0, 3], [0, 12, 0, 4], [0, 0, 12, 0], [0, 1, 1, 6]], [-24, 0, 0, 0]),
        ([[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 12, 4], [0, 0, 1, 3]], [-12, -12, 0, 0]),
        ([[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0], [1, 13, 13, 13]], [0, 0, 0, -24]),
        ([[4, 4, 4, 4], [3, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 3]], [-24, 0, 0, 0]),
        ([[0, 5, 4, 3], [3, 5, 3, 5], [5, 1, 2, 4], [5, 2, 4, 1]], [-6, -6, -6, -6]),
    ],
)
def test_ravage_city_shares_the_penalty(suits, raw):
    out = score_document(doc([deal("ravage_city", suits=suits)], RC))
    assert out["deals"][0]["score"]["raw"] == raw


SALADE = {"variant": "salade"}


def salade(**data):
    return doc([deal("salade", **data)], SALADE)


def test_salade_scores_every_heading():
    out = score_document(salade())
    # tricks 4 3 3 3 ×-5, hearts 4 3 3 3 ×-10, a queen each ×-20, KH Babis -50, last trick Chris
    assert out["deals"][0]["score"]["raw"] == [-80, -115, -95, -65]
    assert sum(out["deals"][0]["score"]["raw"]) == -355


def test_salade_king_of_hearts_with_a_seat_that_took_hearts():
    bad = salade(hearts=[4, 0, 4, 5], king_of_hearts=1)
    assert_refused(bad, "king_of_hearts_without_hearts", "deal 1, Babis")
    score_document(salade(hearts=[4, 0, 4, 5], king_of_hearts=2))


def test_salade_last_trick_with_a_seat_that_took_tricks():
    bad = salade(
        tricks=[4, 0, 4, 5], hearts=[4, 0, 4, 5], queens=[2, 0, 1, 1], king_of_hearts=0,
        last_trick=1,
    )  # fmt: skip
    assert_refused(bad, "last_trick_without_tricks", "deal 1, Babis")
    good = salade(
        tricks=[4, 0, 4, 5], hearts=[4, 0, 4, 5], queens=[2, 0, 1, 1], king_of_hearts=0,
        last_trick=3,
    )  # fmt: skip
    score_document(good)


def test_salade_hearts_and_queens_fit_in_the_tricks():
    # Babis: one trick (4 cards) cannot hold 4 hearts and 1 queen unless it is the queen of
    # hearts; with 2 queens it cannot.
    score_document(salade(tricks=[4, 1, 4, 4], hearts=[4, 4, 2, 3], queens=[1, 1, 1, 1]))
    bad = salade(tricks=[4, 1, 4, 4], hearts=[4, 4, 2, 3], queens=[0, 2, 1, 1])
    error = assert_refused(bad, "cards_exceed_tricks", "deal 1, Babis")
    assert error.where == ("deal 1", "Babis", "tricks")


def test_salade_only_one_seat_holds_the_queen_of_hearts():
    # Babis and Chris would each need the queen of hearts to fit their cards in one trick.
    bad = salade(tricks=[6, 1, 1, 5], hearts=[2, 4, 4, 3], queens=[1, 1, 1, 1], ace_of_hearts=0)
    assert_refused(bad, "cards_exceed_tricks", "deal 1, Chris")
    score_document(
        salade(tricks=[6, 1, 2, 4], hearts=[2, 4, 4, 3], queens=[1, 1, 1, 1], ace_of_hearts=0)
    )


def test_salade_named_hearts_are_among_the_hearts():
    bad = salade(hearts=[1, 4, 4, 4], ace_of_hearts=0, king_of_hearts=0)
    assert_refused(bad, "named_hearts_exceed_hearts", "deal 1, Anna", "AH KH")
    score_document(salade(hearts=[2, 4, 4, 3], ace_of_hearts=0, king_of_hearts=0))


def test_salade_queen_of_hearts_must_be_somewhere():
    # Nobody took both a heart and a queen: the queen of hearts cannot have been taken.
    bad = salade(
        tricks=[4, 3, 3, 3], hearts=[0, 0, 6, 7], queens=[2, 2, 0, 0], ace_of_hearts=2,
        king_of_hearts=3,
    )  # fmt: skip
    error = assert_refused(bad, "queen_of_hearts_nowhere", "deal 1", "Anna 4/0/2")
    assert error.where == ("deal 1", "queens")
    score_document(
        salade(
            tricks=[4, 3, 3, 3],
            hearts=[0, 0, 6, 7],
            queens=[2, 1, 1, 0],
            ace_of_hearts=2,
            king_of_hearts=3,
        )  # fmt: skip
    )


# -- undoubled negative contracts --


def test_undoubled_negative_is_split_and_carries_no_data():
    bad = deal("no_queens", doubles=[])
    error = assert_refused(doc([bad]), "undoubled_not_played", "deal 1", "Anna", "queens")
    assert error.where == ("deal 1", "queens")
    out = score_document(doc([{"contract": "no_queens", "doubles": []}]))
    assert out["deals"][0]["score"]["total"] == [0, -8, -8, -8]
    assert out["deals"][0]["score"]["split"] is True
    # Any business makes it played, even one that leaves the declarer out.
    score_document(doc([deal("no_queens", doubles=[{"by": 2, "on": 3}])]))


def test_undoubled_negative_played_under_play():
    play = {"undoubled_negative": "play"}
    bare = {"contract": "no_queens", "doubles": []}
    assert_refused(doc([bare], play), "missing_key", "deal 1", "Anna", "queens")
    out = score_document(doc([deal("no_queens", doubles=[], queens=[0, 2, 2, 0])], play))
    assert out["deals"][0]["score"]["total"] == [0, -12, -12, 0]
    assert "split" not in out["deals"][0]["score"]


def test_undoubled_positive_is_played():
    bare = {"contract": "trumps", "doubles": []}
    assert_refused(doc([bare]), "missing_key", "deal 1", "trump")
    out = score_document(doc([deal("trumps", doubles=[])]))
    assert out["deals"][0]["score"]["total"] == [20, 15, 15, 15]


@pytest.mark.parametrize(
    ("variant", "contract", "declarer_gets", "each"),
    [
        ("classic", "no_tricks", 1, -9),
        ("classic", "no_queens", 0, -8),
        ("classic", "barbu", 1, -7),
        ("classic", "no_last_two", 0, -10),
        ("ravage_city", "no_tricks", 0, -13),
        ("ravage_city", "barbu", 0, -7),
        ("ravage_city", "ravage_city", 0, -8),
        ("salade", "no_hearts", 2, -44),
        ("salade", "salade", 2, -119),
        ("salade", "barbu", 1, -17),
    ],
)
def test_split_values(variant, contract, declarer_gets, each):
    out = score_document(doc([{"contract": contract, "doubles": []}], {"variant": variant}))
    assert out["deals"][0]["score"]["total"] == [declarer_gets, each, each, each]


def test_split_rounds_away_from_zero():
    assert barbu.split_scores(-26, 2) == (-9, -9, 1, -9)
    assert barbu.split_scores(-30, 0) == (0, -10, -10, -10)
    assert barbu.split_scores(-355, 3) == (-119, -119, -119, 2)


# -- doubles --


def test_nobody_doubles_themselves():
    bad = deal("no_tricks", doubles=[{"by": 2, "on": 2}])
    assert_refused(doc([bad]), "double_self", "deal 1, Chris, doubles[0]")
    score_document(doc([deal("no_tricks", doubles=[{"by": 2, "on": 3}])]))


def test_the_declarer_cannot_double_only_redouble():
    bad = deal("no_tricks", doubles=[{"by": 0, "on": 2}])
    assert_refused(doc([bad]), "declarer_cannot_double", "deal 1, Anna, doubles[0]")
    score_document(doc([deal("no_tricks", doubles=[{"by": 2, "on": 0, "redoubled": True}])]))


def test_in_a_positive_contract_only_the_declarer_may_be_doubled():
    for contract in ("trumps", "domino"):
        bad = deal(contract, doubles=[{"by": 0 + 1, "on": 2}])
        assert_refused(doc([bad]), "positive_only_declarer", "deal 1, Babis", "Anna")
        score_document(doc([deal(contract, doubles=[{"by": 1, "on": 0, "redoubled": True}])]))
    # in a negative contract non-declarers may double each other
    score_document(doc([deal("no_queens", doubles=[{"by": 1, "on": 2, "redoubled": True}])]))


def test_one_business_per_pair():
    bad = deal("no_hearts", doubles=[{"by": 1, "on": 2}, {"by": 2, "on": 1}])
    assert_refused(doc([bad]), "one_business_per_pair", "deal 1, Chris, doubles[1]", "Babis")
    bad = deal("no_hearts", doubles=[{"by": 1, "on": 2}, {"by": 1, "on": 2}])
    assert_refused(doc([bad]), "one_business_per_pair", "deal 1, Babis, doubles[1]")
    score_document(doc([deal("no_hearts", doubles=[{"by": 1, "on": 2, "redoubled": True}])]))


@pytest.mark.parametrize(
    ("contract", "doubles", "rules", "code", "place"),
    [
        ("no_tricks", [{"by": 0, "on": 1}], None, "declarer_cannot_double", "Anna"),
        ("trumps", [{"by": 1, "on": 2}], None, "positive_only_declarer", "Babis"),
        ("no_boys", [{"by": 1, "on": 0}], {"variant": "king"}, "no_doubling", "Babis"),
    ],
)
def test_an_illegal_double_is_refused_as_such_not_as_missing_data(
    contract, doubles, rules, code, place
):
    """Regression: a deal whose only double is illegal, entered without its data, was refused
    as 'was played, so it records ...' instead of naming the illegal double."""
    bare = {"contract": contract, "doubles": doubles}
    assert_refused(doc([bare], rules), code, f"deal 1, {place}, doubles[0]")
    # near miss: the same deal with a legal double and its data is accepted
    legal = [] if rules else [{"by": 1, "on": 0}]
    score_document(doc([deal(contract, doubles=legal)], rules))


def test_no_doubling_in_king():
    king = {"variant": "king"}
    bad = deal("no_boys", doubles=[{"by": 1, "on": 0}])
    assert_refused(doc([bad], king), "no_doubling", "deal 1, Babis, doubles[0]")
    out = score_document(doc([deal("no_boys")], king))
    assert out["deals"][0]["score"]["total"] == [-120, -120, -120, -120]


# -- the engine's functions directly --


def test_parse_deal_errors_carry_the_path_inside_the_deal():
    rules = barbu.parse_rules({})
    with pytest.raises(RuleError) as caught:
        barbu.parse_deal(deal("no_tricks", tricks=[1, 2]), header=HEADER, rules=rules, index=0)
    assert caught.value.where == ("tricks",)
    with pytest.raises(RuleError) as caught:
        barbu.parse_deal([], header=HEADER, rules=rules, index=0)
    assert caught.value.code == "bad_type"


def test_score_deal_previews_one_deal():
    rules = barbu.parse_rules({})
    parsed = barbu.parse_deal(
        deal("no_tricks", doubles=[{"by": 1, "on": 0}, {"by": 2, "on": 0}], tricks=[3, 4, 3, 3]),
        header=HEADER,
        rules=rules,
        index=0,
    )
    score = barbu.score_deal(HEADER, rules, parsed, index=0)
    # raw -6 -8 -6 -6; Anna ↔ Babis ×1: Anna +2; Chris ↔ Anna: even
    assert score["raw"] == [-6, -8, -6, -6]
    assert score["total"] == [-4, -10, -6, -6]
    assert score["settlement"] == [
        {"by": 1, "on": 0, "factor": 1, "amount": -2},
        {"by": 2, "on": 0, "factor": 1, "amount": 0},
    ]
    with pytest.raises(RuleError) as caught:
        unplayed = barbu.BarbuDeal(barbu.Contract.NO_TRICKS, declarer=3)
        barbu.score_deal(HEADER, rules, unplayed, index=4)
    assert caught.value.code == "declarer_mismatch"
    assert caught.value.where[:2] == ("deal 5", "Dora")
    unplayed = barbu.BarbuDeal(barbu.Contract.NO_TRICKS, declarer=0)
    assert barbu.score_deal(HEADER, rules, unplayed, index=4)["split"] is True


def test_a_deal_built_by_hand_is_checked_when_scored():
    rules = barbu.parse_rules({})
    bad = barbu.BarbuDeal(barbu.Contract.NO_TRICKS, (barbu.Double(0, 1),), tricks=(4, 3, 3, 3))
    with pytest.raises(RuleError) as caught:
        barbu.score(HEADER, rules, [bad])
    assert caught.value.code == "declarer_cannot_double"
    assert caught.value.where[:2] == ("deal 1", "Anna")
