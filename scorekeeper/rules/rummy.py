"""What Biriba and Burraco share: deals, sides, copies, the end of a deal, scoring, the match.

A game module (``biriba``, ``burraco``) describes itself with a :class:`GameSpec` and scores
with a :class:`RummyScoring` built from its rules; everything else lives here:

- **Parsing** a deal strictly (:func:`parse_deal`): unknown keys, wrong types and missing keys
  are refused naming the place (``Anna & Chris, melds[1][3]``). A side is entered either as
  cards (``melds``, ``hand``) or as ``totals`` (``melded``, ``in_hand``, ``bonuses``); a side
  entered as cards may give its cards in hand as their value (``in_hand``) instead of a list,
  and a side entered as totals may give only its points for the deal (``points``: the figure a
  table that keeps only the score writes, every bonus, the hand and the pot in it).
- **Checking** a deal (:func:`score_deal`): every meld is read; across everything recorded no
  card appears more than twice and no more than 4 jokers; at most one side goes out; a side
  that goes out has taken its pot; a one-player side (2 or 3 players) that goes out holds no
  cards; a closing discard belongs to the side that went out; totals are plausible.
- **Scoring** a side: melded card points + meld bonuses + going-out bonus − cards in hand −
  pot penalty. Every figure is a multiple of 5, so every total is.
- **The match** (:func:`step`, :func:`standing`): running totals, the dealer rotation, and
  the end: after a deal, when some side has reached the target and one side is strictly
  highest, that side has won; equal leaders play on; no deal may follow the end. A deal is
  scored against the :class:`RummyTally` the deals before it left, and a game's ``score`` is the
  fold of it (:func:`~scorekeeper.rules.base.fold`).

Totals plausibility (a side entered as totals cannot be checked card by card): ``melded`` and
``in_hand`` are non-negative multiples of 5; each bonus kind must exist under the rules (a set
biriba needs sets on, a trump biriba a recorded trump, a semi-clean burraco ``semipulito``);
``melded`` must be 0 or at least the value of the cheapest 3-card meld; and ``melded`` must
cover the cheapest possible meld behind every bonus counted: each bonus is a separate meld of
at least 7 cards (13 for a whole suit), and the least such meld is computed from the game's
card values (e.g. Biriba standard: a clean biriba is worth at least 45 in cards, 3 to 9).
Across the deal, what every side records (totals, cards, closing discards) cannot be worth more
than all 108 cards (Biriba standard 960, Burraco 1080), nor need more than 108 cards (a bonus
needs 7, a whole suit 13): ``melded: 2350`` for 235 is refused. The checks never refuse a
possible entry and catch most slips of the pen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from . import schema
from .base import DealStep, MatchHeader, Standing, json_int, json_ints, json_object
from .cards import (
    ACE,
    JOKER,
    Card,
    Suit,
    _type_name,
    cards_text,
    parse_card,
    parse_cards,
    parse_suit,
)
from .errors import AllOf, Place, RuleError, Spot, Term, Times, Words
from .melds import HIGH_ACE, MIN_MELD, MeldReading, as_cards

# --- the game -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """What differs between the two rummy games outside their rules' values."""

    name: str
    bonus_kinds: tuple[str, ...]  # totals form: the bonus kinds, in the order they are shown
    trump: bool  # a deal records a trump suit (Biriba)
    final_discard: bool  # a side may record its closing discard (Burraco)
    pot: str  # "biribaki", "pozzetto"
    packs: int = 2

    @property
    def copies(self) -> int:
        """How many of one card the packs hold."""
        return self.packs

    @property
    def jokers(self) -> int:
        return 2 * self.packs


# --- deals ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardSide:
    """A side entered card by card: its melds and the cards its players still hold, or what
    those cards are worth (``in_hand``, for tables that count the hand by its value: the
    melds' cards are still checked card by card)."""

    melds: tuple[tuple[Card, ...], ...] = ()
    hand: tuple[Card, ...] = ()
    took_pot: bool = False
    went_out: bool = False
    final_discard: Card | None = None
    in_hand: int | None = None  # the hand's value, given instead of its cards


@dataclass(frozen=True)
class TotalsSide:
    """A side entered as totals: points melded, points in hand, bonuses counted by kind."""

    melded: int = 0
    in_hand: int = 0
    bonuses: tuple[tuple[str, int], ...] = ()  # (kind, count > 0), in the game's kind order
    took_pot: bool = False
    went_out: bool = False
    final_discard: Card | None = None


@dataclass(frozen=True)
class CountedSide:
    """A side entered as one figure: its points for the deal as the table counted them (the
    melds, bonuses, going out, the hand and the pot all in it). ``took_pot`` None: not said
    (the figure holds what the pot did)."""

    points: int = 0
    took_pot: bool | None = None
    went_out: bool = False
    final_discard: Card | None = None


Side = CardSide | TotalsSide | CountedSide


@dataclass(frozen=True)
class RummyDeal:
    """One deal as recorded: what each side had at its end (side k in header order; in
    Burraco for three, in the order of the deal's seating, see :mod:`.burraco_three`).

    ``solo`` (Burraco for three only): the seat of the player who took the 18-card pozzetto
    and played alone, or None; ``solo_stated`` whether the deal writes the key at all (left out
    and ``null`` differ: ``null`` says nobody took a pozzetto, left out says nothing)."""

    sides: tuple[Side, ...]
    trump: Suit | None = None
    dealer: int = 0
    dealer_stated: bool = field(default=False, compare=False)
    solo: int | None = None
    solo_stated: bool = False


def dealer_of(header: MatchHeader, index: int) -> int:
    """The seat that deals deal ``index`` (0-based): the deal passes one seat each time."""
    return (header.first_dealer + index) % header.seats


DEAL_KEYS = ("dealer", "sides", "score")
SIDE_KEYS = ("melds", "hand", "in_hand", "took_pot", "went_out", "totals")
TOTALS_KEYS = ("melded", "in_hand", "bonuses", "points")


def parse_deal(raw: object, *, spec: GameSpec, header: MatchHeader, index: int) -> RummyDeal:
    """Read one deal strictly; errors carry the place inside the deal (match.py adds the deal)."""
    allowed = DEAL_KEYS + (("trump",) if spec.trump else ())
    d = schema.obj(raw, allowed=allowed, required=("sides",), what=Words("a deal (an object)"))
    dealer, stated = parse_dealer(d, header, index)
    trump = None
    if spec.trump and d.get("trump") is not None:
        try:
            trump = parse_suit(d["trump"])
        except RuleError as e:
            raise e.at("trump", field="trump") from None
    sides_raw = schema.array(d["sides"], "sides")
    if len(sides_raw) != header.side_count:
        raise RuleError(
            "side_count",
            "{got} sides recorded, but {players} players make {want} sides",
            got=len(sides_raw),
            players=header.seats,
            want=header.side_count,
            where=("sides",),
            place=Place(field="sides"),
        )
    sides = parse_sides(sides_raw, spec=spec, names=header.side_name)
    return RummyDeal(sides=sides, trump=trump, dealer=dealer, dealer_stated=stated)


def parse_dealer(d: Mapping[str, Any], header: MatchHeader, index: int) -> tuple[int, bool]:
    """The dealer of deal ``index`` (0-based) by rotation, and whether the deal states it; a
    stated dealer who is not the rotation's is refused."""
    expected = dealer_of(header, index)
    stated = "dealer" in d
    if stated:
        dealer = schema.seat(d["dealer"], "dealer", header.seats)
        if dealer != expected:
            raise RuleError(
                "wrong_dealer",
                "{name} does not deal this deal: by rotation the dealer is {expected}",
                name=header.seat_name(dealer),
                expected=header.seat_name(expected),
                where=("dealer",),
                place=Place(field="dealer"),
            )
    return expected, stated


def parse_sides(
    sides_raw: Sequence[object], *, spec: GameSpec, names: Callable[[int], str]
) -> tuple[Side, ...]:
    """Each side of a deal, an error inside side k placed at ``names(k)`` (its players'
    names, or ``sides[k]`` where the deal does not say who they are)."""
    sides = []
    for k, side_raw in enumerate(sides_raw):
        try:
            sides.append(parse_side(side_raw, spec=spec))
        except RuleError as e:
            raise e.at(names(k), side=k) from None
    return tuple(sides)


def pot_taken(side: Mapping[str, Any]) -> bool | None:
    """Whether a side of a deal's document took its pot, as the document says it: a side
    counted by its points alone says nothing unless ``took_pot`` is written (its figure holds
    the pot either way), any other side did not when it is left out."""
    totals = side.get("totals")
    if isinstance(totals, Mapping) and "points" in totals and "took_pot" not in side:
        return None
    return side.get("took_pot") is True


def parse_side(raw: object, *, spec: GameSpec) -> Side:
    """One side of a deal, card form or totals form."""
    allowed = SIDE_KEYS + (("final_discard",) if spec.final_discard else ())
    s = schema.obj(raw, allowed=allowed, what=Words("a side (an object)"))
    took_pot = schema.boolean(s.get("took_pot", False), "took_pot")
    went_out = schema.boolean(s.get("went_out", False), "went_out")
    final_discard = None
    if s.get("final_discard") is not None:
        try:
            final_discard = parse_card(s["final_discard"])
        except RuleError as e:
            raise e.at("final_discard", field="final_discard") from None
    if "totals" in s:
        for key in ("melds", "hand", "in_hand"):
            if key in s:
                raise RuleError(
                    "totals_and_cards",
                    "a side is entered as cards (melds, hand) or as totals, not both",
                    where=(key,),
                    place=Place(field=key),
                )
        if isinstance(s["totals"], dict) and "points" in s["totals"]:
            if final_discard is not None:
                raise RuleError(
                    "counted_and_discard",
                    "a side given by its points alone records no closing discard",
                    where=("final_discard",),
                    place=Place(field="final_discard"),
                )
            try:
                counted = _parse_counted(s["totals"])
            except RuleError as e:
                raise e.at("totals", field="totals") from None
            stated = None if "took_pot" not in s else took_pot
            return CountedSide(counted, stated, went_out)
        try:
            melded, in_hand, bonuses = _parse_totals(s["totals"], spec)
        except RuleError as e:
            raise e.at("totals", field="totals") from None
        return TotalsSide(melded, in_hand, bonuses, took_pot, went_out, final_discard)
    melds = []
    for i, meld in enumerate(schema.array(s.get("melds", []), "melds")):
        try:
            melds.append(tuple(parse_cards(meld)))
        except RuleError as e:
            raise e.at(f"melds[{i}]", field="melds", meld=i + 1) from None
    try:
        hand = tuple(parse_cards(s.get("hand", [])))
    except RuleError as e:
        raise e.at("hand", field="hand") from None
    in_hand = None
    if "in_hand" in s:
        if "hand" in s:
            raise RuleError(
                "hand_and_in_hand",
                "the cards in hand are given as cards (hand) or as their value (in_hand), not both",
                where=("in_hand",),
                place=Place(field="hand"),
            )
        in_hand = points(s["in_hand"], "in_hand")
    return CardSide(tuple(melds), hand, took_pot, went_out, final_discard, in_hand)


def _parse_counted(raw: dict[str, Any]) -> int:
    """``{"points": -35}``: a signed multiple of 5, and nothing beside it."""
    for key in ("melded", "in_hand", "bonuses"):
        if key in raw:
            raise RuleError(
                "points_and_totals",
                "a side's totals give its points for the deal alone, or melded, in hand and "
                "bonuses, not both",
                where=(key,),
                place=Place(field=key),
            )
    t = schema.obj(raw, allowed=("points",), required=("points",))
    return points(t["points"], "points", signed=True)


def _parse_totals(raw: object, spec: GameSpec) -> tuple[int, int, tuple[tuple[str, int], ...]]:
    t = schema.obj(raw, allowed=TOTALS_KEYS[:3], required=("melded", "in_hand"))
    melded = points(t["melded"], "melded")
    in_hand = points(t["in_hand"], "in_hand")
    try:
        b = schema.obj(t.get("bonuses", {}), allowed=spec.bonus_kinds, keys="bonus")
        counts = {kind: schema.integer(b[kind], kind, minimum=0) for kind in b}
    except RuleError as e:
        raise e.under("bonuses", "bonuses") from None
    bonuses = tuple((k, counts[k]) for k in spec.bonus_kinds if counts.get(k))
    return melded, in_hand, bonuses


def points(raw: object, key: str, *, signed: bool = False) -> int:
    """A multiple of 5 (every card and bonus is worth one), non-negative unless ``signed``."""
    value = schema.integer(raw, key) if signed else schema.integer(raw, key, minimum=0)
    if value % 5:
        raise RuleError(
            "not_multiple_of_5",
            "{value} is not a multiple of 5 (every card and bonus is worth a multiple of 5)",
            value=value,
            where=(key,),
            place=Place(field=key),
        )
    return value


def deal_json(deal: RummyDeal, spec: GameSpec) -> dict[str, Any]:
    """The deal as the document writes it: canonical cards, no score."""
    out: dict[str, Any] = {}
    if deal.dealer_stated:
        out["dealer"] = deal.dealer
    if spec.trump:
        out["trump"] = None if deal.trump is None else deal.trump.value
    if deal.solo_stated:
        out["solo"] = deal.solo
    out["sides"] = [side_json(s) for s in deal.sides]
    return out


def side_json(side: Side) -> dict[str, Any]:
    out: dict[str, Any]
    if isinstance(side, CountedSide):
        out = {"totals": {"points": side.points}}
        if side.took_pot is not None:
            out["took_pot"] = side.took_pot
        out["went_out"] = side.went_out
        return out
    if isinstance(side, TotalsSide):
        out = {
            "totals": {
                "melded": side.melded,
                "in_hand": side.in_hand,
                "bonuses": dict(side.bonuses),
            }
        }
    else:
        out = {"melds": [[str(c) for c in meld] for meld in side.melds]}
        if side.in_hand is None:
            out["hand"] = [str(c) for c in side.hand]
        else:
            out["in_hand"] = side.in_hand
    out["took_pot"] = side.took_pot
    out["went_out"] = side.went_out
    if side.final_discard is not None:
        out["final_discard"] = str(side.final_discard)
    return out


# --- scores ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeldScore:
    """One meld described and valued: its reading, card points and bonus (if any)."""

    reading: MeldReading
    card_points: int
    bonus: str | None = None  # a bonus kind, e.g. "clean_trump_biriba"
    bonus_points: int = 0

    @property
    def points(self) -> int:
        return self.card_points + self.bonus_points

    def describe(self) -> str:
        """``run of hearts 4H-10H, clean · clean biriba · 50 + 200``."""
        text = f"{self.reading.describe()} · "
        if self.bonus:
            return (
                text + f"{self.bonus.replace('_', ' ')} · {self.card_points} + {self.bonus_points}"
            )
        return text + str(self.card_points)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = self.reading.to_json()
        out["points"] = self.card_points
        if self.bonus:
            out["bonus"] = self.bonus
            out["bonus_points"] = self.bonus_points
        return out


class Form(StrEnum):
    CARDS = "cards"
    TOTALS = "totals"
    POINTS = "points"  # the side's points alone, as the table counted them


@dataclass(frozen=True)
class SideScore:
    """A side's score for a deal; every part is signed as it counts (hand and pot ≤ 0)."""

    form: Form
    melded: int
    bonuses: int
    going_out: int
    in_hand: int
    no_pot: int
    bonus_counts: tuple[tuple[str, int], ...] = ()
    melds: tuple[MeldScore, ...] = ()
    counted: int = 0  # the points form: the side's figure, every part in it

    @property
    def total(self) -> int:
        parts = self.melded + self.bonuses + self.going_out + self.in_hand + self.no_pot
        return parts + self.counted

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "total": self.total,
            "form": self.form.value,
            "melded": self.melded,
            "bonuses": self.bonuses,
            "going_out": self.going_out,
            "in_hand": self.in_hand,
            "no_pot": self.no_pot,
            "bonus_counts": dict(self.bonus_counts),
        }
        if self.form is Form.POINTS:
            out["counted"] = self.counted
        if self.form is Form.CARDS:
            out["melds"] = [m.to_json() for m in self.melds]
        return out


@dataclass(frozen=True)
class DealScore:
    sides: tuple[SideScore, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        return {"sides": [s.to_json() for s in self.sides]}


class RummyScoring(Protocol):
    """What a game supplies to score a deal under its rules (built from the rules value)."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def going_out_bonus(self) -> int: ...

    @property
    def no_pot_penalty(self) -> int: ...

    def card_value(self, card: Card) -> int: ...

    def meld_score(self, cards: Sequence[Card], trump: Suit | None) -> MeldScore:
        """Raises :class:`RuleError` (no ``where``) when the cards are not a meld."""
        ...

    def bonus_points(self, kind: str) -> int: ...

    def check_bonus_kind(self, kind: str, trump: Suit | None) -> None:
        """Refuse a totals-form bonus kind that cannot exist under the rules in this deal."""
        ...

    def least_melded(self, kind: str) -> int:
        """The fewest card points a meld earning ``kind`` can be worth."""
        ...

    def least_cards(self, kind: str) -> int:
        """The fewest cards a meld earning ``kind`` can hold."""
        ...

    def check_melds(self, melds: Sequence[tuple[Sequence[Card], MeldScore]]) -> None:
        """Side-wide meld rules (e.g. Burraco ``duplicate_sets``); ``where`` names the meld."""
        ...

    def check_end(self, side: Side, counts: Mapping[str, int]) -> None:
        """The game's own conditions for going out and taking the pot."""
        ...


def meld_place(number: int, cards: Iterable[Card]) -> str:
    """``meld 2 (5C 6C JK 2D)``: a meld as an error names it (1-based, cards as entered)."""
    return f"meld {number} ({cards_text(cards)})"


def read_meld(cards: Sequence[Card], scoring: RummyScoring, trump: Suit | None) -> MeldScore:
    """One meld read and scored: refused first when it holds a card more often than the packs
    do (9♣ 9♣ 9♣ read as a set where two packs hold two: a probe), then by the game."""
    counts = Counter(cards)
    spec = scoring.spec
    for card in sorted(counts):
        limit = spec.jokers if card.is_joker else spec.copies
        if counts[card] > limit:
            raise RuleError(
                "meld_too_many_copies",
                "{card} is in this meld {count} times, but the {packs} packs hold {limit}",
                card=cards_text([card]),
                count=counts[card],
                packs=spec.packs,
                limit=limit,
            )
    return scoring.meld_score(cards, trump)


def score_side(
    side: Side, scoring: RummyScoring, *, trump: Suit | None, one_player: bool
) -> SideScore:
    """Check one side on its own and score it (copies and the other sides are not seen)."""
    if isinstance(side, CountedSide):
        check_counted(side, scoring)
        check_end(side, scoring, one_player=one_player)
        return SideScore(Form.POINTS, 0, 0, 0, 0, 0, counted=side.points)
    melds: list[MeldScore] = []
    if isinstance(side, CardSide):
        for m, cards in enumerate(side.melds, 1):
            try:
                melds.append(read_meld(cards, scoring, trump))
            except RuleError as e:
                raise e.at(meld_place(m, cards), field="melds", meld=m) from None
        scoring.check_melds(list(zip(side.melds, melds, strict=True)))
        counts = Counter(ms.bonus for ms in melds if ms.bonus)
        melded = sum(ms.card_points for ms in melds)
        bonuses = sum(ms.bonus_points for ms in melds)
        if side.in_hand is None:
            in_hand = -hand_points(side.hand, scoring)
        else:
            in_hand = side.in_hand
        form = Form.CARDS
    else:
        check_totals(side, scoring, trump)
        counts = Counter(dict(side.bonuses))
        melded, in_hand = side.melded, side.in_hand
        bonuses = sum(n * scoring.bonus_points(kind) for kind, n in side.bonuses)
        form = Form.TOTALS
    check_end(side, scoring, one_player=one_player)
    scoring.check_end(side, counts)
    order = {k: i for i, k in enumerate(scoring.spec.bonus_kinds)}
    return SideScore(
        form=form,
        melded=melded,
        bonuses=bonuses,
        going_out=scoring.going_out_bonus if side.went_out else 0,
        in_hand=-in_hand,
        no_pot=0 if side.took_pot else -scoring.no_pot_penalty,
        bonus_counts=tuple(sorted(counts.items(), key=lambda kv: order.get(kv[0], 99))),
        melds=tuple(melds),
    )


def hand_points(cards: Iterable[Card | str], scoring: RummyScoring) -> int:
    """What the cards left in a side's hand count in its score: minus what they are worth
    (Biriba standard ``KD 7C 8C``: −25). ``cards`` may be Card values or card strings; a bad
    one is refused at ``hand[i]`` (``place.field == "hand"``, ``place.card == i``)."""
    try:
        hand = as_cards(list(cards))
    except RuleError as e:
        raise e.at("hand", field="hand") from None
    return -sum(scoring.card_value(c) for c in hand)


def score_side_alone(
    raw: object, scoring: RummyScoring, *, trump: Suit | str | None, one_player: bool
) -> SideScore:
    """What one side scores on its own, while a deal is being entered: ``raw`` is the side as
    the document writes it (``{"melds": [...], "hand": [...], "took_pot": ..., "went_out":
    ..., "final_discard": ...}`` or ``{"totals": {...}, ...}``), ``trump`` the deal's trump
    suit (a Suit or ``"H"``; Biriba only), ``one_player`` whether the side is one player
    (:meth:`MatchHeader.is_one_player`).

    The side is read and checked as :func:`score_deal` checks it, but before the other sides
    and the limits of the packs (copies of a card, two sides out) are seen: the whole deal may
    still be refused. A refusal's place is inside the side (its ``side`` is not set: the
    caller knows which side it asked about)."""
    if trump is not None and not isinstance(trump, Suit):
        try:
            trump = parse_suit(trump)
        except RuleError as e:
            raise e.at("trump", field="trump") from None
    if trump is not None and not scoring.spec.trump:
        raise RuleError(
            "no_trump",
            "{game} has no trump suit",
            game=Term("game", scoring.spec.name.lower()),
            where=("trump",),
            place=Place(field="trump"),
        )
    side = parse_side(raw, spec=scoring.spec)
    return score_side(side, scoring, trump=trump, one_player=one_player)


def bonus_kinds(scoring: RummyScoring, *, trump: Suit | None) -> tuple[str, ...]:
    """The bonus kinds a side entered as totals may count in this deal, in the game's order:
    those the rules allow (a set biriba needs sets on, a semi-clean burraco ``semipulito``, a
    trump biriba a recorded trump); any other is refused (``bonus_not_in_rules``)."""
    out = []
    for kind in scoring.spec.bonus_kinds:
        try:
            scoring.check_bonus_kind(kind, trump)
        except RuleError:
            continue
        out.append(kind)
    return tuple(out)


_ONE_OF_EACH_RANK = (JOKER, *(Card(rank, Suit.SPADES) for rank in range(ACE, 14)))


def counted_limits(scoring: RummyScoring) -> tuple[int, int]:
    """The fewest and the most points a side can score in one deal: every card of the packs
    in its hand and the pot not taken; every card melded, in as many of the richest bonus as
    the packs hold, and going out."""
    spec = scoring.spec
    cards = 52 * spec.packs + spec.jokers
    richest = max(
        scoring.bonus_points(kind) * (cards // scoring.least_cards(kind))
        for kind in spec.bonus_kinds
    )
    most = pack_points(scoring) + richest + scoring.going_out_bonus
    return -(pack_points(scoring) + scoring.no_pot_penalty), most


def check_counted(side: CountedSide, scoring: RummyScoring) -> None:
    """A side's points for the deal must be possible (2350 for 235 may be; 23500 is not)."""
    least, most = counted_limits(scoring)
    if not least <= side.points <= most:
        raise RuleError(
            "points_out_of_reach",
            "{points} points in one deal cannot be: a side scores from {least} to {most}",
            points=side.points,
            least=least,
            most=most,
            where=("totals", "points"),
            place=Place(field="points"),
        )


def check_totals(side: TotalsSide, scoring: RummyScoring, trump: Suit | None) -> None:
    """A totals-form side must be possible (see the module docstring)."""
    for kind, _ in side.bonuses:
        try:
            scoring.check_bonus_kind(kind, trump)
        except RuleError as e:
            raise e.at("totals", "bonuses", kind, field="bonuses", key=kind) from None
    least_meld = MIN_MELD * min(scoring.card_value(c) for c in _ONE_OF_EACH_RANK)
    if 0 < side.melded < least_meld:
        raise RuleError(
            "totals_melded_too_small",
            "melded cards worth {melded} cannot be: the cheapest meld is worth {least}",
            melded=side.melded,
            least=least_meld,
            where=("totals", "melded"),
            place=Place(field="melded"),
        )
    need = sum(n * scoring.least_melded(kind) for kind, n in side.bonuses)
    if side.melded < need:
        raise RuleError(
            "totals_bonuses_exceed_melded",
            "the bonuses counted ({bonuses}) need melded cards worth at least {need}, "
            "but melded is {melded}",
            bonuses=_bonuses(side),
            need=need,
            melded=side.melded,
            where=("totals", "melded"),
            place=Place(field="melded"),
        )


def check_end(side: Side, scoring: RummyScoring, *, one_player: bool) -> None:
    """The end-of-deal rules common to both games, for one side."""
    if side.went_out and side.took_pot is False:
        raise RuleError(
            "went_out_without_pot",
            "went out without taking its {pot}: a side goes out only after taking it",
            pot=Term("pot", scoring.spec.pot),
        )
    if side.went_out and one_player:
        if isinstance(side, CardSide) and side.hand:
            raise RuleError(
                "went_out_holding_cards",
                "went out but still holds {cards}: a player who goes out holds no cards",
                cards=cards_text(side.hand),
                where=("hand",),
                place=Place(field="hand"),
            )
        if isinstance(side, TotalsSide) and side.in_hand:
            raise RuleError(
                "went_out_holding_cards",
                "went out but still holds cards worth {in_hand}: a player who goes out "
                "holds no cards",
                in_hand=side.in_hand,
                where=("totals", "in_hand"),
                place=Place(field="in_hand"),
            )
        if isinstance(side, CardSide) and side.in_hand:
            raise RuleError(
                "went_out_holding_cards",
                "went out but still holds cards worth {in_hand}: a player who goes out "
                "holds no cards",
                in_hand=side.in_hand,
                where=("in_hand",),
                place=Place(field="hand"),
            )
    if side.final_discard is not None and not side.went_out:
        raise RuleError(
            "discard_without_going_out",
            "a closing discard ({card}) is recorded, but this side did not go out",
            card=cards_text([side.final_discard]),
            where=("final_discard",),
            place=Place(field="final_discard"),
        )


def check_copies(deal: RummyDeal, header: MatchHeader, spec: GameSpec) -> None:
    """No card more than the packs hold, counting all melds, hands and closing discards.

    The cards are counted as they are (no sorting, no labels); only a deal that breaks the
    limit is gone through again, to name the first card over it (in card order) and every
    place that records it."""
    counts: Counter[Card] = Counter()
    for side in deal.sides:
        if isinstance(side, CardSide):
            for meld in side.melds:
                counts.update(meld)
            counts.update(side.hand)
        if side.final_discard is not None:
            counts[side.final_discard] += 1
    over = [
        card for card, n in counts.items() if n > (spec.jokers if card.is_joker else spec.copies)
    ]
    if over:
        _refuse_copies(min(over), deal, header, spec)


def _refuse_copies(card: Card, deal: RummyDeal, header: MatchHeader, spec: GameSpec) -> None:
    """Refuse ``card``, recorded more times than the packs hold, naming each place it is in."""
    places: list[tuple[str, str, int]] = []
    for k, side in enumerate(deal.sides):
        name = header.side_name(k)
        if isinstance(side, CardSide):
            for m, meld in enumerate(side.melds, 1):
                places.extend((name, "melds", m) for c in meld if c == card)
            places.extend((name, "hand", 0) for c in side.hand if c == card)
        if side.final_discard == card:
            places.append((name, "final_discard", 0))
    counted = Counter(places)
    raise RuleError(
        "too_many_copies",
        "{card} is recorded {count} times ({places}), but the {packs} packs hold {limit}",
        card=cards_text([card]),
        count=len(places),
        places=AllOf(Spot((*p, n)) for p, n in counted.items()),
        packs=spec.packs,
        limit=spec.jokers if card.is_joker else spec.copies,
    )


def pack_points(scoring: RummyScoring) -> int:
    """What all the cards of the packs are worth (Biriba standard 960, Burraco 1080)."""
    spec = scoring.spec
    suits = sum(scoring.card_value(Card(rank, suit)) for suit in Suit for rank in range(ACE, 14))
    return spec.packs * suits + spec.jokers * scoring.card_value(JOKER)


def bonus_cards(side: TotalsSide, scoring: RummyScoring) -> int:
    """The fewest cards the melds behind a totals side's bonuses hold."""
    return sum(n * scoring.least_cards(kind) for kind, n in side.bonuses)


def check_pack(deal: RummyDeal, header: MatchHeader, scoring: RummyScoring) -> None:
    """A deal records no more points, and no more cards, than the packs hold.

    Sides entered as cards cannot break this once the copies are checked; a side entered as
    totals can (``melded`` 2350 for 235): the totals side that records most is named. Its
    bonuses count as the fewest cards their melds hold (7 a biriba or burraco, 13 a whole suit).
    """
    spec = scoring.spec
    cards_in_packs = 52 * spec.packs + spec.jokers
    points: list[int] = []
    cards: list[int] = []
    for side in deal.sides:
        discard = [] if side.final_discard is None else [side.final_discard]
        if isinstance(side, CardSide):
            recorded = [*(c for meld in side.melds for c in meld), *side.hand, *discard]
            points.append(sum(scoring.card_value(c) for c in recorded) + (side.in_hand or 0))
            cards.append(len(recorded))
        elif isinstance(side, CountedSide):  # a figure names no card
            points.append(0)
            cards.append(0)
        else:
            points.append(side.melded + side.in_hand + sum(scoring.card_value(c) for c in discard))
            cards.append(bonus_cards(side, scoring) + len(discard))
    totals = [k for k, side in enumerate(deal.sides) if isinstance(side, TotalsSide)]
    most = pack_points(scoring)
    if sum(points) > most and totals:
        k = max(totals, key=lambda k: points[k])
        side = deal.sides[k]
        assert isinstance(side, TotalsSide)
        raise RuleError(
            "totals_exceed_pack",
            "melded {melded} and in hand {in_hand}, with {others} recorded elsewhere in the "
            "deal, come to {total}: more than all {cards} cards are worth ({most})",
            melded=side.melded,
            in_hand=side.in_hand,
            others=sum(points) - side.melded - side.in_hand,
            total=sum(points),
            cards=cards_in_packs,
            most=most,
            where=(header.side_name(k), "totals"),
            place=Place(side=k, field="totals"),
        )
    valued = [k for k, side in enumerate(deal.sides) if isinstance(side, CardSide) and side.in_hand]
    if sum(points) > most and valued:
        k = max(valued, key=lambda k: points[k])
        side = deal.sides[k]
        assert isinstance(side, CardSide) and side.in_hand is not None
        raise RuleError(
            "hand_exceeds_pack",
            "cards in hand worth {in_hand}, with {others} recorded elsewhere in the deal, come "
            "to {total}: more than all {cards} cards are worth ({most})",
            in_hand=side.in_hand,
            others=sum(points) - side.in_hand,
            total=sum(points),
            cards=cards_in_packs,
            most=most,
            where=(header.side_name(k), "in_hand"),
            place=Place(side=k, field="hand"),
        )
    if sum(cards) > cards_in_packs and totals:
        k = max(totals, key=lambda k: cards[k])
        side = deal.sides[k]
        assert isinstance(side, TotalsSide)
        raise RuleError(
            "totals_bonuses_exceed_cards",
            "the bonuses counted ({bonuses}) need at least {need} cards in melds; with {others} "
            "cards recorded elsewhere in the deal that is more than the {cards} cards of the packs",
            bonuses=_bonuses(side),
            need=bonus_cards(side, scoring),
            others=sum(cards) - bonus_cards(side, scoring),
            cards=cards_in_packs,
            where=(header.side_name(k), "totals", "bonuses"),
            place=Place(side=k, field="bonuses"),
        )


def _bonuses(side: TotalsSide) -> AllOf:
    """The bonuses a side entered as totals counts, as a message names them."""
    return AllOf(Times((Term("bonus", kind), n)) for kind, n in side.bonuses)


def check_going_out(deal: RummyDeal, header: MatchHeader) -> None:
    out = [header.side_name(k) for k, side in enumerate(deal.sides) if side.went_out]
    if len(out) > 1:
        raise RuleError(
            "two_sides_out",
            "{sides} went out: at most one side goes out in a deal",
            sides=AllOf(out),
        )


def score_deal(
    header: MatchHeader, deal: RummyDeal, scoring: RummyScoring, *, number: int = 1
) -> DealScore:
    """Check a whole deal against the rules and score it; errors start with ``deal N``."""
    try:
        if len(deal.sides) != header.side_count:
            raise RuleError(
                "side_count",
                "{got} sides recorded, but {players} players make {want} sides",
                got=len(deal.sides),
                players=header.seats,
                want=header.side_count,
            )
        if deal.trump is not None and not scoring.spec.trump:
            raise RuleError(
                "no_trump", "{game} has no trump suit", game=Term("game", scoring.spec.name.lower())
            )
        check_going_out(deal, header)
        sides = []
        for k, side in enumerate(deal.sides):
            try:
                one_player = header.is_one_player(k)
                sides.append(score_side(side, scoring, trump=deal.trump, one_player=one_player))
            except RuleError as e:
                raise e.at(header.side_name(k), side=k) from None
        check_copies(deal, header, scoring.spec)
        check_pack(deal, header, scoring)
    except RuleError as e:
        raise e.at(f"deal {number}", deal=number) from None
    return DealScore(tuple(sides))


# --- the match ------------------------------------------------------------------------------


def match_end(totals: Sequence[int], target: int | None) -> int | None:
    """The winning side, or None: some side has reached ``target`` and one side leads alone
    (never, without a target: a match of a set number of deals ends by its count)."""
    if target is None:
        return None
    best = max(totals)
    if best >= target and list(totals).count(best) == 1:
        return list(totals).index(best)
    return None


@dataclass(frozen=True)
class RummyTally:
    """What the deals so far leave for the next one: how many there are and each side's total
    (whether the match is over follows from the totals and the target)."""

    deals: int
    totals: tuple[int, ...]


def start(header: MatchHeader) -> RummyTally:
    """The tally before the first deal."""
    return RummyTally(deals=0, totals=(0,) * header.side_count)


def check_not_finished(
    header: MatchHeader, deals: int, totals: Sequence[int], target: int | None
) -> None:
    """Refuse deal ``deals + 1`` when the deals before it ended the match at the target
    (``totals`` one a side, or one a seat in Burraco for three: the header names them)."""
    winner = match_end(totals, target)
    if winner is not None:
        number = deals + 1
        raise RuleError(
            "match_finished",
            "the match ended after deal {last}, won by {winner} with {points}: "
            "no deal may be added",
            last=deals,
            winner=header.side_name(winner),
            points=totals[winner],
            where=(f"deal {number}",),
            place=Place(deal=number),
        )


def step(
    header: MatchHeader,
    tally: RummyTally,
    deal: RummyDeal,
    scoring: RummyScoring,
    *,
    target: int | None,
) -> DealStep:
    """Check and score the next deal (number ``tally.deals + 1``); no deal may follow the end
    (``target`` None: the caller says when the match ends)."""
    number = tally.deals + 1
    check_not_finished(header, tally.deals, tally.totals, target)
    scored = score_deal(header, deal, scoring, number=number)
    totals = tuple(t + s for t, s in zip(tally.totals, scored.totals, strict=True))
    return DealStep(tally=RummyTally(deals=number, totals=totals), score=scored.to_json())


def standing(header: MatchHeader, tally: RummyTally, *, target: int | None) -> Standing:
    """The totals, the winner (once a side has reached the target alone in the lead), and who
    deals next while the match goes on."""
    winner = match_end(tally.totals, target)
    finished = winner is not None
    next_deal = (
        {} if finished else {"number": tally.deals + 1, "dealer": dealer_of(header, tally.deals)}
    )
    return Standing(
        deals=tally.deals,
        totals=tally.totals,
        finished=finished,
        winner=winner,
        next_deal=next_deal,
    )


def tally_json(tally: RummyTally) -> dict[str, Any]:
    return {"deals": tally.deals, "totals": list(tally.totals)}


def tally_from_json(data: object, header: MatchHeader) -> RummyTally:
    """Read what :func:`tally_json` wrote; a ``ValueError`` on anything else, or on totals
    for another number of sides."""
    raw = json_object(data, ("deals", "totals"))
    return RummyTally(
        deals=json_int(raw["deals"], low=0),
        totals=json_ints(raw["totals"], length=header.side_count),
    )


# --- options --------------------------------------------------------------------------------


def option_target(raw: object, key: str) -> int:
    return schema.integer(raw, key, minimum=1)


def option_choice[E: StrEnum](kind: type[E]) -> Callable[[object, str], E]:
    def read(raw: object, key: str) -> E:
        return kind(schema.string(raw, key, choices=[m.value for m in kind], terms=key))

    return read


def parse_options(
    raw: Mapping[str, Any], readers: Mapping[str, Callable[[object, str], Any]]
) -> dict[str, Any]:
    """Read the options present in ``raw``; an unknown key is refused with ``where=(key,)``."""
    if not isinstance(raw, Mapping):
        raise RuleError("bad_type", "expected a rules object, got {got}", got=_type_name(raw))
    schema.obj(dict(raw), allowed=tuple(readers), what=Words("a rules object"), keys="option")
    return {key: readers[key](value, key) for key, value in raw.items()}


def options_json(rules: object) -> dict[str, Any]:
    """Every field of a rules dataclass, enums as their values."""
    out = {}
    for key, value in vars(rules).items():
        out[key] = value.value if isinstance(value, StrEnum) else value
    return out


# --- least values (totals plausibility) ------------------------------------------------------


def least_run(value: Callable[[Card], int], length: int, wild: int | None) -> int:
    """Fewest card points of a run of ``length`` cards: all natural, or one wild worth ``wild``.

    The run spans ``length`` consecutive places (ace low or high); with a wild, the wild takes
    the place of the dearest natural card in it."""
    best: int | None = None
    for low in range(ACE, HIGH_ACE - length + 2):
        worth = [
            value(Card(ACE if p == HIGH_ACE else p, Suit.SPADES)) for p in range(low, low + length)
        ]
        total = sum(worth) if wild is None else sum(worth) - max(worth) + wild
        best = total if best is None else min(best, total)
    assert best is not None
    return best


def least_set(
    value: Callable[[Card], int], ranks: Iterable[int], length: int, wild: int | None
) -> int:
    """Fewest card points of a set of ``length`` cards of one of ``ranks`` (one wild or none)."""
    cheapest = min(value(Card(r, Suit.SPADES)) for r in ranks)
    if wild is None:
        return length * cheapest
    return (length - 1) * cheapest + wild


def least_wild(value: Callable[[Card], int]) -> int:
    return min(value(JOKER), value(Card(2, Suit.SPADES)))
