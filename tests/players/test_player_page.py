"""A player's page (/players/<id>/): the figures of each game checked by hand on finished
matches built through the services, against an independent reading of the exported documents,
ties, the head-to-head threshold, streaks, the sections left out without data, the queries the
same at 3 and at 30 matches, the charts as valid SVG with their tables, and the permissions."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from scorekeeper.models import Match, Player
from tests.conftest import HTMX
from tests.stats.matches import barbu_match, rummy_deal, rummy_match, side, win_deal

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Babis", "Chris", "Dora"]
SVG = "{http://www.w3.org/2000/svg}"


def player(user, name: str) -> Player:
    return Player.objects.get(owner=user, name=name)


def page(client, user, name: str, **headers) -> str:
    response = client.get(reverse("player_detail", args=[player(user, name).pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, game: str) -> str:
    """The game's section of the page ('' when the page has none)."""
    found = re.search(
        rf'<section[^>]*data-player-stats="{game}".*?</figure>\s*</section>', html, re.S
    )
    return found.group(0) if found else ""


def stat(html: str, name: str) -> str:
    found = re.search(rf'data-stat="{name}" data-value="([^"]*)"', html)
    assert found, f"no {name} in the section"
    return found.group(1)


def head_to_head(html: str) -> dict[int, dict[str, int]]:
    rows = {}
    for attrs in re.findall(r"<li (data-head-to-head=[^>]*)>", html):
        values = dict(re.findall(r'data-([a-z-]+)="(\d+)"', attrs))
        pk = int(values.pop("head-to-head"))
        rows[pk] = {k: int(v) for k, v in values.items()}
    return rows


# --- the figures, by hand ---------------------------------------------------------------------


def biriba_by_hand(user) -> Match:
    """Anna & Chris (side 0) win 1 300 to 60 in two deals: they go out in both, meld a clean
    biriba in each and a dirty one in the second; Babis & Dora never take the pot in deal 1."""
    return rummy_match(
        user,
        "biriba",
        FOUR,
        [
            rummy_deal(
                "biriba",
                side(300, bonuses={"clean_biriba": 1}, went_out=True),
                side(100, in_hand=20, took_pot=False),
            ),
            rummy_deal(
                "biriba",
                side(300, bonuses={"clean_biriba": 1, "dirty_biriba": 1}, went_out=True),
                side(100, in_hand=20),
                index=1,
            ),
        ],
        target=1000,
    )


def test_biriba_figures_by_hand(auth_client, user):
    match = biriba_by_hand(user)
    anna = section(page(auth_client, user, "Anna"), "biriba")
    assert stat(anna, "played") == "1" and stat(anna, "won") == "1"
    assert stat(anna, "rate") == "100"
    assert stat(anna, "per-deal") == "650.0"  # 1 300 in 2 deals
    assert stat(anna, "going-out-rate") == "100"
    assert stat(anna, "pots-missed") == "0"
    assert re.search(r'data-bonus="clean_biriba" data-value="2"', anna)
    assert re.search(r'data-bonus="dirty_biriba" data-value="1"', anna)
    assert f'data-best-match="{match.pk}"' in anna and f'data-worst-match="{match.pk}"' in anna
    assert "+1 240" in anna.replace("\u2009", " ")  # the lead: 1 300 − 60

    babis = section(page(auth_client, user, "Babis"), "biriba")
    assert stat(babis, "won") == "0" and stat(babis, "rate") == "0"
    assert stat(babis, "per-deal") == "30.0"  # −20 and 80
    assert stat(babis, "going-out-rate") == "0"
    assert stat(babis, "pots-missed") == "1"
    assert "data-bonus" not in babis  # no biriba melded: the section is left out


def test_burraco_figures_by_hand(auth_client, user):
    rummy_match(
        user,
        "burraco",
        ["Anna", "Babis"],
        [
            rummy_deal("burraco", side(100, in_hand=20), side(200, bonuses={"dirty_burraco": 1})),
            rummy_deal(
                "burraco",
                side(200, in_hand=10, took_pot=False),
                side(200, bonuses={"clean_burraco": 1}, went_out=True),
            ),
        ],
    )
    # Anna: 80 and 200 − 10 − 100 = 90: 170 in 2 deals; Babis: 300 and 200 + 200 + 100 = 500
    anna = section(page(auth_client, user, "Anna"), "burraco")
    assert stat(anna, "per-deal") == "85.0"
    assert stat(anna, "won") == "0"
    assert stat(anna, "pots-missed") == "1"
    assert stat(anna, "going-out-rate") == "0"
    babis = section(page(auth_client, user, "Babis"), "burraco")
    assert stat(babis, "per-deal") == "400.0"
    assert stat(babis, "going-out-rate") == "50"
    assert re.search(r'data-bonus="clean_burraco" data-value="1"', babis)
    assert re.search(r'data-bonus="dirty_burraco" data-value="1"', babis)
    assert section(page(auth_client, user, "Anna"), "biriba") == ""  # never blended


def test_barbu_figures_by_hand(auth_client, user):
    """The 28 classic deals, what each takes following the declarer: each plays every
    contract four times; No tricks hands out 13 × −2 = −26 among four: −6.5 each on average;
    each doubles the declarer in the 21 deals they do not declare and is doubled three times
    in each of their 7: 21 made, 21 received, the compulsory doubles met in the 3 other
    series."""
    barbu_match(user, FOUR, rotate=True)
    anna = section(page(auth_client, user, "Anna"), "barbu")
    assert stat(anna, "played") == "1" and stat(anna, "won") == "1"  # a tie of all four
    assert stat(anna, "per-deal") == "0.0"
    assert re.search(r'data-contract="no_tricks">.*?<td>4</td><td data-value="-6.5">', anna, re.S)
    assert "\u22126.5" in anna  # written with a real minus sign
    assert stat(anna, "doubles-made") == "21" and stat(anna, "doubles-received") == "21"
    assert re.search(r'data-stat="compulsory" data-value="3" data-of="3"', anna)
    assert "going-out-rate" not in anna and "pots-missed" not in anna


def test_barbu_figures_agree_with_the_exported_document(auth_client, user):
    """An independent reading of the match's export (the download a table gets), not the
    summary's path: each player's total, doubles made and received, won and lost, and net."""
    match = barbu_match(user, FOUR)
    document = json.loads(auth_client.get(reverse("match_export", args=[match.pk])).content)
    for seat, name in enumerate(FOUR):
        deals = [d for d in document["deals"] if not d["score"].get("to_enter")]
        made = sum(1 for d in deals for x in d.get("doubles", []) if x["by"] == seat)
        received = sum(1 for d in deals for x in d.get("doubles", []) if x["on"] == seat)
        net = sum(d["score"]["doubles"][seat] for d in deals)
        gains = [
            line["amount"] if line["by"] == seat else -line["amount"]
            for d in deals
            for line in d["score"]["settlement"]
            if seat in (line["by"], line["on"])
        ]
        won = document["totals"][seat] == max(document["totals"])
        html = section(page(auth_client, user, name), "barbu")
        assert stat(html, "doubles-made") == str(made)
        assert stat(html, "doubles-received") == str(received)
        assert stat(html, "doubles-net") == str(net)
        assert stat(html, "doubles-won") == str(sum(1 for g in gains if g > 0))
        assert stat(html, "doubles-lost") == str(sum(1 for g in gains if g < 0))
        assert stat(html, "won") == ("1" if won else "0")
        assert float(stat(html, "per-deal")) == round(document["totals"][seat] / 28, 1)


# --- wins, ties, streaks, head to head --------------------------------------------------------


def test_players_tied_first_all_win(auth_client, user):
    barbu_match(user, FOUR, rotate=True)  # all four on 0: all win
    barbu_match(user, FOUR)  # Anna alone first
    assert stat(section(page(auth_client, user, "Anna"), "barbu"), "rate") == "100"
    for name in ("Babis", "Chris", "Dora"):
        html = section(page(auth_client, user, name), "barbu")
        assert stat(html, "won") == "1" and stat(html, "rate") == "50"


def test_streaks_longest_and_current(auth_client, user):
    results = [True, True, False, True, True, True, False, True]
    for won in results:
        rummy_match(user, "biriba", ["Anna", "Babis"], [win_deal("biriba", 0 if won else 1)])
    anna = section(page(auth_client, user, "Anna"), "biriba")
    assert stat(anna, "longest-streak") == "3"
    assert stat(anna, "current-streak") == "1"
    babis = section(page(auth_client, user, "Babis"), "biriba")
    assert stat(babis, "longest-streak") == "1" and stat(babis, "current-streak") == "0"
    assert stat(anna, "rate") == "75"  # 6 of 8


def test_best_and_worst_match(auth_client, user):
    small = rummy_match(
        user,
        "biriba",
        ["Anna", "Babis"],
        [rummy_deal("biriba", side(400, went_out=True), side(400))],
    )  # won by 100
    big = rummy_match(user, "biriba", ["Anna", "Babis"], [win_deal("biriba", 0)])  # by 620
    lost = rummy_match(user, "biriba", ["Anna", "Babis"], [win_deal("biriba", 1)])  # by −620
    anna = section(page(auth_client, user, "Anna"), "biriba")
    assert f'data-best-match="{big.pk}"' in anna
    assert f'data-worst-match="{lost.pk}"' in anna
    assert f'data-best-match="{small.pk}"' not in anna


def test_head_to_head_from_three_matches_on(auth_client, user):
    """Anna meets Babis and Chris three times each (partners and opponents), Eleni twice and
    Dora once: only the first two are listed."""
    order = [
        (["Anna", "Chris", "Babis", "Dora"], 0),  # Anna & Babis win, against Chris
        (["Anna", "Chris", "Babis", "Eleni"], 1),  # Anna & Babis lose to Chris
        (["Anna", "Babis", "Chris", "Eleni"], 0),  # Anna & Chris win, against Babis
    ]
    for players, winner in order:
        rummy_match(user, "biriba", players, [win_deal("biriba", winner)])
    rows = head_to_head(section(page(auth_client, user, "Anna"), "biriba"))
    babis, chris = player(user, "Babis").pk, player(user, "Chris").pk
    assert set(rows) == {babis, chris}
    assert rows[babis] == {
        "met": 3, "won": 2, "lost": 1, "partners": 2, "partners-won": 1,
        "opponents": 1, "ahead": 1, "behind": 0,
    }  # fmt: skip
    assert rows[chris] == {
        "met": 3, "won": 2, "lost": 1, "partners": 1, "partners-won": 1,
        "opponents": 2, "ahead": 1, "behind": 1,
    }  # fmt: skip


# --- what is left out ------------------------------------------------------------------------


def test_sections_without_data_are_left_out(auth_client, user, make_match):
    make_match("burraco", deals=2)  # in progress: counts nothing
    html = page(auth_client, user, "Anna")
    assert "data-player-stats" not in html
    assert 'data-message="no_finished_match"' in html
    rummy_match(user, "biriba", ["Anna", "Babis"], [win_deal("biriba", 0)])
    html = page(auth_client, user, "Anna")
    assert section(html, "biriba")
    assert not section(html, "burraco") and not section(html, "barbu")
    biriba = section(html, "biriba")
    assert "data-bonus" in biriba
    assert "data-head-to-head" not in biriba and "Head to head" not in biriba  # met once
    babis = section(page(auth_client, user, "Babis"), "biriba")
    assert "data-bonus" not in babis and "by kind" not in babis  # no biriba melded


def test_no_compulsory_doubles_without_the_rule(auth_client, user):
    """A table that plays without compulsory doubles: the doubles are counted, the line of
    compulsory doubles met is left out."""
    barbu_match(user, FOUR, rules={"compulsory_doubles": "off"})
    html = section(page(auth_client, user, "Anna"), "barbu")
    assert stat(html, "doubles-made") == "21"
    assert 'data-stat="compulsory"' not in html


# --- cost, charts, permissions ----------------------------------------------------------------


def _games(user, count: int) -> None:
    for i in range(count):
        if i % 3 == 2:
            barbu_match(user, FOUR, rotate=bool(i % 2))
        else:
            game = "biriba" if i % 3 == 0 else "burraco"
            rummy_match(user, game, FOUR, [win_deal(game, i % 2)])


@pytest.mark.parametrize("count", [3, 30])
def test_the_queries_do_not_grow_with_the_matches(
    auth_client, user, count, django_assert_max_num_queries
):
    """The first visit works out every match's summary (their deals in one query, written in
    one), the next reads them as kept: the same few queries at 3 matches and at 30 (the
    session, the user, the player, the matches, their seats; the deals and the write)."""
    _games(user, count)
    url = reverse("player_detail", args=[player(user, "Anna").pk])
    with django_assert_max_num_queries(7):
        assert auth_client.get(url).status_code == 200
    with django_assert_max_num_queries(5):
        response = auth_client.get(url)
    assert response.content.decode().count("data-player-stats=") == 3
    assert stat(section(response.content.decode(), "barbu"), "played") == str(count // 3)


def _svgs(html: str) -> list[ET.Element]:
    return [ET.fromstring(s) for s in re.findall(r"<svg .*?</svg>", html, re.S)]


def test_the_charts_are_svg_with_a_title_a_description_and_a_table(auth_client, user):
    _games(user, 6)
    html = page(auth_client, user, "Anna")
    svgs = _svgs(html)
    assert len(svgs) == 3 == html.count('data-chart="player"')
    for svg in svgs:
        assert svg.get("role") == "img"
        title, desc = svg.find(f"{SVG}title"), svg.find(f"{SVG}desc")
        assert title is not None and title.text and desc is not None and desc.text
        assert set(svg.get("aria-labelledby").split()) == {title.get("id"), desc.get("id")}
        assert len(svg.findall(f"{SVG}rect")) == 2  # a bar a match: 2 of each game
    tables = re.findall(r'<table data-chart-table="player">.*?</table>', html, re.S)
    assert len(tables) == 3
    assert all(t.count("<tr>") == 3 for t in tables)  # the head and a row a match


def test_a_plain_and_an_htmx_request(auth_client, user):
    rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    plain = page(auth_client, user, "Anna")
    assert "<html" in plain and "stats.css" in plain
    partial = page(auth_client, user, "Anna", **HTMX)
    assert "<html" not in partial and 'id="player"' in partial
    assert 'data-player-stats="biriba"' in partial


def test_another_accounts_player_is_not_found(client, user, other_user):
    rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    url = reverse("player_detail", args=[player(user, "Anna").pk])
    client.force_login(other_user)
    response = client.get(url)
    assert response.status_code == 404
    assert b'data-message="not_found"' in response.content
    assert client.get(reverse("player_detail", args=[2**63])).status_code == 404


def test_logged_out_is_sent_to_log_in(client, user):
    rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    response = client.get(reverse("player_detail", args=[player(user, "Anna").pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_players_page_links_each_player(auth_client, user):
    rummy_match(user, "biriba", FOUR, [win_deal("biriba", 0)])
    html = auth_client.get(reverse("player_list")).content.decode()
    for name in FOUR:
        pk = player(user, name).pk
        assert f'href="{reverse("player_detail", args=[pk])}" data-player-link="{pk}"' in html


def _copies(match: Match, count: int) -> None:
    """``count`` copies of ``match`` (its seats and deals, its cache), made at once."""
    from scorekeeper.models import Deal, MatchSeat

    seats = list(MatchSeat.objects.filter(match=match))
    deals = list(Deal.objects.filter(match=match))
    fields = ("game", "rules", "first_dealer", "status", "finished_at", "winner", "totals")
    made = Match.objects.bulk_create(
        Match(owner_id=match.owner_id, deal_count=match.deal_count, deals_version=1,
              **{f: getattr(match, f) for f in fields})
        for _ in range(count)
    )  # fmt: skip
    MatchSeat.objects.bulk_create(
        MatchSeat(match=copy, seat=s.seat, player_id=s.player_id) for copy in made for s in seats
    )
    Deal.objects.bulk_create(
        Deal(match=copy, number=d.number, data=d.data, score=d.score, running=d.running)
        for copy in made
        for d in deals
    )


def test_the_queries_are_the_same_from_1_match_to_500(auth_client, user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost() -> list[int]:
        url = reverse("player_detail", args=[player(user, "Anna").pk])
        counts = []
        for _ in range(2):  # summaries worked out, then read as kept
            with CaptureQueriesContext(connection) as queries:
                assert auth_client.get(url).status_code == 200
            counts.append(len(queries))
        return counts

    for game in ("biriba", "barbu"):
        Match.objects.all().delete()
        first = (
            barbu_match(user, FOUR)
            if game == "barbu"
            else rummy_match(user, game, FOUR, [win_deal(game, 0)])
        )
        one = cost()
        _copies(first, 499)
        assert cost() == one
        html = page(auth_client, user, "Anna")
        assert stat(section(html, game), "played") == "500"


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("en", 13.25, "13.3"),  # a half away from zero, as by hand (not to the even 13.2)
        ("en", 18.75, "18.8"),
        ("en", -3.05, "−3.1"),
        ("en", 1245.5, "1\u2009245.5"),
        ("fr", -3.14, "−3,1"),
        ("fr", 1245.5, "1\u00a0245,5"),
        ("it", 13.25, "13,3"),
        ("el", 1245.5, "1.245,5"),
        ("el", 2.0, "2"),
        ("en", None, "—"),
    ],
)
def test_an_average_is_written_in_the_page_language(language, value, shown):
    from django.utils import translation

    from scorekeeper.templatetags.stats_tags import average

    with translation.override(language):
        assert average(value) == shown
