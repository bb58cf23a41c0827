"""A refusal or a notice of the rules in the page's language, as a player reads it.

The rules core (scorekeeper/rules/errors.py) gives a stable code, an English template (the
message id) with named parameters, and the place twice: ``where`` in English words, ``place``
as values. Here the template goes through the catalogue (``ngettext`` for a template in
:data:`PLURALS`), each parameter is shown as a player would say it (cards with their suits'
symbols, a contract, a bonus or an option by its name, lists joined with the language's
"and" / "or"), and the place is said again in the page's language, counting from 1 (``deal
3``, ``Anna & Chris``, ``meld 2 (5♠ 6♠ joker)``): never a JSON key the site knows a word for,
an index from 0 or an option's internal name.

    message(error)   # "deal 3, Anna, meld 2 (5♠ 6♠ joker): ..."  (place: rule)
    text(error)      # the rule alone, for a form field that already shows where
    place(error)     # the place alone; places(error): its pieces, for chips

Templates use the filters of score_tags: ``{{ error|rule_message|isolated:match }}``,
``rule_text``, ``rule_places``.

Every function reads the active language (``translation.override`` in a command).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext, pgettext

from scorekeeper import labels
from scorekeeper.entry.drafts import JOKER, card_label
from scorekeeper.rules.errors import (
    AllOf,
    Cards,
    Notice,
    OneOf,
    Place,
    RuleError,
    Spot,
    Term,
    Times,
    Words,
    excerpt,
)


class Problem(Protocol):
    """A refusal or a notice: a :class:`RuleError`, a :class:`Notice`, or a Barbu double's
    ``Refusal`` (no place)."""

    code: str
    template: str

    @property
    def params(self) -> Mapping[str, Any]: ...


# --- plurals ----------------------------------------------------------------------------------

#: The templates whose wording follows a count: template → (the parameter that counts, the
#: catalogue's choice for that count). The plural form is the rules core's own template (a
#: test keeps them equal), the singular is written here; ``ngettext`` picks the language's
#: form (Greek, Italian and French: two; other languages may have more).
PLURALS: dict[str, tuple[str, Callable[[int], str]]] = {
    "{player} must double {declarer} at least {required} times in the deals {declarer} "
    "declares (doubles so far: {done}), and {left} of those deals are left": (
        "left",
        lambda n: ngettext(
            "{player} must double {declarer} at least {required} times in the deals "
            "{declarer} declares (doubles so far: {done}), and {left} of those deals is left",
            "{player} must double {declarer} at least {required} times in the deals "
            "{declarer} declares (doubles so far: {done}), and {left} of those deals are left",
            n,
        ),
    ),
    "{player} must double {declarer} in this deal: {player} owes {owed} of the {required} "
    "compulsory doubles on {declarer}, and after this one {left} of the deals {declarer} "
    "declares are left": (
        "left",
        lambda n: ngettext(
            "{player} must double {declarer} in this deal: {player} owes {owed} of the "
            "{required} compulsory doubles on {declarer}, and after this one {left} of the "
            "deals {declarer} declares is left",
            "{player} must double {declarer} in this deal: {player} owes {owed} of the "
            "{required} compulsory doubles on {declarer}, and after this one {left} of the "
            "deals {declarer} declares are left",
            n,
        ),
    ),
    "there is no deal {number}: the match has {count} deals so far": (
        "count",
        lambda n: ngettext(
            "there is no deal {number}: the match has {count} deal so far",
            "there is no deal {number}: the match has {count} deals so far",
            n,
        ),
    ),
    "{got} sides recorded, but {players} players make {want} sides": (
        "got",
        lambda n: ngettext(
            "{got} side recorded, but {players} players make {want} sides",
            "{got} sides recorded, but {players} players make {want} sides",
            n,
        ),
    ),
    "{player} took {cards} cards, which is not a whole number of tricks of 4": (
        "cards",
        lambda n: ngettext(
            "{player} took {cards} card, which is not a whole number of tricks of 4",
            "{player} took {cards} cards, which is not a whole number of tricks of 4",
            n,
        ),
    ),
    "{player} is said to have taken {cards} but took only {hearts} hearts": (
        "hearts",
        lambda n: ngettext(
            "{player} is said to have taken {cards} but took only {hearts} heart",
            "{player} is said to have taken {cards} but took only {hearts} hearts",
            n,
        ),
    ),
    "{player}'s hearts ({hearts}) and queens ({queens}) are more cards than {tricks} tricks "
    "carry": (
        "tricks",
        lambda n: ngettext(
            "{player}'s hearts ({hearts}) and queens ({queens}) are more cards than {tricks} "
            "trick carries",
            "{player}'s hearts ({hearts}) and queens ({queens}) are more cards than {tricks} "
            "tricks carry",
            n,
        ),
    ),
}


def template(problem: Problem) -> str:
    """The problem's template in the active language (its plural form for its count)."""
    plural = PLURALS.get(problem.template)
    if plural is not None:
        param, choose = plural
        count = problem.params.get(param)
        if isinstance(count, int) and not isinstance(count, bool):
            return choose(count)
    return gettext(problem.template)


# --- the rule ---------------------------------------------------------------------------------


def text(problem: Problem) -> str:
    """The rule alone, in the active language (every parameter an excerpt)."""
    shown = {key: excerpt(param(value)) for key, value in problem.params.items()}
    try:
        return template(problem).format(**shown)
    except (KeyError, IndexError, ValueError):  # a translation that names another parameter
        return problem.template.format(**shown)


def message(problem: Problem) -> str:
    """The place and the rule: ``deal 3, Anna: went out without a burraco…``."""
    where = place(problem)
    rule = text(problem)
    return (
        pgettext("a rule's place, then the rule", "{place}: {rule}").format(place=where, rule=rule)
        if where
        else rule
    )


def param(value: Any) -> str:
    """One parameter as a player reads it in the active language."""
    if isinstance(value, RuleError | Notice):
        return message(value)
    if isinstance(value, Term):
        return term(value)
    if isinstance(value, Cards):
        return cards(value)
    if isinstance(value, Words):
        return gettext(str(value))
    if isinstance(value, Spot):
        return spot(value)
    if isinstance(value, Times):
        thing, count = value
        if count == 1:
            return param(thing)
        return pgettext("a thing and how many of it", "{thing} ×{count}").format(
            thing=param(thing), count=count
        )
    if isinstance(value, AllOf):
        last = gettext("or") if isinstance(value, OneOf) else gettext("and")
        items = list(value)
        if len(items) > 1 and all(isinstance(v, Spot) for v in items):
            return _spots(items, last)
        return str(get_text_list([param(v) for v in items], last))
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int) and value < 0:
        return f"{labels.MINUS}{-value}"  # as the pages write a figure (a probe: "-37")
    return str(value)


# --- the rules' words -------------------------------------------------------------------------


def card(code: str) -> str:
    """``10H`` → ``10♥`` (the pad's own :func:`card_label`); the joker by its name."""
    if code.upper() == JOKER:
        return gettext("joker")
    try:
        return card_label(code)
    except (KeyError, IndexError):  # not a card: shown as written
        return code


def cards(codes: str) -> str:
    """``5S 6C JK`` → ``5♠ 6♣ joker``."""
    return " ".join(card(c) for c in codes.split())


def term(value: Term) -> str:
    """A code of the rules' vocabulary by the name the pages give it."""
    code = str.__str__(value)
    kind = value.kind
    named: dict[str, Callable[[str], str]] = {
        "contract": labels.contract_name,
        "bonus": labels.bonus_name,
        "option": option_label,
        "rank": labels.rank_plural,
        "suit": labels.suit_name,
        "game": labels.game_name,
        "pot": labels.pot_name,
        "data": labels.barbu_data,
        "unit": labels.unit_name,
    }
    if kind in named:
        return named[kind](code)
    return option_value(kind, code)


def _options() -> dict[str, Any]:
    # the new-match form describes the options (and forms reaches the renderer: imported late)
    from scorekeeper.forms import OPTIONS

    found: dict[str, Any] = {}
    for options in OPTIONS.values():
        for option in options:
            found.setdefault(option.key, option)
    return found


def option_label(key: str) -> str:
    """An option by the label the new-match page gives it, quoted: ``“Sets”``."""
    option = _options().get(key)
    if option is not None:
        label = str(option.label)
    else:  # an option of the document the new-match page does not offer
        label = str(labels.OPTIONS.get(key, key.replace("_", " ")))
    return pgettext("an option's label quoted in a sentence", "“{label}”").format(label=label)


def option_value(key: str, value: str) -> str:
    """A value of option ``key`` by the new-match page's words for it, quoted as its label is
    (a probe read "the option “Closing needs” is A clean burraco", the capital mid-sentence)."""
    option = _options().get(key)
    label = None
    for choice, text in option.choices if option is not None else ():
        if choice == value:
            label = str(text)
    if label is None:
        label = str(labels.OPTION_VALUES.get((key, value), value.replace("_", " ")))
    return pgettext("an option's label quoted in a sentence", "“{label}”").format(label=label)


#: The parts of a match document, as a place names them.
FIELDS: dict[str, Callable[[], str]] = {
    "melds": lambda: gettext("melds"),
    "hand": lambda: gettext("hand"),
    "final_discard": lambda: gettext("closing discard"),
    "took_pot": lambda: gettext("pot taken"),
    "went_out": lambda: gettext("going out"),
    "totals": lambda: gettext("totals"),
    "melded": lambda: gettext("melded"),
    "in_hand": lambda: gettext("in hand"),
    "bonuses": lambda: gettext("bonuses"),
    "dealer": lambda: gettext("dealer"),
    "solo": lambda: gettext("solo player"),
    "sides": lambda: gettext("sides"),
    "contract": lambda: gettext("contract"),
    "declarer": lambda: gettext("declarer"),
    "doubles": lambda: gettext("doubles"),
    "to_enter": lambda: gettext("still to enter"),
    "players": lambda: gettext("players"),
    "first_dealer": lambda: gettext("first dealer"),
    "rules": lambda: gettext("rules"),
    "game": lambda: pgettext("the match's game", "game"),
    "format": lambda: gettext("format"),
    "deals": lambda: gettext("deals"),
    "changes": lambda: gettext("history"),
    "score": lambda: gettext("score"),
    "points": lambda: pgettext("a side's one figure for the deal", "points for the deal"),
}
#: An entry of a list, counted from 1 (``melds[0]`` → ``meld 1``).
ENTRIES: dict[str, Callable[[int], str]] = {
    "melds": lambda n: gettext("meld {number}").format(number=n),
    "players": lambda n: gettext("player {number}").format(number=n),
    "sides": lambda n: gettext("side {number}").format(number=n),
    "hand": lambda n: gettext("hand, card {number}").format(number=n),
    "doubles": lambda n: gettext("double {number}").format(number=n),
    "changes": lambda n: gettext("change {number}").format(number=n),
    "finish_order": lambda n: gettext("finishing order, place {number}").format(number=n),
}


def field(key: str, place: Place) -> str:
    """A key of the document as a place names it: a part of it, an option (inside
    ``rules``), a bonus (inside ``bonuses``), what a Barbu deal records; else as written."""
    if place.field == "rules" and key == place.key and key in _options():
        return option_label(key)
    if place.field == "bonuses" and key == place.key and key in labels.BONUSES:
        return labels.bonus_name(key)
    if place.field == "contract_values":  # Barbu's house values: the contract and its unit
        if key == "contract_values":
            return option_label(key)
        contract, dot, unit = key.partition(".")
        if dot and contract in labels.CONTRACTS and unit in labels.UNITS:
            return pgettext("a contract, then one of its units", "{contract}, {unit}").format(
                contract=labels.contract_name(contract), unit=labels.unit_name(unit)
            )
    if key in FIELDS:
        return FIELDS[key]()
    if key in labels.BARBU_DATA:
        return labels.barbu_data(key)
    quoted = len(key) > 1 and key[0] == key[-1] == '"'
    if not quoted and (place.field == "rules" or key in (place.field, place.key)):
        return f'"{key}"'  # a key the rules do not know: quoted as written
    return key  # a name (a side, a player)


def _spots(spots: list[Spot], last: str) -> str:
    """Where a card is recorded, place after place, each side named once (before its first
    place): ``Anna, meld 1, meld 2 and Babis, hand``."""
    shown, named = [], None
    for value in spots:
        shown.append(spot(value, named=value[0] == named))
        named = value[0]
    return str(get_text_list(shown, last))


def spot(value: Spot, *, named: bool = False) -> str:
    """Where a card is recorded: ``Anna, meld 2 ×2`` (``named``: the side said already, the
    place alone: ``meld 2 ×2``)."""
    name, key, meld, times = value
    if key == "melds":
        where = gettext("meld {number}").format(number=meld)
    else:
        where = FIELDS[key]() if key in FIELDS else key
    shown = (
        where
        if named
        else pgettext("a side, then a place in its cards", "{side}, {where}").format(
            side=name, where=where
        )
    )
    if times > 1:
        shown = pgettext("a thing and how many of it", "{thing} ×{count}").format(
            thing=shown, count=times
        )
    return shown


# --- the place --------------------------------------------------------------------------------

_DEAL = re.compile(r"deal (\d+)")
_MELD = re.compile(r"meld (\d+) \((.*)\)", re.DOTALL)
_ENTRY = re.compile(r"([\w.]+)((?:\[\d+\])+)")  # Barbu's house values: salade.last_two[1]
_INDEX = re.compile(r"\[(\d+)\]")


def places(problem: Problem) -> list[str]:
    """Where the problem is, in the active language, most general first: each piece of its
    ``where`` said again with its ``place`` (numbers counted from 1, the document's keys by
    the site's words, sides and players by their names), each an excerpt."""
    where: tuple[str, ...] = getattr(problem, "where", ())
    at: Place = getattr(problem, "place", Place())
    return [excerpt(_piece(piece, at)) for piece in where if piece]


def place(problem: Problem) -> str:
    """:func:`places` in one line: ``deal 3, Anna, meld 2 (5♠ 6♠ joker)``."""
    return pgettext("between the pieces of a place", ", ").join(places(problem))


def _piece(piece: str, at: Place) -> str:
    if found := _DEAL.fullmatch(piece):
        return gettext("deal {number}").format(number=found[1])
    if found := _MELD.fullmatch(piece):
        return gettext("meld {number} ({cards})").format(number=found[1], cards=cards(found[2]))
    if found := _ENTRY.fullmatch(piece):  # melds[0], or melds[0][1]: a meld and its card
        key = found[1]
        number, *inner = (int(i) + 1 for i in _INDEX.findall(found[2]))
        if key in ENTRIES:
            shown = ENTRIES[key](number)
        else:
            shown = gettext("{field}, entry {number}").format(field=field(key, at), number=number)
        for n in inner:
            shown = pgettext("between the pieces of a place", ", ").join(
                (shown, gettext("card {number}").format(number=n))
            )
        return shown
    if found := _INDEX.fullmatch(piece):
        number = int(found[1]) + 1
        if at.card is not None:
            return gettext("card {number}").format(number=number)
        return gettext("entry {number}").format(number=number)
    return field(piece, at)
