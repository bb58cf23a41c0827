"""Burraco's house values on the new-match page (issue 12; scorekeeper/matches/burraco_house.py):
each rank's value and the three burraco bonuses, blank for the standard ones; only the values
that differ go into the match's rules, a deal entered on the pad is scored with them, the rules'
refusals are shown on their box with nothing stored, the scoreboard names them; plain and htmx."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorekeeper.matches.burraco_house import BurracoHouseForm
from scorekeeper.models import Deal, Match
from scorekeeper.rules import burraco
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.match import FORMAT, parse_document
from tests.conftest import HTMX, draft_of, press, run, text
from tests.test_views import new_match_data

pytestmark = pytest.mark.django_db

URL = "/matches/new/"

#: rules.md's house values, example 1: jokers 50, twos 25, clean 300, dirty 150.
HOUSE_1 = {
    "burraco_house-card_JK": "50",
    "burraco_house-card_2": "25",
    "burraco_house-bonus_clean_burraco": "300",
    "burraco_house-bonus_dirty_burraco": "150",
}

#: rules.md's Burraco example 1 on the pad (standard values: 360 and 25; example 1 of the house
#: values: 460 and 40).
EXAMPLE_1 = [
    *run("H", "3 4 5 6 7 8 9"),
    "new_meld",
    *run("S", "K"),
    "suit:D",
    "suit:C",
    "target:hand",
    *run("C", "4"),
    *run("D", "Q"),
    "pot:0",
    "went_out:0",
    "side:1",
    *run("S", "10 J Q"),
    "joker",
    "new_meld",
    *run("S", "7"),
    "suit:D",
    "suit:C",
    "target:hand",
    *run("H", "A"),
    *run("C", "2"),
    *run("D", "5"),
    *run("S", "K"),
    "pot:1",
]


def start(client, *, htmx: bool = False, seats: int = 4, **fields):
    players = ["Anna", "Babis", "Chris", "Dora"][:seats]
    data = new_match_data("burraco", players=players, opt_preset="classic") | fields
    return client.post(URL, data, headers=HTMX if htmx else {})


def house_rules(match: Match) -> tuple[tuple, tuple]:
    """The house values the stored rules hold, as the rules core reads them (what differs)."""
    rules = burraco.parse_rules(match.rules)
    return rules.card_values, rules.burraco_bonuses


# --- the form --------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_page_offers_the_house_values_folded_with_their_defaults(auth_client, htmx):
    page = auth_client.get(URL + "?game=burraco", headers=HTMX if htmx else {})
    body, words = page.content.decode(), text(page)
    assert ("<html" in body) is not htmx
    # folded, its summary saying the default
    assert re.search(r'<details class="[^"]*burraco-house" id="burraco-house">', body)
    assert "House values · standard values · default" in words
    assert "Left blank: the standard value, shown in grey." in words
    # every rank, its standard value as the placeholder
    for code, standard in burraco.card_values(burraco.BurracoRules()).items():
        box = re.search(rf'<input[^>]*name="burraco_house-card_{code}"[^>]*>', body)
        assert box and f'placeholder="{standard}"' in box.group(0), code
        assert "value=" not in box.group(0)
    for kind, standard in (("clean", 200), ("semi_clean", 150), ("dirty", 100)):
        box = re.search(rf'<input[^>]*name="burraco_house-bonus_{kind}_burraco"[^>]*>', body)
        assert box and f'placeholder="{standard}"' in box.group(0), kind
    assert "burraco pulito burraco semipulito burraco sporco" in words
    assert "Counts only where semipulito is played: the FIBUR rules, or Semipulito: Yes." in words


def test_other_games_have_no_burraco_house_values(auth_client):
    for game in ("biriba", "barbu"):
        body = auth_client.get(URL + f"?game={game}").content.decode()
        assert "burraco_house-" not in body


def test_the_form_sends_only_the_values_that_differ():
    form = BurracoHouseForm(
        HOUSE_1
        | {
            "burraco_house-card_A": "15",  # the standard value, written out
            "burraco_house-bonus_semi_clean_burraco": "150",
            "burraco_house-card_3": "",
        }
    )
    assert form.is_valid(), form.errors
    assert form.rules() == {
        "card_values": {"JK": 50, "2": 25},
        "burraco_bonuses": {"clean_burraco": 300, "dirty_burraco": 150},
    }
    assert BurracoHouseForm({"burraco_house-card_A": "15"}).rules() == {}


# --- a match with house values ---------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_match_with_house_values_stores_the_changed_ones(auth_client, htmx):
    response = start(auth_client, htmx=htmx, **HOUSE_1, **{"burraco_house-card_A": "15"})
    match = Match.objects.get()
    if htmx:
        assert response.headers["HX-Redirect"] == match.get_absolute_url()
    else:
        assert response.status_code == 302
    assert house_rules(match) == (
        (("JK", 50), ("2", 25)),
        (("clean_burraco", 300), ("dirty_burraco", 150)),
    )
    # the rules core stores the table whole: every other rank at its standard value
    standard = burraco.card_values(burraco.BurracoRules())
    assert match.rules["card_values"] == standard | {"JK": 50, "2": 25}
    assert match.rules["burraco_bonuses"]["semi_clean_burraco"] == 150


def test_a_match_without_house_values_stores_none(auth_client):
    start(auth_client, **{"burraco_house-card_JK": "30", "burraco_house-bonus_clean_burraco": ""})
    rules = Match.objects.get().rules
    assert "card_values" not in rules and "burraco_bonuses" not in rules


def test_a_deal_entered_on_the_pad_is_scored_with_the_house_values(auth_client):
    start(auth_client, **HOUSE_1)
    match = Match.objects.get()
    url = reverse("deal_new", args=[match.pk])
    response = press(auth_client, url, "", *EXAMPLE_1)
    # side 1: the joker worth 50, the two in hand 25
    words = text(response)
    assert "run 10♠–K♠ · dirty · JK = K♠ 80" in words
    assert "A♥ 2♣ 5♦ K♠ in hand −55" in words
    response = press(auth_client, url, draft_of(response), "side:0")
    assert "run 3♥–9♥ · clean · burraco pulito 45 + 300" in text(response)
    assert "Anna & Chris this deal 460" in text(response)
    response = press(auth_client, url, draft_of(response), "save")
    assert response.headers["HX-Redirect"] == match.get_absolute_url()
    match.refresh_from_db()
    # rules.md, house values example 1 (standard values: 360 and 25)
    assert match.totals == [460, 40]
    assert Deal.objects.get(match=match).score["sides"][0]["total"] == 460


def test_a_table_of_three_takes_house_values_too(auth_client):
    response = start(
        auth_client, seats=3, opt_three_players="fibur", **{"burraco_house-card_JK": "50"}
    )
    assert response.status_code == 302
    assert house_rules(Match.objects.get()) == ((("JK", 50),), ())


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "code", "says"),
    [
        ("card_JK", "7", "bad_house_value", "7 cannot be the value of jokers"),
        ("card_K", "-5", "bad_house_value", "cannot be the value of kings"),
        ("bonus_clean_burraco", "212", "bad_house_value", "212 cannot be the value of burraco"),
        ("card_2", "12.5", "invalid", "Enter a whole number."),
        ("bonus_dirty_burraco", "20000", "max_value", "less than or equal to 10000"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_value_is_shown_on_its_box_and_nothing_is_stored(
    auth_client, htmx, name, value, code, says
):
    response = start(auth_client, htmx=htmx, **{f"burraco_house-{name}": value})
    assert response.status_code == 200 and "HX-Redirect" not in response.headers
    assert Match.objects.count() == 0
    body = response.content.decode()
    assert ("<html" in body) is not htmx
    assert says in text(response)
    # on the box: marked, its value kept, the section open and its summary saying ✗
    box = re.search(
        rf'<label class="house-unit has-error"><span>[^<]*</span><input[^>]*'
        rf'name="burraco_house-{name}"[^>]*>',
        body,
    )
    assert box and f'value="{value}"' in box.group(0)
    assert f'data-message="{code}"' in body
    assert re.search(r'id="burraco-house" open', body)
    assert "House values · ✗" in text(response)
    # what else was typed is kept
    assert 'value="Anna"' in body


def test_every_refused_value_is_shown_at_once_beside_the_match_form_s_errors(auth_client):
    fields = {"burraco_house-card_JK": "7", "burraco_house-bonus_clean_burraco": "3"}
    response = start(auth_client, player_1="", **fields)
    words = text(response)
    assert "7 cannot be the value of jokers" in words
    assert "3 cannot be the value of burraco pulito" in words
    assert "This field is required." in words
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"burraco_house-card_JK": "0"},  # 0 is a value
        {"burraco_house-card_JK": "35", "burraco_house-card_3": "10"},  # multiples of 5
        {"burraco_house-bonus_clean_burraco": "10000"},  # the most
    ],
)
def test_a_near_miss_is_accepted(auth_client, fields):
    assert start(auth_client, **fields).status_code == 302
    cards, bonuses = house_rules(Match.objects.get())
    given = {k.split("-", 1)[1]: int(v) for k, v in fields.items()}
    assert {f"card_{c}": v for c, v in cards} | {f"bonus_{b}": v for b, v in bonuses} == given


def refusal_of_the_rules(rules: dict) -> RuleError:
    """What the rules core says of a match document with ``rules`` (as the service reads it)."""
    document = {"format": FORMAT, "game": "burraco", "rules": rules, "first_dealer": 0}
    with pytest.raises(RuleError) as refused:
        parse_document(document | {"players": ["Anna", "Babis"], "deals": []})
    return refused.value


def test_a_refusal_of_the_service_is_put_on_a_box_of_the_option_it_names():
    error = refusal_of_the_rules({"card_values": {"2": 7}})
    assert error.where == ("rules", "card_values")
    form = BurracoHouseForm({"burraco_house-card_Q": "20", "burraco_house-card_2": "25"})
    assert form.is_valid()
    assert form.add_rule_error(error)
    assert form.errors == {
        "card_2": ["7 cannot be the value of twos: values are whole multiples of 5, 0 or more"]
    }
    bonus = refusal_of_the_rules({"burraco_bonuses": {"clean_burraco": 1}})
    form = BurracoHouseForm({})
    assert form.is_valid() and form.add_rule_error(bonus)
    assert list(form.errors) == ["bonus_clean_burraco"]
    # an option of the match's own form: not this form's
    assert not BurracoHouseForm({}).add_rule_error(refusal_of_the_rules({"target": "far"}))


# --- switching, and the scoreboard -------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_switch_of_players_keeps_the_values_entered(auth_client, htmx):
    query = {"game": "burraco", "seats": "4", "switch_seats": "2", **HOUSE_1}
    response = auth_client.get(URL, query, headers=HTMX if htmx else {})
    body = response.content.decode()
    assert re.search(
        r'name="burraco_house-card_JK"[^>]*value="50"|value="50"[^>]*'
        r'name="burraco_house-card_JK"',
        body,
    )
    assert re.search(r'id="burraco-house" open', body)
    assert "House values · JK 50 · 2 25 · burraco pulito 300 · burraco sporco 150" in text(response)


def test_the_scoreboard_names_the_house_values(auth_client):
    start(auth_client, **HOUSE_1, **{"burraco_house-bonus_semi_clean_burraco": "175"})
    words = text(auth_client.get(Match.objects.get().get_absolute_url()))
    assert "Card values JK 50 · 2 25" in words
    # the semipulito's value plays no part in the classic rules: not named
    assert "Burraco bonuses burraco pulito 300 · burraco sporco 150 " in words
    assert "semipulito 175" not in words


def test_the_scoreboard_names_a_semipulito_value_where_it_is_played(auth_client):
    start(auth_client, opt_preset="fibur", **{"burraco_house-bonus_semi_clean_burraco": "175"})
    words = text(auth_client.get(Match.objects.get().get_absolute_url()))
    assert "Burraco bonuses burraco semipulito 175" in words
    assert "Card values" not in words


def test_the_scoreboard_of_a_match_with_standard_values_names_none(auth_client):
    start(auth_client)
    words = text(auth_client.get(Match.objects.get().get_absolute_url()))
    assert "Card values" not in words and "Burraco bonuses" not in words
