"""Swapping two Barbu deals' contracts in one step (services.deal_swap): a correction whose
contract the declarer named in another deal of their series, instead of deleting deals."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.history.document import match_export_document
from scorekeeper.models import Deal, Match, MatchChange
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from tests.conftest import BARBU_DATA, HTMX, barbu_deal, text

pytestmark = pytest.mark.django_db


def data(match: Match, number: int) -> dict:
    return Deal.objects.get(match=match, number=number).data


def fingerprints(match: Match, *numbers: int) -> tuple[str, ...]:
    return tuple(services.deal_fingerprint(data(match, n)) for n in numbers)


def test_two_deals_of_one_declarer_swap_their_contracts_and_wait_for_their_data(make_match):
    match = make_match("barbu", deals=9)  # Anna declares deals 1-7, Babis 8 and 9
    before = {n: data(match, n) for n in (2, 3)}
    assert services.deal_swap(match=match, number=2, other=3, by="Chris") == (2, 3)
    two, three = data(match, 2), data(match, 3)
    assert two == {"contract": "no_queens", "doubles": before[2]["doubles"], "to_enter": True}
    assert three == {"contract": "no_hearts", "doubles": before[3]["doubles"], "to_enter": True}
    _, result, exported = match_scored(Match.objects.get(pk=match.pk))
    assert exported["deals"][1]["score"]["total"] == [0, 0, 0, 0]
    assert result.next_deal["to_enter"] == [2, 3]
    changes = list(match.changes.filter(kind="swapped").order_by("id"))
    assert [(c.number, c.detail, c.by) for c in changes] == [
        (2, {"other_deal": 3}, "Chris"),
        (3, {"other_deal": 2}, "Chris"),
    ]
    assert [c.before for c in changes] == [before[2], before[3]]
    # entering what was taken in deal 2 (now No queens) is an ordinary correction
    services.deal_correct(
        match=match, number=2, data={**barbu_deal(2), **BARBU_DATA["no_queens"]}, by="Chris"
    )
    assert "to_enter" not in data(match, 2)


def test_undo_takes_a_swap_back_whole(make_match):
    match = make_match("barbu", deals=4)
    before = {n: data(match, n) for n in (1, 4)}
    totals = list(Match.objects.get(pk=match.pk).totals)
    services.deal_swap(match=match, number=4, other=1)
    newest = match.changes.order_by("-id").first()
    undone = services.change_undo(match=match, change=newest.pk, by="Dora")
    assert undone.pk == newest.pk
    assert {n: data(match, n) for n in (1, 4)} == before
    assert Match.objects.get(pk=match.pk).totals == totals
    back = list(match.changes.filter(detail__undo_of=newest.pk))
    assert sorted(c.number for c in back) == [1, 4]


def test_a_swap_is_refused_between_declarers_or_from_a_stale_page(make_match):
    match = make_match("barbu", deals=9)
    with pytest.raises(RuleError) as refused:
        services.deal_swap(match=match, number=2, other=8)
    assert refused.value.code == "swap_other_declarer"
    assert "Anna" in refused.value.message and "Babis" in refused.value.message
    seen = fingerprints(match, 2, 3)
    services.deal_correct(match=match, number=3, data={**data(match, 3), "queens": [2, 1, 1, 0]})
    with pytest.raises(RuleError) as refused:
        services.deal_swap(match=match, number=2, other=3, drawn_from=seen)
    assert refused.value.code == "deal_changed"
    with pytest.raises(RuleError) as refused:
        services.deal_swap(match=match, number=2, other=12)
    assert refused.value.code == "deal_gone"
    assert not match.changes.filter(kind="swapped").exists()


def test_a_match_is_over_only_once_the_swapped_deals_are_entered(make_match):
    match = make_match("barbu", deals=28)
    assert Match.objects.get(pk=match.pk).is_finished
    services.deal_swap(match=match, number=1, other=7)
    fresh = Match.objects.get(pk=match.pk)
    assert not fresh.is_finished
    assert match.changes.filter(kind="reopened").count() == 1
    page = text(services_page(match))
    assert "Enter deal 29" not in page and "still to enter" in page
    for number, contract in ((1, "domino"), (7, "no_tricks")):
        deal = {**data(match, number), **BARBU_DATA[contract]}
        deal.pop("to_enter")
        services.deal_correct(match=match, number=number, data=deal)
    assert Match.objects.get(pk=match.pk).is_finished


def services_page(match: Match):
    from django.test import Client

    client = Client()
    client.force_login(match.owner)
    return client.get(reverse("match_detail", args=[match.pk]))


def test_the_correction_page_offers_the_swap_and_the_scoreboard_asks_first(auth_client, make_match):
    match = make_match("barbu", deals=9)
    page = auth_client.get(reverse("deal_edit", args=[match.pk, 2])).content.decode()
    # deal 2 (No hearts): every other contract of Anna's is named in deals 1, 3-7
    for other in (1, 3, 4, 5, 6, 7):
        assert f'data-swap="{other}"' in page
    assert 'data-swap="8"' not in page
    asked = auth_client.get(reverse("match_detail", args=[match.pk]), {"swap": 2, "with": 3})
    box = asked.content.decode()
    assert 'id="swap-box"' in box and "Swap the contracts of deals 2 and 3?" in text(asked)
    assert "Deal 2 becomes No queens and deal 3 becomes No hearts" in text(asked)
    base, other_base = fingerprints(match, 2, 3)
    answer = auth_client.post(
        reverse("match_detail", args=[match.pk]),
        {"action": "swap", "number": 2, "other": 3, "base": base, "other_base": other_base},
        headers=HTMX,
    )
    assert "Contracts of deals 2 and 3 swapped" in text(answer)
    assert 'data-to-enter="2"' in answer.content.decode()
    assert data(match, 2)["to_enter"] is True
    # the same confirmation posted again: the deals changed since, nothing is swapped back
    again = auth_client.post(
        reverse("match_detail", args=[match.pk]),
        {"action": "swap", "number": 2, "other": 3, "base": base, "other_base": other_base},
        headers=HTMX,
    )
    assert "was changed elsewhere" in text(again)
    assert match.changes.filter(kind=MatchChange.Kind.SWAPPED).count() == 2
    history = auth_client.get(reverse("match_history", args=[match.pk]))
    assert "anna swapped the contracts of deals 3 and 2" in text(history)
    # a deal still to enter opens on its new contract, ready for its data
    correction = auth_client.get(reverse("deal_edit", args=[match.pk, 2]))
    assert 'data-contract="no_queens"' in correction.content.decode()


def test_the_history_of_a_swap_and_its_undo_travels_with_the_match(user, make_match):
    match = make_match("barbu", deals=5)
    services.deal_swap(match=match, number=2, other=5)
    newest = match.changes.order_by("-id").first()
    services.change_undo(match=match, change=newest.pk)
    exported = match_export_document(Match.objects.get(pk=match.pk))
    swaps = [c for c in exported["changes"] if c["kind"] == "swapped"]
    assert [(c["deal"], c["other_deal"], "undo_of" in c) for c in swaps] == [
        (2, 5, False),
        (5, 2, False),
        (2, 5, True),
        (5, 2, True),
    ]
    again = services.match_import(owner=user, document=exported)
    assert match_export_document(again) == exported


def test_with_every_contract_named_the_next_deal_s_page_sends_to_the_deals_to_enter(
    auth_client, make_match
):
    match = make_match("barbu", deals=28)
    services.deal_swap(match=match, number=1, other=7)
    response = auth_client.get(reverse("deal_new", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    page = auth_client.get(match.get_absolute_url())
    assert "enter what was taken in the deals still to enter" in text(page)
    assert 'data-to-enter="1"' in page.content.decode()
