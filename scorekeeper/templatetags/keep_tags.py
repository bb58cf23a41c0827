"""``{% keep "name" %}…{% endkeep %}``: a part of a page a phone holds already, left out of an
answer that would send it again.

A deal-entry page is redrawn at every tap, and most of it does not change from one tap to the
next (the pad's keys, the trump's row, the contracts a declarer may name). Each such part is
drawn inside ``<sk-keep id="keep-NAME" data-keep="NAME" data-keep-of="DIGEST">``,
DIGEST being a digest of what it draws (an element of its own name: the morph pairs an empty
part with the phone's part alone, never with a ``<div>`` of the page, which it would empty).
entry.js sends with each tap the parts the page holds (``kept=NAME:DIGEST,…``); when a part
of the answer has the digest the phone holds, the answer carries the part empty, marked
``data-kept``, and the morph swap leaves the phone's own as it is (entry.js: Idiomorph's
``beforeNodeMorphed``). A part that changed, a phone that did not say, or a whole page always
gets the part drawn. ``kept_held`` in the context is the set the phone said it holds (the
entry view reads it).

``{% keep "name" by=KEY %}``: the part draws the same for every value of KEY (and the page's
language): it is drawn once for each in a process and kept (the pad's keys are most of a
tap's drawing, and the same at every tap).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

#: At most this many parts, each a name and a digest, are read from what a phone says.
HELD_MAX = 24
HELD_TEXT_MAX = 64


def held_parts(sent: str | None) -> frozenset[str]:
    """What a phone says it holds (``NAME:DIGEST`` separated by commas), bounded."""
    if not sent:
        return frozenset()
    parts = (part.strip() for part in sent.split(",")[:HELD_MAX])
    return frozenset(p for p in parts if 0 < len(p) <= HELD_TEXT_MAX and p.count(":") == 1)


def digest(drawn: str) -> str:
    return hashlib.blake2s(drawn.encode(), digest_size=6).hexdigest()


def kept_part(name: str, drawn: str, held: Iterable[str]) -> SafeString:
    """The part ``name`` drawn as ``drawn``: whole, or empty when the phone holds it."""
    of = digest(drawn)
    if f"{name}:{of}" in held:
        return format_html(
            '<sk-keep id="keep-{}" data-keep="{}" data-keep-of="{}" data-kept></sk-keep>',
            name,
            name,
            of,
        )
    return format_html(
        '<sk-keep id="keep-{}" data-keep="{}" data-keep-of="{}">{}</sk-keep>',
        name,
        name,
        of,
        mark_safe(drawn),  # noqa: S308 - the template's own rendering, escaped by it
    )


#: The parts drawn by ``by``: (node, name, key, language) → what they draw. Bounded: cleared
#: when full (the keys a page gives are few).
_DRAWN: dict[tuple[int, str, str, str | None], str] = {}
DRAWN_MAX = 256


class KeepNode(template.Node):
    def __init__(
        self,
        name: template.base.FilterExpression,
        nodelist: template.NodeList,
        by: template.base.FilterExpression | None = None,
    ):
        self.name = name
        self.nodelist = nodelist
        self.by = by

    def render(self, context: template.Context) -> str:
        name = str(self.name.resolve(context))
        return kept_part(name, self._drawn(name, context), context.get("kept_held") or ())

    def _drawn(self, name: str, context: template.Context) -> str:
        if self.by is None:
            return self.nodelist.render(context)
        key = (id(self), name, str(self.by.resolve(context)), translation.get_language())
        drawn = _DRAWN.get(key)
        if drawn is None:
            drawn = self.nodelist.render(context)
            if len(_DRAWN) >= DRAWN_MAX:
                _DRAWN.clear()
            _DRAWN[key] = drawn
        return drawn


@register.tag("keep")
def do_keep(parser: template.base.Parser, token: template.base.Token) -> KeepNode:
    bits = token.split_contents()
    by = None
    if len(bits) == 3 and bits[2].startswith("by="):
        by = parser.compile_filter(bits[2][3:])
    elif len(bits) != 2:
        raise template.TemplateSyntaxError('usage: {% keep "name" [by=KEY] %}…{% endkeep %}')
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    return KeepNode(parser.compile_filter(bits[1]), nodelist, by)
