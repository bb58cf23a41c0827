"""Every refusal and notice says where it points twice: in words (``where``, pinned by the
other tests) and as values (``place``: deal, side, seat, meld, card, field, key, index), so
that a page points at the deal, side, seat, meld or card without reading the words.

The values are checked against the words on many refused documents: every mutation of every
example document (each value replaced, each key and entry dropped, a key added), mutations of
random legal rummy deals and Barbu matches, and the refusals named one by one below. A test
reads the words with regular expressions; nothing else does.
"""

from __future__ import annotations

import ast
import copy
import json
import pathlib
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import barbu
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.base import MatchHeader
from scorekeeper.rules.errors import EXCERPT_MAX, Notice, Place, RuleError
from scorekeeper.rules.schema import place_of_path
from tests import profiles

from .test_barbu_properties import matches
from .test_rummy_properties import legal_documents

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]
RUMMY = ("biriba", "burraco")


def examples() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(DATA.glob("*/*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        doc = raw.get("doc", raw)
        if path.name == "classic-28.json":  # a whole match: its first series is enough
            doc = {k: v for k, v in doc.items() if k not in ("totals", "finished", "winner")}
            doc["deals"] = doc["deals"][:4]
        out.append((path.stem, doc))
    return out


def refusal(doc: object) -> RuleError | None:
    try:
        rules_match.score_document(copy.deepcopy(doc))
    except RuleError as error:
        return error
    return None


# --- the oracle: what the words say, read back as values ----------------------------------------

_DEAL = re.compile(r"deal (\d+)")
_MELD_SHOWN = re.compile(r"meld (\d+) \(")
_MELD_PATH = re.compile(r"melds\[(\d+)\]")
_CARD = re.compile(r"(?:^|hand|melds\[\d+\])\[(\d+)\]$")
_PER_SEAT = re.compile(r"(?:tricks|hearts|queens|boys|suits|net)\[(\d+)\](?:\[\d+\])?")
_KEY = re.compile(r"([a-z_]+)(?:\[\d+\])*")
#: Refusals whose place says a little more than their words: the suit column of ``suits``.
_EXTRA_INDEX = {"suit_sum"}


def header_of(doc: object) -> MatchHeader | None:
    try:
        header, _, _ = rules_match.parse_header(doc)
    except RuleError:
        return None
    return header


def check_place(error: RuleError | Notice, header: MatchHeader | None) -> None:
    """The values of ``error.place`` are what its words say (see the module docstring)."""
    words, place = error.where, error.place
    context = f"{error.code}: {words!r} vs {place!r}"
    found = _DEAL.fullmatch(words[0]) if words else None
    assert place.deal == (int(found[1]) if found else None), context
    inside = words[1:] if found else words
    names: list[str] = []
    if header is not None:
        names = list(header.players)
        if header.game in RUMMY and found:
            sides = [header.side_name(k) for k in range(header.side_count)]
            names += sides
            side = None
            for k, name in enumerate(sides):
                if inside and inside[0] in (name, f"sides[{k}]"):
                    side = k
            assert place.side == side, context
        if header.game == "barbu" and found:
            seat = next((s for s, name in enumerate(header.players) if name in inside), None)
            per_seat = next((m for w in inside if (m := _PER_SEAT.fullmatch(w))), None)
            if seat is None and per_seat:
                seat = int(per_seat[1])
            assert place.seat == seat, context
    if header is None or header.game != "barbu":
        assert place.seat is None, context
    if header is None or header.game not in RUMMY:
        assert place.side is None, context
    meld = None
    for w in inside:
        if m := _MELD_SHOWN.match(w):
            meld = int(m[1])
        elif m := _MELD_PATH.match(w):
            meld = int(m[1]) + 1
    assert place.meld == meld, context
    card = next((int(m[1]) for w in inside if (m := _CARD.search(w))), None)
    if not any(w.startswith(("hand", "melds", "meld ", "[")) for w in inside):
        card = None
    assert place.card == card, context
    # every document key the words name is the place's field, its key, or the totals around it
    # (half a character may be anywhere, as deep as a deal's old score: its place says where
    # in the deal it is, down to the key inside a field)
    keys = {m[1] for w in inside if w not in names and (m := _KEY.fullmatch(w))}
    if error.code != "bad_text":
        assert keys <= {place.field, place.key, "totals"}, context
    if place.field is not None:
        assert any(
            w == place.field
            or w.startswith(f"{place.field}[")
            or w == json.dumps(place.field)
            or (place.field == "melds" and w.startswith("meld "))
            for w in words
        ), context
    if place.key is not None:
        assert any(
            w in (place.key, json.dumps(place.key)) or w.startswith(f"{place.key}[") for w in words
        ), context
    if place.index is not None and error.code not in _EXTRA_INDEX:
        assert any(f"[{place.index}]" in w for w in words), context


class Seen:
    """What the sweeps met, to prove they are no empty walk."""

    def __init__(self) -> None:
        self.codes: Counter[str] = Counter()
        self.fields: Counter[str] = Counter()

    def add(self, error: RuleError) -> None:
        self.codes[error.code] += 1
        for name in error.place.as_dict():
            self.fields[name] += 1


def checked(doc: object, seen: Seen | None = None) -> RuleError | None:
    error = refusal(doc)
    if error is not None:
        check_place(error, header_of(doc))
        if seen is not None:
            seen.add(error)
    return error


# --- mutations --------------------------------------------------------------------------------

#: What a mutation puts in place of a value: wrong types, numbers just out of range, cards
#: that break a meld or copy one card too often, text no page can hold.
VALUES: list[Any] = [
    None,
    True,
    -1,
    1,
    5,
    14,
    "",
    "XX",
    "JK",
    "2C",
    "AH",
    "\ud800",
    [],
    ["AH", "AH", "AH"],
    {},
    [13, 0, 0, 0],
]


def paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*path, i))


def mutations(doc: dict, path: tuple) -> Iterator[dict]:
    """``doc`` with the value at ``path`` replaced by each of VALUES, dropped, or given an
    extra key."""
    if not path:
        return
    for how in [*range(len(VALUES)), "drop", "add"]:
        out = copy.deepcopy(doc)
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        if how == "drop":
            del parent[path[-1]]
        elif how == "add":
            if not isinstance(parent[path[-1]], dict):
                continue
            parent[path[-1]]["extra"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(VALUES[how])
        yield out


def test_every_mutation_of_every_example_points_where_its_words_say():
    seen = Seen()
    refused = in_a_deal = 0
    for _name, doc in examples():
        for path in paths(doc):
            for mutated in mutations(doc, path):
                error = checked(mutated, seen)
                if error is None:
                    continue
                refused += 1
                if path[:1] == ("deals",) and len(path) > 1:
                    # whatever refuses a mutated deal, reading it or scoring it, names a deal
                    # (that one, or a later one it makes illegal) as a number
                    in_a_deal += 1
                    assert error.place.deal is not None and error.place.deal >= path[1] + 1
                    assert error.as_dict()["place"]["deal"] == error.place.deal
    # a real walk: thousands of refusals, most inside a deal, of many kinds, every value used
    assert refused > 3000 and in_a_deal > 2000
    assert len(seen.codes) >= 30
    for name in ("deal", "side", "seat", "meld", "card", "field", "key", "index"):
        assert seen.fields[name] > 10, (name, seen.fields)


@st.composite
def mutated(draw: st.DrawFn, doc: dict) -> dict:
    """``doc`` with one value inside its deals replaced, dropped or grown."""
    inside = [p for p in paths(doc) if p[:1] == ("deals",) and len(p) > 1]
    path = draw(st.sampled_from(inside))
    return draw(st.sampled_from(list(mutations(doc, path))))


@settings(
    max_examples=profiles.examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data(), doc=legal_documents())
def test_mutated_random_rummy_deals_point_where_their_words_say(data, doc):
    error = checked(data.draw(mutated(doc)))
    if error is not None and error.where[:1] != ("rules",):
        assert error.place.deal is not None


@settings(
    max_examples=profiles.examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data(), doc=matches(compulsory=True))
def test_mutated_random_barbu_matches_point_where_their_words_say(data, doc):
    error = checked(data.draw(mutated(doc)))
    if error is not None:
        assert error.place.deal is not None


# --- refusals one by one ----------------------------------------------------------------------


def rummy(game: str, deals: list, rules: dict | None = None, players=PLAYERS) -> dict:
    doc = {"format": "scorekeeper-match/1", "game": game, "players": list(players)}
    return doc | {"rules": rules or {}, "deals": deals}


def side(melds=(), hand="", took_pot=True, went_out=False, **extra) -> dict:
    return {
        "melds": [m.split() for m in melds],
        "hand": hand.split(),
        "took_pot": took_pot,
        "went_out": went_out,
    } | extra


OK_DEAL = {"trump": "H", "sides": [side(["3S 4S 5S"]), side(["6D 7D 8D"])]}


def game(deals: list, rules: dict | None = None) -> dict:
    doc = {"format": "scorekeeper-match/1", "game": "barbu", "players": PLAYERS}
    return doc | {"rules": rules or {}, "deals": deals}


NO_TRICKS = {"contract": "no_tricks", "doubles": [{"by": 1, "on": 0}], "tricks": [4, 3, 3, 3]}

PLACES: dict[str, tuple[dict, str, Place]] = {
    "a meld that is none, scored": (
        rummy("biriba", [OK_DEAL, {"sides": [side(), side(["3S 4S 5S", "5C 6C JK 2D"])]}]),
        "two_wilds",
        Place(deal=2, side=1, meld=2, field="melds"),
    ),
    "a bad card in a meld, read": (
        rummy("biriba", [{"sides": [side(["3S 4S 5S", "5C 6C XX"]), side()]}]),
        "bad_card",
        Place(deal=1, side=0, meld=2, card=2, field="melds"),
    ),
    "a bad card in hand": (
        rummy("burraco", [{"sides": [side(), side(hand="3S 4S 5S 1H")]}]),
        "bad_card",
        Place(deal=1, side=1, card=3, field="hand"),
    ),
    "a closing discard that is wild": (
        rummy(
            "burraco",
            [
                {
                    "sides": [
                        side(["3S 4S 5S 6S 7S 8S 9S"], went_out=True, final_discard="JK"),
                        side(),
                    ]
                }
            ],
        ),
        "wild_closing_discard",
        Place(deal=1, side=0, field="final_discard"),
    ),
    "a bad trump": (
        rummy("biriba", [{"trump": "X", "sides": [side(), side()]}]),
        "bad_suit",
        Place(deal=1, field="trump"),
    ),
    "a dealer out of turn": (
        rummy("biriba", [{"dealer": 2, "sides": [side(), side()]}]),
        "wrong_dealer",
        Place(deal=1, field="dealer"),
    ),
    "a bonus kind the game has not": (
        rummy(
            "biriba",
            [{"sides": [{"totals": {"melded": 100, "in_hand": 0, "bonuses": {"x": 1}}}, side()]}],
        ),
        "unknown_key",
        Place(deal=1, side=0, field="bonuses", key="x"),
    ),
    "a bonus count that is no number": (
        rummy(
            "biriba",
            [
                {
                    "sides": [
                        {"totals": {"melded": 100, "in_hand": 0, "bonuses": {"clean_biriba": "1"}}},
                        side(),
                    ]
                }
            ],
        ),
        "bad_type",
        Place(deal=1, side=0, field="bonuses", key="clean_biriba"),
    ),
    "a set biriba with sets off": (
        rummy(
            "biriba",
            [
                {
                    "sides": [
                        {
                            "totals": {
                                "melded": 100,
                                "in_hand": 0,
                                "bonuses": {"clean_set_biriba": 1},
                            }
                        },
                        side(),
                    ]
                }
            ],
        ),
        "bonus_not_in_rules",
        Place(deal=1, side=0, field="bonuses", key="clean_set_biriba"),
    ),
    "melded not a multiple of 5": (
        rummy("biriba", [{"sides": [side(), {"totals": {"melded": 101, "in_hand": 0}}]}]),
        "not_multiple_of_5",
        Place(deal=1, side=1, field="melded"),
    ),
    "totals worth more than the packs": (
        rummy("biriba", [{"sides": [side(), {"totals": {"melded": 2350, "in_hand": 0}}]}]),
        "totals_exceed_pack",
        Place(deal=1, side=1, field="totals"),
    ),
    "a card three times": (
        rummy("biriba", [{"sides": [side(["8S 9S 10S"], "8S"), side([], "8S")]}]),
        "too_many_copies",
        Place(deal=1),
    ),
    "a second set of one rank": (
        rummy(
            "burraco", [{"sides": [side(["5S 5H 5D", "5C 5S 5H"]), side()]}], {"preset": "fibur"}
        ),
        "duplicate_set",
        Place(deal=1, side=0, meld=2, field="melds"),
    ),
    "a deal after the end": (
        rummy(
            "biriba",
            [OK_DEAL, OK_DEAL],
            {"target": 10},
        ),
        "match_finished",
        Place(deal=2),
    ),
    "an option out of range": (
        rummy("biriba", [], {"target": 0}),
        "out_of_range",
        Place(field="rules", key="target"),
    ),
    "an unknown option": (
        rummy("burraco", [], {"colour": "red"}),
        "unknown_key",
        Place(field="rules", key="colour"),
    ),
    "a player named twice": (
        rummy("biriba", [], players=["Anna", "anna"]),
        "duplicate_player",
        Place(field="players", index=1),
    ),
    "half a character in a hand": (
        rummy(
            "biriba",
            [
                OK_DEAL,
                {"sides": [side(), side(hand="3S 4S 5S") | {"hand": ["3S", "4S", "\ud800"]}]},
            ],
        ),
        "bad_text",
        Place(deal=2, side=1, card=2, field="hand"),
    ),
    # Barbu
    "tricks that do not add up": (
        game([NO_TRICKS | {"tricks": [4, 3, 3, 4]}]),
        "tricks_sum",
        Place(deal=1, field="tricks"),
    ),
    "a seat's tricks out of range": (
        game([NO_TRICKS | {"tricks": [4, 3, 14, 3]}]),
        "out_of_range",
        Place(deal=1, seat=2, field="tricks"),
    ),
    "a Ravage City cell out of range": (
        game(
            [
                {
                    "contract": "ravage_city",
                    "doubles": [{"by": 1, "on": 0}],
                    "suits": [[13, 0, 0, 3], [0, 13, 99, 3], [0, 0, 13, 3], [0, 0, 0, 4]],
                }
            ],
            {"variant": "ravage_city"},
        ),
        "out_of_range",
        Place(deal=1, seat=1, field="suits", index=2),
    ),
    "a suit that does not add up": (
        game(
            [
                {
                    "contract": "ravage_city",
                    "doubles": [{"by": 1, "on": 0}],
                    "suits": [[13, 0, 0, 3], [0, 13, 0, 3], [0, 0, 12, 3], [0, 0, 0, 4]],
                }
            ],
            {"variant": "ravage_city"},
        ),
        "suit_sum",
        Place(deal=1, field="suits", index=2),
    ),
    "a double of oneself": (
        game([NO_TRICKS | {"doubles": [{"by": 1, "on": 0}, {"by": 2, "on": 2}]}]),
        "double_self",
        Place(deal=1, seat=2, field="doubles", index=1),
    ),
    "a double whose target is no seat": (
        game([NO_TRICKS | {"doubles": [{"by": 3, "on": 7}]}]),
        "out_of_range",
        Place(deal=1, seat=3, field="doubles", key="on", index=0),
    ),
    "a double with an unknown key": (
        game([NO_TRICKS | {"doubles": [{"by": 3, "on": 0, "loud": True}]}]),
        "unknown_key",
        Place(deal=1, seat=3, field="doubles", key="loud", index=0),
    ),
    "a declarer out of turn": (
        game([NO_TRICKS | {"declarer": 2}]),
        "declarer_mismatch",
        Place(deal=1, seat=2, field="declarer"),
    ),
    "a contract of another variant": (
        game([NO_TRICKS | {"contract": "salade"}]),
        "bad_contract",
        Place(deal=1, seat=0, field="contract"),
    ),
    "a contract named twice": (
        game([NO_TRICKS, NO_TRICKS]),
        "contract_already_named",
        Place(deal=2, seat=0, field="contract"),
    ),
    "a bad trump chosen": (
        game(
            [NO_TRICKS, {"contract": "trumps", "doubles": [], "trump": "X", "tricks": [4, 3, 3, 3]}]
        ),
        "bad_suit",
        Place(deal=2, seat=0, field="trump"),
    ),
    "the ace of hearts with no hearts": (
        game(
            [
                {
                    "contract": "no_hearts",
                    "doubles": [{"by": 1, "on": 0}],
                    "hearts": [0, 4, 4, 5],
                    "ace_of_hearts": 0,
                }
            ]
        ),
        "ace_of_hearts_without_hearts",
        Place(deal=1, seat=0, field="ace_of_hearts"),
    ),
    "a player out twice in Domino": (
        game([NO_TRICKS, {"contract": "domino", "doubles": [], "finish_order": [0, 1, 1, 3]}]),
        "finish_order_not_permutation",
        Place(deal=2, seat=1, field="finish_order", index=2),
    ),
    "a finishing place that is no seat": (
        game([NO_TRICKS, {"contract": "domino", "doubles": [], "finish_order": [0, 1, 9, 3]}]),
        "out_of_range",
        Place(deal=2, field="finish_order", index=2),
    ),
    "compulsory doubles not made": (
        game(
            [
                {"contract": c, "doubles": []}
                for c in ("no_tricks", "no_hearts", "no_queens", "barbu", "no_last_two")
            ]
            + [{"contract": "trumps", "doubles": [], "trump": "S", "tricks": [4, 3, 3, 3]}],
        ),
        "compulsory_doubles",
        Place(deal=6, seat=1, field="doubles"),
    ),
    "Domino payouts that do not add up": (
        game([], {"domino_payouts": [45, 20, 5, 0]}),
        "domino_payouts_total",
        Place(field="rules", key="domino_payouts"),
    ),
    "a Domino payout that is no number": (
        game([], {"domino_payouts": [45, 20, "5", -5]}),
        "bad_type",
        Place(field="rules", key="domino_payouts", index=2),
    ),
}


@pytest.mark.parametrize("name", list(PLACES))
def test_each_refusal_points_at_its_place(name):
    doc, code, place = PLACES[name]
    error = checked(doc)
    assert error is not None and error.code == code, error and error.message
    assert error.place == place, error.message


def test_the_words_of_a_refusal_are_what_they_were():
    """The values are added beside the words; the words, and so every message, stay."""
    error = checked(PLACES["a meld that is none, scored"][0])
    assert error.message == (
        "deal 2, Babis & Dora, meld 2 (5C 6C JK 2D): two wild cards in one meld (JK 2D)"
    )
    error = checked(PLACES["a double whose target is no seat"][0])
    assert error.message == "deal 1, Dora, doubles[0], on: 7 is out of range: from 0 to 3"
    error = checked(PLACES["a Domino payout that is no number"][0])
    assert error.message == "rules, domino_payouts[2]: expected a whole number, got a string"


# --- the values themselves --------------------------------------------------------------------


def test_an_outer_place_fills_what_the_inner_one_leaves_open():
    error = RuleError("bad_card", "{text} is not a card", text='"1H"', place=Place(card=3))
    error.at("hand", field="hand").at("Anna & Chris", side=0).at("deal 2", deal=2, side=1)
    assert error.place == Place(deal=2, side=0, card=3, field="hand")
    assert error.where == ("deal 2", "Anna & Chris", "hand")
    assert error.message == 'deal 2, Anna & Chris, hand: "1H" is not a card'
    assert str(error) == error.message == error.args[0]


def test_a_field_of_named_keys_keeps_the_inner_field_as_its_key():
    error = RuleError("x", "no", where=("target",), place=Place(field="target"))
    assert error.under("rules", "rules").place == Place(field="rules", key="target")
    error = RuleError("x", "no", where=("by",), place=Place(field="by"))
    error.under("doubles", "Dora", "doubles[0]", seat=3, index=0)
    assert error.place == Place(seat=3, field="doubles", key="by", index=0)
    assert error.where == ("Dora", "doubles[0]", "by")
    bare = RuleError("x", "no").under("bonuses", "bonuses")
    assert bare.place == Place(field="bonuses")


def test_as_dict_gives_the_place_with_its_texts_cut_to_an_excerpt():
    key = "k" * 10_000 + "\ud800"
    error = RuleError("unknown_key", "unknown", where=(key,), place=Place(field=key, deal=4))
    shown = error.as_dict()
    assert shown["place"]["deal"] == 4 and len(shown["place"]["field"]) == EXCERPT_MAX
    json.dumps(shown, ensure_ascii=False).encode("utf-8")  # no half character left in it
    assert error.place.field == key  # whole, for whoever reads it
    assert list(shown) == ["code", "where", "place", "message"]
    assert RuleError("x", "y").as_dict()["place"] == {}
    assert not Place() and Place(index=0) and Place(index=0).as_dict() == {"index": 0}


def test_a_notice_carries_its_place_and_gains_the_deal_it_is_about():
    notice = Notice("compulsory_doubles", "{player} owes", ("Babis", "doubles"), {"player": "B"})
    assert notice.place == Place()
    placed = Notice("c", "t", ("Babis", "doubles"), {}, Place(seat=1, field="doubles"))
    later = placed.at("deal 6", deal=6)
    assert later.place == Place(deal=6, seat=1, field="doubles")
    assert later.where == ("deal 6", "Babis", "doubles") and placed.where == ("Babis", "doubles")
    assert later.as_dict()["place"] == {"deal": 6, "seat": 1, "field": "doubles"}


def test_warnings_carry_their_place_and_the_score_writes_them_as_before():
    doc = PLACES["compulsory doubles not made"][0]
    doc = doc | {"rules": {"compulsory_doubles": "warn"}}
    parsed, result, exported = rules_match.score_document_full(doc)
    assert [n.place for n in result.notices] == [
        Place(deal=6, seat=s, field="doubles") for s in (1, 2, 3)
    ]
    for notice in result.notices:
        check_place(notice, parsed.header)
    warnings = exported["deals"][5]["score"]["warnings"]
    # docs/match-format.md: each warning as {code, where, message}
    assert [sorted(w) for w in warnings] == [["code", "message", "where"]] * 3
    assert warnings[0]["where"] == ["deal 6", "Babis", "doubles"]


def test_the_place_of_a_path_in_the_document():
    assert place_of_path(("deals", 1, "sides", 0, "melds", 2, 4)) == Place(
        deal=2, side=0, meld=3, card=4, field="melds"
    )
    assert place_of_path(("deals", 0, "sides", 1, "hand", 3)) == Place(
        deal=1, side=1, card=3, field="hand"
    )
    assert place_of_path(("deals", 0, "sides", 1, "totals", "bonuses", "clean_biriba")) == (
        Place(deal=1, side=1, field="bonuses", key="clean_biriba")
    )
    assert place_of_path(("deals", 0, "sides", 1, "totals", "melded")) == Place(
        deal=1, side=1, field="melded"
    )
    assert place_of_path(("deals", 2, "tricks", 3)) == Place(deal=3, seat=3, field="tricks")
    assert place_of_path(("deals", 2, "suits", 1, 2)) == Place(
        deal=3, seat=1, field="suits", index=2
    )
    assert place_of_path(("deals", 0, "doubles", 2, "by")) == Place(
        deal=1, field="doubles", key="by", index=2
    )
    assert place_of_path(("players", 1)) == Place(field="players", index=1)
    assert place_of_path(("rules", "domino_payouts", 0)) == Place(
        field="rules", key="domino_payouts", index=0
    )
    assert place_of_path(("sides", 0, "final_discard")) == Place(side=0, field="final_discard")
    assert place_of_path(()) == Place()


def test_a_barbu_header_has_no_partners():
    # the oracle above reads seats by name: the header it uses must know Barbu has no sides
    header = MatchHeader(game="barbu", players=tuple(PLAYERS))
    assert header.side_count == 4 and header.partners(0) == ()
    assert barbu.NAME == header.game


def test_every_place_in_words_in_the_rules_core_comes_with_its_values():
    """Read from the source: a RuleError or Notice given ``where`` is given ``place`` too, and
    every ``.at(...)`` or ``.error(...)`` that adds words adds values (``.under`` always does)."""
    rules = pathlib.Path(rules_match.__file__).parent
    bad = []
    for path in sorted(rules.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            keywords = {k.arg for k in node.keywords}
            where = f"{path.relative_to(rules)}:{node.lineno}"
            if name == "RuleError" and "where" in keywords and "place" not in keywords:
                bad.append(f"{where}: RuleError(where=...) without place=")
            if name == "Notice" and len(node.args) + len(keywords) in (3, 4):
                bad.append(f"{where}: Notice with a where and no place")
            method = isinstance(node.func, ast.Attribute)
            if method and name in ("at", "error") and node.args and not keywords:
                bad.append(f"{where}: .{name}(words) without values")
    assert bad == []
