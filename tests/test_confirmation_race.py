"""An answer to a waiting deal that another phone answered first (confirmation by the other
side): the refusal says which answer came first and whose, and a rejection refused keeps the
reason typed on the page, so that nothing typed is lost.

The races run with real transactions and real connections (``transaction=True``, threads
released together, as tests/test_concurrency.py): on SQLite here, on PostgreSQL with
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/test``."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.access import GUEST_COOKIE, guest_key_digest_of, guest_key_new
from scorekeeper.confirmation import services as confirmation
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, Match
from scorekeeper.rules.errors import RuleError
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX, barbu_deal
from tests.test_concurrency import at_once

PLAYERS = ["Eleni", "Bruno", "Chris", "Dora"]
CHRIS = Actor("Chris", seat=2)
REASON = "Chris took  5 tricks,\nnot 4"
SHOWN = "Chris took 5 tricks, not 4"


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user(username="eleni_k", password="pass-word-1234")


@pytest.fixture
def table(make_match, owner):
    """A Barbu match of eleni_k (playing as Eleni), Bruno on his own phone, deal 1 saved by
    Chris and waiting: (match, eleni_k's client, Bruno's client)."""
    match = make_match("barbu", owner=owner, players=PLAYERS, confirmation=True)
    confirmation.seat_claim(match=match, member=None, seat=0)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    key = guest_key_new()
    bruno = sharing.member_join(link=link, guest_key=guest_key_digest_of(key), name="Bruno")
    confirmation.seat_claim(match=match, member=bruno, seat=1)
    services.deal_record(match=match, data=barbu_deal(0), by=CHRIS)
    eleni, guest = Client(), Client()
    eleni.force_login(owner)
    guest.cookies[GUEST_COOKIE] = key
    return Match.objects.get(pk=match.pk), eleni, guest


def base(match: Match) -> str:
    return services.deal_fingerprint(Deal.objects.get(match=match, number=1).data)


def answer(client: Client, match: Match, action: str, drawn: str, *, htmx: bool = True, **more):
    url = reverse("match_detail", args=[match.pk])
    data = {"action": action, "number": "1", "base": drawn, **more}
    if htmx:
        return client.post(url, data, headers=HTMX)
    return client.post(url, data, follow=True)


def message(page: str, code: str) -> str | None:
    """The text of the message marked ``data-message="CODE"``, None without one."""
    found = re.search(rf'<li class="msg [^"]*" data-message="{code}">(.*?)</li>', page, re.S)
    return None if found is None else " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


# --- one answer after the other, through the scoreboard -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_rejection_after_an_acceptance_names_who_and_keeps_the_reason(table, htmx):
    match, eleni, guest = table
    drawn = base(match)  # Bruno's screen shows deal 1 waiting, with its Reject
    answer(eleni, match, "confirm", drawn)
    response = answer(guest, match, "reject", drawn, htmx=htmx, reason=REASON)
    page = response.content.decode()
    assert message(page, "deal_not_waiting") == "deal 1 was accepted by eleni_k meanwhile"
    kept = message(page, "reason_not_sent")
    assert kept == f"Your rejection of deal 1 was not sent. Your reason: “{SHOWN}”"
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.status, deal.reason) == ("counted", "")
    assert not match.changes.filter(kind="rejected").exists()
    assert 'data-correct="1"' in page  # the deal, accepted, can still be corrected from here


@pytest.mark.django_db
def test_an_acceptance_after_a_rejection_names_who(table):
    match, eleni, guest = table
    drawn = base(match)
    answer(guest, match, "reject", drawn, reason=REASON)
    page = answer(eleni, match, "confirm", drawn).content.decode()
    assert message(page, "deal_not_waiting") == "deal 1 was rejected by Bruno meanwhile"
    assert message(page, "reason_not_sent") is None
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.status, deal.rejected_by, deal.reason) == ("rejected", "Bruno", SHOWN)


@pytest.mark.django_db
def test_a_rejection_of_a_deal_corrected_meanwhile_keeps_the_reason(table):
    match, _eleni, guest = table
    drawn = base(match)
    corrected = {**barbu_deal(0), "tricks": [3, 4, 3, 3]}
    services.deal_correct(match=match, number=1, data=corrected, by=CHRIS)
    page = answer(guest, match, "reject", drawn, reason=REASON).content.decode()
    assert message(page, "deal_changed") is not None
    assert SHOWN in message(page, "reason_not_sent")
    assert Deal.objects.get(match=match, number=1).status == "waiting"


@pytest.mark.django_db
def test_a_rejection_without_a_reason_has_nothing_to_keep(table):
    match, _eleni, guest = table
    page = answer(guest, match, "reject", base(match), reason="  ").content.decode()
    assert message(page, "reason_needed") is not None
    assert 'data-message="reason_not_sent"' not in page


@pytest.mark.django_db
def test_a_deal_that_never_waited_is_refused_as_before(make_match):
    match = make_match("barbu", deals=1)  # no confirmation: counted at once
    with pytest.raises(RuleError) as refused:
        confirmation.deal_reject(match=match, number=1, reason="x", by=Actor("Babis", seat=1))
    assert refused.value.code == "deal_not_waiting"
    assert "is not waiting for confirmation any more" in refused.value.message


@pytest.mark.django_db
def test_an_acceptance_of_an_earlier_version_of_the_deal_is_not_named(table):
    """Accepted, then corrected behind the history's back (a deal of another time): the
    acceptance in the history is not of the deal as it is, so nobody is named."""
    match, _eleni, _guest = table
    confirmation.deal_confirm(match=match, number=1, by=Actor("Dora", seat=3))
    Deal.objects.filter(match=match, number=1).update(
        data={**barbu_deal(0), "tricks": [4, 4, 3, 2]}
    )
    with pytest.raises(RuleError) as refused:
        confirmation.deal_confirm(match=match, number=1, by=Actor("Bruno", seat=1))
    assert "Dora" not in refused.value.message
    assert "is not waiting for confirmation any more" in refused.value.message


# --- at the same moment -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_rejection_racing_an_acceptance_says_who_came_first(table):
    """Bruno types a reason and taps Reject while eleni_k taps Accept: one answer is applied,
    the other phone is told whose came first, and Bruno's reason is still on his screen."""
    match, eleni, guest = table
    drawn = base(match)
    connection.close()
    responses, errors = at_once(
        lambda: ("eleni", answer(eleni, match, "confirm", drawn)),
        lambda: ("bruno", answer(guest, match, "reject", drawn, reason=REASON)),
    )
    assert errors == []
    pages = {who: response.content.decode() for who, response in responses}
    deal = Deal.objects.get(match=match, number=1)
    assert match.changes.filter(kind__in=["confirmed", "rejected"]).count() == 1
    if deal.status == "counted":  # eleni_k came first
        assert message(pages["bruno"], "deal_not_waiting") == (
            "deal 1 was accepted by eleni_k meanwhile"
        )
        assert SHOWN in message(pages["bruno"], "reason_not_sent")
        assert message(pages["eleni"], "deal_not_waiting") is None
    else:  # Bruno came first
        assert (deal.status, deal.rejected_by, deal.reason) == ("rejected", "Bruno", SHOWN)
        assert message(pages["eleni"], "deal_not_waiting") == (
            "deal 1 was rejected by Bruno meanwhile"
        )
        assert message(pages["bruno"], "deal_not_waiting") is None


@pytest.mark.django_db(transaction=True)
def test_answers_racing_each_other_name_the_first(make_match, owner):
    """Three answers at once, through the services: the first is applied, each other is told
    whose answer came first (the acceptance from the history, the rejection from the deal)."""
    match = make_match("barbu", owner=owner, players=PLAYERS, confirmation=True)
    services.deal_record(match=match, data=barbu_deal(0), by=CHRIS)
    eleni, bruno, dora = Actor("eleni_k", seat=0), Actor("Bruno", seat=1), Actor("Dora", seat=3)
    connection.close()
    results, errors = at_once(
        lambda: confirmation.deal_confirm(match=match, number=1, by=eleni, as_owner=True),
        lambda: confirmation.deal_reject(match=match, number=1, reason=REASON, by=bruno),
        lambda: confirmation.deal_confirm(match=match, number=1, by=dora),
    )
    assert len(results) == 1 and len(errors) == 2
    assert all(isinstance(e, RuleError) and e.code == "deal_not_waiting" for e in errors), errors
    deal = Deal.objects.get(match=match, number=1)
    first = match.changes.get(kind__in=["confirmed", "rejected"])
    said = "accepted" if deal.status == "counted" else "rejected"
    assert {e.message for e in errors} == {f"deal 1 was {said} by {first.by} meanwhile"}
