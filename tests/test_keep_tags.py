"""``{% keep "name" by=KEY %}``: a part that draws the same for each KEY and language is drawn
once and kept; another KEY or language draws it again; the digest is of what it draws."""

from __future__ import annotations

from django.template import engines
from django.utils import translation

from scorekeeper.templatetags import keep_tags

TEMPLATE = (
    '{% load keep_tags i18n %}{% keep "pad" by=key %}{{ shown }} {% translate "no" %}{% endkeep %}'
)


def drawn(**context) -> str:
    return engines["django"].from_string(TEMPLATE).render(context)


def test_a_part_drawn_by_its_key_is_drawn_once_for_each_key_and_language():
    template = engines["django"].from_string(TEMPLATE)
    first = template.render({"key": "cards", "shown": "A"})
    assert ">A no<" in first
    # the same key: what was drawn, whatever else the context holds (it draws from the key)
    assert template.render({"key": "cards", "shown": "B"}) == first
    assert ">B no<" in template.render({"key": "totals", "shown": "B"})
    with translation.override("fr"):
        assert ">A non<" in template.render({"key": "cards", "shown": "A"})


def test_the_phone_that_holds_it_gets_it_empty():
    template = engines["django"].from_string(TEMPLATE)
    whole = template.render({"key": "k1", "shown": "A"})
    of = keep_tags.digest("A no")
    assert f'data-keep-of="{of}"' in whole
    held = template.render({"key": "k1", "shown": "A", "kept_held": {f"pad:{of}"}})
    assert "data-kept" in held and "A no" not in held
