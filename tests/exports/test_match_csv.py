"""A match as CSV: a row per deal, a column per side or player, the dealer (rummy) or the
declarer and contract (Barbu), then the totals; UTF-8 with a byte order mark; a text that a
spreadsheet would take for a formula written as text."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from scorekeeper.exports.selectors import csv_bytes, safe_cell
from scorekeeper.selectors import match_scored
from tests.conftest import HTMX, overwrite_deals

pytestmark = pytest.mark.django_db

BOM = "\ufeff".encode()


def rows_of(response) -> list[list[str]]:
    body = response.content
    assert body.startswith(BOM), "no byte order mark"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def get_csv(client, match, **headers):
    response = client.get(reverse("match_csv", args=[match.pk]), headers=headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "no-store" in response["Cache-Control"]
    return response


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_biriba_match_a_row_per_deal_then_the_totals(auth_client, make_match, headers):
    match = make_match("biriba", deals=5)
    response = get_csv(auth_client, match, **headers)
    day = f"{match.created:%Y-%m-%d}"
    assert response["Content-Disposition"] == f'attachment; filename="biriba-{match.pk}-{day}.csv"'
    rows = rows_of(response)
    _parsed, result, _exported = match_scored(match)
    # the sides as the table names them, seats 0 and 2 against 1 and 3
    assert rows[0] == ["Deal", "Anna & Chris", "Babis & Dora", "Dealer", "Note"]
    dealers = ["Anna", "Babis", "Chris", "Dora", "Anna"]  # first dealer Anna, clockwise
    for number, (row, score) in enumerate(zip(rows[1:-1], result.deal_scores, strict=True), 1):
        points = [str(side["total"]) for side in score["sides"]]
        assert row == [str(number), *points, dealers[number - 1], ""]
    assert rows[-1] == ["Total", *map(str, result.totals), "", "in progress"]
    assert sum(int(r[1]) for r in rows[1:-1]) == result.totals[0]


def test_a_barbu_match_names_the_declarer_and_the_contract(auth_client, make_match):
    match = make_match("barbu", deals=8)
    rows = rows_of(get_csv(auth_client, match))
    assert rows[0] == ["Deal", "Anna", "Babis", "Chris", "Dora", "Declarer", "Contract", "Note"]
    contracts = [r[6] for r in rows[1:-1]]
    assert contracts == [
        "No tricks",
        "No hearts",
        "No queens",
        "Barbu (K♥)",
        "No last two",
        "Trumps",
        "Domino",
        "No tricks",
    ]
    assert [r[5] for r in rows[1:-1]] == ["Anna"] * 7 + ["Babis"]
    _parsed, result, _exported = match_scored(match)
    for row, score in zip(rows[1:-1], result.deal_scores, strict=True):
        assert row[1:5] == [str(p) for p in score["total"]]
    assert rows[-1][:5] == ["Total", *map(str, result.totals)]
    assert any(int(cell) < 0 for row in rows[1:-1] for cell in row[1:5])  # numbers stay numbers


def test_a_burraco_match_and_its_winner(auth_client, make_match):
    match = make_match("burraco", deals=3, rules={"target": 40})
    rows = rows_of(get_csv(auth_client, match))
    _parsed, result, _exported = match_scored(match)
    assert result.finished
    winner = ["Anna & Chris", "Babis & Dora"][result.winner]
    assert rows[-1] == ["Total", *map(str, result.totals), "", f"Winner: {winner}"]
    assert len(rows) == 2 + len(result.deal_scores)


def test_greek_names_come_out_whole_in_utf8(auth_client, make_match):
    match = make_match("barbu", deals=1, players=["Άννα", "Μπάμπης", "Χρήστος", "Δώρα"])
    response = get_csv(auth_client, match)
    assert "Μπάμπης".encode() in response.content
    assert rows_of(response)[0][1:5] == ["Άννα", "Μπάμπης", "Χρήστος", "Δώρα"]


def test_a_name_that_reads_as_a_formula_is_written_as_text(auth_client, make_match):
    players = ["=HYPERLINK(1)", "+Babis", "-Chris", "@Dora"]
    match = make_match("barbu", deals=2, players=players)
    rows = rows_of(get_csv(auth_client, match))
    assert rows[0][1:5] == ["'=HYPERLINK(1)", "'+Babis", "'-Chris", "'@Dora"]
    assert rows[1][5] == "'=HYPERLINK(1)"  # the declarer too
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "@")), cell
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell


def test_the_guard_alone():
    assert [safe_cell(v) for v in ("=1+1", "+1", "-1", "@A", "\tx", "\rx", "Anna", -40, 0)] == [
        "'=1+1",
        "'+1",
        "'-1",
        "'@A",
        "'\tx",
        "'\rx",
        "Anna",
        -40,
        0,
    ]
    assert csv_bytes([["=a", -5]]) == BOM + b"'=a,-5\r\n"


def test_the_match_under_confirmation_says_which_deals_wait(auth_client, make_match):
    match = make_match("biriba", deals=2, confirmation=True)
    rows = rows_of(get_csv(auth_client, match))
    assert [r[-1] for r in rows[1:-1]] == ["not counted yet", "not counted yet"]
    assert rows[-1][1:3] == ["0", "0"]  # the totals leave them out, as the scoreboard


def test_a_match_that_no_longer_passes_the_rules_says_so(auth_client, make_match):
    match = make_match("biriba", deals=2)
    overwrite_deals(match, {"sides": []}, number=2)
    for name in ("match_csv", "match_sheet"):
        response = auth_client.get(reverse(name, args=[match.pk]))
        assert response.status_code == 409
        assert b"data-message=" in response.content
        assert reverse("match_export", args=[match.pk]).encode() in response.content


def test_the_scoreboard_links_to_the_csv_and_the_sheet(auth_client, make_match):
    match = make_match("biriba", deals=1)
    for headers in ({}, HTMX):
        page = auth_client.get(reverse("match_detail", args=[match.pk]), headers=headers)
        body = page.content.decode()
        assert f'href="{reverse("match_csv", args=[match.pk])}" download data-export="csv"' in body
        assert f'href="{reverse("match_sheet", args=[match.pk])}" data-export="sheet"' in body


def test_another_account_and_nobody_get_nothing(client, make_match, other_user):
    match = make_match("biriba", deals=1)
    for name in ("match_csv", "match_sheet"):
        url = reverse(name, args=[match.pk])
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        client.force_login(other_user)
        response = client.get(url)
        assert response.status_code == 404 and b'data-message="not_found"' in response.content
        client.logout()
