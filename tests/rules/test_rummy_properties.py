"""Properties of the rummy rules core, checked on generated melds and deals (hypothesis).

- The order of the cards in a meld never changes its reading (or the reason it is refused).
- Any legal run with one wild refuses a second wild added to it.
- A random legal deal built from a shuffled double pack (108 cards) is always accepted.
- Every computed deal total is a multiple of 5, and is the sum of its parts.
- Scoring a scored document again gives the same result; the export round-trips.
- A side entered as totals with the figures of its card form scores the same.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import JOKER, SUITS, Card, Suit, cards_text
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import parse_document, score_document
from scorekeeper.rules.melds import MeldRules, read_meld
from tests.profiles import examples

DOUBLE_PACK: list[Card] = [Card(r, s) for s in SUITS for r in range(1, 14)] * 2 + [JOKER] * 4
assert len(DOUBLE_PACK) == 108

MELD_RULES = [
    MeldRules(sets=False),
    MeldRules(sets=True),
    MeldRules(run_extra_wild=True),
    MeldRules(run_extra_wild=True, semi_clean=True),
    MeldRules(run_extra_wild=True, set_ranks=frozenset({1, 3})),
]

BIRIBA_RULES: list[dict[str, Any]] = [
    {},
    {"sets": True},
    {
        "sets": True,
        "close_needs_clean_biriba": True,
        "pot_needs_biriba": True,
        "whole_suit": "adds",
        "card_values": "greek_wikipedia",
    },
    {"trump_doubles": False, "whole_suit": "ordinary", "going_out_bonus": 0},
]
BURRACO_RULES: list[dict[str, Any]] = [
    {},
    {"preset": "fibur"},
    {"preset": "international"},
    {"preset": "classic", "semipulito": True, "close_needs": "clean", "no_pot_penalty": 55},
]
PLAYERS = ["Anna", "Babis", "Chris", "Dora"]

SLOW = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _place_card(place: int, suit: Suit) -> Card:
    return Card(1 if place == 14 else place, suit)


# --- melds ------------------------------------------------------------------------------------


@st.composite
def legal_runs(draw: st.DrawFn, *, wild: bool | None = None, max_len: int = 13) -> list[Card]:
    """A legal run: consecutive naturals of one suit, with perhaps one wild (in a gap or at an
    end). The wild is a joker or a two of another suit when ``wild`` is True."""
    suit = draw(st.sampled_from(SUITS))
    with_wild = draw(st.booleans()) if wild is None else wild
    n = draw(st.integers(2 if with_wild else 3, min(13, max_len - (1 if with_wild else 0))))
    low = draw(st.integers(1, 14 - n + 1))
    cards = [_place_card(p, suit) for p in range(low, low + n)]
    if with_wild:
        others = [s for s in SUITS if s != suit]
        joker = draw(st.sampled_from([JOKER, *(Card(2, s) for s in others)]))
        if n >= 3 and draw(st.booleans()):
            cards.pop(draw(st.integers(1, n - 2)))  # the wild fills this gap
        cards.append(joker)
    return cards


@st.composite
def legal_sets(draw: st.DrawFn) -> list[Card]:
    rank = draw(st.sampled_from([1, *range(3, 14)]))
    n = draw(st.integers(3, 8))
    copies = [Card(rank, s) for s in SUITS] * 2
    cards = draw(st.permutations(copies))[:n]
    if draw(st.booleans()):
        cards = [*cards[:-1], draw(st.sampled_from([JOKER, Card(2, Suit.CLUBS)]))]
    return cards


any_cards = st.lists(st.sampled_from(DOUBLE_PACK), min_size=0, max_size=9)


def _outcome(cards: list[Card], rules: MeldRules) -> object:
    try:
        return read_meld(cards, rules=rules)
    except RuleError as e:
        return (e.code, e.message)


@given(
    cards=st.one_of(legal_runs(), legal_sets(), any_cards),
    rules=st.sampled_from(MELD_RULES),
    data=st.data(),
)
def test_the_order_of_the_cards_never_changes_the_reading(cards, rules, data):
    shuffled = data.draw(st.permutations(cards))
    assert _outcome(shuffled, rules) == _outcome(cards, rules)


@given(cards=legal_runs(wild=False), rules=st.sampled_from(MELD_RULES))
def test_a_generated_run_without_a_wild_is_clean(cards, rules):
    reading = read_meld(cards, rules=rules)
    assert reading.is_clean and reading.length == len(cards)


@given(
    cards=legal_runs(wild=True, max_len=13),
    second=st.sampled_from([JOKER, *(Card(2, s) for s in SUITS)]),
    rules=st.sampled_from(MELD_RULES),
    data=st.data(),
)
def test_any_legal_run_with_a_second_wild_added_is_refused(cards, second, rules, data):
    reading = read_meld(cards, rules=rules)
    assert reading.wild is not None
    if second.is_two and second.suit == reading.suit:
        second = JOKER  # a two of the run's own suit might stand in its own place
    cards = data.draw(st.permutations([*cards, second]))
    try:
        read_meld(cards, rules=rules)
    except RuleError as e:
        assert e.code in ("two_wilds", "too_many_wilds"), e.message
    else:
        raise AssertionError(f"{cards_text(cards)} was accepted")


# --- deals ------------------------------------------------------------------------------------


class _Pool:
    """What is left of the shuffled double pack."""

    def __init__(self, order: list[Card]):
        self.order = order
        self.left = Counter(order)

    def take(self, cards: list[Card]) -> bool:
        need = Counter(cards)
        if any(self.left[c] < n for c, n in need.items()):
            return False
        self.left -= need
        return True

    def hand(self, n: int) -> list[Card]:
        out: list[Card] = []
        for card in self.order:
            if len(out) == n:
                break
            if self.left[card] > 0 and card not in out[-1:]:
                self.left[card] -= 1
                out.append(card)
        return out


@st.composite
def _meld(draw: st.DrawFn, game: str, rules: dict, pool: _Pool, set_ranks: set) -> list | None:
    sets_allowed = game == "burraco" or rules.get("sets", False)
    intl = rules.get("preset") == "international" and game == "burraco"
    if sets_allowed and draw(st.booleans()):
        ranks = [1, 3] if intl else [1, *range(3, 14)]
        rank = draw(st.sampled_from(ranks))
        if game == "burraco" and rules.get("preset") == "fibur" and rank in set_ranks:
            return None
        wild = draw(st.booleans())
        n = draw(st.integers(2 if wild else 3, 8))
        cards = [c for c in pool.order if c.rank == rank and not c.is_joker][:n]
        if len(cards) < (2 if wild else 3):
            return None
        if wild:
            cards.append(draw(st.sampled_from([JOKER, Card(2, Suit.HEARTS)])))
        if not pool.take(cards):
            return None
        set_ranks.add(rank)
        return cards
    max_len = 14 if game == "burraco" else 13
    cards = draw(legal_runs(max_len=max_len))
    return cards if pool.take(cards) else None


@st.composite
def legal_deals(draw: st.DrawFn, game: str, rules: dict, seats: int) -> dict:
    pool = _Pool(draw(st.permutations(DOUBLE_PACK)))
    n_sides = 2 if seats == 4 else seats
    out_side = draw(st.sampled_from([None, *range(n_sides)]))
    sides = []
    for k in range(n_sides):
        melds: list[list[Card]] = []
        set_ranks: set[int] = set()
        for _ in range(draw(st.integers(0, 4))):
            meld = draw(_meld(game, rules, pool, set_ranks))
            if meld is not None:
                melds.append(draw(st.permutations(meld)))
        went_out = out_side == k
        big = [m for m in melds if len(m) >= 7]
        clean_big = [m for m in big if not any(c.is_joker or c.is_two for c in m)]
        needs_clean = rules.get("close_needs_clean_biriba") or rules.get("close_needs") == "clean"
        if rules.get("preset") == "international" and "close_needs" not in rules:
            needs_clean = True
        if went_out and game == "burraco" and not big:
            went_out = False
        if went_out and needs_clean and not clean_big:
            went_out = False
        took_pot = True if went_out else draw(st.booleans())
        if took_pot and rules.get("pot_needs_biriba") and not big:
            took_pot = went_out = False
        one_player = seats < 4
        hand = [] if went_out and one_player else pool.hand(draw(st.integers(0, 12)))
        side: dict[str, Any] = {
            "melds": [[str(c) for c in m] for m in melds],
            "hand": [str(c) for c in hand],
            "took_pot": took_pot,
            "went_out": went_out,
        }
        if game == "burraco" and went_out and draw(st.booleans()):
            discard = [c for c in pool.order if not c.is_wild and pool.left[c] > 0][:1]
            if discard and pool.take(discard):
                side["final_discard"] = str(discard[0])
        sides.append(side)
    deal: dict[str, Any] = {"sides": sides}
    if game == "biriba":
        deal["trump"] = draw(st.sampled_from([None, "S", "H", "D", "C"]))
    return deal


@st.composite
def legal_documents(draw: st.DrawFn) -> dict:
    game = draw(st.sampled_from(["biriba", "burraco"]))
    rules = draw(st.sampled_from(BIRIBA_RULES if game == "biriba" else BURRACO_RULES))
    seats = draw(st.sampled_from([2, 3, 4] if game == "biriba" else [2, 4]))
    deals = [draw(legal_deals(game, rules, seats)) for _ in range(draw(st.integers(1, 3)))]
    return {
        "format": "scorekeeper-match/1",
        "game": game,
        "rules": rules | {"target": 100000},
        "players": PLAYERS[:seats],
        "first_dealer": draw(st.integers(0, seats - 1)),
        "deals": deals,
    }


def _score(doc: dict) -> dict:
    try:
        return score_document(copy.deepcopy(doc))
    except RuleError as e:  # pragma: no cover - the assertion message is the point
        raise AssertionError(f"refused: {e.message}") from None


@SLOW
@given(doc=legal_documents())
def test_a_random_legal_deal_from_a_double_pack_is_accepted(doc):
    out = _score(doc)
    assert len(out["deals"]) == len(doc["deals"])


@SLOW
@given(doc=legal_documents())
def test_every_deal_total_is_a_multiple_of_5_and_the_sum_of_its_parts(doc):
    out = _score(doc)
    for deal in out["deals"]:
        for side in deal["score"]["sides"]:
            assert side["total"] % 5 == 0
            parts = ("melded", "bonuses", "going_out", "in_hand", "no_pot")
            assert side["total"] == sum(side[p] for p in parts)
            if side["form"] == "cards":
                assert side["melded"] == sum(m["points"] for m in side["melds"])
                assert side["bonuses"] == sum(m.get("bonus_points", 0) for m in side["melds"])
    assert out["totals"] == [
        sum(d["score"]["sides"][k]["total"] for d in out["deals"])
        for k in range(len(out["totals"]))
    ]


@SLOW
@given(doc=legal_documents())
def test_scoring_a_scored_document_again_gives_the_same_result(doc):
    once = _score(doc)
    assert _score(once) == once
    assert parse_document(once).deals == parse_document(doc).deals


@SLOW
@given(doc=legal_documents())
def test_a_side_entered_as_totals_scores_as_its_cards(doc):
    out = _score(doc)
    as_totals = copy.deepcopy(doc)
    for raw, scored in zip(as_totals["deals"], out["deals"], strict=True):
        for k, side in enumerate(raw["sides"]):
            s = scored["score"]["sides"][k]
            raw["sides"][k] = {
                "totals": {
                    "melded": s["melded"],
                    "in_hand": -s["in_hand"],
                    "bonuses": s["bonus_counts"],
                },
                "took_pot": side["took_pot"],
                "went_out": side["went_out"],
            } | ({"final_discard": side["final_discard"]} if "final_discard" in side else {})
    again = _score(as_totals)
    assert again["totals"] == out["totals"]


@given(
    game=st.sampled_from(["biriba", "burraco"]),
    figures=st.lists(
        # every deal stays possible: at most 515 + 150 + 165 points, under the 960 of all cards
        st.tuples(st.integers(0, 100), st.integers(0, 30), st.booleans()),
        min_size=1,
        max_size=16,
    ),
)
def test_the_match_ends_exactly_when_one_side_leads_at_the_target(game, figures):
    deals = []
    for melded, in_hand, pot in figures:
        deals.append(
            {
                "sides": [
                    {
                        "totals": {"melded": 15 + melded * 5, "in_hand": in_hand * 5},
                        "took_pot": pot,
                    },
                    {"totals": {"melded": 15 + in_hand * 5, "in_hand": 0}, "took_pot": not pot},
                ]
            }
        )
    doc = {"format": "scorekeeper-match/1", "game": game, "players": PLAYERS, "deals": deals}
    target = 3000 if game == "biriba" else 2000
    totals = [0, 0]
    for i in range(len(deals)):
        try:
            out = score_document({**doc, "deals": deals[: i + 1]})
        except RuleError as e:
            assert e.code == "match_finished" and e.where == (f"deal {i + 1}",)
            assert max(totals) >= target and totals[0] != totals[1]
            return
        totals = out["totals"]
        assert all(t % 5 == 0 for t in totals)
        leader_alone = totals[0] != totals[1]
        assert out["finished"] == (max(totals) >= target and leader_alone)
        if out["finished"]:
            assert out["winner"] == totals.index(max(totals))
        else:
            assert out["winner"] is None
