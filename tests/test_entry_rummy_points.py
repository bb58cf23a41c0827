"""A side entered by its points for the deal alone (the "Points only" mode of the rummy
page): the number keys and a minus, no pot question (the figure holds it), going out one tap;
the deal stored as ``{"totals": {"points": N}}``; the next deal starts so; a correction reads
it back; with and without htmx."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.entry import drafts as st
from scorekeeper.models import Deal
from tests.conftest import draft_of, press, text


def new_url(match) -> str:
    return reverse("deal_new", args=[match.pk])


POINTS_DEAL = [
    "mode:points",
    *("digit:4", "digit:4", "digit:5"),
    "went_out:0",
    "side:1",
    *("digit:3", "digit:5"),
    "sign",
]


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_deal_by_points_alone_is_saved_with_no_pot_asked(auth_client, make_match, game, htmx):
    match = make_match(game)
    url = new_url(match)
    response = press(auth_client, url, "", *POINTS_DEAL, htmx=htmx)
    page = text(response)
    assert "Points this deal −35" in page
    assert "took the" not in page.lower()  # no pot question in this mode
    assert "A legal deal" in page
    press(auth_client, url, draft_of(response), "save", htmx=htmx)
    deal = Deal.objects.get(match=match)
    assert deal.data["sides"] == [  # going out says the pot was taken
        {"totals": {"points": 445}, "took_pot": True, "went_out": True},
        {"totals": {"points": -35}, "went_out": False},
    ]
    match.refresh_from_db()
    board = text(auth_client.get(reverse("match_detail", args=[match.pk])))
    assert "445" in board and "−35" in board
    # the breakdown says nothing of a pot the figure holds (nobody said it was missed)
    breakdown = text(auth_client.get(reverse("deal_breakdown", args=[match.pk, 1])))
    assert "Never took" not in breakdown and "445" in breakdown


def test_the_next_deal_starts_by_points_and_a_correction_reads_them_back(auth_client, make_match):
    match = make_match("biriba")
    url = new_url(match)
    response = press(auth_client, url, "", *POINTS_DEAL)
    press(auth_client, url, draft_of(response), "save")
    response = auth_client.get(url)
    assert 'data-mode="points"' in response.content.decode()  # one tap less on the next deal
    assert 'id="pad-sign"' in response.content.decode()
    edit = reverse("deal_edit", args=[match.pk, 1])
    page = text(auth_client.get(edit))
    assert "Points this deal 445" in page


def test_a_figure_the_rules_refuse_is_named_and_not_saved(auth_client, make_match):
    match = make_match("biriba")
    url = new_url(match)
    response = press(auth_client, url, "", "mode:points", "digit:7", "side:1", "digit:5")
    assert "multiple of 5" in text(response)
    press(auth_client, url, draft_of(response), "save")
    assert not Deal.objects.exists()


def test_the_keypad_writes_one_signed_figure():
    draft = st.RummyDraft.new(game="burraco", side_count=2)
    for action in ("mode:points", "digit:1", "digit:2", "digit:0", "sign", "back", "digit:5"):
        st.rummy_apply(draft, action)
    side = draft.sides[0]
    assert (side.mode, side.target, side.points) == ("points", "points", -125)
    assert [s.mode for s in draft.sides] == ["points", "points"]  # the other side follows
    assert side.deal_json(game="burraco") == {"totals": {"points": -125}, "went_out": False}
    st.rummy_apply(draft, "pot:0")  # said, it is written (the figure still holds it)
    assert side.deal_json(game="burraco")["took_pot"] is True
    assert st.SideDraft.from_json(side.to_json(), game="burraco") == side


@pytest.mark.parametrize("htmx", [True, False])
def test_a_minus_pressed_before_the_digits_makes_the_figure_negative(auth_client, make_match, htmx):
    """Issue 24, item 3: ± 5 5 stored +55 (a minus on no figure was lost). The field shows the
    minus alone until the digits come; ± again, or "clear", takes it back."""
    match = make_match("biriba")
    url = new_url(match)
    response = press(auth_client, url, "", "mode:points", "sign", htmx=htmx)
    assert "Points this deal −" in text(response)
    response = press(auth_client, url, draft_of(response), "digit:5", "digit:5", htmx=htmx)
    assert "Points this deal −55" in text(response)
    response = press(auth_client, url, draft_of(response), "side:1", "digit:5", "digit:5")
    press(auth_client, url, draft_of(response), "save", htmx=htmx)
    sides = Deal.objects.get(match=match).data["sides"]
    assert [side["totals"]["points"] for side in sides] == [-55, 55]


def test_a_minus_before_the_digits_survives_zero_backspace_and_is_taken_back():
    side = st.SideDraft(mode="points", target="points")
    for action in ("sign", "digit:0", "digit:7"):  # − 0 7: still the minus
        side.flip_sign() if action == "sign" else side.digit(int(action[-1]))
    assert side.points == -7 and not side.minus
    side.backspace()
    assert side.points == 0 and side.minus  # −7 taken back to nothing: "−" is still there
    side.flip_sign()
    assert not side.minus
    side.flip_sign()
    side.digit(3)
    side.flip_sign()
    assert side.points == 3  # on a figure, ± turns it over as before
