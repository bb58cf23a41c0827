"""The charts drawn on the server (scorekeeper/stats/charts.py): their geometry, and the score
progression on the scoreboard as valid SVG with a title, a description and its table, read
from the deals' kept running totals (sampled past CHART_POINTS deals, the same one query)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.confirmation import services as confirmation
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Match
from scorekeeper.stats import charts
from scorekeeper.stats.selectors import CHART_POINTS, match_progress
from tests.conftest import HTMX, rummy_deal

SVG = "{http://www.w3.org/2000/svg}"


def _points(line: dict) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in line["points"].split()]


def test_a_line_a_column_from_zero_through_each_deal():
    chart = charts.progression(
        ["Anna & Chris", "Babis & Dora"], [1, 2, 3], [[100, 50], [300, -40], [700, 200]], target=500
    )
    assert [line["total"] for line in chart["lines"]] == [700, 200]
    first, second = (_points(line) for line in chart["lines"])
    assert len(first) == len(second) == 4  # before the first deal, then after each
    zero, target = float(chart["zero"]), float(chart["target"]["y"])
    assert first[0] == (charts.LEFT, zero) == second[0]
    # higher totals are drawn higher (a smaller y), the target between 300 and 700
    assert first[3][1] < target < first[2][1]
    assert second[2][1] > zero  # below zero: under the zero line
    # every point inside the box
    for x, y in first + second:
        assert charts.LEFT <= x <= charts.WIDTH - charts.RIGHT
        assert charts.TOP <= y <= charts.HEIGHT - charts.BOTTOM
    assert [t["value"] for t in chart["ticks"]][0] <= -40
    assert chart["rows"][1] == {"number": 2, "values": [300, -40]}
    assert not chart["sampled"]


def test_a_sampled_match_spreads_its_points_over_every_deal():
    chart = charts.progression(["A", "B"], [1, 50, 100], [[1, 0], [2, 0], [3, 0]], deals=100)
    xs = [x for x, _ in _points(chart["lines"][0])]
    assert xs[-1] == charts.WIDTH - charts.RIGHT and chart["sampled"]
    assert xs[2] == pytest.approx((xs[0] + xs[-1]) / 2, abs=2)


def test_bars_up_and_down_from_zero():
    chart = charts.results([100, -50, 0], [True, False, False])
    up, down, flat = chart["bars"]
    zero = float(chart["zero"])
    assert float(up["y"]) + float(up["height"]) == pytest.approx(zero, abs=0.2)
    assert float(down["y"]) == pytest.approx(zero, abs=0.2)
    assert float(flat["height"]) >= 1  # a match that ended even still shows
    assert up["won"] and not down["won"]
    assert float(up["x"]) < float(down["x"]) < float(flat["x"])


def test_coordinates_never_take_a_decimal_comma(settings):
    """The page's language never changes how SVG reads a number."""
    chart = charts.progression(["A", "B"], [1], [[15, 7]], target=33)
    assert "," not in chart["zero"] and "," not in chart["target"]["y"]
    assert all(re.fullmatch(r"[\d.]+,[\d.]+", p) for p in chart["lines"][0]["points"].split())


# --- on the scoreboard ------------------------------------------------------------------------


def scoreboard(client, match, **headers) -> str:
    response = client.get(reverse("match_detail", args=[match.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def chart_page(client, match, **headers) -> str:
    """The chart the scoreboard's fold loads when it is opened (htmx), or its page."""
    response = client.get(reverse("match_chart", args=[match.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def chart_of(html: str) -> tuple[ET.Element, str]:
    box = re.search(
        r'<div class="breakdown-body" data-breakdown="chart".*?</table></div>', html, re.S
    )
    assert box, "no chart"
    svg = re.search(r"<svg .*?</svg>", box.group(0), re.S).group(0)
    return ET.fromstring(svg), box.group(0)


@pytest.mark.django_db
def test_the_scoreboard_folds_the_chart_and_loads_it_when_opened(auth_client, make_match):
    match = make_match("biriba", deals=3)
    url = reverse("match_chart", args=[match.pk])
    for headers in ({}, HTMX):
        html = scoreboard(auth_client, match, **headers)
        box = re.search(r'<details class="chart-box" data-chart="match">.*?</details>', html, re.S)
        assert box and "<svg" not in box.group(0)  # drawn only when opened
        assert f'data-breakdown-url="{url}"' in box.group(0)
        assert f'<a href="{url}" data-chart-link>' in box.group(0)  # without JavaScript
    partial = chart_page(auth_client, match, **HTMX)
    assert "<html" not in partial and partial.count("<svg") == 1
    page = chart_page(auth_client, match)
    assert "<html" in page and reverse("match_detail", args=[match.pk]) in page
    match.refresh_from_db()
    assert f'data-breakdown-of="{match.deals_version}"' in partial  # kept while unchanged


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "columns"), [("biriba", 2), ("burraco", 2), ("barbu", 4)])
def test_the_scoreboard_folds_the_progression(auth_client, make_match, game, columns):
    match = make_match(game, deals=3)
    for headers in ({}, HTMX):
        svg, box = chart_of(chart_page(auth_client, match, **headers))
        assert svg.get("role") == "img"
        title, desc = svg.find(f"{SVG}title"), svg.find(f"{SVG}desc")
        assert title.text and "3" in desc.text
        assert set(svg.get("aria-labelledby").split()) == {title.get("id"), desc.get("id")}
        lines = svg.findall(f"{SVG}polyline")
        assert [line.get("class") for line in lines] == [f"line col-{i}" for i in range(columns)]
        assert all(len(line.get("points").split()) == 4 for line in lines)
        targets = svg.findall(f"{SVG}line[@class='target']")
        assert len(targets) == (0 if game == "barbu" else 1)  # the rummy games' target
        table = re.search(r'<table data-chart-table="match">.*?</table>', box, re.S)
        assert table and table.group(0).count("<tr>") == 4  # the head and a row a deal
    running = list(
        Deal.objects.filter(match=match).order_by("number").values_list("running", flat=True)
    )
    last_row = re.findall(r"<tr><th scope=\"row\">3</th>(.*?)</tr>", box)[0]
    assert re.findall(r"<td>([^<]*)</td>", last_row) == [
        str(v).replace("-", "\u2212") for v in running[-1]
    ]


@pytest.mark.django_db
def test_no_chart_before_the_first_deal(auth_client, make_match):
    assert 'data-chart="match"' not in scoreboard(auth_client, make_match("biriba"))


@pytest.mark.django_db
def test_a_long_match_is_sampled_in_one_query(make_match, django_assert_num_queries):
    match = make_match("biriba", deals=CHART_POINTS + 5)
    match = Match.objects.get(pk=match.pk)
    with django_assert_num_queries(1):
        progress = match_progress(match)
    numbers = progress["numbers"]
    assert len(numbers) == CHART_POINTS and numbers[0] == 1 and numbers[-1] == CHART_POINTS + 5
    last = Deal.objects.get(match=match, number=CHART_POINTS + 5)
    assert progress["running"][-1] == last.running


@pytest.mark.django_db
def test_deals_not_counted_add_nothing(make_match, user):
    """Under the confirmation by the other side a deal waiting adds nothing to the line, as it
    adds nothing to the totals."""
    match = make_match("biriba", deals=0, confirmation=True)
    services.deal_record(match=match, data=rummy_deal("biriba", 0))
    deal = Deal.objects.get(match=match, number=1)
    confirmation.deal_confirm(
        match=Match.objects.get(pk=match.pk), number=1, by=Actor("Anna"), as_owner=True
    )
    services.deal_record(match=Match.objects.get(pk=match.pk), data=rummy_deal("biriba", 1))
    match = Match.objects.get(pk=match.pk)
    assert Deal.objects.get(match=match, number=2).status == Deal.Status.WAITING
    progress = match_progress(match)
    assert progress["running"][0] == Deal.objects.get(pk=deal.pk).running
    assert progress["running"][1] == progress["running"][0]


@pytest.mark.django_db
def test_long_names_stay_out_of_the_drawing(auth_client, make_match):
    """The names are in the legend (HTML, wrapped) and the description, never drawn in the
    SVG box where they would stick out."""
    name = "A" * 40
    match = make_match("barbu", deals=1, players=[name, "Babis", "Chris", "Dora"])
    svg, box = chart_of(chart_page(auth_client, match))
    assert all(name not in (t.text or "") for t in svg.findall(f"{SVG}text"))
    assert name in svg.find(f"{SVG}desc").text
    assert name in re.search(r'<figcaption class="legend">.*?</figcaption>', box, re.S).group(0)
