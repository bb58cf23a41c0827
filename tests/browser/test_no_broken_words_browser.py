"""No word and no figure is broken inside at 360 px (a probe of Barbu pages found "−271" read
as "−27" over "1", "Dominiq / ue", "why notCéline,Dominique?"): on a Barbu scoreboard with
its deals played, for four and five players, on the watch view, on the entry page's standing
line and preview, and on the rummy scoreboards, entry bar and watch view with Greek names and
in Greek. Every total is one line and fits its box; an ordinary name breaks only between its
words (or ends in an ellipsis, the whole of it in the title); the "why not …?" line of the
doubles keeps its spaces; "No doubles" is a finger's height."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from scorekeeper import services
from scorekeeper.sharing.services import share_link_get_or_create
from tests.conftest import barbu_deal, rummy_deal

from .conftest import fits, new_phone, settled, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ["Amélie", "Benoît", "Céline", "Dominique"]
FIVE = [*FOUR, "Étienne"]
GREEK = ["Παναγιώτης", "Αικατερίνη", "Κωνσταντίνος", "Χαράλαμπος"]
# rules.md, Salade for five example 2: the four others double Amélie, who redoubles Étienne
SALADE_DEAL = {
    "contract": "no_queens",
    "doubles": [
        {"by": 1, "on": 0},
        {"by": 2, "on": 0},
        {"by": 3, "on": 0},
        {"by": 4, "on": 0, "redoubled": True},
    ],
    "queens": [1, 0, 2, 0, 1],
}
# Biriba for three: a clean run of twelve hearts each deal, so a total has four digits
BIG_BIRIBA = {
    "sides": [
        {"melds": [[f"{r}H" for r in "3 4 5 6 7 8 9 10 J Q K A".split()]], "took_pot": True},
        {"melds": [["3S", "4S", "5S"]], "hand": ["KD", "QD", "JD", "AS", "AC"], "took_pot": True},
        {"melds": [["3D", "4D", "5D"]], "hand": ["KC", "QC", "AD"], "took_pot": True},
    ]
}

# Every word (a run of non-space characters) of the elements' text lies on one line: the
# line boxes of its range all end at the same height.
BROKEN_WORDS = r"""(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter(x => x.width > 0);
        const lines = new Set(rects.map(x => Math.round(x.bottom))).size;
        if (lines > 1) out.push(`${selector}: «${m[0]}» broken over ${lines} lines`);
      }
    }
  }
  return out;
}"""

# A figure (the whole of the element's text, thousands separator and all) is one line, and
# nothing of it is cut or spills out of its box.
BROKEN_FIGURES = r"""(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const r = document.createRange();
    r.selectNodeContents(el);
    const rects = [...r.getClientRects()].filter(x => x.width > 0);
    const lines = new Set(rects.map(x => Math.round(x.bottom))).size;
    const text = el.textContent.trim();
    if (lines > 1) out.push(`${selector}: "${text}" on ${lines} lines`);
    if (el.clientWidth && el.scrollWidth > el.clientWidth + 1)
      out.push(`${selector}: "${text}" is ${el.scrollWidth} px wide in ${el.clientWidth} px`);
  }
  return out;
}"""


def whole(page, *, figures: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> None:
    """The page fits the phone, each figure of ``figures`` is one line in its box, and no word
    of ``words`` is broken; each selector must find something (a check of nothing passes)."""
    fits(page)
    problems: list[str] = []
    for selector in figures + words:
        assert page.locator(selector).count(), f"{page.url}: nothing matches {selector}"
    for selector in figures:
        problems += page.evaluate(BROKEN_FIGURES, selector)
    for selector in figures + words:
        problems += page.evaluate(BROKEN_WORDS, selector)
    assert not problems, f"{page.url}: {problems}"


def watch_url(base: str, match) -> str:
    return f"{base}/watch/{share_link_get_or_create(match=match, kind='watch').token}/"


BOARD_FIGURES = ("[data-total]", ".deal > summary .cell .pts", ".deal > summary .cell .run")
BOARD_WORDS = (".board-top .total .who", ".deals-head span")
WATCH_WORDS = (".watch-totals .total .who", ".watch-last-points")
BARBU_WATCH_WORDS = (*WATCH_WORDS, ".watch-last .breakdown thead td")


def test_barbu_totals_names_and_the_doubles_line_are_never_broken_inside(live_server, chromium):
    page = new_phone(chromium)
    base = live_server.url
    sign_up(page, base, username="amelie")
    owner = get_user_model().objects.get(username="amelie")
    four = services.match_create(owner=owner, game="barbu", players=FOUR, first_dealer=0, rules={})
    for i in range(10):  # the totals come to 161, −55, −73, −113
        services.deal_record(match=four, data=barbu_deal(i))
    five = services.match_create(
        owner=owner, game="barbu", players=FIVE, first_dealer=0, rules={"variant": "salade"}
    )
    services.deal_record(match=five, data=SALADE_DEAL)  # −40, 20, −60, 20, −20

    for match in (four, five):
        page.goto(f"{base}/matches/{match.pk}/")
        whole(page, figures=BOARD_FIGURES, words=BOARD_WORDS)
        page.goto(watch_url(base, match))
        whole(page, figures=("[data-total]", ".watch-last-points strong"), words=WATCH_WORDS)

    # the entry page: a deal's correction, its preview and the standing line above Save
    for match, number in ((four, 7), (four, 10), (five, 1)):  # Domino, No queens
        page.goto(f"{base}/matches/{match.pk}/deals/{number}/edit/")
        settled(page)
        whole(
            page,
            figures=(".standing-deal", ".standing-total strong", ".barbu-preview td"),
            words=(".standing-name", ".barbu-preview th", "#entry .choice"),
        )
        clipped = page.evaluate(
            """() => [...document.querySelectorAll('.standing-total')]
                .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""
        )
        assert not clipped, f"totals hidden behind an ellipsis: {clipped}"

    # the doubles opened: each "why not …?" with its spaces, and "No doubles" 44 px high
    page.goto(f"{base}/matches/{four.pk}/deals/7/edit/")  # Domino: only Amélie may be doubled
    page.locator('#entry button[value="doubles:open"]').click()
    settled(page)
    whole(page, words=("#entry .choice", ".double-who"))
    whys = page.locator(".why summary").all_inner_texts()
    assert whys, "no 'why not' line to check"
    for why in whys:
        assert re.fullmatch(r"why not \S[^\n]*\S\?", why), why
        assert "," not in why or re.search(r"\S, \S", why), why  # "Céline, Dominique"
    none = page.locator('#entry button[value="no_doubles"]').bounding_box()
    assert none and none["height"] >= 44, none


def test_rummy_totals_and_greek_names_are_never_broken_inside(live_server, chromium):
    page = new_phone(chromium)
    base = live_server.url
    sign_up(page, base, username="eleni")
    owner = get_user_model().objects.get(username="eleni")
    pairs = services.match_create(
        owner=owner, game="burraco", players=GREEK, first_dealer=0, rules={}
    )
    for i in range(2):
        services.deal_record(match=pairs, data=rummy_deal("burraco", i))
    three = services.match_create(
        owner=owner, game="biriba", players=GREEK[:3], first_dealer=0, rules={}
    )
    for _ in range(4):  # 1 200, −180, −80
        services.deal_record(match=three, data=BIG_BIRIBA)

    page.goto(base + "/")
    for language in ("en", "el"):
        page.locator(f'button[data-language="{language}"]').first.click()
        page.wait_for_load_state()
        for match in (pairs, three):
            page.goto(f"{base}/matches/{match.pk}/")
            whole(page, figures=BOARD_FIGURES, words=BOARD_WORDS)
            page.goto(f"{base}/matches/{match.pk}/deals/1/edit/")
            settled(page)
            whole(
                page, figures=(".bar-total", ".bar-deal", ".side-sum strong"), words=(".tab-name",)
            )
            page.goto(watch_url(base, match))
            whole(page, figures=("[data-total]", ".watch-last-points strong"), words=WATCH_WORDS)
            page.goto(f"{base}/matches/{match.pk}/")
