"""The printable score sheet: the whole match (every deal, not the scoreboard's latest ten)
with its breakdowns, the house rules and the result; a print stylesheet for A4."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from scorekeeper.scoreboard import rules_summary
from scorekeeper.selectors import match_scored
from scorekeeper.templatetags.score_tags import points
from tests.conftest import HTMX, text

pytestmark = pytest.mark.django_db


def sheet(client, match, headers=None):
    response = client.get(reverse("match_sheet", args=[match.pk]), headers=headers or {})
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("game", ["biriba", "burraco", "barbu"])
def test_every_deal_with_its_breakdown_the_rules_and_the_result(auth_client, make_match, game):
    match = make_match(game, deals=13)  # more than the scoreboard's latest ten
    body = sheet(auth_client, match).content.decode()
    assert re.findall(r'data-sheet-deal="(\d+)"', body) == [str(n) for n in range(1, 14)]
    assert re.findall(r'data-sheet-breakdown="(\d+)"', body) == [str(n) for n in range(1, 14)]
    _parsed, result, _exported = match_scored(match)
    for index, total in enumerate(result.totals):
        assert re.search(rf'data-sheet-total="{index}">{re.escape(points(total))}<', body)
    rules = body.split("data-sheet-rules", 1)[1]
    for rule in rules_summary(game, match.rules):
        assert f"<dt>{rule['label']}</dt><dd>{rule['value']}</dd>" in rules.replace("&#x27;", "'")
    assert 'data-sheet-result="in_progress"' in body
    assert "print.css" in body and "print.js" in body
    for player in ("Anna", "Babis", "Chris", "Dora"):
        assert f"<bdi>{player}</bdi>" in body


def test_the_breakdowns_are_the_scoreboard_s(auth_client, make_match):
    match = make_match("barbu", deals=12)
    page = text(sheet(auth_client, match))
    # Barbu's breakdown: the table's rows and the settlement of the doubles, deal 1 and deal 12
    assert page.count("Settlement") == 12 and len(re.findall(r"\braw\b", page)) == 12
    assert "Deal 12 · No last two · Babis" in page
    rummy = text(sheet(auth_client, make_match("biriba", deals=11)))
    assert rummy.count("deal total") == 22  # each side of each deal adds up


def test_a_finished_match_names_its_winner(auth_client, make_match):
    match = make_match("burraco", deals=3, rules={"target": 40})
    body = sheet(auth_client, match).content.decode()
    assert 'data-sheet-result="finished"' in body
    _parsed, result, _exported = match_scored(match)
    winner = ["Anna & Chris", "Babis & Dora"][result.winner]
    assert f"{winner} won." in text(sheet(auth_client, match))


def test_the_htmx_request_gets_the_sheet_alone(auth_client, make_match):
    match = make_match("biriba", deals=2)
    body = sheet(auth_client, match, HTMX).content.decode()
    assert body.lstrip().startswith('<article id="sheet"') and "<html" not in body


def test_printing_without_javascript_is_said_and_the_button_is_the_script_s(
    auth_client, make_match
):
    body = sheet(auth_client, make_match("biriba")).content.decode()
    assert re.search(r"<p [^>]*data-print-note>[^<]*use your browser(?:'|&#x27;)s Print", body)
    assert re.search(r"<button [^>]*data-print hidden", body)  # shown by print.js
    assert "<script>" not in body and "onclick" not in body  # the CSP: no inline script
    script = open(finders.find("scorekeeper/print.js"), encoding="utf-8").read()
    assert "window.print()" in script and "hidden = false" in script
    assert "[data-print-note]" in script  # the note goes when the button comes


def test_the_print_stylesheet_is_for_a4():
    css = open(finders.find("scorekeeper/print.css"), encoding="utf-8").read()
    assert re.search(r"@page\s*{\s*size:\s*A4", css)
    printed = css.split("@media print", 1)[1]
    assert ".topbar" in printed and "display: none" in printed
    assert "break-inside: avoid" in printed


def test_long_names_never_widen_the_sheet(auth_client, make_match):
    long = ["A" * 40, "B" * 40, "C" * 40, "D" * 40]
    body = sheet(auth_client, make_match("barbu", deals=1, players=long)).content.decode()
    assert body.count("A" * 40) >= 3
    css = open(finders.find("scorekeeper/print.css"), encoding="utf-8").read()
    assert ".sheet { overflow-wrap: anywhere; }" in css and "table-layout: fixed" in css
