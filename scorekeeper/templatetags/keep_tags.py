"""``{% keep "name" %}…{% endkeep %}``: a part of a page a phone holds already, left out of an
answer that would send it again.

A deal-entry page is redrawn at every tap, and most of it does not change from one tap to the
next (the pad's keys, the trump's row, the contracts a declarer may name). Each such part is
drawn inside ``<div class="kept" id="keep-NAME" data-keep="NAME" data-keep-of="DIGEST">``,
DIGEST being a digest of what it draws. entry.js sends with each tap the parts the page holds
(``kept=NAME:DIGEST,…``); when a part of the answer has the digest the phone holds, the
answer carries the part empty, marked ``data-kept``, and the morph swap leaves the phone's own
as it is (entry.js: Idiomorph's ``beforeNodeMorphed``). A part that changed, a phone that did
not say, or a whole page always gets the part drawn. ``kept_held`` in the context is the set
the phone said it holds (the entry view reads it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django import template
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
            '<div class="kept" id="keep-{}" data-keep="{}" data-keep-of="{}" data-kept></div>',
            name,
            name,
            of,
        )
    return format_html(
        '<div class="kept" id="keep-{}" data-keep="{}" data-keep-of="{}">{}</div>',
        name,
        name,
        of,
        mark_safe(drawn),  # noqa: S308 - the template's own rendering, escaped by it
    )


class KeepNode(template.Node):
    def __init__(self, name: template.base.FilterExpression, nodelist: template.NodeList):
        self.name = name
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        name = str(self.name.resolve(context))
        return kept_part(name, self.nodelist.render(context), context.get("kept_held") or ())


@register.tag("keep")
def do_keep(parser: template.base.Parser, token: template.base.Token) -> KeepNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError('usage: {% keep "name" %}…{% endkeep %}')
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    return KeepNode(parser.compile_filter(bits[1]), nodelist)
