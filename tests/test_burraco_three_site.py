"""Burraco for three players on the site (issue 12): the new-match page offers the two forms
and their options; deal entry asks who played alone in one tap and the deal's sides follow (the
solo player and the pair, or each alone); the scoreboard, the watch view, the sheet, the CSV
and the statistics show each player's total, who played alone in each deal and the winner."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.entry import drafts as st
from scorekeeper.models import Deal, Match, MatchChange, Player
from scorekeeper.sharing.services import share_link_get_or_create
from tests.conftest import HTMX, draft_of, posted_by, press, text
from tests.test_views import new_match_data

pytestmark = pytest.mark.django_db

THREE = ["Anna", "Babis", "Chris"]


def digits(n: int) -> list[str]:
    return [f"digit:{d}" for d in str(n)]


def side(
    k: int, melded: int, in_hand: int = 0, *, clean: int = 0, dirty: int = 0, end: str = ""
) -> list[str]:
    """The keys that enter side ``k`` by totals: ``end`` "out" (went out), "pot" or "no_pot"."""
    keys = [f"side:{k}", "mode:totals", "target:melded", *digits(melded)]
    if in_hand:
        keys += ["next_field", *digits(in_hand)]
    keys += ["bonus:clean_burraco:+1"] * clean + ["bonus:dirty_burraco:+1"] * dirty
    keys += {"out": [f"went_out:{k}"], "pot": [f"pot:{k}"], "no_pot": [f"pot_no:{k}"]}.get(end, [])
    return keys


#: rules.md's "Burraco for three players", example 2 (classic values, totals entry): deal 1
#: Anna alone against Babis & Chris, then each alone (Anna's total reached 1000).
EXAMPLE_2 = [
    ["solo:0", *side(0, 500, clean=2, end="out"), *side(1, 235, 60, dirty=1, end="pot")],
    [
        *side(0, 150, 20, end="pot"),
        *side(1, 400, clean=1, dirty=1, end="out"),
        *side(2, 60, 90, end="no_pot"),
    ],
    [
        *side(0, 300, clean=1, end="out"),
        *side(1, 100, 35, end="pot"),
        *side(2, 45, 50, end="no_pot"),
    ],
]


@pytest.fixture
def three(make_match):
    return make_match("burraco", players=THREE, rules={"three_players": "fibur"})


def new_url(match: Match) -> str:
    return reverse("deal_new", args=[match.pk])


def play(client, match: Match, *deals: list[str], htmx: bool = True) -> None:
    for keys in deals:
        before = Deal.objects.filter(match=match).count()
        press(client, new_url(match), "", *keys, "save", htmx=htmx)
        assert Deal.objects.filter(match=match).count() == before + 1, keys


def hook(page: str, name: str) -> dict[str, str]:
    """Each ``data-NAME="K"`` hook's text, by K (numbers' thin spaces as spaces)."""
    found = re.findall(rf'data-{name}="(\d+)"[^>]*>([^<]*)<', page)
    return {k: v.strip().replace("\u2009", " ").replace("\u2212", "-") for k, v in found}


def tabs(page: str) -> list[str]:
    """The side tabs' names."""
    found = re.findall(r'<span class="tab-name">(.*?)</span>', page)
    return [re.sub(r"</?bdi>", "", name).replace("&amp;", "&") for name in found]


# --- the new-match page -------------------------------------------------------------------------


def test_the_new_match_page_offers_three_players_with_the_forms_and_their_defaults(auth_client):
    page = auth_client.get("/matches/new/?game=burraco&seats=3").content.decode()
    assert len(re.findall(r'name="player_\d"', page)) == 3
    # the two forms, FIBUR's marked as the default and chosen
    assert "alone against a pair, then each alone (FIBUR) · default" in page
    assert re.search(r'name="opt_three_players" value="fibur"[^>]*checked', page)
    assert 'value="each_alone"' in page
    assert "1000 · default" in page and "Never: solo and pair to the end" in page
    assert "a half point rounded up · default" in page and "a half point dropped" in page
    assert re.search(r'name="opt_target"[^>]*placeholder="1505"', page)
    assert "1505 with three" in page
    assert 'name="opt_match_deals"' not in page  # victory points are for two sides
    # every option is explained in one line
    for key in ("three_players", "alone_from", "pair_rounding"):
        (block,) = [b for b in page.split('<div class="option') if f'name="opt_{key}"' in b]
        assert re.search(r'<span class="help">[^<]{20,}</span>', block), key
    for seats in (2, 4):
        other = auth_client.get(f"/matches/new/?game=burraco&seats={seats}").content.decode()
        assert 'name="opt_three_players"' not in other and 'name="opt_match_deals"' in other


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_fibur_match_for_three_is_made_with_its_defaults(auth_client, headers):
    data = new_match_data(
        "burraco", THREE, opt_preset="classic", opt_three_players="fibur", opt_alone_from="1000"
    )
    data |= {"opt_pair_rounding": "up"}
    response = auth_client.post("/matches/new/", data, headers=headers)
    assert response.status_code in (200, 302)
    match = Match.objects.get()
    assert match.rules["three_players"] == "fibur" and match.rules["target"] == 1505
    assert match.rules["alone_from"] == 1000 and match.rules["pair_rounding"] == "up"
    page = text(auth_client.get(match.get_absolute_url()))
    assert "Three players alone against a pair, then each alone (FIBUR)" in page
    assert "Each alone from 1000" in page


def test_the_other_form_leaves_the_fibur_options_out(auth_client):
    data = new_match_data("burraco", THREE, opt_preset="classic", opt_three_players="each_alone")
    data |= {"opt_alone_from": "1000", "opt_pair_rounding": "up", "opt_target": "2005"}
    auth_client.post("/matches/new/", data)
    rules = Match.objects.get().rules
    assert rules["three_players"] == "each_alone" and rules["target"] == 2005
    assert "alone_from" not in rules and "pair_rounding" not in rules


def test_never_each_alone_and_the_truncated_half(auth_client):
    data = new_match_data("burraco", THREE, opt_preset="fibur", opt_three_players="fibur")
    data |= {"opt_alone_from": "None", "opt_pair_rounding": "truncate"}
    auth_client.post("/matches/new/", data)
    match = Match.objects.get()
    assert match.rules["alone_from"] is None and match.rules["pair_rounding"] == "truncate"
    assert match.rules["target"] == 1505  # whatever the preset
    page = text(auth_client.get(match.get_absolute_url()))
    assert "Each alone from Never: solo and pair to the end" in page


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_fibur_option_beside_the_other_form_is_refused_at_its_field(auth_client, headers):
    data = new_match_data("burraco", THREE, opt_preset="classic", opt_three_players="each_alone")
    data |= {"opt_pair_rounding": "truncate"}
    response = auth_client.post("/matches/new/", data, headers=headers)
    assert response.status_code == 200 and Match.objects.count() == 0
    page = response.content.decode()
    assert re.search(r'has-error">\s*<div class="option-head">\s*<label>Rounding', page)
    assert "has no effect when every player plays alone from the first deal" in page


def test_a_form_not_chosen_is_refused(auth_client):
    data = new_match_data("burraco", THREE, opt_preset="classic", opt_three_players="")
    response = auth_client.post("/matches/new/", data)
    assert response.status_code == 200 and Match.objects.count() == 0
    assert "This field is required." in response.content.decode()


# --- deal entry -----------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_pad_asks_who_played_alone_and_a_save_before_the_answer_is_refused(
    auth_client, three, htmx
):
    url = new_url(three)
    page = auth_client.get(url, headers=HTMX if htmx else {}).content.decode()
    assert [f'data-solo="{v}"' in page for v in ("0", "1", "2", "none")] == [True] * 4
    assert "Who played alone?" in page
    assert len(re.findall(r'data-side="\d"', page)) == 2  # the solo player, the pair
    response = press(auth_client, url, "", *side(0, 300, end="pot"), "save", htmx=htmx)
    assert 'data-message="solo_unanswered"' in response.content.decode()
    assert Deal.objects.count() == 0
    # the draft is kept: one tap says who, and the deal saves
    play(auth_client, three, ["solo:2", *side(1, 200, end="pot")], htmx=htmx)
    deal = Deal.objects.get()
    assert deal.data["solo"] == 2 and len(deal.data["sides"]) == 2
    assert deal.data["sides"][0]["took_pot"] is True  # the solo player took the 18
    assert deal.score["players"] == [100, 100, 300]


def test_the_sides_follow_who_played_alone(auth_client, three):
    url = new_url(three)
    response = press(auth_client, url, "", "solo:1")
    page = response.content.decode()
    assert re.search(r'data-solo="1"\s+aria-pressed="true"', page)
    assert tabs(page) == ["Babis", "Anna & Chris"]
    draft = json.loads(draft_of(response))
    assert draft["solo"] == 1 and draft["sides"][0]["took_pot"] is True
    question = text(press(auth_client, url, "", *side(1, 100)))
    assert "Did Anna & Chris take the pozzetto?" in question
    # another player instead: the sides stay, named after him
    page = press(auth_client, url, "", "solo:0").content.decode()
    assert tabs(page) == ["Anna", "Babis & Chris"]


def test_the_bar_shows_each_player_with_the_pair_halved(auth_client, three):
    keys = ["solo:1", *side(0, 145, clean=1, end="out"), *side(1, 195, end="pot")]
    page = text(press(auth_client, new_url(three), "", *keys))
    assert "A legal deal" in page
    assert "Anna 98 +98 1 407 to go Babis 445 +445 1 060 to go Chris 98 +98" in page


def test_nobody_took_a_pozzetto_the_three_play_each_alone(auth_client, three):
    url = new_url(three)
    response = press(auth_client, url, "", "solo:none")
    page = response.content.decode()
    assert len(re.findall(r'data-side="\d"', page)) == 3
    assert all(s["took_pot"] is False for s in json.loads(draft_of(response))["sides"])
    assert "Did" not in text(response)  # no pozzetto question left
    play(auth_client, three, [*side(0, 50), *side(1, 30), *side(2, 20)])
    deal = Deal.objects.get()
    assert deal.data["solo"] is None and len(deal.data["sides"]) == 3
    assert deal.score["players"] == [-50, -70, -80]
    # a solo player after all: the pair's answers are asked again, the solo's is given
    draft = json.loads(draft_of(press(auth_client, url, "", "solo:none", "solo:2")))
    assert [s.get("took_pot") for s in draft["sides"]] == [True, None, None]


def test_each_alone_from_the_deal_after_a_total_reached_1000(auth_client, three):
    play(auth_client, three, EXAMPLE_2[0])
    page = auth_client.get(new_url(three)).content.decode()
    assert "data-solo=" not in page and "Who played alone?" not in page
    assert tabs(page) == THREE
    play(auth_client, three, *EXAMPLE_2[1:])
    three.refresh_from_db()
    assert three.totals == [1730, 1003, -97] and three.winner == 0
    assert [d.data.get("solo", "-") for d in Deal.objects.order_by("number")] == [0, "-", "-"]


def test_the_other_form_never_asks(auth_client, make_match):
    match = make_match("burraco", players=THREE, rules={"three_players": "each_alone"})
    page = auth_client.get(new_url(match)).content.decode()
    assert "data-solo=" not in page and len(re.findall(r'data-side="\d"', page)) == 3
    keys = [*side(0, 100, end="pot"), *side(1, 50, end="pot"), *side(2, 20, end="no_pot")]
    play(auth_client, match, keys)
    assert Deal.objects.get().score["players"] == [100, 50, -80]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_correction_shows_who_played_alone_and_may_change_it(auth_client, three, htmx):
    play(auth_client, three, EXAMPLE_2[0])
    edit = reverse("deal_edit", args=[three.pk, 1])
    page = auth_client.get(edit).content.decode()
    assert re.search(r'data-solo="0"\s+aria-pressed="true"', page)
    assert tabs(page) == ["Anna", "Babis & Chris"]
    response = press(auth_client, edit, draft_of(auth_client.get(edit)), "solo:2", htmx=htmx)
    auth_client.post(edit, {**posted_by(response, "save"), "confirm": "yes"})
    deal = Deal.objects.get()
    assert deal.data["solo"] == 2 and deal.score["players"] == [138, 138, 1000]
    # the change's page: who played alone before and after, the sides as the deal has them
    change = MatchChange.objects.filter(match=three).order_by("pk").last()
    page = text(auth_client.get(reverse("match_change", args=[three.pk, change.pk])))
    page = page.replace("\u2009", " ")
    assert "Played alone changed Anna Chris" in page
    # Chris's side now, Anna's before: 1000 both (the solo player's in full), then the pair
    assert re.search(r"Chris Melded cards 500 500 .* Deal total 1 000 1 000 Anna & Babis", page)
    assert page.endswith("Deal total 138 138 ")


def test_a_draft_with_an_answer_that_is_not_one_is_not_read():
    good = st.RummyDraft.new(game="burraco", side_count=3)
    good.solo = 1
    assert st.RummyDraft.read(good.dumps(), game="burraco", side_count=3).solo == 1
    for bad in (True, 3, -1, "1", "nobody"):
        raw = json.loads(good.dumps()) | {"solo": bad}
        with pytest.raises(st.UnreadableDraft):
            st.RummyDraft.read(json.dumps(raw), game="burraco", side_count=3)
    # two or four players, or Biriba: no answer to keep
    assert st.RummyDraft.from_json({**good.to_json()}, game="biriba", side_count=3).solo is None
    with pytest.raises(st.UnknownAction):
        st.rummy_apply(st.RummyDraft.new(game="burraco", side_count=2), "solo:1")


# --- the scoreboard and the other pages of a match ----------------------------------------------


def test_the_scoreboard_shows_each_player_who_played_alone_and_the_winner(auth_client, three):
    play(auth_client, three, EXAMPLE_2[0])
    page = auth_client.get(three.get_absolute_url()).content.decode()
    assert hook(page, "total") == {"0": "1 000", "1": "138", "2": "138"}
    assert hook(page, "to-go") == {"0": "505 to go", "1": "1 367 to go", "2": "1 367 to go"}
    assert re.search(r'data-solo="1">\s*<bdi>Anna</bdi> alone', page)
    play(auth_client, three, *EXAMPLE_2[1:])
    page = auth_client.get(three.get_absolute_url()).content.decode()
    assert hook(page, "total") == {"0": "1 730", "1": "1 003", "2": "-97"}
    assert 'data-finished="true"' in page and "★ <bdi>Anna</bdi>" in page
    assert page.count("data-solo=") == 1  # deals 2 and 3: each alone
    # the deal's breakdown: the solo player, the pair and each one's half
    breakdown = text(auth_client.get(reverse("deal_breakdown", args=[three.pk, 1])))
    assert "Anna (alone) · 1 000" in breakdown and "Babis & Chris · 275 · 138 each" in breakdown


def test_the_watch_view_the_sheet_the_csv_and_the_statistics(auth_client, three, user):
    play(auth_client, three, *EXAMPLE_2)
    token = share_link_get_or_create(match=three, kind="watch").token
    watch = Client().get(reverse("watch", args=[token])).content.decode()
    assert 'data-total="0"' in watch and 'data-finished="true"' in watch
    sheet = text(auth_client.get(reverse("match_sheet", args=[three.pk])))
    assert "Anna alone" in sheet and "138 each" in sheet
    csv = auth_client.get(reverse("match_csv", args=[three.pk])).content.decode()
    assert "1730" in csv.replace(" ", "") and "Anna" in csv and "Babis" in csv
    anna = Player.objects.get(owner=user, name="Anna")
    page = text(auth_client.get(reverse("player_detail", args=[anna.pk])))
    assert "+727 yes" in page  # won, by 1730 - 1003


def test_an_imported_match_for_three_draws_every_page(auth_client, user):
    document = {
        "format": "scorekeeper-match/1",
        "game": "burraco",
        "rules": {"preset": "fibur", "three_players": "fibur", "pair_rounding": "truncate"},
        "players": THREE,
        "deals": [
            {
                "solo": 1,
                "sides": [
                    {
                        "totals": {"melded": 145, "in_hand": 0, "bonuses": {"clean_burraco": 1}},
                        "took_pot": True,
                        "went_out": True,
                    },
                    {
                        "totals": {
                            "melded": 90,
                            "in_hand": 45,
                            "bonuses": {"semi_clean_burraco": 1},
                        },
                        "took_pot": True,
                        "went_out": False,
                    },
                ],
            }
        ],
    }
    match = services.match_import(owner=user, document=document)
    assert match.totals == [97, 445, 97]  # rules.md's example 1, the .5 dropped
    base = f"/matches/{match.pk}"
    for url in (
        f"{base}/",
        f"{base}/deals/new/",
        f"{base}/deals/1/",
        f"{base}/deals/1/edit/",
        f"{base}/history/",
        f"{base}/sheet/",
        f"{base}/chart/",
        f"{base}/export.csv",
        f"{base}/export.json",
        "/",
        "/matches/",
        "/players/",
    ):
        for headers in ({}, HTMX):
            response = auth_client.get(url, headers=headers)
            assert response.status_code == 200, (url, response.status_code)
    exported = json.loads(auth_client.get(f"{base}/export.json").content)
    assert exported["deals"][0]["solo"] == 1 and exported["totals"] == [97, 445, 97]


def test_a_screen_with_three_sides_taps_the_third_after_a_solo_was_named(auth_client, three):
    """Issue 24, item 6: one phone showed three sides (nobody took a pozzetto); another then
    named who played alone (two sides). The first phone's tap on the third side's tab was a
    server error; it now lands on the last side there is."""
    url = new_url(three)
    stale = press(auth_client, url, "", "solo:none")
    assert len(re.findall(r'data-side="\d"', stale.content.decode())) == 3
    press(auth_client, url, "", "solo:0")  # another phone
    for action in ("side:2", "save"):
        response = auth_client.post(url, posted_by(stale, action), headers=HTMX)
        assert response.status_code == 200, action
    after = press(auth_client, url, draft_of(stale), "side:2", *side(1, 100))
    draft = json.loads(draft_of(after))
    assert draft["side"] == 1 and draft["solo"] == 0
