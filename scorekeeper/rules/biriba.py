"""Biriba (Greek rummy): rules options, meld values and bonuses, the engine for match.py.

Seed: the STEKIUS rules (seeds/000_*.txt); rules.md fixes the defaults and names the options.

- Cards: JK 20, A 15, 2 10, 8 to K 10, 3 to 7 5 (``card_values: "standard"``); or JK 30,
  A 15, 2 10, 10 to K 10, 3 to 9 5 (``"greek_wikipedia"``).
- A meld of 7 cards or more is a biriba: clean 200, dirty 100. A run of 13 (A to K or 2 to
  A) is a whole suit: clean 1000, dirty 500, replacing the biriba bonus (``whole_suit``:
  ``"replaces"``), added to it (``"adds"``) or not counted (``"ordinary"``: a plain biriba).
  A set of 7 or more (``sets`` on) is a set biriba: clean 300, dirty 150.
- A run biriba in the deal's trump suit scores its whole bonus twice (``trump_doubles``);
  card values are never doubled, sets never. No trump recorded: nothing is doubled.
- Going out +100 (``going_out_bonus``); a side that did not take its biribaki −100
  (``no_pot_penalty``). Going out needs the biribaki, and a clean biriba (a clean run, whole
  suit or set biriba) when ``close_needs_clean_biriba``; with ``pot_needs_biriba`` a side that
  took its biribaki must have a biriba at the end of the deal (melds only grow).
- A run holds at most 13 cards; sets (off by default) at most 8 natural cards and one wild.

Bonus kinds are named by the meld's shape (``clean_trump_whole_suit``); their points follow
the options, so under ``whole_suit: "ordinary"`` a whole suit is still called one but scores
200/100, and with ``trump_doubles`` off a trump biriba scores as a plain one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from . import rummy, schema
from .base import DealStep, MatchHeader, MatchResult, Standing, fold
from .cards import Card, Suit, parse_suit
from .errors import RuleError, Term
from .melds import MeldKind, MeldReading, MeldRules, read_meld
from .rummy import MeldScore, RummyDeal, Side

NAME = "biriba"
PLAYER_COUNTS = (2, 3, 4)

BIRIBA = 7  # cards in a biriba
WHOLE_SUIT = 13  # cards in a whole suit

BONUS_KINDS = (
    "clean_biriba",
    "dirty_biriba",
    "clean_trump_biriba",
    "dirty_trump_biriba",
    "clean_whole_suit",
    "dirty_whole_suit",
    "clean_trump_whole_suit",
    "dirty_trump_whole_suit",
    "clean_set_biriba",
    "dirty_set_biriba",
)

SPEC = rummy.GameSpec(
    name=NAME,
    bonus_kinds=BONUS_KINDS,
    trump=True,
    final_discard=False,
    pot="biribaki",
)

#: (clean, dirty) bonus by shape, before trump doubling.
BONUS = {"biriba": (200, 100), "whole_suit": (1000, 500), "set_biriba": (300, 150)}


class CardValues(StrEnum):
    STANDARD = "standard"
    GREEK_WIKIPEDIA = "greek_wikipedia"


class WholeSuit(StrEnum):
    REPLACES = "replaces"
    ADDS = "adds"
    ORDINARY = "ordinary"


#: Card values by rank (0 = joker).
VALUES: dict[CardValues, dict[int, int]] = {
    CardValues.STANDARD: {0: 20, 1: 15, 2: 10}
    | {r: 5 for r in range(3, 8)}
    | {r: 10 for r in range(8, 14)},
    CardValues.GREEK_WIKIPEDIA: {0: 30, 1: 15, 2: 10}
    | {r: 5 for r in range(3, 10)}
    | {r: 10 for r in range(10, 14)},
}


@dataclass(frozen=True)
class BiribaRules:
    target: int = 3000
    sets: bool = False
    card_values: CardValues = CardValues.STANDARD
    trump_doubles: bool = True
    whole_suit: WholeSuit = WholeSuit.REPLACES
    close_needs_clean_biriba: bool = False
    pot_needs_biriba: bool = False
    going_out_bonus: int = 100
    no_pot_penalty: int = 100


_READERS = {
    "target": rummy.option_target,
    "sets": schema.boolean,
    "card_values": rummy.option_choice(CardValues),
    "trump_doubles": schema.boolean,
    "whole_suit": rummy.option_choice(WholeSuit),
    "close_needs_clean_biriba": schema.boolean,
    "pot_needs_biriba": schema.boolean,
    "going_out_bonus": rummy.points,
    "no_pot_penalty": rummy.points,
}


def parse_rules(raw: Mapping[str, Any]) -> BiribaRules:
    """The rules object of a match; a key left out takes its default."""
    return BiribaRules(**rummy.parse_options(raw, _READERS))


def rules_json(rules: BiribaRules) -> dict[str, Any]:
    return rummy.options_json(rules)


# --- melds ----------------------------------------------------------------------------------


def meld_rules(rules: BiribaRules) -> MeldRules:
    """What a Biriba meld may be: runs of up to 13 cards; sets (if on) of up to 8 naturals."""
    return MeldRules(run_extra_wild=False, sets=rules.sets, set_max_naturals=8, set_max_cards=9)


def card_value(card: Card, rules: BiribaRules) -> int:
    return VALUES[rules.card_values][card.rank]


def bonus_kind(reading: MeldReading, trump: Suit | None) -> str | None:
    """The bonus a meld earns by its shape (``clean_trump_biriba``), or None under 7 cards."""
    if reading.length < BIRIBA:
        return None
    purity = "clean" if reading.is_clean else "dirty"
    if reading.kind is MeldKind.SET:
        return f"{purity}_set_biriba"
    in_trump = "trump_" if trump is not None and reading.suit == trump else ""
    shape = "whole_suit" if reading.length == WHOLE_SUIT else "biriba"
    return f"{purity}_{in_trump}{shape}"


def bonus_points(kind: str, rules: BiribaRules) -> int:
    """Points of one bonus kind under the rules (whole suit option, trump doubling)."""
    clean = kind.startswith("clean_")
    in_trump = "_trump_" in kind
    shape = kind.split("_", 1)[1].removeprefix("trump_")
    points = BONUS[shape][0 if clean else 1]
    if shape == "whole_suit":
        plain = BONUS["biriba"][0 if clean else 1]
        points = {
            WholeSuit.REPLACES: points,
            WholeSuit.ADDS: points + plain,
            WholeSuit.ORDINARY: plain,
        }[rules.whole_suit]
    if in_trump and rules.trump_doubles:
        points *= 2
    return points


def meld_score(
    cards: Iterable[Card | str] | str, rules: BiribaRules, trump: Suit | None = None
) -> MeldScore:
    """Read and value one meld: its reading, card points, bonus kind and bonus points.

    ``cards`` may be Card values, card strings or one string (``"5S 6S 7S 2H 9S 10S JS"``).
    Raises :class:`RuleError` saying why the cards are not a meld under these rules."""

    def worth(reading: MeldReading) -> int:
        kind = bonus_kind(reading, trump)
        return bonus_points(kind, rules) if kind else 0

    reading = read_meld(cards, rules=meld_rules(rules), value=worth)
    kind = bonus_kind(reading, trump)
    return MeldScore(
        reading=reading,
        card_points=sum(card_value(c, rules) for c in reading.cards),
        bonus=kind,
        bonus_points=bonus_points(kind, rules) if kind else 0,
    )


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """Biriba's part of scoring a deal (see :class:`rummy.RummyScoring`)."""

    rules: BiribaRules

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
        return card_value(card, self.rules)

    def meld_score(self, cards: Sequence[Card], trump: Suit | None) -> MeldScore:
        return meld_score(cards, self.rules, trump)

    def bonus_points(self, kind: str) -> int:
        return bonus_points(kind, self.rules)

    def check_bonus_kind(self, kind: str, trump: Suit | None) -> None:
        if kind.endswith("set_biriba") and not self.rules.sets:
            raise RuleError(
                "bonus_not_in_rules",
                "a set biriba cannot be: the option {option} is off under these rules",
                option=Term("option", "sets"),
            )
        if "_trump_" in kind and trump is None:
            raise RuleError(
                "bonus_not_in_rules",
                "a trump biriba needs the deal's trump suit, and none is recorded",
            )

    def least_melded(self, kind: str) -> int:
        value = self.card_value
        wild = rummy.least_wild(value) if kind.startswith("dirty_") else None
        if kind.endswith("set_biriba"):
            return rummy.least_set(value, range(3, 14), BIRIBA, wild)
        length = WHOLE_SUIT if kind.endswith("whole_suit") else BIRIBA
        return rummy.least_run(value, length, wild)

    def least_cards(self, kind: str) -> int:
        return WHOLE_SUIT if kind.endswith("whole_suit") else BIRIBA

    def check_melds(self, melds: Sequence[tuple[Sequence[Card], MeldScore]]) -> None:
        return None

    def check_end(self, side: Side, counts: Mapping[str, int]) -> None:
        if side.went_out and self.rules.close_needs_clean_biriba:
            if not any(n and kind.startswith("clean_") for kind, n in counts.items()):
                raise RuleError(
                    "went_out_without_clean_biriba",
                    "went out without a clean biriba (the option {option} is on)",
                    option=Term("option", "close_needs_clean_biriba"),
                )
        if side.took_pot and self.rules.pot_needs_biriba and not any(counts.values()):
            raise RuleError(
                "pot_without_biriba",
                "took its biribaki without a biriba (the option {option} is on: a side takes "
                "it only once it has one)",
                option=Term("option", "pot_needs_biriba"),
            )


def score_side(
    side: Side, rules: BiribaRules, *, trump: Suit | None = None, one_player: bool = False
) -> rummy.SideScore:
    """Check and score one side on its own (the site's preview while a side is entered)."""
    return rummy.score_side(side, Scoring(rules), trump=trump, one_player=one_player)


def hand_points(cards: Iterable[Card | str], rules: BiribaRules) -> int:
    """What cards left in hand count in a side's score (negative): see
    :func:`rummy.hand_points`."""
    return rummy.hand_points(cards, Scoring(rules))


def bonus_kinds(rules: BiribaRules, *, trump: Suit | str | None = None) -> tuple[str, ...]:
    """The bonus kinds a totals side may count under ``rules`` with this deal's ``trump``: see
    :func:`rummy.bonus_kinds`."""
    if isinstance(trump, str):
        try:
            trump = parse_suit(trump)
        except RuleError as e:
            raise e.at("trump", field="trump") from None
    return rummy.bonus_kinds(Scoring(rules), trump=trump)


def score_side_alone(
    raw: object,
    rules: BiribaRules,
    *,
    trump: Suit | str | None = None,
    one_player: bool = False,
) -> rummy.SideScore:
    """What one side scores on its own, the side as the document writes it; ``trump``:
    the deal's trump suit (``"H"`` or a Suit), if one is recorded. See
    :func:`rummy.score_side_alone`."""
    return rummy.score_side_alone(raw, Scoring(rules), trump=trump, one_player=one_player)


def score_deal(
    header: MatchHeader, rules: BiribaRules, deal: RummyDeal, *, number: int = 1
) -> rummy.DealScore:
    """Check a whole deal against the rules and score it (errors start with ``deal N``)."""
    return rummy.score_deal(header, deal, Scoring(rules), number=number)


# --- the engine (see base.GameEngine) ----------------------------------------------------------


def parse_deal(raw: object, *, header: MatchHeader, rules: BiribaRules, index: int) -> RummyDeal:
    return rummy.parse_deal(raw, spec=SPEC, header=header, index=index)


def deal_json(deal: RummyDeal) -> dict[str, Any]:
    return rummy.deal_json(deal, SPEC)


def score(header: MatchHeader, rules: BiribaRules, deals: Sequence[RummyDeal]) -> MatchResult:
    """Score every deal in order, then the match state: the fold of :func:`step`."""
    return fold(header, rules, deals, start=start, step=step, standing=standing)


def start(header: MatchHeader, rules: BiribaRules) -> rummy.RummyTally:
    return rummy.start(header)


def step(
    header: MatchHeader, rules: BiribaRules, tally: rummy.RummyTally, deal: RummyDeal
) -> DealStep:
    return rummy.step(header, tally, deal, Scoring(rules), target=rules.target)


def standing(header: MatchHeader, rules: BiribaRules, tally: rummy.RummyTally) -> Standing:
    return rummy.standing(header, tally, target=rules.target)


def tally_json(tally: rummy.RummyTally) -> dict[str, Any]:
    return rummy.tally_json(tally)


def tally_from_json(data: object, header: MatchHeader, rules: BiribaRules) -> rummy.RummyTally:
    return rummy.tally_from_json(data, header)
