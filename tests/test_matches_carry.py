"""What the new-match page carries from one drawing to the next (scorekeeper/matches/carry.py),
driven as the page is used: each step sends what the form drawn before holds (its boxes, its
checked choices, its hidden fields) and the button pressed, plain and htmx. A known player's
chip fills the first empty seat without JavaScript; what was typed is kept across switches,
even for a game or a table the page no longer shows; Enter starts the match (the form's first
submit button is a hidden Start, never a switch)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from scorekeeper import services
from scorekeeper.matches.carry import carried, seat_fill
from scorekeeper.models import Match
from tests.conftest import HTMX, PLAYERS4

pytestmark = pytest.mark.django_db

NEW = "/matches/new/"


class _FormReader(HTMLParser):
    """The fields of ``#match-form`` as the browser sends them, and its submit buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.select: str | None = None
        self.fields: list[tuple[str, str]] = []
        self.buttons: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == "match-form"
        if not self.inside:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox") and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.fields.append((self.select, a.get("value") or ""))
        elif tag == "button" and a.get("type", "submit") == "submit":
            self.buttons.append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def read(response) -> _FormReader:
    assert response.status_code == 200
    reader = _FormReader()
    reader.feed(response.content.decode())
    assert reader.fields, "no #match-form in the page"
    return reader


def press(client, response, button: dict[str, str], *, htmx: bool, **typed: str):
    """Type ``typed`` into the form ``response`` drew, then press a switch (or chip) button:
    a GET of the page with every field, as formmethod="get" sends it (followed to the address
    without the token when plain)."""
    data: dict[str, str] = dict(read(response).fields) | typed | button
    headers = HTMX if htmx else {}
    answer = client.get(NEW, data, headers=headers)
    if not htmx:
        assert answer.status_code == 302  # the token kept out of the address
        answer = client.get(answer["Location"])
    return answer


def value(response, name: str) -> str | None:
    found = [v for n, v in read(response).fields if n == name]
    return found[-1] if found else None


@pytest.fixture(params=[False, True], ids=["plain", "htmx"])
def htmx(request) -> bool:
    return request.param


def _known(user) -> None:
    services.match_create(owner=user, game="biriba", players=PLAYERS4, first_dealer=0, rules={})


# --- Enter -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["biriba", "burraco", "barbu"])
def test_the_first_submit_button_of_the_form_is_start_never_a_switch(auth_client, user, game):
    _known(user)  # the chips are submit buttons too
    response = auth_client.get(NEW, {"switch_game": game})
    first = read(response).buttons[0]
    # a Start out of sight and out of the tab order: no name, so nothing is switched
    assert first.get("name") is None and first.get("formmethod") is None
    assert first.get("tabindex") == "-1" and first.get("aria-hidden") == "true"
    assert "default-submit" in (first.get("class") or "")
    assert "primary" not in (first.get("class") or "")  # the visible Start stays the one


def test_what_the_hidden_start_sends_starts_the_match_chosen(auth_client):
    response = auth_client.get(NEW, {"switch_game": "burraco"})
    data = dict(read(response).fields) | {f"player_{i}": n for i, n in enumerate(PLAYERS4)}
    answer = auth_client.post(NEW, data)
    assert answer.status_code == 302
    assert Match.objects.get().game == "burraco"


# --- a known player's chip ---------------------------------------------------------------------


def test_a_chip_is_a_submit_that_works_without_javascript(auth_client, user):
    _known(user)
    response = auth_client.get(NEW)
    chips = [b for b in read(response).buttons if b.get("data-fill-seat")]
    assert {c["data-fill-seat"] for c in chips} == set(PLAYERS4)
    for chip in chips:
        assert (chip["name"], chip["value"]) == ("fill_seat", chip["data-fill-seat"])
        assert chip["formmethod"] == "get" and "formnovalidate" in chip


def test_a_chip_fills_the_first_empty_seat_and_keeps_what_was_typed(auth_client, user, htmx):
    _known(user)
    page = press(auth_client, auth_client.get(NEW), {"switch_game": "burraco"}, htmx=htmx)
    typed = {"player_0": "Eva", "player_2": "Zoe", "opt_target": "1500", "first_dealer": "2"}
    page = press(auth_client, page, {"fill_seat": "Chris"}, htmx=htmx, **typed)
    form = page.context["form"]
    assert form.game == "burraco"
    assert [form[f"player_{i}"].value() for i in range(4)] == ["Eva", "Chris", "Zoe", ""]
    assert value(page, "opt_target") == "1500" and value(page, "first_dealer") == "2"
    page = press(auth_client, page, {"fill_seat": "Dora"}, htmx=htmx)
    assert [form_value for _, form_value in _names(page)] == ["Eva", "Chris", "Zoe", "Dora"]
    # every seat taken: nothing changes
    page = press(auth_client, page, {"fill_seat": "Anna"}, htmx=htmx)
    assert [form_value for _, form_value in _names(page)] == ["Eva", "Chris", "Zoe", "Dora"]


def _names(response) -> list[tuple[str, str]]:
    return [(n, v) for n, v in read(response).fields if n.startswith("player_")]


def test_a_chip_whose_name_the_script_already_put_in_a_seat_fills_no_other(auth_client, user):
    """With JavaScript the chip fills the seat at once, then the page is asked: the name is
    found seated (in any spelling of it) and not put in a second seat."""
    _known(user)
    page = auth_client.get(NEW)
    for sent in ("Babis", "BABIS"):
        answer = press(auth_client, page, {"fill_seat": sent}, htmx=True, player_0="Babis")
        assert [v for _, v in _names(answer)] == ["Babis", "", "", ""]


def test_seat_fill_and_carried_directly():
    values = {"player_0": "Anna", "player_1": "  "}
    seat_fill(values, seats=2, name="Babis")
    assert values == {"player_0": "Anna", "player_1": "Babis"}
    seat_fill(values, seats=2, name="Chris")  # no empty seat
    assert values == {"player_0": "Anna", "player_1": "Babis"}
    query = {"game": "biriba", "seats": "2", "player_0": "Anna", "fill_seat": " Dora "}
    assert carried(query, game="biriba", seats=2) == {"player_0": "Anna", "player_1": "Dora"}


# --- what was typed, kept across switches -------------------------------------------------------


def test_a_biriba_target_survives_a_look_at_another_game(auth_client, htmx):
    page = auth_client.get(NEW)
    page = press(auth_client, page, {"switch_game": "burraco"}, htmx=htmx, opt_target="2500")
    assert value(page, "biriba-opt_target") == "2500"  # kept, out of sight
    page = press(auth_client, page, {"switch_game": "barbu"}, htmx=htmx, opt_target="1500")
    page = press(auth_client, page, {"switch_game": "biriba"}, htmx=htmx)
    assert page.context["form"].game == "biriba"
    assert value(page, "opt_target") == "2500"
    page = press(auth_client, page, {"switch_game": "burraco"}, htmx=htmx)
    assert value(page, "opt_target") == "1500"  # Burraco's own, kept as well
    assert value(page, "biriba-opt_target") == "2500"


def test_a_start_from_a_page_with_kept_values_keeps_them_when_refused(auth_client, htmx):
    page = auth_client.get(NEW)
    page = press(auth_client, page, {"switch_game": "burraco"}, htmx=htmx, opt_target="2500")
    data = dict(read(page).fields) | {"player_0": "Anna", "player_1": "anna"}  # one person
    refused = auth_client.post(NEW, data, headers=HTMX if htmx else {})
    assert refused.status_code == 200 and refused.context["form"].errors
    assert value(refused, "biriba-opt_target") == "2500"
    assert not Match.objects.exists()


def test_the_defaults_are_not_carried_so_the_address_stays_short(auth_client, htmx):
    page = press(auth_client, auth_client.get(NEW), {"switch_game": "barbu"}, htmx=htmx)
    assert not [n for n, _ in read(page).fields if "-opt_" in n]


def test_the_confirmation_and_the_house_values_survive_a_switch(auth_client, htmx):
    page = press(auth_client, auth_client.get(NEW), {"switch_game": "burraco"}, htmx=htmx)
    typed = {"confirmation": "on", "burraco_house-card_JK": "50"}
    page = press(auth_client, page, {"switch_game": "biriba"}, htmx=htmx, **typed)
    assert value(page, "confirmation") == "on"
    assert value(page, "burraco_house-card_JK") == "50"  # a hidden field on Biriba's page
    page = press(auth_client, page, {"switch_game": "burraco"}, htmx=htmx)
    assert value(page, "burraco_house-card_JK") == "50"
    assert page.context["burraco_house"]["card_JK"].value() == "50"


def test_an_option_of_another_table_survives_a_switch_of_the_players(auth_client, htmx):
    page = press(auth_client, auth_client.get(NEW), {"switch_game": "burraco"}, htmx=htmx)
    page = press(auth_client, page, {"switch_seats": "3"}, htmx=htmx, opt_match_deals="3")
    assert "opt_match_deals" not in page.context["form"].fields  # a round compares two sides
    assert value(page, "opt_match_deals") == "3"
    page = press(auth_client, page, {"switch_seats": "4"}, htmx=htmx)
    assert page.context["form"]["opt_match_deals"].value() == "3"
