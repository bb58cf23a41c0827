"""Burraco tournament victory points (VP): a match of a set number of deals, and the table
that turns the difference of the two totals into VP.

Source: FIBUR's Codice di Gara, Art. 17, prints VP tables for rounds of 2, 3 and 4 deals and
for teams; the 3-deal and 4-deal tables are here as puntiburraco.it prints them
(:data:`FIBUR_TABLES`). The 2-deal and team tables were not found: a table of the house's own
is a list of bands.

- A **band** is ``(largest difference, VP ahead, VP behind)``: it holds every difference above
  the band before it, up to its own figure; the last band has no upper end (None).
- The side ahead gets the band's first figure, the side behind the second; equal totals fall
  in the first band, which gives both sides the same VP.
- A table is checked once, when the rules are read (:func:`check_table`): the differences rise,
  only the last band is open-ended, VP are whole numbers with ahead ≥ behind ≥ 0, and a larger
  difference never gives the side ahead fewer VP nor the side behind more. So the VP of the
  side ahead never fall as the difference grows, and those of the side behind never rise.

Everything here is pure: tables in, VP out; :mod:`.burraco` reads the options and ends the
match after its last deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import schema
from .cards import _quote, _type_name
from .errors import Place, RuleError, Term, Words

#: (largest difference or None for no upper end, VP of the side ahead, VP of the side behind)
type Band = tuple[int | None, int, int]
type Table = tuple[Band, ...]

#: ``vp_table: "fibur"``: FIBUR's table for the number of deals of the match.
FIBUR = "fibur"

FIBUR_TABLES: dict[int, Table] = {
    3: (
        (50, 10, 10),
        (150, 11, 9),
        (250, 12, 8),
        (350, 13, 7),
        (500, 14, 6),
        (650, 15, 5),
        (800, 16, 4),
        (1000, 17, 3),
        (1250, 18, 2),
        (1500, 19, 1),
        (None, 20, 0),
    ),
    4: (
        (100, 10, 10),
        (300, 11, 9),
        (500, 12, 8),
        (700, 13, 7),
        (900, 14, 6),
        (1100, 15, 5),
        (1300, 16, 4),
        (1500, 17, 3),
        (1700, 18, 2),
        (2000, 19, 1),
        (None, 20, 0),
    ),
}

KEY = "vp_table"


# --- reading a table ---------------------------------------------------------------------------


def parse_table(raw: object, key: str = KEY) -> str | Table:
    """``"fibur"`` or a table of the house's own, checked (:func:`check_table`); a refusal
    names ``key`` (and the band, counted from 1, as its ``index`` from 0)."""
    if isinstance(raw, str):
        return schema.string(raw, key, choices=(FIBUR,))
    if not isinstance(raw, list):
        raise RuleError(
            "bad_type",
            "expected {what}, got {got}",
            what=Words('"fibur" or a list of bands [largest difference, VP ahead, VP behind]'),
            got=_type_name(raw),
            where=(key,),
            place=Place(field=key),
        )
    bands = tuple(_band(item, i, key) for i, item in enumerate(raw))
    check_table(bands, key)
    return bands


def _band(raw: object, index: int, key: str) -> Band:
    """One band as written: three entries, the first a whole number ≥ 0 or null, the VP whole."""
    number = index + 1
    where, place = (f"{key}[{index}]",), Place(field=key, index=index)
    if not isinstance(raw, list) or len(raw) != 3:
        raise RuleError(
            "vp_band_shape",
            "band {number} is not three entries [largest difference, VP ahead, VP behind]",
            number=number,
            where=where,
            place=place,
        )
    limit, ahead, behind = raw
    if limit is not None and (type(limit) is not int or limit < 0):
        raise RuleError(
            "vp_band_difference",
            "band {number}: its largest difference is a whole number, 0 or more (or null for "
            "the last band), not {got}",
            number=number,
            got=_shown(limit),
            where=where,
            place=place,
        )
    for vp in (ahead, behind):
        if type(vp) is not int:
            raise RuleError(
                "vp_not_whole",
                "band {number}: victory points are whole numbers, not {got}",
                number=number,
                got=_shown(vp),
                where=where,
                place=place,
            )
    return (limit, ahead, behind)


def _shown(value: object) -> str:
    """A figure of a band as a message quotes it: a number as written, else what it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _quote(value)
    return _type_name(value)


def check_table(bands: Sequence[Band], key: str = KEY) -> None:
    """Refuse a table that cannot be FIBUR's kind of table (see the module docstring)."""
    if not bands:
        raise RuleError(
            "vp_table_empty",
            "the table has no band: give at least one [largest difference, VP ahead, VP behind]",
            where=(key,),
            place=Place(field=key),
        )
    last = len(bands) - 1
    for i, (limit, ahead, behind) in enumerate(bands):
        number = i + 1
        where, place = (f"{key}[{i}]",), Place(field=key, index=i)
        if limit is None and i < last:
            raise RuleError(
                "vp_band_open_early",
                "band {number} has no largest difference, but only the last band is open-ended",
                number=number,
                where=where,
                place=place,
            )
        if limit is not None and i == last:
            raise RuleError(
                "vp_last_band_closed",
                "the last band (band {number}) ends at {limit}: the last band has no largest "
                "difference (null), so that every difference falls in a band",
                number=number,
                limit=limit,
                where=where,
                place=place,
            )
        if behind < 0:
            raise RuleError(
                "vp_negative",
                "band {number} gives the side behind {behind} victory points: they are 0 or more",
                number=number,
                behind=behind,
                where=where,
                place=place,
            )
        if ahead < behind:
            raise RuleError(
                "vp_ahead_below_behind",
                "band {number} gives the side ahead {ahead} victory points and the side behind "
                "{behind}: the side ahead gets at least as many",
                number=number,
                ahead=ahead,
                behind=behind,
                where=where,
                place=place,
            )
        if i == 0 and ahead != behind:
            raise RuleError(
                "vp_first_band_unequal",
                "the first band gives {ahead} and {behind} victory points: equal totals fall in "
                "it, so it gives both sides the same",
                ahead=ahead,
                behind=behind,
                where=where,
                place=place,
            )
        if i == 0:
            continue
        before_limit, before_ahead, before_behind = bands[i - 1]
        if limit is not None and before_limit is not None and limit <= before_limit:
            raise RuleError(
                "vp_bands_not_rising",
                "band {number} ends at {limit}, not above the {previous_limit} of band "
                "{previous}: the largest differences rise from band to band",
                number=number,
                limit=limit,
                previous=number - 1,
                previous_limit=before_limit,
                where=where,
                place=place,
            )
        if ahead < before_ahead:
            raise RuleError(
                "vp_ahead_fewer",
                "band {number} gives the side ahead {ahead} victory points, fewer than the "
                "{previous_vp} of band {previous}: a larger difference never gives the side "
                "ahead fewer",
                number=number,
                ahead=ahead,
                previous=number - 1,
                previous_vp=before_ahead,
                where=where,
                place=place,
            )
        if behind > before_behind:
            raise RuleError(
                "vp_behind_more",
                "band {number} gives the side behind {behind} victory points, more than the "
                "{previous_vp} of band {previous}: a larger difference never gives the side "
                "behind more",
                number=number,
                behind=behind,
                previous=number - 1,
                previous_vp=before_behind,
                where=where,
                place=place,
            )


def check_fibur_table(match_deals: int, key: str) -> None:
    """``vp_table: "fibur"`` needs FIBUR's table for the match's number of deals (3 or 4);
    the refusal names ``key`` (``vp_table`` when given, else ``match_deals``)."""
    if match_deals not in FIBUR_TABLES:
        raise RuleError(
            "vp_no_fibur_table",
            "FIBUR's victory points have a table for 3 deals and for 4, not for {deals}: give "
            "a table of your own in {option}",
            deals=match_deals,
            option=Term("option", KEY),
            where=(key,),
            place=Place(field=key),
        )


# --- using a table ------------------------------------------------------------------------------


def table_of(vp_table: str | Table, match_deals: int) -> Table:
    """The bands a match plays by: FIBUR's for its number of deals, or the house's."""
    if isinstance(vp_table, str):
        return FIBUR_TABLES[match_deals]
    return vp_table


def band_of(table: Table, difference: int) -> Band:
    """The band that holds ``difference`` (≥ 0): the first whose largest difference is at
    least it, or the open-ended last one."""
    for band in table:
        if band[0] is None or difference <= band[0]:
            return band
    raise ValueError("a table checked by check_table ends with an open band")


def victory_points(table: Table, totals: Sequence[int]) -> tuple[int, int]:
    """The VP of side 0 and side 1 for their totals: the band of the difference gives the side
    ahead its first figure and the side behind its second (equal totals: the first band)."""
    first, second = totals
    _, ahead, behind = band_of(table, abs(first - second))
    return (ahead, behind) if first >= second else (behind, ahead)


def deals_left(match_deals: int, deals: int) -> int:
    """How many deals the match still has to play after ``deals``."""
    return max(match_deals - deals, 0)
