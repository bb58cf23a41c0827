"""Barbu's house values and five players on the new-match page (scorekeeper/matches/
barbu_house.py): which contracts are played, Chinese Poker and its multiplier, each contract's
values, the check of what they add up to (zero-sum exactly when they add up to 0), the rules'
refusals on the field they name, nothing stored on a refusal; plain and htmx."""

from __future__ import annotations

import re

import pytest

from scorekeeper.matches.barbu_house import HouseForm
from scorekeeper.models import Match
from tests.conftest import HTMX, text

pytestmark = pytest.mark.django_db

URL = "/matches/new/"
PLAYERS = {"player_0": "Anna", "player_1": "Babis", "player_2": "Chris", "player_3": "Dora"}


def start(client, *, seats: int = 4, htmx: bool = False, **fields):
    data = {"game": "barbu", "seats": str(seats), "first_dealer": "0", **PLAYERS}
    data |= {"opt_variant": "classic", "opt_rotation": "series"}
    data |= {"opt_compulsory_doubles": "enforce", "opt_undoubled_negative": "split"}
    data |= fields
    return client.post(URL, data, headers=HTMX if htmx else {})


def check(client, *, htmx: bool = False, **fields):
    data = {"game": "barbu", "seats": "4", "check_house": "1", **fields}
    return client.get(URL, data, headers=HTMX if htmx else {})


def test_the_page_shows_the_variant_s_values_and_their_zero_sum(auth_client):
    for headers in ({}, HTMX):
        page = auth_client.get(URL + "?game=barbu", headers=headers)
        words = text(page)
        assert "House values · Σ 0 ✓" in words
        assert "No tricks trick −2 −26" in words
        assert "Domino payouts 45 / 20 / 5 / −5 65" in words
        assert "Zero-sum: a complete match of 28 deals adds up to 0" in words
        body = page.content.decode()
        assert 'name="house-v_barbu__king_of_hearts"' in body
        assert 'name="house-chinese_poker" value=""' in body
        assert "No · default" in words


@pytest.mark.parametrize("htmx", [False, True])
def test_checking_values_that_do_not_add_up_to_zero_says_so(auth_client, htmx):
    response = check(auth_client, htmx=htmx, **{"house-v_barbu__king_of_hearts": "-80"})
    words = text(response)
    assert "Barbu (K♥) king of hearts −80 −80" in words
    assert "House values · Σ −60" in words
    assert "Not zero-sum: a complete match of 28 deals adds up to −240" in words
    assert ("<html" in response.content.decode()) is not htmx
    assert re.search(
        r'<details class="more-options house-values" id="house-values" open',
        response.content.decode(),
    )


def test_a_house_set_that_stays_zero_sum_is_checked_as_classic_is(auth_client):
    """rules.md, house values example 4: No queens −8 and Domino 50, 20, 5, −2 keep 0."""
    fields = {"house-v_no_queens__queen": "-8"}
    fields |= {f"house-v_domino__payouts__{i}": str(v) for i, v in enumerate((50, 20, 5, -2))}
    words = text(check(auth_client, **fields))
    assert "House values · Σ 0 ✓" in words and "Zero-sum" in words


def test_a_penalty_written_positive_is_refused_on_its_field(auth_client):
    response = check(auth_client, **{"house-v_barbu__king_of_hearts": "80"})
    words = text(response)
    assert "write 80 as −80" in words or "write 80 as -80" in words
    assert 'data-message="contract_values_sign"' in response.content.decode()
    # the summary names the place in words, not the document's keys
    assert "“Contract values”, Barbu (K♥), king of hearts: Barbu (K♥) costs points" in words
    assert "contract_values" not in words and "barbu.king_of_hearts" not in words
    # starting the match with it: refused, nothing stored
    response = start(auth_client, **{"house-v_barbu__king_of_hearts": "80"})
    assert response.status_code == 200 and Match.objects.count() == 0
    assert "as −80" in text(response) or "as -80" in text(response)


def test_a_match_starts_with_its_house_values_and_contracts(auth_client):
    fields = {
        "house-contracts": ["no_tricks", "no_hearts", "barbu", "trumps"],
        "house-v_no_tricks__trick": "-10",
        "opt_rotation": "quick",
        "opt_compulsory_doubles": "off",
        "opt_undoubled_negative": "play",
    }
    response = start(auth_client, **fields)
    assert response.status_code == 302, text(response)
    match = Match.objects.get()
    assert match.rules["contracts"] == ["no_tricks", "no_hearts", "barbu", "trumps"]
    assert match.rules["contract_values"] == {"no_tricks": {"trick": -10}}
    board = text(auth_client.get(match.get_absolute_url()))
    assert "Contracts played" in board and "Contract values" in board
    assert "No tricks: trick −10" in board


def test_a_match_with_chinese_poker_and_its_multiplier(auth_client):
    response = start(auth_client, **{"house-chinese_poker": "true", "house-multiplier": "2"})
    assert response.status_code == 302, text(response)
    match = Match.objects.get()
    assert match.rules["chinese_poker"] is True
    assert match.rules["chinese_poker_multiplier"] == 2
    entry = text(auth_client.get(f"/matches/{match.pk}/deals/new/"))
    assert "Deal 1 of 32" in entry and "Chinese Poker" in entry


def test_chinese_poker_in_a_house_list_joins_it(auth_client):
    fields = {
        "house-contracts": ["no_tricks", "no_queens", "trumps"],
        "house-chinese_poker": "true",
    }
    assert start(auth_client, **fields).status_code == 302
    assert Match.objects.get().rules["contracts"] == [
        "no_tricks",
        "no_queens",
        "trumps",
        "chinese_poker",
    ]


def test_chinese_poker_with_salade_is_refused_naming_the_field(auth_client):
    response = start(auth_client, opt_variant="salade", **{"house-chinese_poker": "true"})
    assert response.status_code == 200 and Match.objects.count() == 0
    assert 'data-message="chinese_poker_variant"' in response.content.decode()


def test_one_contract_with_compulsory_doubles_is_refused(auth_client):
    response = start(auth_client, **{"house-contracts": ["barbu"]})
    assert Match.objects.count() == 0
    assert "compulsory doubles" in text(response)


def test_a_value_that_is_not_a_whole_number_is_refused_by_the_form(auth_client):
    response = start(auth_client, **{"house-v_no_queens__queen": "-7.5"})
    assert response.status_code == 200 and Match.objects.count() == 0
    assert "Enter a whole number." in text(response)


def test_the_house_form_reads_lists_and_leaves_blanks_out():
    form = HouseForm(
        {
            "house-v_no_last_two__last_two__0": "-20",
            "house-v_no_last_two__last_two__1": "-60",
            "house-v_no_hearts__heart": "-10",
            "house-v_salade__trick": "",
        }
    )
    assert form.is_valid()
    assert form.rules() == {
        "contract_values": {"no_hearts": {"heart": -10}, "no_last_two": {"last_two": [-20, -60]}}
    }
    assert HouseForm({}).rules() == {}


def test_five_players_start_a_salade_match(auth_client):
    data = {**PLAYERS, "player_4": "Eleni", "opt_variant": "salade"}
    response = auth_client.post(
        URL,
        {
            "game": "barbu",
            "seats": "5",
            "first_dealer": "0",
            "opt_rotation": "series",
            "opt_compulsory_doubles": "enforce",
            "opt_undoubled_negative": "split",
            **data,
        },
    )
    assert response.status_code == 302, text(response)
    match = Match.objects.get()
    assert [p.name for p in match.seated_players] == ["Anna", "Babis", "Chris", "Dora", "Eleni"]
    assert match.rules["variant"] == "salade"
    entry = text(auth_client.get(f"/matches/{match.pk}/deals/new/"))
    assert "Deal 1 of 30 · Anna declares" in entry


def test_the_five_seat_page_offers_salade_s_contracts_only(auth_client):
    page = auth_client.get(URL + "?game=barbu&seats=5")
    words = text(page)
    assert "Salade for five" in words and "30 deals" in words
    body = page.content.decode()
    assert 'name="house-chinese_poker"' not in body
    assert 'value="domino"' not in body and 'value="salade"' in body
    assert "4 players · default" in words and "5 players · Salade" in words


def test_switching_to_five_checks_salade_whatever_was_chosen_for_four(auth_client):
    query = "?game=barbu&switch_seats=5&opt_variant=classic&house-v_barbu__king_of_hearts="
    words = text(auth_client.get(URL + query, headers=HTMX))
    assert "House values · Σ −680" in words and "5 players play only" not in words
    assert "a complete match of 30 deals adds up to −3 400" in words
