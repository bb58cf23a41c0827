"""Several phones writing to one match at once, with real transactions and real connections.

Each test runs with ``transaction=True`` (no surrounding test transaction that would hide a
missing ``atomic``) and starts its writers in threads, each with its own database connection,
released together by a barrier. They run on both databases: PostgreSQL (row locks) in CI's
second pass, and SQLite in ``make test``, where the test database is a file (see conftest) so
that the threads really share it (WAL, IMMEDIATE transactions, the busy timeout).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Deal, Match
from scorekeeper.rules.errors import RuleError
from tests.conftest import posted_by, press, rummy_deal, text

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(*calls: Callable[[], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run ``calls`` in threads released together; returns (results, exceptions)."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            result = call()
            with lock:
                results.append(result)
        except BaseException as e:  # collected for the assertions
            with lock:
                errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


def codes(errors: list[BaseException]) -> list[str]:
    """The refusals' codes; anything that is not a refusal fails the test with its traceback."""
    for error in errors:
        if not isinstance(error, RuleError):
            raise error
    return sorted(e.code for e in errors)  # type: ignore[attr-defined]


def marked(game: str, marker: int) -> dict[str, Any]:
    """A legal deal recognisable by its marker: side 1 holds ``marker`` kings of diamonds and
    queens of clubs in hand (0..4 of each: two packs)."""
    deal = rummy_deal(game)
    deal["sides"][1]["hand"] = ["KD"] * (marker % 3) + ["QC"] * (marker // 3 % 3) + ["4S"]
    return deal


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def fingerprint(match: Match, number: int) -> str:
    return services.deal_fingerprint(Deal.objects.get(match=match, number=number).data)


def test_twenty_phones_saving_the_same_next_deal_store_it_once(make_match):
    match = make_match("biriba", deals=2)
    calls = [
        (lambda i=i: services.deal_record(match=fresh(match), data=marked("biriba", i), number=3))
        for i in range(20)
    ]
    results, errors = at_once(*calls)
    assert len(results) == 1
    assert codes(errors) == ["deal_already_entered"] * 19
    assert list(match.deals.values_list("number", flat=True)) == [1, 2, 3]
    assert Deal.objects.get(match=match, number=3).data == results[0].data


def test_twenty_phones_saving_successive_deals_store_each_once(make_match):
    """Each phone saves whatever deal is next when it gets the lock: 20 deals, numbered 1 to
    20, each of them one phone's, none twice."""
    match = make_match("burraco")
    calls = [
        (lambda i=i: services.deal_record(match=fresh(match), data=marked("burraco", i)))
        for i in range(9)  # nine distinct markers, each saved by two phones
        for _ in range(2)
    ] + [lambda: services.deal_record(match=fresh(match), data=rummy_deal("burraco"))] * 2
    results, errors = at_once(*calls)
    assert codes(errors) == []
    assert sorted(deal.number for deal in results) == list(range(1, 21))
    stored = list(match.deals.order_by("number"))
    assert [d.number for d in stored] == list(range(1, 21))
    digest = services.deal_fingerprint
    assert sorted(digest(d.data) for d in stored) == sorted(digest(d.data) for d in results)
    assert fresh(match).deal_count == 20


def test_two_phones_correcting_the_same_deal_store_exactly_one(make_match):
    match = make_match("burraco", deals=3)
    seen = fingerprint(match, 2)
    calls = [
        (
            lambda i=i: services.deal_correct(
                match=fresh(match), number=2, data=marked("burraco", i), drawn_from=seen
            )
        )
        for i in (1, 2)
    ]
    results, errors = at_once(*calls)
    assert len(results) == 1
    assert codes(errors) == ["deal_changed"]
    assert Deal.objects.get(match=match, number=2).data == results[0].data


def test_twenty_phones_correcting_one_deal_from_the_same_page(make_match):
    """On SQLite this lost corrections: 2 to 4 phones were told "corrected" and all but the
    last were overwritten. Now exactly one is stored and told so."""
    match = make_match("biriba", deals=1)
    seen = fingerprint(match, 1)
    calls = [
        (
            lambda i=i: services.deal_correct(
                match=fresh(match), number=1, data=marked("biriba", i + 1), drawn_from=seen
            )
        )
        for i in range(20)
    ]
    results, errors = at_once(*calls)
    assert len(results) == 1
    assert codes(errors) == ["deal_changed"] * 19
    assert Deal.objects.get(match=match, number=1).data == results[0].data


def test_a_correction_racing_a_delete_of_the_same_deal(make_match):
    """Whichever comes first wins; the other is refused (never a server error), and the
    stored match is what the winner was told."""
    for _ in range(5):  # both orders happen over a few rounds; each must hold
        match = make_match("burraco", deals=3)
        seen = fingerprint(match, 3)
        correction = marked("burraco", 4)
        results, errors = at_once(
            lambda match=match, seen=seen, correction=correction: (
                "corrected",
                services.deal_correct(
                    match=fresh(match), number=3, data=correction, drawn_from=seen
                ).data,
            ),
            lambda match=match, seen=seen: (
                "deleted",
                services.deal_delete_last(match=fresh(match), number=3, drawn_from=seen),
            ),
        )
        assert len(results) == 1, errors
        (won, _), refused = results[0], codes(errors)
        numbers = list(match.deals.values_list("number", flat=True))
        if won == "corrected":
            assert refused == ["deal_changed_before_delete"]
            assert numbers == [1, 2, 3]
            assert Deal.objects.get(match=match, number=3).data == results[0][1]
        else:
            assert refused == ["deal_gone"]
            assert numbers == [1, 2]
        assert fresh(match).deal_count == len(numbers)


def test_a_delete_drawn_before_a_correction_is_refused(make_match):
    """Phone A opens the delete of deal 2; phone B corrects deal 2 and is told so; A's delete,
    drawn from the deal before B's correction, deletes nothing."""
    match = make_match("biriba", deals=2)
    drawn = fingerprint(match, 2)
    services.deal_correct(match=fresh(match), number=2, data=marked("biriba", 5), drawn_from=drawn)
    corrected = Deal.objects.get(match=match, number=2).data
    with pytest.raises(RuleError) as refused:
        services.deal_delete_last(match=fresh(match), number=2, drawn_from=drawn)
    assert refused.value.code == "deal_changed_before_delete"
    assert Deal.objects.get(match=match, number=2).data == corrected
    # drawn from the deal as it is now, the delete goes through
    services.deal_delete_last(match=fresh(match), number=2, drawn_from=fingerprint(match, 2))
    assert list(match.deals.values_list("number", flat=True)) == [1]


def test_two_phones_saving_corrections_from_their_pages(make_match, user):
    """The same race through the pages. Both phones correct deal 1: the correction in progress
    is the table's, so each one's card goes into it; then both press Save at once. The phone
    whose screen shows the latest is told "Deal 1 corrected"; the other, whose screen missed
    the last tap, saves nothing: it is told the deal changed, or that it was corrected, and by
    whom. Nothing is lost and nothing is stored twice."""
    match = make_match("burraco", deals=1)
    url = f"/matches/{match.pk}/deals/1/edit/"
    phones = [Client(), Client()]
    pages = []
    for i, phone in enumerate(phones):
        phone.force_login(user)
        pages.append(press(phone, url, "", "side:1", "target:hand", f"card:{('QH', '9H')[i]}"))
    forms = [{**posted_by(page, "save"), "confirm": "yes"} for page in pages]
    connection.close()
    responses, errors = at_once(
        *[lambda p=p, f=f: p.post(url, f) for p, f in zip(phones, forms, strict=True)]
    )
    assert errors == []
    by_phone = dict(zip(responses, range(2), strict=True))  # completion order is not phone order
    saved = [r for r in responses if r.status_code == 302]
    refused = [r for r in responses if r.status_code == 200]
    assert len(saved) == 1 and len(refused) == 1
    assert forms[1]["version"] != forms[0]["version"]
    page = text(refused[0])
    assert (
        "was changed on another phone since your screen was drawn" in page
        or "Deal 1 was corrected by you (anna)" in page
    )
    assert sorted(by_phone.values()) == [0, 1]
    # both cards are in the stored deal: the correction is the table's, nothing was lost
    assert Deal.objects.get(match=match, number=1).data["sides"][1]["hand"] == ["KD", "QH", "9H"]
    assert match.deals.count() == 1


def test_a_delete_confirmed_on_a_scoreboard_drawn_before_a_correction(make_match, user):
    """Through the pages: the scoreboard's delete carries the deal as it was drawn; another
    phone corrects that deal; the delete is refused with the reason and the correction stays."""
    match = make_match("burraco", deals=2)
    phone = Client()
    phone.force_login(user)
    board = phone.get(f"/matches/{match.pk}/")
    drawn = board.context["last_base"]
    services.deal_correct(match=fresh(match), number=2, data=marked("burraco", 7), drawn_from=drawn)
    corrected = Deal.objects.get(match=match, number=2).data
    response = phone.post(
        f"/matches/{match.pk}/",
        {"action": "delete_last", "number": "2", "base": drawn},
        follow=True,
    )
    assert "deal 2 was changed elsewhere since this page was drawn" in response.content.decode()
    assert Deal.objects.get(match=match, number=2).data == corrected
    # the scoreboard drawn now deletes it
    fresh_board = phone.get(f"/matches/{match.pk}/")
    phone.post(
        f"/matches/{match.pk}/",
        {"action": "delete_last", "number": "2", "base": fresh_board.context["last_base"]},
    )
    assert list(match.deals.values_list("number", flat=True)) == [1]


def test_phones_deleting_and_undoing_at_once_keep_the_history_true(make_match):
    """Two phones delete deals 2 and 4 from the same scoreboard while a third undoes the
    newest change: each deletion either applies to the deal its page showed or is refused;
    the history holds exactly the changes made, each with the deal it took."""
    match = make_match("biriba", deals=6)
    deals = [d.data for d in Deal.objects.filter(match=match).order_by("number")]
    bases = {n: fingerprint(match, n) for n in (2, 4)}
    newest = match.changes.order_by("-id").first().pk
    results, errors = at_once(
        lambda: services.deal_delete(match=fresh(match), number=2, drawn_from=bases[2], by="A"),
        lambda: services.deal_delete(match=fresh(match), number=4, drawn_from=bases[4], by="B"),
        lambda: services.change_undo(match=fresh(match), change=newest, by="C"),
    )
    assert all(isinstance(e, RuleError) for e in errors), errors
    remaining = [d.data for d in Deal.objects.filter(match=match).order_by("number")]
    taken = [c.before for c in match.changes.filter(kind="deleted").order_by("id")]
    assert len(taken) == len(results)
    # what was deleted is what the history says, and nothing else went
    assert sorted(map(str, remaining + taken)) == sorted(map(str, deals))
    assert list(Deal.objects.filter(match=match).values_list("number", flat=True)) == list(
        range(1, len(remaining) + 1)
    )
    assert fresh(match).deal_count == len(remaining)


def test_two_phones_accepting_and_rejecting_one_waiting_deal_at_once_do_one(make_match):
    from scorekeeper.confirmation import services as confirmation
    from scorekeeper.history.record import Actor

    match = make_match("biriba", confirmation=True)
    services.deal_record(match=match, data=rummy_deal("biriba"), by=Actor("Anna", seat=0))
    results, errors = at_once(
        lambda: confirmation.deal_confirm(match=match, number=1, by=Actor("Babis", seat=1)),
        lambda: confirmation.deal_reject(
            match=match, number=1, reason="wrong", by=Actor("Dora", seat=3)
        ),
        lambda: confirmation.deal_confirm(match=match, number=1, by=Actor("Dora", seat=3)),
    )
    assert len(results) == 1 and codes(errors) == ["deal_not_waiting"] * 2
    deal = Deal.objects.get(match=match, number=1)
    assert deal.status in ("counted", "rejected")
    assert match.changes.filter(kind__in=["confirmed", "rejected"]).count() == 1
    counted = deal.status == "counted"
    assert (fresh(match).totals != [0, 0]) == counted
