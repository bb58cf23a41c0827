"""One exception type for every rule violation, and a notice type for warnings.

Each carries a stable ``code`` (for tests, forms and translations), an English ``template``
with ``{named}`` placeholders, its ``params``, ``where``: the place it concerns in words, most
general first (``("deal 3", "Anna & Chris", "meld 2 (5C 6C JK 2D)")``), and ``place``: the same
place as values (a :class:`Place`: ``deal=3, side=0, meld=2, field="melds"``), for a page that
points at the deal, side, seat, meld or card concerned without reading the words. A
translation layer replaces the template by code; nothing else in the text is fixed.

A message may quote what it refuses (a key, a name, a meld's cards), and what it refuses may be
a megabyte long or hold text that cannot be written out: every parameter and every place is
shown through :func:`excerpt`, the one place that bounds what a message quotes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The most characters a message shows of one parameter or one place (``meld 1 (AD 2D …)``):
#: room for the longest list of choices a message names, far less than a hostile input.
EXCERPT_MAX = 200
_ELLIPSIS = "…"
_CLOSING = {'"': '"', "'": "'", ")": "(", "]": "["}


def excerpt(value: object, limit: int = EXCERPT_MAX) -> str:
    """``value`` as text fit for a message: at most ``limit`` characters, the cut marked with
    ``…`` (a quoted value keeps its closing quote, a bracket its bracket), and a character that
    cannot be written out (a lone surrogate such as ``\\ud800``) shown as its escape."""
    text = value if isinstance(value, str) else str(value)
    cut = len(text) > limit
    # a quoted value, or a place such as "meld 1 (AD 2D …)", keeps its closing mark
    opening = _CLOSING.get(text[-1]) if cut else None
    quote = text[-1] if opening is not None and opening in text[: limit - 1] else ""
    if cut:
        text = text[:limit]
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if cut or len(text) > limit:
        text = text[: max(limit - 1 - len(quote), 0)] + _ELLIPSIS + quote
    return text


@dataclass(frozen=True)
class Place:
    """Where a refusal or a notice points, as values: what ``where`` says in words.

    Every field is ``None`` where it does not apply. Numbers as a player says them are counted
    from 1, as the messages show them: ``deal`` (``deal 3``) and ``meld`` (``meld 2`` of its
    side: ``melds[1]`` of the document). Positions in the document are counted from 0:
    ``side`` (a rummy side, in the order of ``sides``; one player in a game of 2 or 3),
    ``seat`` (a player: the Barbu player the error concerns, a doubler, the owner of an entry
    of ``tricks``), ``card`` (a card's index in its list: the meld's cards, ``hand``) and
    ``index`` (the entry of any other list: ``doubles[2]``, ``players[1]``,
    ``finish_order[0]``, the suit column ``S H D C`` of a Ravage City ``suits`` row).

    ``field`` is the key of the document the place is in: within a deal ``"melds"`` (with
    ``meld``), ``"hand"``, ``"final_discard"``, ``"took_pot"``, ``"totals"``, ``"melded"``,
    ``"in_hand"``, ``"bonuses"``, ``"trump"``, ``"dealer"``, ``"sides"``, ``"solo"`` (Burraco for
    three), Barbu's
    ``"contract"``, ``"declarer"``, ``"doubles"`` and contract data keys (``"tricks"``,
    ``"suits"``, ...); outside the deals ``"players"``, ``"first_dealer"``, ``"rules"``,
    ``"game"``, ``"format"``, ``"deals"``, ``"changes"`` (the history: ``index`` is the change,
    counted from 0 as its references count it); or an unknown key, as written. ``key`` is the
    key inside a field whose keys are names rather than parts of the document: the option of
    ``"rules"`` (``"target"``), the kind of ``"bonuses"`` (``"clean_biriba"``), the key of a
    ``"doubles"`` entry (``"by"``), the key of a change (``changes[3], at``: ``field="changes",
    index=3, key="at"``).
    """

    deal: int | None = None
    side: int | None = None
    seat: int | None = None
    meld: int | None = None
    card: int | None = None
    field: str | None = None
    key: str | None = None
    index: int | None = None

    def within(self, outer: Place) -> Place:
        """This place inside ``outer``: what this place leaves open, ``outer`` fills in."""
        mine = self.as_dict()
        return Place(**{k: v for k, v in outer.as_dict().items() if k not in mine}, **mine)

    def as_dict(self) -> dict[str, int | str]:
        """The fields that are set (``{"deal": 3, "side": 0, "meld": 2, "field": "melds"}``)."""
        return {k: v for k, v in vars(self).items() if v is not None}

    def shown(self) -> dict[str, int | str]:
        """:meth:`as_dict` with every text an excerpt (an unknown key may be a megabyte long)."""
        return {k: excerpt(v) if isinstance(v, str) else v for k, v in self.as_dict().items()}

    def __bool__(self) -> bool:
        return bool(self.as_dict())


#: Nowhere in particular (a document as a whole, or a place the caller adds).
NOWHERE = Place()


def shown_where(where: tuple[str, ...]) -> tuple[str, ...]:
    """The places as a message shows them (each cut to an excerpt)."""
    return tuple(excerpt(piece) for piece in where)


def join_where(where: tuple[str, ...]) -> str:
    """``("deal 2", "side 0", "hand", "[3]")`` → ``deal 2, side 0, hand[3]``."""
    out = ""
    for piece in shown_where(where):
        if out and not piece.startswith("["):
            out += ", "
        out += piece
    return out


# --- parameters a page shows in its own language ------------------------------------------
#
# A parameter is a name, a number, a quoted value the rules refuse, or one of these: each says
# what it is, so that the site can show it as a player would in the page's language
# (scorekeeper/rule_messages.py); the English message shows it as below. Each is a ``str`` or a
# ``tuple``, so that a notice kept as JSON keeps its parameters.


class Words(str):
    """English words of the rules core (``"a list"``, ``"a Barbu deal (an object)"``), which
    the site translates whole: the text is the message id (makemessages finds ``Words("…")``)."""


class Cards(str):
    """Cards as codes, separated by spaces (``"5S 6C JK"``): the site shows ``5♠ 6♣`` and the
    joker by its name."""


class Term(str):
    """A code of the rules' vocabulary, which the site names in the page's language: ``kind``
    says which vocabulary. ``contract`` (``no_hearts``), ``bonus`` (``clean_biriba``),
    ``option`` (a rules option: ``sets``), ``rank`` (a rank as a set names it: ``K``, ``7``),
    ``suit`` (``H``), ``game`` (``biriba``), ``pot`` (the game's pot: ``biribaki``, ``pozzetto``),
    ``data`` (a key of a Barbu deal's data: ``ace_of_hearts``, ``tricks``), ``unit`` (a unit of
    Barbu's house values: ``king_of_hearts``, ``trump_trick``, ``last_two``); any other kind is
    an option whose value the code is (``Term("variant", "salade")``). In English: the code in
    words (``no hearts``), an option as a document writes it (``"sets"``)."""

    kind: str

    def __new__(cls, kind: str, code: str) -> Term:
        term = super().__new__(cls, code)
        term.kind = kind
        return term

    def __getnewargs__(self) -> tuple[str, str]:
        return (self.kind, str.__str__(self))

    def english(self) -> str:
        code = str.__str__(self)
        if self.kind == "rank":
            return _RANK_PLURALS.get(code, f"{code}s")
        if self.kind == "game":
            return code.capitalize()
        if self.kind == "option":
            return f'"{code}"'  # as a document writes it
        if self.kind == "suit":
            return _SUIT_NAMES.get(code, code)
        return code.replace("_", " ")


_RANK_PLURALS = {"A": "aces", "J": "jacks", "Q": "queens", "K": "kings"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class AllOf(tuple):
    """Several things, all of them (``Anna and Chris``): each shown as its own kind."""

    conjunction = "and"

    def __str__(self) -> str:
        words = [english(item) for item in self]
        if len(words) < 2:
            return "".join(words)
        return f"{', '.join(words[:-1])} {self.conjunction} {words[-1]}"


class OneOf(AllOf):
    """Choices, one of them (``2, 3 or 4``)."""

    conjunction = "or"


class Times(tuple):
    """A thing and how many of it (``(Term("bonus", "clean_biriba"), 2)``): ``clean biriba
    ×2`` (one: ``clean biriba``)."""

    def __str__(self) -> str:
        thing, count = self
        return f"{english(thing)} ×{count}" if count != 1 else english(thing)


class Spot(tuple):
    """Where in a deal a card is recorded, and how often: ``(side, field, meld, times)``, the
    side by its name, ``field`` ``"melds"`` (with ``meld``, counted from 1), ``"hand"`` or
    ``"final_discard"`` (``meld`` 0): ``Anna meld 2 ×2``."""

    def __str__(self) -> str:
        name, field, meld, times = self
        what = {"melds": f"meld {meld}", "hand": "hand", "final_discard": "closing discard"}
        text = f"{name} {what.get(field, field)}"
        return f"{text} ×{times}" if times > 1 else text


def english(value: Any) -> str:
    return value.english() if isinstance(value, Term) else str(value)


def _format(template: str, params: Mapping[str, Any]) -> str:
    if not params:
        return template
    return template.format(**{key: excerpt(english(value)) for key, value in params.items()})


def _render(where: tuple[str, ...], template: str, params: Mapping[str, Any]) -> str:
    text = _format(template, params)
    return f"{join_where(where)}: {text}" if where else text


class RuleError(ValueError):
    """Something that cannot have happened under the rules, or a document that is malformed.

    ``where`` names the place in words, ``place`` as values (see :class:`Place`); every
    caller that adds words with :meth:`at` adds the values too."""

    def __init__(
        self,
        code: str,
        template: str,
        *,
        where: tuple[str, ...] = (),
        place: Place = NOWHERE,
        **params: Any,
    ):
        self.code = code
        self.template = template
        self.where = tuple(where)
        self.place = place
        self.params = params
        super().__init__(self.message)

    @property
    def text(self) -> str:
        """The rule alone, without the place."""
        return _format(self.template, self.params)

    @property
    def message(self) -> str:
        return _render(self.where, self.template, self.params)

    def at(self, *where: str, place: Place = NOWHERE, **fields: Any) -> RuleError:
        """Prefix the place (outer callers add the deal, the side, ...): the words ``where``
        and the values ``place`` / ``fields`` (``e.at("deal 3", deal=3)``), which fill in
        what the error's own place leaves open. Returns self."""
        self.where = tuple(w for w in where if w) + self.where
        self.place = self.place.within(Place(**fields).within(place))
        self.args = (self.message,)
        return self

    def under(self, field: str, *where: str, **fields: Any) -> RuleError:
        """:meth:`at` for a field whose keys are names (``rules``, ``bonuses``, a ``doubles``
        entry): the field the error named becomes the ``key`` inside ``field``."""
        inner = self.place
        key = inner.key if inner.key is not None else inner.field
        self.place = dataclasses.replace(inner, field=None, key=key)
        return self.at(*where, field=field, **fields)

    def __str__(self) -> str:
        return self.message

    @property
    def shown_where(self) -> tuple[str, ...]:
        """The places as the message shows them (each an excerpt)."""
        return shown_where(self.where)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "where": list(self.shown_where),
            "place": self.place.shown(),
            "message": self.message,
        }


@dataclass(frozen=True)
class Notice:
    """A warning that does not refuse the document (e.g. Barbu ``compulsory_doubles: warn``)."""

    code: str
    template: str
    where: tuple[str, ...] = ()
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    place: Place = NOWHERE

    @property
    def message(self) -> str:
        return _render(self.where, self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def at(self, *where: str, **fields: Any) -> Notice:
        """This notice with the place prefixed (see :meth:`RuleError.at`)."""
        return dataclasses.replace(
            self,
            where=tuple(w for w in where if w) + self.where,
            place=self.place.within(Place(**fields)),
        )

    @property
    def shown_where(self) -> tuple[str, ...]:
        """The places as the message shows them (each an excerpt)."""
        return shown_where(self.where)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "where": list(self.shown_where),
            "place": self.place.shown(),
            "message": self.message,
        }
