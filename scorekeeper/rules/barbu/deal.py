"""One Barbu deal: reading it strictly, checking it against itself, writing it back.

``parse_deal`` refuses any key the format does not name, any value of the wrong type, any
contract data the contract does not record (or that an unplayed deal carries), and any deal
that contradicts itself: counts that do not add up, the ace of hearts with a player who took
no hearts, a finishing order that is not the four players, an illegal double. What depends on
the deals before (contracts already named, compulsory doubles) is checked by ``score``.

A deal *still to enter* (``"to_enter": true``) has its contract named, and its doubles when
they are known, but none of its contract data yet: a table that swapped two deals' contracts
enters both again. It carries no contract data key at all, and it is never an undoubled
negative contract that is split (see :mod:`.scoring` for how it counts).

Every per-seat list has one entry a player (four, or five in Salade), and what the seats take
together is what the table's pack holds (:func:`~.contracts.counts`: 10 tricks of 5 cards
with five players). A Chinese Poker deal records each seat's ``net``, adding up to 0, doubled
or not; a salade whose house values count the last two tricks records ``last_two``, and a
seat named there must have taken as many tricks as it is named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .. import schema
from ..base import MatchHeader
from ..cards import RANK_NAMES, Suit, _quote, parse_suit
from ..errors import AllOf, Cards, OneOf, Place, RuleError, Term, Words
from .contracts import (
    ALL_DATA_KEYS,
    OPTIONAL_DATA_KEYS,
    SUIT_CARDS,
    Contract,
    counts,
    data_keys,
)
from .doubles import Double, check_doubles
from .options import BarbuRules, UndoubledNegative
from .schedule import check_in_match, declarer_of

DEAL_KEYS = ("contract", "declarer", "doubles", "to_enter", *ALL_DATA_KEYS, "score")
DOUBLE_KEYS = ("by", "on", "redoubled")
_RANKS = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}


@dataclass(frozen=True)
class BarbuDeal:
    """A deal as entered. ``declarer`` is what the document states (``None``: not stated; the
    rotation decides). Contract data fields are ``None`` when the contract does not use them,
    the deal was not played, or its data is still to enter (``to_enter``)."""

    contract: Contract
    doubles: tuple[Double, ...] = ()
    declarer: int | None = None
    tricks: tuple[int, ...] | None = None
    hearts: tuple[int, ...] | None = None
    ace_of_hearts: int | None = None
    queens: tuple[int, ...] | None = None
    king_of_hearts: int | None = None
    last_two: tuple[int, int] | None = None
    trump: Suit | None = None
    finish_order: tuple[int, ...] | None = None
    start_rank: int | None = None
    suits: tuple[tuple[int, ...], ...] | None = None
    last_trick: int | None = None
    boys: tuple[int, ...] | None = None
    net: tuple[int, ...] | None = None  # chinese_poker: each seat's net, before the multiplier
    to_enter: bool = False  # the contract is named, its data still to enter

    def data_given(self) -> list[str]:
        """The contract data keys this deal carries, in the format's order."""
        return [k for k in ALL_DATA_KEYS if getattr(self, k) is not None]


_DATA_FIELDS = {f.name for f in fields(BarbuDeal)} & set(ALL_DATA_KEYS)
assert _DATA_FIELDS == set(ALL_DATA_KEYS)


def is_split(
    rules: BarbuRules, contract: Contract, doubles: Sequence[Double], *, to_enter: bool = False
) -> bool:
    """An undoubled negative contract that is not played (its total is split). A deal still
    to enter (``to_enter``) never is: nothing of it is scored yet."""
    return (
        not to_enter
        and rules.undoubled_negative is UndoubledNegative.SPLIT
        and rules.doubling
        and contract.negative
        and not doubles
    )


# -- reading ----------------------------------------------------------------------------------


def parse_deal(raw: object, *, header: MatchHeader, rules: BarbuRules, index: int) -> BarbuDeal:
    """Read deal ``index`` (0-based) strictly and check it against itself."""
    check_in_match(rules, index)
    obj = schema.obj(raw, allowed=DEAL_KEYS, what=Words("a Barbu deal (an object)"))
    declarer = declarer_of(header, rules, index)
    names = header.players
    stated = None
    if "declarer" in obj:
        stated = schema.seat(obj["declarer"], "declarer", header.seats)
        _check_declarer(stated, header=header, rules=rules, index=index)
    if "contract" not in obj:
        raise RuleError(
            "missing_key",
            "the required key {key} is missing: which contract did {declarer} name?",
            key=_quote("contract"),
            declarer=names[declarer],
        )
    contract = _contract(obj["contract"], rules, names, declarer)
    doubles = _doubles(obj.get("doubles", []), names)
    # The doubles decide whether the deal was played (and so which keys it records): judge
    # them first, so that an illegal double is refused as such, not as missing data.
    check_doubles(doubles, declarer=declarer, contract=contract, rules=rules, names=names)
    to_enter = schema.boolean(obj.get("to_enter", False), "to_enter")
    given = [k for k in ALL_DATA_KEYS if k in obj]
    if to_enter:
        _check_nothing_entered(given, index=index, declarer=names[declarer])
        deal = BarbuDeal(contract=contract, doubles=doubles, declarer=stated, to_enter=True)
        check_deal(deal, header=header, rules=rules, index=index)
        return deal
    split = is_split(rules, contract, doubles)
    _check_keys(contract, data_keys(rules, contract), given, split=split, declarer=names[declarer])
    data = {key: _read(key, obj[key], names, declarer) for key in given}
    deal = BarbuDeal(contract=contract, doubles=doubles, declarer=stated, **data)
    check_deal(deal, header=header, rules=rules, index=index)
    return deal


def parse_contract(
    raw: object, *, rules: BarbuRules, names: Sequence[str], declarer: int
) -> Contract:
    """The contract ``declarer`` (a seat) names, refused unless it is one of the variant's."""
    return _contract(raw, rules, names, declarer)


def _contract(raw: object, rules: BarbuRules, names: Sequence[str], seat: int) -> Contract:
    """The contract the declarer (``seat``) names, one of the variant's."""
    declarer = names[seat]
    try:
        text = schema.string(raw, "contract")
    except RuleError as e:
        raise e.at(declarer, seat=seat) from None
    allowed = rules.played
    if text not in allowed and rules.contracts is not None:
        raise RuleError(
            "bad_contract",
            "{declarer} cannot name {contract}: it is not one of this match's contracts "
            "({choices})",
            declarer=declarer,
            contract=_quote(text),
            choices=OneOf(Term("contract", c) for c in allowed),
            where=(declarer, "contract"),
            place=Place(seat=seat, field="contract"),
        )
    if text not in allowed:
        raise RuleError(
            "bad_contract",
            "{declarer} cannot name {contract}: the contracts of the variant {variant} are "
            "{choices}",
            declarer=declarer,
            contract=_quote(text),
            variant=Term("variant", rules.variant.value),
            choices=OneOf(Term("contract", c) for c in allowed),
            where=(declarer, "contract"),
            place=Place(seat=seat, field="contract"),
        )
    return Contract(text)


def _doubles(raw: object, names: Sequence[str]) -> tuple[Double, ...]:
    """Read the businesses; an entry's error names the doubling player when ``by`` is a seat."""
    items = schema.array(raw, "doubles")
    out = []
    for i, item in enumerate(items):
        by_raw = item.get("by") if isinstance(item, dict) else None
        seat = by_raw if _is_seat(by_raw, len(names)) else None
        doubler = names[seat] if seat is not None else ""
        try:
            entry = schema.obj(
                item,
                allowed=DOUBLE_KEYS,
                required=("by", "on"),
                what=Words('a double ({"by": seat, "on": seat})'),
            )
            by = schema.seat(entry["by"], "by", len(names))
            on = schema.seat(entry["on"], "on", len(names))
            redoubled = schema.boolean(entry.get("redoubled", False), "redoubled")
        except RuleError as e:
            raise e.under("doubles", doubler, f"doubles[{i}]", seat=seat, index=i) from None
        out.append(Double(by, on, redoubled))
    return tuple(out)


def _is_seat(raw: object, seats: int) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < seats


def _check_keys(
    contract: Contract, keys: Sequence[str], given: Sequence[str], *, split: bool, declarer: str
) -> None:
    """The deal carries exactly the contract data ``keys`` its contract records in the match
    (none when the deal is an undoubled negative contract that is not played)."""
    for key in given:
        if key not in keys:
            raise RuleError(
                "key_not_used",
                "{contract} (declared by {declarer}) records {keys}, not the {key}",
                key=Term("data", key),
                contract=Term("contract", contract.value),
                declarer=declarer,
                keys=AllOf(Term("data", k) for k in keys),
                where=(key,),
                place=Place(field=key),
            )
        if split:
            raise RuleError(
                "undoubled_not_played",
                "nobody doubled in {contract} (declared by {declarer}), so it is not played and "
                "its total is split: enter nothing for it (not the {key})",
                contract=Term("contract", contract.value),
                declarer=declarer,
                key=Term("data", key),
                where=(key,),
                place=Place(field=key),
            )
    if split:
        return
    for key in keys:
        if key not in given and key not in OPTIONAL_DATA_KEYS:
            raise RuleError(
                "missing_key",
                "{contract} (declared by {declarer}) was played: enter the {key}",
                contract=Term("contract", contract.value),
                declarer=declarer,
                key=Term("data", key),
                where=(key,),
                place=Place(field=key),
            )


def _check_nothing_entered(given: Sequence[str], *, index: int, declarer: str) -> None:
    """A deal still to enter carries no contract data (its data is entered later, and then
    ``to_enter`` is left out)."""
    if given:
        key = given[0]
        raise RuleError(
            "to_enter_with_data",
            "deal {number} (declared by {declarer}) is still to enter ({marker}), so it "
            "records no {key} yet: once its data is entered, leave out {flag}",
            number=index + 1,
            declarer=declarer,
            marker='"to_enter": true',
            key=_quote(key),
            flag=_quote("to_enter"),
            where=(key,),
            place=Place(field=key),
        )


def _counts(raw: object, key: str, seats: int) -> tuple[int, ...]:
    """What each seat took of a counted key: no seat more than the table's pack holds."""
    maximum = counts(seats)[key]
    return tuple(schema.int_list(raw, key, length=seats, minimum=0, maximum=maximum, per_seat=True))


def _nets(raw: object, key: str, seats: int) -> tuple[int, ...]:
    """Chinese Poker: each seat's net, a whole number of either sign."""
    items = schema.array(raw, key, length=seats)
    return tuple(
        schema.integer(v, f"{key}[{i}]", place=Place(field=key, seat=i))
        for i, v in enumerate(items)
    )


def _seat(raw: object, key: str, seats: int) -> int:
    return schema.seat(raw, key, seats)


def _seats(length: int | None) -> Callable[[object, str, int], tuple[int, ...]]:
    """A list of ``length`` seats (``None``: one a player, as a finishing order)."""

    def read(raw: object, key: str, seats: int) -> tuple[int, ...]:
        items = schema.array(raw, key, length=seats if length is None else length)
        return tuple(
            schema.seat(v, f"{key}[{i}]", seats, place=Place(field=key, index=i))
            for i, v in enumerate(items)
        )

    return read


def _suit(raw: object, key: str, seats: int) -> Suit:
    try:
        return parse_suit(raw)
    except RuleError as e:
        raise e.at(key, field=key) from None


def _rank(raw: object, key: str, seats: int) -> int:
    text = schema.string(raw, key).strip().upper()
    if text not in _RANKS:
        raise RuleError(
            "bad_rank",
            "{text} is not a rank (A 2-10 J Q K)",
            text=_quote(raw),
            where=(key,),
            place=Place(field=key),
        )
    return _RANKS[text]


def _suit_table(raw: object, key: str, seats: int) -> tuple[tuple[int, ...], ...]:
    rows = schema.array(raw, key, length=seats)
    return tuple(
        tuple(
            schema.int_list(
                row, f"{key}[{i}]", length=4, minimum=0, maximum=13, place=Place(field=key, seat=i)
            )
        )
        for i, row in enumerate(rows)
    )


_READERS: dict[str, Callable[[object, str, int], Any]] = {
    "tricks": _counts,
    "hearts": _counts,
    "ace_of_hearts": _seat,
    "queens": _counts,
    "king_of_hearts": _seat,
    "last_two": _seats(2),
    "trump": _suit,
    "finish_order": _seats(None),
    "start_rank": _rank,
    "suits": _suit_table,
    "last_trick": _seat,
    "boys": _counts,
    "net": _nets,
}
assert set(_READERS) == set(ALL_DATA_KEYS)

# Keys holding one entry per seat (entry i is what seat i took), and keys the declarer chooses.
PER_SEAT_KEYS = schema.PER_SEAT_KEYS
DECLARER_KEYS = frozenset({"trump", "start_rank"})


def _read(key: str, raw: object, names: Sequence[str], declarer: int) -> Any:
    """Read one contract data key; an error names the seat it concerns: the seat of a bad
    per-seat entry (``tricks[3]`` is the fourth player's), the declarer for what they chose."""
    if key == "finish_order":
        _check_order_complete(raw, names)
    try:
        return _READERS[key](raw, key, len(names))
    except RuleError as e:
        if key in DECLARER_KEYS:
            raise e.at(names[declarer], seat=declarer) from None
        seat = e.place.seat
        if key in PER_SEAT_KEYS and seat is not None and seat < len(names):
            raise e.at(names[seat], seat=seat) from None
        raise


# -- checking ---------------------------------------------------------------------------------


def check_deal(deal: BarbuDeal, *, header: MatchHeader, rules: BarbuRules, index: int) -> None:
    """Everything that deal ``index`` must satisfy on its own (not the deals before it)."""
    check_in_match(rules, index)
    names = header.players
    declarer = declarer_of(header, rules, index)
    if deal.declarer is not None:
        _check_declarer(deal.declarer, header=header, rules=rules, index=index)
    if deal.contract not in rules.played:
        _contract(deal.contract.value, rules, names, declarer)
    check_doubles(deal.doubles, declarer=declarer, contract=deal.contract, rules=rules, names=names)
    if deal.to_enter:
        _check_nothing_entered(deal.data_given(), index=index, declarer=names[declarer])
        return
    split = is_split(rules, deal.contract, deal.doubles)
    keys = data_keys(rules, deal.contract)
    _check_keys(deal.contract, keys, deal.data_given(), split=split, declarer=names[declarer])
    if not split:
        check_data(deal, names)


def _check_declarer(stated: int, *, header: MatchHeader, rules: BarbuRules, index: int) -> None:
    declarer = declarer_of(header, rules, index)
    if stated != declarer:
        names = header.players
        raise RuleError(
            "declarer_mismatch",
            "{stated} cannot declare deal {number}: {declarer} declares it (the option "
            "{option} is {rotation})",
            stated=names[stated],
            number=index + 1,
            option=Term("option", "rotation"),
            rotation=Term("rotation", rules.rotation.value),
            declarer=names[declarer],
            where=(names[stated], "declarer"),
            place=Place(seat=stated, field="declarer"),
        )


def _named_counts(values: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {v}" for s, v in enumerate(values))


def _check_sum(values: Sequence[int] | None, key: str, want: int, names: Sequence[str]) -> None:
    if values is not None and sum(values) != want:
        raise RuleError(
            f"{key}_sum",
            "the {key} taken add up to {got}, not {want} ({counts})",
            key=Term("data", key),
            got=sum(values),
            want=want,
            counts=_named_counts(values, names),
            where=(key,),
            place=Place(field=key),
        )


def check_data(deal: BarbuDeal, names: Sequence[str]) -> None:
    """The contract data agrees with itself and with the table's pack (52 cards, or 50 for
    five players: one entry a player in ``names``)."""
    for key, want in counts(len(names)).items():
        _check_sum(getattr(deal, key), key, want, names)
    if deal.net is not None and sum(deal.net) != 0:
        raise RuleError(
            "net_sum",
            "the nets add up to {got}, not 0: what one player wins on a comparison, another "
            "loses ({counts})",
            got=sum(deal.net),
            counts=_named_counts(deal.net, names),
            where=("net",),
            place=Place(field="net"),
        )
    if deal.hearts is not None:
        for key, card in (("ace_of_hearts", "AH"), ("king_of_hearts", "KH")):
            holder = getattr(deal, key)
            if holder is not None and deal.hearts[holder] == 0:
                raise RuleError(
                    f"{key}_without_hearts",
                    "{player} is said to have taken {card} but took no hearts",
                    player=names[holder],
                    card=Cards(card),
                    where=(names[holder], key),
                    place=Place(seat=holder, field=key),
                )
    if deal.last_trick is not None and deal.tricks is not None:
        if deal.tricks[deal.last_trick] == 0:
            raise RuleError(
                "last_trick_without_tricks",
                "{player} is said to have taken the last trick but took no tricks",
                player=names[deal.last_trick],
                where=(names[deal.last_trick], "last_trick"),
                place=Place(seat=deal.last_trick, field="last_trick"),
            )
    if deal.last_two is not None and deal.tricks is not None:
        _check_last_two(deal.last_two, deal.tricks, names)
    if deal.finish_order is not None:
        _check_finish_order(deal.finish_order, names)
    if deal.suits is not None:
        _check_suits(deal.suits, names)
    if deal.contract is Contract.SALADE:
        _check_salade_cards(deal, names)


def _check_last_two(last_two: Sequence[int], tricks: Sequence[int], names: Sequence[str]) -> None:
    """A salade that records the last two tricks: each seat named took as many tricks."""
    for i, seat in enumerate(last_two):
        named = list(last_two).count(seat)
        if tricks[seat] >= named:
            continue
        where = (names[seat], f"last_two[{i}]")
        place = Place(seat=seat, field="last_two", index=i)
        if tricks[seat] == 0:
            raise RuleError(
                "last_two_without_tricks",
                "{player} is said to have taken one of the last two tricks but took no tricks",
                player=names[seat],
                where=where,
                place=place,
            )
        raise RuleError(
            "last_two_without_tricks",
            "{player} is said to have taken both of the last two tricks but took only one trick",
            player=names[seat],
            where=where,
            place=place,
        )


def _check_order_complete(raw: object, names: Sequence[str]) -> None:
    """A finishing order of players each named once that stops short names who is missing
    (anything else is the reader's to refuse: not a list, not a seat, too long)."""
    if not isinstance(raw, list) or len(raw) >= len(names):
        return
    seats = range(len(names))
    if any(not _is_seat(v, len(names)) for v in raw) or len(set(raw)) != len(raw):
        return
    raise RuleError(
        "finish_order_incomplete",
        "{missing} not placed: the finishing order lists every player once, from the first "
        "out to the last",
        missing=AllOf(names[s] for s in seats if s not in raw),
        where=(f"finish_order[{len(raw)}]",),
        place=Place(field="finish_order", index=len(raw)),
    )


def _check_finish_order(order: Sequence[int], names: Sequence[str]) -> None:
    seen: set[int] = set()
    for i, seat in enumerate(order):
        if seat in seen:
            missing = [names[s] for s in range(len(names)) if s not in order]
            raise RuleError(
                "finish_order_not_permutation",
                "{player} goes out twice and {missing} never: the finishing order lists each "
                "player once",
                player=names[seat],
                missing=AllOf(missing),
                where=(names[seat], f"finish_order[{i}]"),
                place=Place(seat=seat, field="finish_order", index=i),
            )
        seen.add(seat)


def _check_suits(suits: Sequence[Sequence[int]], names: Sequence[str]) -> None:
    for k, suit in enumerate(("S", "H", "D", "C")):
        column = [row[k] for row in suits]
        if sum(column) != SUIT_CARDS:
            raise RuleError(
                "suit_sum",
                "the cards of {suit} taken add up to {got}, not 13 ({counts})",
                suit=Term("suit", suit),
                got=sum(column),
                counts=_named_counts(column, names),
                where=("suits",),
                place=Place(field="suits", index=k),
            )
    for seat, row in enumerate(suits):
        if sum(row) % len(names):  # a trick carries a card of each player
            raise RuleError(
                "suit_cards_not_tricks",
                "{player} took {cards} cards, which is not a whole number of tricks of 4",
                player=names[seat],
                cards=sum(row),
                where=(names[seat], f"suits[{seat}]"),
                place=Place(seat=seat, field="suits"),
            )


def _check_salade_cards(deal: BarbuDeal, names: Sequence[str]) -> None:
    """Hearts and queens fit in the tricks that carry them; the named hearts (AH, KH and the
    queen of hearts, which counts as a heart and as a queen) are among a player's hearts."""
    assert deal.tricks and deal.hearts and deal.queens
    tricks, hearts, queens = deal.tricks, deal.hearts, deal.queens
    seats = range(len(names))
    per_trick = len(names)  # a card of each player: 4, or 5 at a table of five
    named: list[list[str]] = [[] for _ in seats]
    for key, card in (("ace_of_hearts", "AH"), ("king_of_hearts", "KH")):
        holder = getattr(deal, key)
        if holder is not None:
            named[holder].append(card)

    def problem(seat: int, holds_qh: bool) -> RuleError | None:
        cards = named[seat] + (["QH"] if holds_qh else [])
        if len(cards) > hearts[seat]:
            return RuleError(
                "named_hearts_exceed_hearts",
                "{player} is said to have taken {cards} but took only {hearts} hearts",
                player=names[seat],
                cards=Cards(" ".join(cards)),
                hearts=hearts[seat],
                where=(names[seat], "hearts"),
                place=Place(seat=seat, field="hearts"),
            )
        distinct = hearts[seat] + queens[seat] - (1 if holds_qh else 0)
        if distinct > per_trick * tricks[seat]:
            return RuleError(
                "cards_exceed_tricks",
                "{player}'s hearts ({hearts}) and queens ({queens}) are more cards than "
                "{tricks} tricks carry",
                player=names[seat],
                hearts=hearts[seat],
                queens=queens[seat],
                tricks=tricks[seat],
                where=(names[seat], "tricks"),
                place=Place(seat=seat, field="tricks"),
            )
        return None

    def may_hold_qh(seat: int) -> bool:
        return hearts[seat] > 0 and queens[seat] > 0 and problem(seat, True) is None

    needs_qh = []
    for seat in seats:
        error = problem(seat, False)
        if error is not None:
            if not may_hold_qh(seat):
                raise error
            needs_qh.append((seat, error))
    if len(needs_qh) > 1:  # only one player can have taken the queen of hearts
        raise needs_qh[1][1]
    if not needs_qh and not any(may_hold_qh(s) for s in seats):
        raise RuleError(
            "queen_of_hearts_nowhere",
            "nobody can have taken the queen of hearts: it is a heart and a queen, and no "
            "player's hearts, queens and tricks leave room for it (tricks/hearts/queens: "
            "{counts})",
            counts=", ".join(f"{names[s]} {tricks[s]}/{hearts[s]}/{queens[s]}" for s in seats),
            where=("queens",),
            place=Place(field="queens"),
        )


# -- writing ----------------------------------------------------------------------------------


def deal_json(deal: BarbuDeal) -> dict[str, Any]:
    """The deal as the document writes it: canonical values, no score."""
    out: dict[str, Any] = {"contract": deal.contract.value}
    if deal.declarer is not None:
        out["declarer"] = deal.declarer
    out["doubles"] = [
        {"by": d.by, "on": d.on, **({"redoubled": True} if d.redoubled else {})}
        for d in deal.doubles
    ]
    if deal.to_enter:
        out["to_enter"] = True  # false is the same as absent, and not written
    own = deal.contract.data_keys  # the contract's order; a salade's last_two where it has one
    for key in (*own, *(k for k in ALL_DATA_KEYS if k not in own)):
        value = getattr(deal, key)
        if value is None:
            continue
        if key == "trump":
            value = value.value
        elif key == "start_rank":
            value = RANK_NAMES[value]
        elif key == "suits":
            value = [list(row) for row in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out
