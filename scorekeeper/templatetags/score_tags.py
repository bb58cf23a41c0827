"""Numbers and cards as a score pad writes them: ``1 245``, ``−20``, ``10♥`` in red; and
names drawn isolated (``<bdi>``), alone or inside a message."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from scorekeeper import labels, names, rule_messages
from scorekeeper.entry.drafts import RED_SUITS, SUIT_SYMBOLS

register = template.Library()

MINUS = labels.MINUS


@register.filter
def points(value: Any) -> str:
    """``-1245`` → ``−1 245`` (a real minus sign, the thousands apart as the language of the
    page writes them: ``1 245``, ``1.245`` in Greek and Italian, ``1 245`` in French)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    text = formats.number_format(abs(value), force_grouping=True)
    return f"{MINUS}{text}" if value < 0 else text


@register.filter
def signed(value: Any) -> str:
    """``5`` → ``+5``, ``-20`` → ``−20``, ``0`` → ``0``."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return f"+{points(value)}"
    return points(value)


@register.filter
def suit(letter: Any) -> SafeString | str:
    """``"H"`` → a red ``♥``."""
    if not isinstance(letter, str) or letter.upper() not in SUIT_SYMBOLS:
        return "" if letter is None else str(letter)
    letter = letter.upper()
    colour = "red" if letter in RED_SUITS else "black"
    return format_html('<span class="suit {}">{}</span>', colour, SUIT_SYMBOLS[letter])


@register.filter
def card(code: Any) -> SafeString | str:
    """``"10H"`` → ``10♥`` in red, ``"JK"`` → a joker chip."""
    if not isinstance(code, str) or not code:
        return ""
    if code.upper() == "JK":
        return format_html('<span class="card joker" title="{}">JK</span>', gettext("joker"))
    rank, letter = code[:-1], code[-1].upper()
    if letter not in SUIT_SYMBOLS:
        return code
    colour = "red" if letter in RED_SUITS else "black"
    return format_html('<span class="card {}">{}{}</span>', colour, rank, SUIT_SYMBOLS[letter])


@register.filter
def cards(codes: Any) -> SafeString | str:
    if not isinstance(codes, list | tuple):
        return ""
    return format_html_join(" ", "{}", ((card(c),) for c in codes))


@register.filter
def index(sequence: Any, i: Any) -> Any:
    try:
        return sequence[i]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def isolated_text(name: Any) -> str:
    """A name isolated where no markup can be (an SVG's ``<desc>``): Unicode's isolates."""
    return names.isolated_text(name)


@register.filter
def bdi(name: Any) -> SafeString:
    """A name on its own, isolated: ``{% blocktranslate with name=who|bdi %}``."""
    return names.bdi("" if name is None else name)


@register.filter
def isolated(message: Any, source: Any = None) -> SafeString:
    """A message in plain text (a refusal of the rules, a sentence built around names),
    escaped, with the names of ``source`` in it isolated: ``{{ error.message|isolated:match }}``.
    ``source`` is a match, a match document, the new-match form or a list of names; a message
    that is already HTML is left as it is."""
    return names.isolate(message, names.names_of(source))


@register.filter
def rule_message(problem: Any) -> str:
    """A refusal or notice of the rules in the page's language, with its place:
    ``{{ error|rule_message|isolated:match }}`` (scorekeeper/rule_messages.py)."""
    if not hasattr(problem, "template"):
        return "" if problem is None else str(problem)
    return rule_messages.message(problem)


@register.filter
def rule_text(problem: Any) -> str:
    """The rule alone, in the page's language (the place shown beside it)."""
    if not hasattr(problem, "template"):
        return "" if problem is None else str(problem)
    return rule_messages.text(problem)


@register.filter
def rule_places(problem: Any) -> list[str]:
    """The pieces of a refusal's place in the page's language (``deal 3``, ``meld 1``)."""
    return rule_messages.places(problem) if hasattr(problem, "template") else []


@register.filter
def coded(errors: Any) -> list[dict[str, str]]:
    """A form's or a field's errors, each with its code (a refusal of the rules carries the
    rule's code): ``{% for e in field|coded %}<p data-message="{{ e.code }}">``."""
    if hasattr(errors, "errors"):  # a bound field
        errors = errors.errors
    if not hasattr(errors, "as_data"):
        return [{"message": str(e), "code": ""} for e in errors or ()]
    return [
        {"message": message, "code": error.code or ""}
        for error in errors.as_data()
        for message in error
    ]


@register.simple_tag
def live_attrs(live: Any) -> SafeString | str:
    """The attributes of the element a page redraws when its match changes (scorekeeper/live.py,
    site.js): where to ask, the state it was drawn from, how often. Nothing without ``live``."""
    if not live:
        return ""
    return format_html(
        ' data-live="{}" data-live-state="{}" data-live-every="{}"',
        live.url,
        live.state,
        live.every_ms,
    )
