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

Three players (``three_players``, :mod:`.burraco_three`), tournament victory points
(``match_deals``, ``vp_table``, :mod:`.victory_points`) and house values (``card_values``,
``burraco_bonuses``): rules.md's "Additions (turn 2)". Options that depend on the number of
players are checked by :func:`rules_at_table` (match.py calls it once the players are read).

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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from . import burraco_three as three
from . import rummy, schema
from . import victory_points as vp
from .base import DealStep, MatchHeader, MatchResult, Standing, fold
from .burraco_three import PairRounding, Phase, ThreePlayers, ThreeTally
from .cards import ACE, Card, Suit, _quote, _type_name, cards_text
from .errors import OneOf, Place, RuleError, Term, Words
from .melds import MeldKind, MeldReading, MeldRules, rank_term, read_meld
from .rummy import MeldScore, RummyDeal, Side

NAME = "burraco"
# What a new match offers (``PLAYER_COUNTS``), and what a document may have
# (``DOCUMENT_PLAYER_COUNTS``).
PLAYER_COUNTS = (2, 3, 4)
DOCUMENT_PLAYER_COUNTS = (2, 3, 4)

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

#: The ranks as ``card_values`` names them, in the order of the card values' table.
RANK_CODES = ("JK", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
RANK_OF: dict[str, int] = {"JK": 0, "A": 1, "J": 11, "Q": 12, "K": 13} | {
    str(n): n for n in range(2, 11)
}


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
    """The options of a match, resolved. ``card_values`` and ``burraco_bonuses`` hold only
    the house's values that differ from the standard ones (in the tables' order); ``given``
    the keys the rules object wrote (a default that depends on the table, such as the target
    of three players, is filled in only where the key was left out)."""

    preset: Preset = Preset.CLASSIC
    target: int = 2000
    semipulito: bool = False
    close_needs: CloseNeeds = CloseNeeds.ANY
    set_ranks: SetRanks = SetRanks.ALL
    duplicate_sets: bool = True
    going_out_bonus: int = 100
    no_pot_penalty: int = 100
    three_players: ThreePlayers | None = None
    alone_from: int | None = three.ALONE_FROM
    pair_rounding: PairRounding = PairRounding.UP
    match_deals: int | None = None
    vp_table: str | vp.Table = vp.FIBUR
    card_values: tuple[tuple[str, int], ...] = ()
    burraco_bonuses: tuple[tuple[str, int], ...] = ()
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)


PRESETS: dict[Preset, dict[str, Any]] = {
    Preset.CLASSIC: {},
    Preset.FIBUR: {"target": 2005, "semipulito": True, "duplicate_sets": False},
    Preset.INTERNATIONAL: {
        "close_needs": CloseNeeds.CLEAN,
        "set_ranks": SetRanks.ACES_AND_THREES,
    },
}


def _whole_or_null(least: int) -> Callable[[object, str], int | None]:
    """An option that is a whole number ``least`` or more, or null."""

    def read(raw: object, key: str) -> int | None:
        return None if raw is None else schema.integer(raw, key, minimum=least)

    return read


def _house_value(raw: object, what: Any, key: str) -> int:
    """A house value: a whole multiple of 5, 0 or more (so every total stays one); a refusal
    names the option (``key``) and, in its words, what the value is of (``what``)."""
    if type(raw) is not int or raw < 0 or raw % 5:
        shown = _quote(raw) if isinstance(raw, int | float | str) else _type_name(raw)
        raise RuleError(
            "bad_house_value",
            "{value} cannot be the value of {what}: values are whole multiples of 5, 0 or more",
            value=shown,
            what=what,
            where=(key,),
            place=Place(key=key),
        )
    return raw


def _house_object(raw: object, key: str, allowed: Sequence[str], kind: str | None) -> dict:
    """The object of house values ``key`` holds, every key among ``allowed``."""
    if not isinstance(raw, dict):
        raise RuleError(
            "bad_type",
            "expected {what}, got {got}",
            what=Words("an object of values"),
            got=_type_name(raw),
            where=(key,),
            place=Place(key=key),
        )
    for name in raw:
        if name not in allowed:
            raise RuleError(
                "unknown_key",
                "unknown key {key} (expected one of: {allowed})",
                key=_quote(name),
                allowed=OneOf(Term(kind, k) if kind else k for k in allowed),
                where=(key,),
                place=Place(key=key),
            )
    return raw


def parse_card_values(raw: object, key: str) -> tuple[tuple[str, int], ...]:
    """``"standard"``, or the house's value of some ranks: those that differ from the
    standard ones, in :data:`RANK_CODES` order."""
    if isinstance(raw, str):
        if raw == "standard":
            return ()
        raise RuleError(
            "bad_card_values",
            '{value} is not a set of Burraco card values: "standard", or an object giving the '
            "house's value of some ranks",
            value=_quote(raw),
            where=(key,),
            place=Place(field=key),
        )
    values = _house_object(raw, key, RANK_CODES, None)
    read = {
        code: _house_value(values[code], _rank_words(code), key)
        for code in RANK_CODES
        if code in values
    }
    return tuple((code, v) for code, v in read.items() if v != VALUES[RANK_OF[code]])


def _rank_words(code: str) -> Any:
    return Words("jokers") if code == "JK" else Term("rank", code)


def parse_bonuses(raw: object, key: str) -> tuple[tuple[str, int], ...]:
    """The house's burraco bonuses: those that differ from the standard ones, in
    :data:`BONUS_KINDS` order."""
    values = _house_object(raw, key, BONUS_KINDS, "bonus")
    read = {
        kind: _house_value(values[kind], Term("bonus", kind), key)
        for kind in BONUS_KINDS
        if kind in values
    }
    return tuple((kind, v) for kind, v in read.items() if v != BONUS[kind])


_READERS = {
    "preset": rummy.option_choice(Preset),
    "target": rummy.option_target,
    "semipulito": schema.boolean,
    "close_needs": rummy.option_choice(CloseNeeds),
    "set_ranks": rummy.option_choice(SetRanks),
    "duplicate_sets": schema.boolean,
    "going_out_bonus": rummy.points,
    "no_pot_penalty": rummy.points,
    "three_players": rummy.option_choice(ThreePlayers),
    "alone_from": _whole_or_null(0),
    "pair_rounding": rummy.option_choice(PairRounding),
    "match_deals": _whole_or_null(1),
    "vp_table": vp.parse_table,
    "card_values": parse_card_values,
    "burraco_bonuses": parse_bonuses,
}

#: The options of Burraco for three, refused at a table of 2 or 4.
THREE_PLAYER_KEYS = ("three_players", "alone_from", "pair_rounding")
#: The options of a match of a set number of deals, refused at a table of 3.
VP_KEYS = ("match_deals", "vp_table")


def parse_rules(raw: Mapping[str, Any]) -> BurracoRules:
    """The rules object of a match: the preset's values, then any key given beside it. What
    depends on the number of players is for :func:`rules_at_table`."""
    given = rummy.parse_options(raw, _READERS)
    preset = given.get("preset", Preset.CLASSIC)
    rules = BurracoRules(**(PRESETS[preset] | given), given=frozenset(given))
    check_options(rules)
    return rules


def check_options(rules: BurracoRules) -> None:
    """Options that cannot go together, whatever the table."""
    given = rules.given
    if rules.three_players is ThreePlayers.EACH_ALONE:
        for key in ("alone_from", "pair_rounding"):
            if key in given:
                raise RuleError(
                    "option_only_fibur",
                    "{option} has no effect when every player plays alone from the first deal "
                    "({form}): leave it out",
                    option=Term("option", key),
                    form=Term("three_players", ThreePlayers.EACH_ALONE.value),
                    where=(key,),
                    place=Place(field=key),
                )
    if rules.match_deals is None:
        if "vp_table" in given:
            raise RuleError(
                "vp_table_without_match_deals",
                "a table of victory points needs {option}: victory points are for a match of "
                "a set number of deals",
                option=Term("option", "match_deals"),
                where=("vp_table",),
                place=Place(field="vp_table"),
            )
        return
    if "target" in given:
        raise RuleError(
            "target_with_match_deals",
            "a match of a set number of deals ({option}) has no target: leave the target out",
            option=Term("option", "match_deals"),
            where=("target",),
            place=Place(field="target"),
        )
    if rules.vp_table == vp.FIBUR:
        vp.check_fibur_table(
            rules.match_deals, "vp_table" if "vp_table" in given else "match_deals"
        )


def rules_at_table(rules: BurracoRules, seats: int) -> BurracoRules:
    """The rules as a table of ``seats`` plays them: three players need ``three_players``
    and play to 1505 unless the target is given, and cannot play for victory points; two or
    four cannot have the three-player options."""
    if seats == three.SEATS:
        if rules.three_players is None:
            raise RuleError(
                "three_players_missing",
                "Burraco for 3 players needs the option {option}: {choices}",
                option=Term("option", "three_players"),
                choices=OneOf(Term("three_players", form.value) for form in ThreePlayers),
                where=("three_players",),
                place=Place(field="three_players"),
            )
        for key in VP_KEYS:
            if key in rules.given:
                raise RuleError(
                    "vp_three_players",
                    "{option} is for two sides, not for 3 players: victory points compare two "
                    "totals",
                    option=Term("option", key),
                    where=(key,),
                    place=Place(field=key),
                )
        return rules if "target" in rules.given else replace(rules, target=three.TARGET)
    for key in THREE_PLAYER_KEYS:
        if key in rules.given:
            raise RuleError(
                "three_players_option_seats",
                "{option} is for 3 players, not for {players}",
                option=Term("option", key),
                players=seats,
                where=(key,),
                place=Place(field=key),
            )
    return rules


def rules_json(rules: BurracoRules) -> dict[str, Any]:
    """Every option that applies with its resolved value: the options of three players only
    with three players, ``match_deals`` and ``vp_table`` (and no target) only in a match of a
    set number of deals, house values only where they differ from the standard ones (a match
    that uses none of them writes what it wrote before they existed)."""
    out = {
        key: value.value if isinstance(value, StrEnum) else value
        for key, value in vars(rules).items()
        if key in _BASE_OPTIONS
    }
    if rules.match_deals is not None:
        del out["target"]
        out["match_deals"] = rules.match_deals
        table = rules.vp_table
        out["vp_table"] = table if isinstance(table, str) else [list(band) for band in table]
    if rules.three_players is not None:
        out["three_players"] = rules.three_players.value
        if rules.three_players is ThreePlayers.FIBUR:
            out["alone_from"] = rules.alone_from
            out["pair_rounding"] = rules.pair_rounding.value
    if rules.card_values:
        out["card_values"] = card_values(rules)
    if rules.burraco_bonuses:
        out["burraco_bonuses"] = bonus_values(rules)
    return out


_BASE_OPTIONS = (
    "preset",
    "target",
    "semipulito",
    "close_needs",
    "set_ranks",
    "duplicate_sets",
    "going_out_bonus",
    "no_pot_penalty",
)


def card_values(rules: BurracoRules) -> dict[str, int]:
    """What each rank is worth under ``rules`` (house values over the standard ones), by
    :data:`RANK_CODES`."""
    house = dict(rules.card_values)
    return {code: house.get(code, VALUES[RANK_OF[code]]) for code in RANK_CODES}


def bonus_values(rules: BurracoRules) -> dict[str, int]:
    """What each burraco bonus is worth under ``rules``."""
    return BONUS | dict(rules.burraco_bonuses)


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
    """What ``card`` is worth at the standard values (:func:`Scoring.card_value`: the house's)."""
    return VALUES[card.rank]


def bonus_kind(reading: MeldReading) -> str | None:
    """``clean_burraco``, ``semi_clean_burraco``, ``dirty_burraco``, or None under 7 cards."""
    if reading.length < BURRACO:
        return None
    return f"{reading.purity.value}_burraco"


def meld_score(cards: Iterable[Card | str] | str, rules: BurracoRules) -> MeldScore:
    """Read and value one meld under ``rules`` (house values included): its reading, card
    points, bonus kind and bonus points.

    ``cards`` may be Card values, card strings or one string (``"5D 6D 7D 8D 9D 10D JD JK"``).
    Raises :class:`RuleError` saying why the cards are not a meld under these rules."""
    return Scoring(rules).meld_score(cards, None)


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """Burraco's part of scoring a deal (see :class:`rummy.RummyScoring`), at the house's card
    values and bonuses (the standard ones where the rules name none)."""

    rules: BurracoRules
    values: Mapping[int, int] = field(init=False, compare=False, repr=False)
    bonus: Mapping[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        values = VALUES | {RANK_OF[code]: v for code, v in self.rules.card_values}
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "bonus", bonus_values(self.rules))

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
        return self.values[card.rank]

    def meld_score(self, cards: Iterable[Card | str] | str, trump: Suit | None) -> MeldScore:
        """The reading with the fewest wilds, then the one worth most at the house's bonuses
        (the cards' points are the same in every reading of them)."""

        def worth(reading: MeldReading) -> int:
            kind = bonus_kind(reading)
            return self.bonus[kind] if kind else 0

        reading = read_meld(cards, rules=meld_rules(self.rules), value=worth)
        kind = bonus_kind(reading)
        return MeldScore(
            reading=reading,
            card_points=sum(self.card_value(c) for c in reading.cards),
            bonus=kind,
            bonus_points=self.bonus[kind] if kind else 0,
        )

    def bonus_points(self, kind: str) -> int:
        return self.bonus[kind]

    def check_bonus_kind(self, kind: str, trump: Suit | None) -> None:
        if kind == "semi_clean_burraco" and not self.rules.semipulito:
            raise RuleError(
                "bonus_not_in_rules",
                "a semi-clean burraco cannot be: the option {option} is off under these rules",
                option=Term("option", "semipulito"),
            )

    def least_melded(self, kind: str) -> int:
        value = self.card_value
        wild = rummy.least_wild(value)
        ranks = (ACE, THREE) if self.rules.set_ranks is SetRanks.ACES_AND_THREES else range(3, 14)
        if kind == "clean_burraco":
            run = rummy.least_run(value, BURRACO, None)
            meld_set = rummy.least_set(value, ranks, BURRACO, None)
        elif kind == "dirty_burraco":
            run = rummy.least_run(value, BURRACO, wild)
            meld_set = rummy.least_set(value, ranks, BURRACO, wild)
        else:  # semi-clean: 7 consecutive naturals and a wild at an end; a set of 7 and a wild
            run = rummy.least_run(value, BURRACO, None) + wild
            meld_set = rummy.least_set(value, ranks, BURRACO + 1, wild)
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

type Tally = rummy.RummyTally | ThreeTally


def parse_deal(raw: object, *, header: MatchHeader, rules: BurracoRules, index: int) -> RummyDeal:
    if header.seats == three.SEATS:
        return three.parse_deal(raw, spec=SPEC, header=header, index=index)
    return rummy.parse_deal(raw, spec=SPEC, header=header, index=index)


def deal_json(deal: RummyDeal) -> dict[str, Any]:
    return rummy.deal_json(deal, SPEC)


def score(header: MatchHeader, rules: BurracoRules, deals: Sequence[RummyDeal]) -> MatchResult:
    """Score every deal in order, then the match state: the fold of :func:`step`."""
    return fold(header, rules, deals, start=start, step=step, standing=standing)


def _form(rules: BurracoRules) -> ThreePlayers:
    """The form of three-player Burraco ``rules`` play (refused when they name none: rules
    read without their table, see :func:`rules_at_table`)."""
    if rules.three_players is None:
        rules_at_table(rules, three.SEATS)
    assert rules.three_players is not None
    return rules.three_players


def start(header: MatchHeader, rules: BurracoRules) -> Tally:
    if header.seats == three.SEATS:
        return three.start(header, form=_form(rules), alone_from=rules.alone_from)
    return rummy.start(header)


def step(header: MatchHeader, rules: BurracoRules, tally: Tally, deal: RummyDeal) -> DealStep:
    scoring = Scoring(rules)
    if isinstance(tally, ThreeTally):
        return three.step(
            header,
            tally,
            deal,
            scoring,
            alone_from=rules.alone_from,
            rounding=rules.pair_rounding,
            target=rules.target,
        )
    if rules.match_deals is None:
        return rummy.step(header, tally, deal, scoring, target=rules.target)
    if tally.deals >= rules.match_deals:
        number = tally.deals + 1
        raise RuleError(
            "match_deals_over",
            "the match already ended after deal {last}, the last of the deals it is played "
            "for: no deal may be added",
            last=rules.match_deals,
            where=(f"deal {number}",),
            place=Place(deal=number),
        )
    return rummy.step(header, tally, deal, scoring, target=None)


def standing(header: MatchHeader, rules: BurracoRules, tally: Tally) -> Standing:
    """Where the match stands: at the target (two, three or four players), or after its set
    number of deals (``match_deals``: the higher total wins, and the export gives the victory
    points; the next deal says how many are left)."""
    if isinstance(tally, ThreeTally):
        return three.standing(header, tally, target=rules.target)
    if rules.match_deals is None:
        return rummy.standing(header, tally, target=rules.target)
    finished = tally.deals >= rules.match_deals
    points = victory_points(rules, tally.totals) if finished else None
    next_deal: dict[str, Any] = {}
    if not finished:
        next_deal = {
            "number": tally.deals + 1,
            "dealer": rummy.dealer_of(header, tally.deals),
            "deals_left": vp.deals_left(rules.match_deals, tally.deals),
        }
    return Standing(
        deals=tally.deals,
        totals=tally.totals,
        finished=finished,
        winner=leader(tally.totals) if finished else None,
        next_deal=next_deal,
        export={"victory_points": None if points is None else list(points)},
    )


def leader(totals: Sequence[int]) -> int | None:
    """The side with the highest total, or None when it is shared."""
    best = max(totals)
    return list(totals).index(best) if list(totals).count(best) == 1 else None


def tally_json(tally: Tally) -> dict[str, Any]:
    if isinstance(tally, ThreeTally):
        return three.tally_json(tally)
    return rummy.tally_json(tally)


def tally_from_json(data: object, header: MatchHeader, rules: BurracoRules) -> Tally:
    if header.seats == three.SEATS:
        return three.tally_from_json(data, header)
    return rummy.tally_from_json(data, header)


# --- what a page shows of a match ----------------------------------------------------------------


def victory_points(rules: BurracoRules, totals: Sequence[int]) -> tuple[int, int] | None:
    """The VP of side 0 and side 1 that ``totals`` give under the match's table (None when
    the match is not played for VP): at the end, the match's; before it, the VP if it ended
    now."""
    if rules.match_deals is None:
        return None
    return vp.victory_points(vp.table_of(rules.vp_table, rules.match_deals), totals)


def deals_left(rules: BurracoRules, deals: int) -> int | None:
    """How many deals a match of a set number of deals still plays after ``deals`` (None:
    the match is played to a target)."""
    return None if rules.match_deals is None else vp.deals_left(rules.match_deals, deals)


def player_totals(header: MatchHeader, tally: Tally) -> tuple[int, ...]:
    """Each seat's total: its own with three players, its side's with two or four."""
    if isinstance(tally, ThreeTally):
        return tally.totals
    return tuple(tally.totals[header.side_of_seat(seat)] for seat in range(header.seats))


@dataclass(frozen=True)
class Outlook:
    """What the page of a Burraco match shows beside the totals, from its tally alone.

    ``phase`` and ``each_alone_from`` (three players): how the next deal is played (solo and
    pair, or each alone) and from which deal every player plays alone (None while solo and
    pair). ``deals_left``, ``victory_points_now`` and ``victory_points`` (a match of
    ``match_deals`` deals): the deals still to play, the VP the totals would give if the match
    ended now, and the match's VP once it is finished (None before)."""

    player_totals: tuple[int, ...]
    phase: Phase | None = None
    each_alone_from: int | None = None
    deals_left: int | None = None
    victory_points_now: tuple[int, int] | None = None
    victory_points: tuple[int, int] | None = None


def outlook(header: MatchHeader, rules: BurracoRules, tally: Tally) -> Outlook:
    """The :class:`Outlook` of a match after the deals ``tally`` counts (the site keeps the
    tally: :func:`scorekeeper.rules.incremental.state_of`, ``State.tally``)."""
    if isinstance(tally, ThreeTally):
        return Outlook(
            player_totals=tally.totals,
            phase=three.phase_of(tally),
            each_alone_from=tally.alone_since,
        )
    now = victory_points(rules, tally.totals)
    left = deals_left(rules, tally.deals)
    return Outlook(
        player_totals=player_totals(header, tally),
        deals_left=left,
        victory_points_now=now,
        victory_points=now if left == 0 else None,
    )
