"""Burraco (Italian rummy): rules options and presets, meld values and bonuses, the engine.

Seed: seeds/002_*.txt (Greek); rules.md fixes the defaults and names the options.

- Cards: JK 30, 2 20, A 15, 8 to K 10, 3 to 7 5.
- A meld of 7 cards or more is a burraco: pulito (clean) 200, sporco (dirty) 100, and with
  ``semipulito`` on, semipulito 150: a run whose one wild stands at an end of at least 7
  consecutive naturals, or a set of at least 8 cards including the wild.
- A run holds at most 13 natural cards; a wild may stand after them as a 14th card. A set
  holds at most 9 cards (8 naturals and a wild).
- Going out +100 (``going_out_bonus``); a side that did not take its pozzetto −100
  (``no_pot_penalty``). Going out needs the pozzetto, a burraco (``close_needs: "any"``) or a
  clean one (``"clean"``; a semipulito is not clean), and a closing discard that is not wild
  (when it is recorded: ``final_discard`` on the side that went out).
- ``duplicate_sets`` off: a side may not have two sets of one rank.
- ``set_ranks: "aces_and_threes"`` (the international rules): sets are allowed only of aces
  and of threes, the "extreme" cards; every other set is refused, whatever its length. Runs
  are not affected, and a set of aces or threes still holds at most one wild. We read the
  option this way because the international code forbids sets ("combinazioni") except of aces
  and threes; it does not mean "every rank from three to ace" (that is ``"all"``: a set of
  twos is never a meld).

Presets (``preset``) set several options at once; any key beside it overrides the preset:

=================  =========  =======  ===============
option             classic    fibur    international
=================  =========  =======  ===============
target             2000       2005     2000
semipulito         false      true     false
close_needs        any        any      clean
set_ranks          all        all      aces_and_threes
duplicate_sets     true       false    true
=================  =========  =======  ===============
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import rummy, schema
from .base import DealStep, MatchHeader, MatchResult, Standing, fold
from .cards import ACE, Card, Suit, cards_text
from .errors import Place, RuleError, Term
from .melds import MeldKind, MeldReading, MeldRules, rank_term, read_meld
from .rummy import MeldScore, RummyDeal, Side

NAME = "burraco"
PLAYER_COUNTS = (2, 4)

BURRACO = 7  # cards in a burraco
THREE = 3

BONUS_KINDS = ("clean_burraco", "semi_clean_burraco", "dirty_burraco")
BONUS = {"clean_burraco": 200, "semi_clean_burraco": 150, "dirty_burraco": 100}

SPEC = rummy.GameSpec(
    name=NAME,
    bonus_kinds=BONUS_KINDS,
    trump=False,
    final_discard=True,
    pot="pozzetto",
)

#: Card values by rank (0 = joker).
VALUES: dict[int, int] = (
    {0: 30, 1: 15, 2: 20} | {r: 5 for r in range(3, 8)} | {r: 10 for r in range(8, 14)}
)


class Preset(StrEnum):
    CLASSIC = "classic"
    FIBUR = "fibur"
    INTERNATIONAL = "international"


class CloseNeeds(StrEnum):
    ANY = "any"
    CLEAN = "clean"


class SetRanks(StrEnum):
    ALL = "all"
    ACES_AND_THREES = "aces_and_threes"


@dataclass(frozen=True)
class BurracoRules:
    preset: Preset = Preset.CLASSIC
    target: int = 2000
    semipulito: bool = False
    close_needs: CloseNeeds = CloseNeeds.ANY
    set_ranks: SetRanks = SetRanks.ALL
    duplicate_sets: bool = True
    going_out_bonus: int = 100
    no_pot_penalty: int = 100


PRESETS: dict[Preset, dict[str, Any]] = {
    Preset.CLASSIC: {},
    Preset.FIBUR: {"target": 2005, "semipulito": True, "duplicate_sets": False},
    Preset.INTERNATIONAL: {
        "close_needs": CloseNeeds.CLEAN,
        "set_ranks": SetRanks.ACES_AND_THREES,
    },
}

_READERS = {
    "preset": rummy.option_choice(Preset),
    "target": rummy.option_target,
    "semipulito": schema.boolean,
    "close_needs": rummy.option_choice(CloseNeeds),
    "set_ranks": rummy.option_choice(SetRanks),
    "duplicate_sets": schema.boolean,
    "going_out_bonus": rummy.points,
    "no_pot_penalty": rummy.points,
}


def parse_rules(raw: Mapping[str, Any]) -> BurracoRules:
    """The rules object of a match: the preset's values, then any key given beside it."""
    given = rummy.parse_options(raw, _READERS)
    preset = given.get("preset", Preset.CLASSIC)
    return BurracoRules(**(PRESETS[preset] | given))


def rules_json(rules: BurracoRules) -> dict[str, Any]:
    return rummy.options_json(rules)


# --- melds ----------------------------------------------------------------------------------


def meld_rules(rules: BurracoRules) -> MeldRules:
    """Runs of up to 13 naturals and a 14th wild; sets of up to 9 cards, of the allowed ranks."""
    ranks = frozenset({ACE, THREE}) if rules.set_ranks is SetRanks.ACES_AND_THREES else None
    return MeldRules(
        run_extra_wild=True,
        sets=True,
        set_max_naturals=8,
        set_max_cards=9,
        set_ranks=ranks,
        semi_clean=rules.semipulito,
    )


def card_value(card: Card) -> int:
    return VALUES[card.rank]


def bonus_kind(reading: MeldReading) -> str | None:
    """``clean_burraco``, ``semi_clean_burraco``, ``dirty_burraco``, or None under 7 cards."""
    if reading.length < BURRACO:
        return None
    return f"{reading.purity.value}_burraco"


def meld_score(cards: Iterable[Card | str] | str, rules: BurracoRules) -> MeldScore:
    """Read and value one meld: its reading, card points, bonus kind and bonus points.

    ``cards`` may be Card values, card strings or one string (``"5D 6D 7D 8D 9D 10D JD JK"``).
    Raises :class:`RuleError` saying why the cards are not a meld under these rules."""

    def worth(reading: MeldReading) -> int:
        kind = bonus_kind(reading)
        return BONUS[kind] if kind else 0

    reading = read_meld(cards, rules=meld_rules(rules), value=worth)
    kind = bonus_kind(reading)
    return MeldScore(
        reading=reading,
        card_points=sum(card_value(c) for c in reading.cards),
        bonus=kind,
        bonus_points=BONUS[kind] if kind else 0,
    )


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """Burraco's part of scoring a deal (see :class:`rummy.RummyScoring`)."""

    rules: BurracoRules

    @property
    def spec(self) -> rummy.GameSpec:
        return SPEC

    @property
    def going_out_bonus(self) -> int:
        return self.rules.going_out_bonus

    @property
    def no_pot_penalty(self) -> int:
        return self.rules.no_pot_penalty

    def card_value(self, card: Card) -> int:
        return card_value(card)

    def meld_score(self, cards: Sequence[Card], trump: Suit | None) -> MeldScore:
        return meld_score(cards, self.rules)

    def bonus_points(self, kind: str) -> int:
        return BONUS[kind]

    def check_bonus_kind(self, kind: str, trump: Suit | None) -> None:
        if kind == "semi_clean_burraco" and not self.rules.semipulito:
            raise RuleError(
                "bonus_not_in_rules",
                "a semi-clean burraco cannot be: the option {option} is off under these rules",
                option=Term("option", "semipulito"),
            )

    def least_melded(self, kind: str) -> int:
        wild = rummy.least_wild(card_value)
        ranks = (ACE, THREE) if self.rules.set_ranks is SetRanks.ACES_AND_THREES else range(3, 14)
        if kind == "clean_burraco":
            run = rummy.least_run(card_value, BURRACO, None)
            meld_set = rummy.least_set(card_value, ranks, BURRACO, None)
        elif kind == "dirty_burraco":
            run = rummy.least_run(card_value, BURRACO, wild)
            meld_set = rummy.least_set(card_value, ranks, BURRACO, wild)
        else:  # semi-clean: 7 consecutive naturals and a wild at an end; a set of 7 and a wild
            run = rummy.least_run(card_value, BURRACO, None) + wild
            meld_set = rummy.least_set(card_value, ranks, BURRACO + 1, wild)
        return min(run, meld_set)

    def least_cards(self, kind: str) -> int:
        return BURRACO

    def check_melds(self, melds: Sequence[tuple[Sequence[Card], MeldScore]]) -> None:
        if self.rules.duplicate_sets:
            return
        first: dict[int, int] = {}
        for m, (cards, scored) in enumerate(melds, 1):
            reading = scored.reading
            if reading.kind is not MeldKind.SET or reading.rank is None:
                continue
            if reading.rank in first:
                raise RuleError(
                    "duplicate_set",
                    "a second set of {rank} on this side (meld {first} is one): the option "
                    "{option} is off under these rules",
                    rank=rank_term(reading.rank),
                    option=Term("option", "duplicate_sets"),
                    first=first[reading.rank],
                    where=(rummy.meld_place(m, cards),),
                    place=Place(field="melds", meld=m),
                )
            first[reading.rank] = m

    def check_end(self, side: Side, counts: Mapping[str, int]) -> None:
        if side.final_discard is not None and side.final_discard.is_wild:
            raise RuleError(
                "wild_closing_discard",
                "the closing discard {card} is a wild card: a side cannot go out on a wild",
                card=cards_text([side.final_discard]),
                where=("final_discard",),
                place=Place(field="final_discard"),
            )
        if not side.went_out:
            return
        if self.rules.close_needs is CloseNeeds.CLEAN:
            if not counts.get("clean_burraco"):
                raise RuleError(
                    "went_out_without_clean_burraco",
                    "went out without a clean burraco (the option {option} is {value})",
                    option=Term("option", "close_needs"),
                    value=Term("close_needs", self.rules.close_needs.value),
                )
        elif not any(counts.values()):
            raise RuleError(
                "went_out_without_burraco", "went out without a burraco: going out needs one"
            )


def score_side(side: Side, rules: BurracoRules, *, one_player: bool = False) -> rummy.SideScore:
    """Check and score one side on its own (the site's preview while a side is entered)."""
    return rummy.score_side(side, Scoring(rules), trump=None, one_player=one_player)


def hand_points(cards: Iterable[Card | str], rules: BurracoRules) -> int:
    """What cards left in hand count in a side's score (negative): see
    :func:`rummy.hand_points`."""
    return rummy.hand_points(cards, Scoring(rules))


def bonus_kinds(rules: BurracoRules, *, trump: None = None) -> tuple[str, ...]:
    """The bonus kinds a totals side may count under ``rules``: see :func:`rummy.bonus_kinds`."""
    return rummy.bonus_kinds(Scoring(rules), trump=None)


def score_side_alone(
    raw: object,
    rules: BurracoRules,
    *,
    trump: Suit | str | None = None,
    one_player: bool = False,
) -> rummy.SideScore:
    """What one side scores on its own, the side as the document writes it; ``trump``:
    None (Burraco has no trump: one given is refused). See :func:`rummy.score_side_alone`."""
    return rummy.score_side_alone(raw, Scoring(rules), trump=trump, one_player=one_player)


def score_deal(
    header: MatchHeader, rules: BurracoRules, deal: RummyDeal, *, number: int = 1
) -> rummy.DealScore:
    """Check a whole deal against the rules and score it (errors start with ``deal N``)."""
    return rummy.score_deal(header, deal, Scoring(rules), number=number)


# --- the engine (see base.GameEngine) ----------------------------------------------------------


def parse_deal(raw: object, *, header: MatchHeader, rules: BurracoRules, index: int) -> RummyDeal:
    return rummy.parse_deal(raw, spec=SPEC, header=header, index=index)


def deal_json(deal: RummyDeal) -> dict[str, Any]:
    return rummy.deal_json(deal, SPEC)


def score(header: MatchHeader, rules: BurracoRules, deals: Sequence[RummyDeal]) -> MatchResult:
    """Score every deal in order, then the match state: the fold of :func:`step`."""
    return fold(header, rules, deals, start=start, step=step, standing=standing)


def start(header: MatchHeader, rules: BurracoRules) -> rummy.RummyTally:
    return rummy.start(header)


def step(
    header: MatchHeader, rules: BurracoRules, tally: rummy.RummyTally, deal: RummyDeal
) -> DealStep:
    return rummy.step(header, tally, deal, Scoring(rules), target=rules.target)


def standing(header: MatchHeader, rules: BurracoRules, tally: rummy.RummyTally) -> Standing:
    return rummy.standing(header, tally, target=rules.target)


def tally_json(tally: rummy.RummyTally) -> dict[str, Any]:
    return rummy.tally_json(tally)


def tally_from_json(data: object, header: MatchHeader, rules: BurracoRules) -> rummy.RummyTally:
    return rummy.tally_from_json(data, header)
