"""Reading a meld: the one reading of an unordered card list as a run or a set.

Shared by Biriba and Burraco. A game describes its limits in a :class:`MeldRules` value and
calls :func:`read_meld`; the site calls the same function while a meld is being entered, to
show what it is ("run of hearts 5H-JH, dirty: 2C stands for 8H") or why it is not a meld.

The rules (rules.md, "Common to Biriba and Burraco"):

- Jokers and twos are wild; a meld holds at most one wild. A two of the run's own suit in its
  own place (A-2-3, 2-3-4, 2 to A) is a natural card. A two in a set is always wild, so a set
  of twos is not a meld; neither is a meld made only of wilds.
- A run is three or more cards of one suit in sequence. The ace is low (A-2-3) or high
  (Q-K-A), never both, never around the corner (K-A-2). A run spans at most 13 places (A to K
  or 2 to A). Burraco lets a wild stand after 13 natural cards as a 14th card
  (``MeldRules.run_extra_wild``): it stands for no card and is reported as ``EXTRA``.
- A set is three or more cards of one rank (not two) with at most one wild, at most
  ``set_max_naturals`` natural cards and ``set_max_cards`` cards in all. A game may switch
  sets off (Biriba's default) or allow only some ranks (Burraco ``set_ranks``).
- The card list is an unordered multiset. Among all legal readings the one with the fewest
  wilds wins, then the one worth most (the game passes ``value``), then a run before a set,
  then the wild above before below.
- A wild at an end of a run may stand for the card above it or the card below it, where the
  run has room: each is a reading, and :func:`read_meld` takes the one above when values tie;
  ``MeldReading.wild_place`` says which (``ABOVE``/``BELOW``; ``GAP`` inside). A two of the
  run's own suit never "stands for" its own place: there it is the natural card.
- Semi-clean (Burraco ``semipulito``, when ``MeldRules.semi_clean``): a run whose one wild
  stands at an end (above, below or as the 14th card) of at least 7 consecutive naturals, or a
  set of at least 8 cards including the wild. Otherwise a meld with a wild is dirty.

When no reading is legal the error says why, choosing the most telling reason: too few cards,
only wilds, a set of twos, two wilds, a card twice in a run, turning the corner, a gap, sets
off, a rank not allowed in a set, a run or set too long, or neither a run nor a set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import ACE, RANK_NAMES, Card, Suit, cards_text, parse_card
from .errors import Cards, OneOf, RuleError, Term

#: A run spans at most 13 places: A (1) to K (13), or 2 to A high (14).
HIGH_ACE = 14
RUN_PLACES = 13
MIN_MELD = 3


class MeldKind(StrEnum):
    RUN = "run"
    SET = "set"


class Purity(StrEnum):
    CLEAN = "clean"
    SEMI_CLEAN = "semi_clean"
    DIRTY = "dirty"


class WildPlace(StrEnum):
    """Where the wild of a meld stands."""

    GAP = "gap"  # inside a run, in place of a missing card
    ABOVE = "above"  # at the top end of a run
    BELOW = "below"  # at the bottom end of a run
    EXTRA = "extra"  # Burraco: a 14th card after 13 naturals; stands for no card
    SET = "set"  # in a set: one more card of the set's rank


@dataclass(frozen=True)
class MeldRules:
    """What a game allows in a meld (see the module docstring)."""

    run_extra_wild: bool = False
    sets: bool = True
    set_max_naturals: int = 8
    set_max_cards: int = 9
    set_ranks: frozenset[int] | None = None  # None: every rank but two
    semi_clean: bool = False


#: Every meld shape allowed: sets of any rank, no 14th card, no semi-clean.
ANY_MELD = MeldRules()


@dataclass(frozen=True)
class MeldReading:
    """One legal reading of a meld.

    ``cards`` are in meld order: a run from its low end to its high end with the wild in its
    place (a 14th-card wild last), a set with its natural cards by suit and the wild last.
    Run places are 1 (ace low) to 14 (ace high).
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    purity: Purity
    suit: Suit | None = None  # runs
    rank: int | None = None  # sets
    low: int | None = None  # runs: the place of the first card
    high: int | None = None  # runs: the place of the last card (not counting a 14th card)
    wild: Card | None = None
    wild_place: WildPlace | None = None
    stands_for: Card | None = None  # runs: the card the wild replaces (None for EXTRA)

    @property
    def length(self) -> int:
        return len(self.cards)

    @property
    def naturals(self) -> int:
        return len(self.cards) - (self.wild is not None)

    @property
    def is_clean(self) -> bool:
        return self.purity is Purity.CLEAN

    @property
    def semi_clean_shape(self) -> bool:
        """The shape Burraco's ``semipulito`` rewards, whether or not the option is on."""
        return _semi_clean_shape(self.kind, self.naturals, self.wild_place)

    @property
    def text(self) -> str:
        """The cards in meld order: ``5S 6S 7S 2H 9S 10S JS``."""
        return cards_text(self.cards)

    def describe(self) -> str:
        """A one-line English description, e.g. ``run of spades 5S-JS, dirty: 2H stands for 8S``."""
        purity = self.purity.value.replace("_", "-")
        if self.kind is MeldKind.RUN:
            assert self.suit is not None and self.low is not None and self.high is not None
            head = (
                f"run of {self.suit.name.lower()} "
                f"{_place_card(self.low, self.suit)}-{_place_card(self.high, self.suit)}"
            )
        else:
            assert self.rank is not None
            head = f"set of {rank_plural(self.rank)}"
        if self.wild is None:
            return f"{head}, {purity}"
        return f"{head}, {purity}: {self.wild} {self.wild_text()}"

    def wild_text(self) -> str:
        """What the wild does: ``stands for 8S``, ``stands for KH (above)``, ..."""
        match self.wild_place:
            case WildPlace.GAP:
                return f"stands for {self.stands_for}"
            case WildPlace.ABOVE | WildPlace.BELOW:
                return f"stands for {self.stands_for} ({self.wild_place.value})"
            case WildPlace.EXTRA:
                return "is a 14th card after the 13 natural cards"
            case WildPlace.SET:
                assert self.rank is not None
                return f"stands for one more {RANK_NAMES[self.rank]}"
        return ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind.value,
            "cards": [str(c) for c in self.cards],
            "purity": self.purity.value,
        }
        if self.suit is not None:
            out["suit"] = self.suit.value
        if self.rank is not None:
            out["rank"] = RANK_NAMES[self.rank]
        if self.wild is not None:
            assert self.wild_place is not None
            out["wild"] = str(self.wild)
            out["wild_place"] = self.wild_place.value
            out["stands_for"] = None if self.stands_for is None else str(self.stands_for)
        return out


def as_cards(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    """Cards, card strings, or one string of cards (``"5C 6C JK 8C"``).

    A bad card is refused naming its index (``[2]``)."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    out = []
    for i, c in enumerate(cards):
        if isinstance(c, Card):
            out.append(c)
            continue
        try:
            out.append(parse_card(c))
        except RuleError as e:
            raise e.at(f"[{i}]", card=i) from None
    return tuple(out)


def read_meld(
    cards: Iterable[Card | str] | str,
    *,
    rules: MeldRules = ANY_MELD,
    value: Callable[[MeldReading], int] | None = None,
) -> MeldReading:
    """The reading of ``cards`` under ``rules``: fewest wilds, then worth most by ``value``.

    Raises :class:`RuleError` (with no ``where``: the caller names the meld) saying why the
    cards are not a meld.
    """
    found = readings(cards, rules=rules)
    if len(found) == 1:
        return found[0]

    def key(r: MeldReading) -> tuple[int, int, int, int]:
        place = 0 if r.wild_place in (None, WildPlace.GAP, WildPlace.ABOVE) else 1
        return (r.length - r.naturals, -(value(r) if value else 0), r.kind is MeldKind.SET, place)

    return min(found, key=key)


def readings(
    cards: Iterable[Card | str] | str, *, rules: MeldRules = ANY_MELD
) -> list[MeldReading]:
    """Every legal reading of ``cards`` (at least one), or :class:`RuleError` saying why none."""
    hand = as_cards(cards)
    if len(hand) < MIN_MELD:
        raise RuleError(
            "meld_too_short", "a meld needs at least 3 cards, not {count}", count=len(hand)
        )
    definite = [c for c in hand if not c.is_wild]
    if not definite:
        if any(c.is_joker for c in hand):
            raise RuleError("only_wilds", "a meld made only of wild cards is not a meld")
        raise RuleError("set_of_twos", "a set of twos is not a meld (twos are wild)")
    suits = {c.suit for c in definite}
    ranks = {c.rank for c in definite}
    run_error: RuleError | None = None
    set_error: RuleError | None = None
    found: list[MeldReading] = []
    if len(suits) == 1:
        (suit,) = suits
        assert suit is not None
        try:
            found += _run_readings(hand, suit, rules)
        except RuleError as e:
            run_error = e
    if len(ranks) == 1:
        try:
            found.append(_set_reading(hand, definite[0].rank, rules))
        except RuleError as e:
            set_error = e
    if found:
        return found
    if run_error and set_error:
        # One natural card (perhaps twice): "8S 8S 2H" is meant as a set, "5H 2S JK" as a run.
        raise set_error if len(definite) > 1 else run_error
    if run_error or set_error:
        raise run_error or set_error  # type: ignore[misc]
    raise RuleError("not_a_meld", "neither a run (one suit in sequence) nor a set (one rank)")


# --- runs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _RunOption:
    """One way to place the naturals of a run: ace low or high, suit's two natural or wild."""

    places: dict[int, Card]  # place → natural card
    wilds: tuple[Card, ...]

    @property
    def low(self) -> int:
        return min(self.places)

    @property
    def high(self) -> int:
        return max(self.places)

    @property
    def missing(self) -> list[int]:
        return [p for p in range(self.low, self.high + 1) if p not in self.places]


def _run_options(cards: Sequence[Card], suit: Suit) -> list[_RunOption]:
    definite = [c for c in cards if not c.is_wild]
    own_twos = [c for c in cards if c.is_two and c.suit == suit]
    jokers_and_others = [c for c in cards if c.is_wild and not (c.is_two and c.suit == suit)]
    seen: Counter[int] = Counter(c.rank for c in definite)
    for rank, n in sorted(seen.items()):
        if n > 1:
            raise RuleError(
                "card_twice_in_run",
                "{card} is twice in the run: a run holds each card once",
                card=cards_text([Card(rank, suit)]),
            )
    options = []
    for ace_high in (False, True) if ACE in seen else (False,):
        for two_natural in (False, True) if own_twos else (False,):
            places = {(HIGH_ACE if c.rank == ACE and ace_high else c.rank): c for c in definite}
            wilds = list(jokers_and_others) + own_twos
            if two_natural:
                places[2] = own_twos[0]
                wilds.remove(own_twos[0])
            # The joker is the wild a reader names first; twos after.
            wilds.sort(key=lambda c: (not c.is_joker, c))
            options.append(_RunOption(places=places, wilds=tuple(wilds)))
    return options


def _run_readings(cards: Sequence[Card], suit: Suit, rules: MeldRules) -> list[MeldReading]:
    options = _run_options(cards, suit)
    found = []
    too_long = False
    for opt in options:
        if len(opt.wilds) > 1 or len(opt.missing) > len(opt.wilds):
            continue
        placed = _place_run(opt, suit, rules)
        if placed is None:
            too_long = True
        else:
            found += placed
    if found:
        return found
    fewest = min(options, key=lambda o: (len(o.wilds), len(o.missing)))
    if len(fewest.wilds) > 1:
        raise _too_many_wilds(fewest.wilds)
    if too_long:
        raise RuleError(
            "run_too_long",
            "a run holds at most 13 cards (A to K or 2 to A), not {count}",
            count=len(cards),
        )
    if _turns_corner(options):
        raise RuleError(
            "run_around_corner",
            "a run cannot turn the corner (K-A-2): the ace is low or high, never both",
        )
    gap = min((o for o in options if len(o.wilds) <= 1), key=lambda o: len(o.missing))
    return_missing = Cards(" ".join(_place_card(p, suit) for p in gap.missing))
    raise RuleError(
        "run_gap",
        "not a run: {missing} missing between {low} and {high} (one wild fills one gap)",
        missing=return_missing,
        low=cards_text([gap.places[gap.low]]),
        high=cards_text([gap.places[gap.high]]),
    )


def _place_run(opt: _RunOption, suit: Suit, rules: MeldRules) -> list[MeldReading] | None:
    """The readings of a legal option, or None when the wild has no room (too long).

    The wild fills the gap, or stands above or below the naturals where the run has room (both
    are readings), or after 13 naturals as a 14th card. A two of the run's own suit standing
    for its own place is no reading: there it is natural (another option reads it so)."""
    low, high = opt.low, opt.high
    if not opt.wilds:
        return [_run_reading(opt, suit, rules, None, None)]
    wild = opt.wilds[0]
    spots: list[tuple[WildPlace, int | None]] = []
    if opt.missing:
        spots.append((WildPlace.GAP, opt.missing[0]))
    else:
        top = RUN_PLACES if low == ACE else HIGH_ACE
        bottom = 2 if high == HIGH_ACE else ACE
        if high + 1 <= top:
            spots.append((WildPlace.ABOVE, high + 1))
        if low - 1 >= bottom:
            spots.append((WildPlace.BELOW, low - 1))
        if not spots:
            if not rules.run_extra_wild:
                return None
            spots.append((WildPlace.EXTRA, None))
    own_two = wild.is_two and wild.suit == suit
    return [
        _run_reading(opt, suit, rules, place, at)
        for place, at in spots
        if not (own_two and at == 2)
    ]


def _run_reading(
    opt: _RunOption, suit: Suit, rules: MeldRules, place: WildPlace | None, at: int | None
) -> MeldReading:
    """The run of ``opt`` with its wild (if any) at ``place`` (run place ``at``)."""
    wild = opt.wilds[0] if opt.wilds else None
    ordered = {**opt.places}
    if wild is not None and at is not None:
        ordered[at] = wild
    cards = [ordered[p] for p in sorted(ordered)]
    if place is WildPlace.EXTRA:
        assert wild is not None
        cards.append(wild)
    span = sorted(ordered)
    return MeldReading(
        kind=MeldKind.RUN,
        cards=tuple(cards),
        purity=_purity(MeldKind.RUN, len(opt.places), place, rules),
        suit=suit,
        low=span[0],
        high=span[-1],
        wild=wild,
        wild_place=place,
        stands_for=None if at is None else _place_to_card(at, suit),
    )


def _turns_corner(options: Sequence[_RunOption]) -> bool:
    """Would the naturals make a run if the ace joined K to 2 (K-A-2)?"""
    for opt in options:
        if len(opt.wilds) > 1:
            continue
        ranks = sorted({ACE if p == HIGH_ACE else p for p in opt.places})
        for start in range(1, RUN_PLACES + 1):
            shifted = sorted((r - start) % RUN_PLACES for r in ranks)
            gaps = shifted[-1] - shifted[0] + 1 - len(shifted)
            if gaps <= len(opt.wilds):
                return True
    return False


def _place_to_card(place: int, suit: Suit) -> Card:
    return Card(ACE if place == HIGH_ACE else place, suit)


def _place_card(place: int, suit: Suit) -> str:
    return str(_place_to_card(place, suit))


# --- sets -------------------------------------------------------------------------------------


def rank_plural(rank: int) -> str:
    """``aces``, ``8s``, ``kings``: a rank as a set of it is named."""
    return _RANK_PLURALS.get(rank) or f"{RANK_NAMES[rank]}s"


_RANK_PLURALS = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}


def rank_term(rank: int) -> Term:
    """A rank as a message's parameter: ``kings`` in English, the page's word on the site."""
    return Term("rank", RANK_NAMES[rank])


def _set_reading(cards: Sequence[Card], rank: int, rules: MeldRules) -> MeldReading:
    if not rules.sets:
        raise RuleError(
            "sets_off",
            "a set of {rank} is not a meld under these rules: the option {option} is off",
            rank=rank_term(rank),
            option=Term("option", "sets"),
        )
    if rules.set_ranks is not None and rank not in rules.set_ranks:
        raise RuleError(
            "set_rank_not_allowed",
            "a set of {rank} is not allowed under these rules: sets only of {allowed}",
            rank=rank_term(rank),
            allowed=OneOf(rank_term(r) for r in sorted(rules.set_ranks)),
        )
    wilds = sorted((c for c in cards if c.is_wild), key=lambda c: (not c.is_joker, c))
    naturals = sorted(c for c in cards if not c.is_wild)
    if len(wilds) > 1:
        raise _too_many_wilds(tuple(wilds))
    if len(naturals) > rules.set_max_naturals:
        raise RuleError(
            "set_too_long",
            "a set holds at most {most} natural cards, not {count}",
            most=rules.set_max_naturals,
            count=len(naturals),
        )
    if len(cards) > rules.set_max_cards:
        raise RuleError(
            "set_too_long_cards",
            "a set holds at most {most} cards, not {count}",
            most=rules.set_max_cards,
            count=len(cards),
        )
    wild = wilds[0] if wilds else None
    place = WildPlace.SET if wild else None
    return MeldReading(
        kind=MeldKind.SET,
        cards=tuple(naturals + wilds),
        purity=_purity(MeldKind.SET, len(naturals), place, rules),
        rank=rank,
        wild=wild,
        wild_place=place,
    )


# --- shared -----------------------------------------------------------------------------------


def _semi_clean_shape(kind: MeldKind, naturals: int, place: WildPlace | None) -> bool:
    if kind is MeldKind.RUN:
        return naturals >= 7 and place in (WildPlace.ABOVE, WildPlace.BELOW, WildPlace.EXTRA)
    return naturals >= 7 and place is WildPlace.SET


def _purity(kind: MeldKind, naturals: int, place: WildPlace | None, rules: MeldRules) -> Purity:
    if place is None:
        return Purity.CLEAN
    if rules.semi_clean and _semi_clean_shape(kind, naturals, place):
        return Purity.SEMI_CLEAN
    return Purity.DIRTY


def _too_many_wilds(wilds: Sequence[Card]) -> RuleError:
    if len(wilds) == 2:
        return RuleError(
            "two_wilds", "two wild cards in one meld ({wilds})", wilds=cards_text(wilds)
        )
    return RuleError(
        "too_many_wilds",
        "{count} wild cards in one meld ({wilds}); a meld holds at most one",
        count=len(wilds),
        wilds=cards_text(wilds),
    )
