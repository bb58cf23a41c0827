"""Burraco tournament victory points (rules.md "Burraco tournament victory points"): a match of
``match_deals`` deals, FIBUR's tables and a house's own, every refusal of the options and of a
table, the export's ``victory_points``, and the property the issue asks: the VP of the side
ahead never fall as the difference grows, those of the side behind never rise, for FIBUR's
tables and for random valid tables (scorekeeper.rules.victory_points)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import burraco
from scorekeeper.rules import victory_points as vp
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.incremental import score_start, standing, state_of
from scorekeeper.rules.match import parse_document, score_document

FOUR = ["Anna", "Babis", "Chris", "Dora"]


def doc(deals: list, rules: dict, players=FOUR) -> dict:
    return {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": rules,
        "players": list(players),
        "deals": deals,
    }


def side(melded: int, in_hand: int = 0, clean: int = 0, went_out: bool = False) -> dict:
    bonuses = {"clean_burraco": clean} if clean else {}
    return {
        "totals": {"melded": melded, "in_hand": in_hand, "bonuses": bonuses},
        "took_pot": True,
        "went_out": went_out,
    }


def deal(first: dict, second: dict) -> dict:
    return {"sides": [first, second]}


def points(a: int, b: int) -> dict:
    """A deal in which side 0 scores ``a`` and side 1 ``b`` (each a multiple of 5, ≥ 0)."""
    return deal(side(a), side(b))


def refused(d: dict) -> RuleError:
    with pytest.raises(RuleError) as e:
        score_document(copy.deepcopy(d))
    return e.value


# --- the worked examples -------------------------------------------------------------------------

EX1 = deal(
    {
        "melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
        "hand": ["4C", "QD"],
        "took_pot": True,
        "went_out": True,
    },
    {
        "melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
        "hand": ["AH", "2C", "5D", "KS"],
        "took_pot": True,
    },
)
EX4 = deal(
    {
        "melds": [["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"], ["QH", "QS", "JK"]],
        "hand": ["6S"],
        "took_pot": True,
        "went_out": True,
    },
    {
        "melds": [["4D", "5D", "6D"]],
        "hand": ["KS", "KH", "9C", "9C", "3D", "JK", "AS", "AD", "8H", "2S"],
    },
)
STOCK_OUT = deal(
    {
        "melds": [["2D", "9H", "10H", "JH", "QH", "KH", "AH"]],
        "hand": ["3S", "4S"],
        "took_pot": True,
    },
    {"melds": [["5C", "5D", "5S", "5H", "5C", "5D", "5H"]], "hand": ["QC"], "took_pot": True},
)


def test_example_1_three_deals():
    rules = {"preset": "fibur", "match_deals": 3}
    two = score_document(doc([EX1, EX4], rules))
    assert two["totals"] == [775, -195]
    assert (two["finished"], two["winner"], two["victory_points"]) == (False, None, None)
    three = score_document(doc([EX1, EX4, STOCK_OUT], rules))
    assert [[s["total"] for s in d["score"]["sides"]] for d in three["deals"]] == [
        [360, 25],
        [415, -220],
        [175, 225],
    ]
    assert three["totals"] == [950, 30]
    assert (three["finished"], three["winner"], three["victory_points"]) == (True, 0, [17, 3])
    error = refused(doc([EX1, EX4, STOCK_OUT, EX1], rules))
    assert error.code == "match_deals_over"
    assert error.where == ("deal 4",) and error.place.deal == 4
    assert "after deal 3" in error.message


def test_example_2_four_deals_at_the_first_band_s_edge():
    deals = [points(600, 250), points(100, 550), points(550, 0), points(200, 600)]
    scored = score_document(doc(deals, {"match_deals": 4}))
    assert scored["totals"] == [1450, 1400]
    assert scored["victory_points"] == [10, 10] and scored["winner"] == 0


def test_example_3_a_table_of_the_house():
    table = [[30, 10, 10], [100, 12, 8], [300, 15, 5], [None, 20, 0]]
    scored = score_document(doc([EX1, EX4], {"match_deals": 2, "vp_table": table}))
    assert scored["totals"] == [775, -195]
    assert (scored["finished"], scored["winner"], scored["victory_points"]) == (True, 0, [20, 0])
    error = refused(doc([EX1, EX4], {"match_deals": 2}))
    assert error.code == "vp_no_fibur_table"
    assert error.where == ("rules", "match_deals") and error.place.deal is None
    assert "not for 2" in error.message


# --- the tables ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deals", "difference", "expected"),
    [
        (3, 0, (10, 10)),
        (3, 50, (10, 10)),
        (3, 55, (11, 9)),
        (3, 1000, (17, 3)),
        (3, 1500, (19, 1)),
        (3, 1505, (20, 0)),
        (3, 10**9, (20, 0)),
        (4, 100, (10, 10)),
        (4, 105, (11, 9)),
        (4, 2000, (19, 1)),
        (4, 2005, (20, 0)),
    ],
)
def test_the_fibur_tables_at_their_edges(deals, difference, expected):
    table = vp.table_of(vp.FIBUR, deals)
    assert vp.victory_points(table, (difference, 0)) == expected
    assert vp.victory_points(table, (0, difference)) == expected[::-1]
    assert vp.victory_points(table, (-difference, 0)) == expected[::-1]


def test_the_fibur_tables_are_rules_md_s_data():
    three = [[50, 10, 10], [150, 11, 9], [250, 12, 8], [350, 13, 7], [500, 14, 6], [650, 15, 5]]
    three += [[800, 16, 4], [1000, 17, 3], [1250, 18, 2], [1500, 19, 1], [None, 20, 0]]
    four = [[100, 10, 10], [300, 11, 9], [500, 12, 8], [700, 13, 7], [900, 14, 6]]
    four += [[1100, 15, 5], [1300, 16, 4], [1500, 17, 3], [1700, 18, 2], [2000, 19, 1]]
    four += [[None, 20, 0]]
    assert [list(b) for b in vp.FIBUR_TABLES[3]] == three
    assert [list(b) for b in vp.FIBUR_TABLES[4]] == four
    for table in vp.FIBUR_TABLES.values():
        vp.check_table(table)  # FIBUR's own pass the checks a house's table must pass


def test_side_1_ahead_and_equal_totals():
    scored = score_document(doc([points(0, 600), points(0, 0), points(0, 0)], {"match_deals": 3}))
    assert (scored["winner"], scored["victory_points"]) == (1, [5, 15])
    level = score_document(doc([points(300, 300)] * 3, {"match_deals": 3}))
    assert (level["finished"], level["winner"], level["victory_points"]) == (True, None, [10, 10])


def test_the_target_does_not_end_a_match_of_a_set_number_of_deals():
    deals = [points(900, 0), points(900, 0), points(900, 0)]
    partial = score_document(doc(deals[:2], {"match_deals": 3}))
    assert partial["totals"] == [1800, 0] and not partial["finished"]
    partial = score_document(doc(deals[:3], {"match_deals": 4, "preset": "classic"}))
    assert partial["totals"] == [2700, 0] and not partial["finished"]
    assert partial["winner"] is None and partial["victory_points"] is None


def test_victory_points_only_when_match_deals_is_set():
    plain = score_document(doc([EX1], {}))
    assert "victory_points" not in plain
    assert "victory_points" not in score_document(doc([EX1], {"match_deals": None}))
    # what export adds is accepted on input and worked out again
    scored = score_document(doc([EX1, EX4], {"match_deals": 2, "vp_table": [[None, 1, 1]]}))
    assert scored["victory_points"] == [1, 1]
    again = copy.deepcopy(scored)
    again["victory_points"] = [99, 0]
    assert score_document(again) == scored
    assert score_document(plain | {"victory_points": None}) == plain


def test_the_next_deal_says_how_many_are_left_and_the_outlook_the_vp_so_far():
    match = parse_document(doc([points(400, 0)], {"match_deals": 3}))
    state = state_of(match)
    assert standing(state).next_deal == {"number": 2, "dealer": 1, "deals_left": 2}
    seen = burraco.outlook(match.header, match.rules, state.tally)
    assert seen == burraco.Outlook(
        player_totals=(400, 0, 400, 0),
        deals_left=2,
        victory_points_now=(14, 6),
        victory_points=None,
    )
    assert burraco.deals_left(match.rules, 3) == 0
    assert burraco.victory_points(match.rules, (0, 0)) == (10, 10)
    ended = parse_document(doc([points(400, 0)] * 3, {"match_deals": 3}))
    seen = burraco.outlook(ended.header, ended.rules, state_of(ended).tally)
    assert seen.victory_points == seen.victory_points_now == (18, 2) and seen.deals_left == 0
    assert standing(state_of(ended)).next_deal == {}
    plain = parse_document(doc([], {}))
    seen = burraco.outlook(plain.header, plain.rules, score_start(plain.header, plain.rules).tally)
    assert seen == burraco.Outlook(player_totals=(0, 0, 0, 0))


def test_the_rules_written_for_a_match_of_a_set_number_of_deals():
    rules = burraco.parse_rules({"preset": "fibur", "match_deals": 3})
    written = burraco.rules_json(rules)
    assert "target" not in written
    assert (written["match_deals"], written["vp_table"]) == (3, "fibur")
    assert burraco.parse_rules(written) == rules
    table = [[30, 10, 10], [None, 20, 0]]
    rules = burraco.parse_rules({"match_deals": 2, "vp_table": table})
    assert burraco.rules_json(rules)["vp_table"] == table
    assert burraco.parse_rules(burraco.rules_json(rules)) == rules
    assert "match_deals" not in burraco.rules_json(burraco.parse_rules({}))


# --- refusals ---------------------------------------------------------------------------------

GOOD_TABLE = [[30, 10, 10], [100, 12, 8], [300, 15, 5], [None, 20, 0]]


def _table(bands: list) -> dict:
    return doc([], {"match_deals": 2, "vp_table": bands})


@pytest.mark.parametrize(
    ("rules", "code", "key", "good"),
    [
        (
            {"match_deals": 0},
            "out_of_range",
            "match_deals",
            {"match_deals": 1, "vp_table": [[None, 0, 0]]},
        ),
        ({"match_deals": "3"}, "bad_type", "match_deals", {"match_deals": 3}),
        (
            {"match_deals": 3, "target": 2000},
            "target_with_match_deals",
            "target",
            {"match_deals": 3},
        ),
        (
            {"vp_table": "fibur"},
            "vp_table_without_match_deals",
            "vp_table",
            {"match_deals": 3, "vp_table": "fibur"},
        ),
        (
            {"match_deals": 5, "vp_table": "fibur"},
            "vp_no_fibur_table",
            "vp_table",
            {"match_deals": 4, "vp_table": "fibur"},
        ),
        ({"match_deals": 1}, "vp_no_fibur_table", "match_deals", {"match_deals": 3}),
        (
            {"match_deals": 3, "vp_table": "FIBUR"},
            "bad_choice",
            "vp_table",
            {"match_deals": 3, "vp_table": "fibur"},
        ),
        (
            {"match_deals": 3, "vp_table": {"0": 10}},
            "bad_type",
            "vp_table",
            {"match_deals": 3, "vp_table": [[None, 10, 10]]},
        ),
    ],
)
def test_the_options_are_refused_naming_the_field(rules, code, key, good):
    error = refused(doc([], rules))
    assert error.code == code
    assert error.where == ("rules", key)
    assert error.place.field == "rules" and error.place.key == key and error.place.deal is None
    assert score_document(doc([], good))["finished"] is False


@pytest.mark.parametrize(
    ("bands", "code", "band", "mention", "good"),
    [
        ([], "vp_table_empty", None, "no band", [[None, 10, 10]]),
        ([[30, 10, 10], [None, 20]], "vp_band_shape", 2, "band 2", [[30, 10, 10], [None, 20, 0]]),
        ([[30, 10, 10], 5], "vp_band_shape", 2, "band 2", [[30, 10, 10], [None, 20, 0]]),
        (
            [[-5, 10, 10], [None, 20, 0]],
            "vp_band_difference",
            1,
            "-5",
            [[0, 10, 10], [None, 20, 0]],
        ),
        (
            [[2.5, 10, 10], [None, 20, 0]],
            "vp_band_difference",
            1,
            "2.5",
            [[25, 10, 10], [None, 20, 0]],
        ),
        (
            [["30", 10, 10], [None, 20, 0]],
            "vp_band_difference",
            1,
            "a string",
            [[30, 10, 10], [None, 20, 0]],
        ),
        ([[30, 10, 10], [None, 20.0, 0]], "vp_not_whole", 2, "20.0", [[30, 10, 10], [None, 20, 0]]),
        (
            [[30, 10, 10], [None, True, 0]],
            "vp_not_whole",
            2,
            "true/false",
            [[30, 10, 10], [None, 11, 9]],
        ),
        (
            [[30, 10, 10], [None, 12, 8], [None, 20, 0]],
            "vp_band_open_early",
            2,
            "band 2",
            [[30, 10, 10], [100, 12, 8], [None, 20, 0]],
        ),
        (
            [[30, 10, 10], [100, 20, 0]],
            "vp_last_band_closed",
            2,
            "ends at 100",
            [[30, 10, 10], [None, 20, 0]],
        ),
        (
            [[30, 10, 10], [30, 12, 8], [None, 20, 0]],
            "vp_bands_not_rising",
            2,
            "not above the 30",
            [[30, 10, 10], [35, 12, 8], [None, 20, 0]],
        ),
        (
            [[30, 10, 10], [20, 12, 8], [None, 20, 0]],
            "vp_bands_not_rising",
            2,
            "band 1",
            [[20, 10, 10], [30, 12, 8], [None, 20, 0]],
        ),
        ([[30, 10, 10], [None, 12, -2]], "vp_negative", 2, "-2", [[30, 10, 10], [None, 12, 0]]),
        (
            [[30, 10, 10], [None, 8, 12]],
            "vp_ahead_below_behind",
            2,
            "8",
            [[30, 10, 10], [None, 12, 8]],
        ),
        (
            [[30, 11, 9], [None, 20, 0]],
            "vp_first_band_unequal",
            1,
            "11 and 9",
            [[30, 10, 10], [None, 20, 0]],
        ),
        (
            [[30, 10, 10], [100, 15, 5], [None, 14, 4]],
            "vp_ahead_fewer",
            3,
            "fewer than the 15",
            [[30, 10, 10], [100, 14, 5], [None, 15, 4]],
        ),
        (
            [[30, 10, 10], [100, 15, 5], [None, 16, 6]],
            "vp_behind_more",
            3,
            "more than the 5",
            [[30, 10, 10], [100, 15, 6], [None, 16, 5]],
        ),
        ([[None, 0, 0]], None, None, None, None),  # every difference 0-0: a table all the same
    ],
)
def test_every_refusal_of_a_table_names_the_field_and_the_band(bands, code, band, mention, good):
    if code is None:
        assert score_document(_table(bands))["finished"] is False
        return
    error = refused(_table(bands))
    assert error.code == code
    assert error.place.deal is None
    assert (error.place.field, error.place.key) == ("rules", "vp_table")
    if band is None:
        assert error.where == ("rules", "vp_table")
    else:
        assert error.where == ("rules", f"vp_table[{band - 1}]")
        assert error.place.index == band - 1
        assert f"band {band}" in error.message or "the first band" in error.message
    assert mention in error.message
    assert score_document(_table(good))["finished"] is False


# --- the property the issue asks ----------------------------------------------------------------


@st.composite
def valid_tables(draw: Any) -> vp.Table:
    """A table a house may give: rising differences, VP ahead never falling, behind never
    rising, the first band equal, the last open."""
    count = draw(st.integers(1, 12))
    limits = sorted(draw(st.sets(st.integers(0, 5000), min_size=count - 1, max_size=count - 1)))
    first = draw(st.integers(0, 20))
    ahead, behind = [first], [first]
    for _ in range(count - 1):
        ahead.append(ahead[-1] + draw(st.integers(0, 3)))
        behind.append(max(behind[-1] - draw(st.integers(0, 3)), 0))
    return tuple(zip([*limits, None], ahead, behind, strict=True))


def _never_turns(table: vp.Table, differences: list[int]) -> None:
    seen = [vp.victory_points(table, (d, 0)) for d in sorted(differences)]
    for (ahead1, behind1), (ahead2, behind2) in zip(seen, seen[1:], strict=False):
        assert ahead2 >= ahead1 and behind2 <= behind1
    for ahead, behind in seen:
        assert ahead >= behind >= 0


DIFFERENCES = st.lists(st.integers(0, 10_000).map(lambda n: 5 * n), min_size=2, max_size=40)


@given(deals=st.sampled_from([3, 4]), differences=DIFFERENCES)
def test_fibur_vp_never_turn_as_the_difference_grows(deals, differences):
    _never_turns(vp.FIBUR_TABLES[deals], differences + [0, 50, 55, 100, 105, 1500, 1505, 2005])


@given(table=valid_tables(), differences=DIFFERENCES)
def test_a_valid_table_s_vp_never_turn_as_the_difference_grows(table, differences):
    vp.check_table(table)
    scored = score_document(_table([list(b) for b in table]))
    assert scored["rules"]["vp_table"] == [list(b) for b in table]
    _never_turns(table, differences + [b[0] for b in table if b[0] is not None])


BAND = st.tuples(
    st.one_of(st.none(), st.integers(0, 300)), st.integers(-2, 12), st.integers(-2, 12)
)


@given(bands=st.lists(BAND, max_size=6), differences=DIFFERENCES)
def test_any_table_is_refused_or_never_turns(bands, differences):
    try:
        vp.check_table(bands)
    except RuleError as e:
        assert e.code.startswith("vp_") and e.where[0].startswith("vp_table")
        return
    _never_turns(tuple(bands), differences)
