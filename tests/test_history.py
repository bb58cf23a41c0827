"""The match's history as the services write it (scorekeeper/history/record.py): every change
recorded once, in its own transaction, with who and when and the deal before and after; a
refused change records nothing; a record is never edited. Deleting any deal, restoring it in
its place, and Undo, with the later deals scored again (their dealer or declarer follows)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.history.record import Actor
from scorekeeper.models import Deal, DealDraft, Match
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.sharing import services as sharing
from tests.conftest import deal_for, press, run

pytestmark = pytest.mark.django_db


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def kinds(match: Match) -> list[str]:
    return list(match.changes.order_by("id").values_list("kind", flat=True))


def stored(match: Match) -> list[dict]:
    return [d.data for d in Deal.objects.filter(match=match).order_by("number")]


def scored(match: Match):
    return match_scored(fresh(match))[1]


def test_a_deal_entered_is_recorded_with_who_and_its_points(user, make_match):
    match = make_match("burraco")
    services.deal_record(
        match=match, data=deal_for("burraco", 0), by=Actor(name="anna", user_id=user.pk)
    )
    change = match.changes.get()
    assert change.kind == "entered" and change.number == 1
    assert change.by == "anna" and change.by_user == user
    assert change.before is None and change.after == stored(match)[0]
    assert change.points_after == scored(match).running[0]
    assert change.at is not None


def test_a_correction_keeps_the_deal_before_and_after(make_match):
    match = make_match("biriba", deals=3)
    old = stored(match)[1]
    points_old = [a - b for a, b in zip(*scored(match).running[1::-1], strict=True)]
    data = deal_for("biriba", 1)
    data["sides"][1]["melds"].append(["8C", "9C", "10C"])
    services.deal_correct(match=match, number=2, data=data, by="Babis")
    change = match.changes.get(kind="corrected")
    assert change.number == 2 and change.by == "Babis"
    assert change.before == old and change.after == stored(match)[1] != old
    assert change.points_before == points_old
    running = scored(match).running
    assert change.points_after == [a - b for a, b in zip(running[1], running[0], strict=True)]
    assert change.points_after != change.points_before


def test_a_refused_change_records_nothing(make_match):
    match = make_match("biriba", deals=2)
    before = kinds(match)
    bad = deal_for("biriba", 2)
    bad["sides"][0]["melds"] = [["3H", "9S", "KD"]]
    for refused in (
        lambda: services.deal_record(match=match, data=bad, by="x"),
        lambda: services.deal_correct(match=match, number=1, data=bad, by="x"),
        lambda: services.deal_delete(match=match, number=9, by="x"),
        lambda: services.deal_restore(match=match, change=10**9, by="x"),
        lambda: services.change_undo(match=match, change=10**9, by="x"),
    ):
        with pytest.raises(RuleError):
            refused()
    assert kinds(match) == before


def test_a_record_is_never_edited(make_match):
    match = make_match("biriba", deals=1)
    change = match.changes.get()
    change.by = "someone else"
    with pytest.raises(ValueError, match="never edited"):
        change.save()
    assert match.changes.get().by == ""


def test_sharing_is_recorded(user, other_user, make_match):
    match = make_match("biriba")
    link = sharing.share_link_get_or_create(match=match, kind="score")
    member = sharing.member_join(link=link, user=other_user)
    sharing.member_join(link=link, user=other_user)  # joining again: nothing new
    sharing.member_remove(member=member, by="anna")
    sharing.member_remove(member=member, by="anna")  # removed already: nothing new
    sharing.share_link_regenerate(match=fresh(match), kind="watch", by="anna")
    changes = list(match.changes.order_by("id"))
    assert [c.kind for c in changes] == ["joined", "removed", "link"]
    assert changes[0].by == "babis" and changes[0].by_user == other_user
    assert changes[1].detail == {"member": "babis"} and changes[1].by == "anna"
    assert changes[2].detail == {"link": "watch"}


def test_the_match_finishing_and_going_on_again_are_recorded(make_match):
    match = make_match("biriba", rules={"target": 300})
    n = 0
    while not fresh(match).is_finished:
        services.deal_record(match=fresh(match), data=deal_for("biriba", n), by="Chris")
        n += 1
    finished = match.changes.get(kind="finished")
    assert finished.by == "Chris" and finished.detail["winner"] == fresh(match).winner
    services.deal_delete(match=fresh(match), number=n, by="Dora")
    assert kinds(match)[-2:] == ["deleted", "reopened"]
    assert not fresh(match).is_finished


# --- any deal deleted, restored in its place ---------------------------------------------------


@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_a_deal_deleted_in_the_middle_of_a_rummy_match(game, make_match):
    match = make_match(game, deals=5)
    deals = stored(match)
    services.deal_delete(match=match, number=2, by="Babis")
    assert stored(match) == [deals[0], *deals[2:]]
    assert list(Deal.objects.filter(match=match).values_list("number", flat=True)) == [1, 2, 3, 4]
    result = scored(match)
    assert fresh(match).totals == result.totals and fresh(match).deal_count == 4
    # the dealers follow the new places: deal 2 is now dealt by seat 1 (first dealer seat 0)
    assert result.next_deal["dealer"] == 4 % 4
    change = match.changes.get(kind="deleted")
    assert change.number == 2 and change.before == deals[1] and change.after is None
    assert change.points_before is not None


def test_a_barbu_deal_deleted_in_the_middle_names_the_later_deal_that_no_longer_fits(make_match):
    match = make_match("barbu", deals=9)  # Anna declares deals 1-7, Babis from deal 8
    with pytest.raises(RuleError) as refused:
        services.deal_delete(match=match, number=3, by="Chris")
    error = refused.value
    assert error.code == "delete_breaks_later_deal"
    # as the table numbers the deals now: deal 8 (Babis's first) would become Anna's eighth
    assert error.place.deal is not None and error.place.deal > 3
    assert f"deal {error.place.deal}" in error.message
    assert error.message.startswith("deal 3 cannot be deleted")
    assert fresh(match).deal_count == 9 and not match.changes.filter(kind="deleted").exists()


def test_the_last_barbu_deal_of_a_series_can_be_deleted_and_the_declarer_follows(make_match):
    match = make_match("barbu", deals=8)
    services.deal_delete(match=match, number=8, by="Chris")
    result = scored(match)
    assert fresh(match).deal_count == 7
    assert result.next_deal["declarer"] == 1  # Babis declares deal 8 again


def test_a_deleted_deal_is_restored_in_its_place(make_match):
    match = make_match("burraco", deals=4)
    deals = stored(match)
    totals = fresh(match).totals
    services.deal_delete(match=match, number=2, by="Babis")
    deleted = match.changes.get(kind="deleted")
    number = services.deal_restore(match=match, change=deleted.pk, by="Dora")
    assert number == 2 and stored(match) == deals
    assert fresh(match).totals == totals
    restored = match.changes.get(kind="restored")
    assert restored.detail == {"restores": deleted.pk} and restored.by == "Dora"
    assert restored.after == deals[1]
    with pytest.raises(RuleError) as again:
        services.deal_restore(match=match, change=deleted.pk)
    assert again.value.code == "deal_restored_already"


def test_a_deal_restored_after_the_match_got_shorter_goes_after_the_last(make_match):
    match = make_match("biriba", deals=4)
    deals = stored(match)
    services.deal_delete(match=match, number=4)
    services.deal_delete(match=match, number=3)
    fourth = match.changes.filter(kind="deleted").order_by("id").first()
    assert services.deal_restore(match=match, change=fourth.pk) == 3
    assert stored(match) == [*deals[:2], deals[3]]


def test_a_restore_the_rules_refuse_names_why(make_match):
    """A Barbu contract deleted, then named again by the declarer: putting the deleted deal
    back would name it twice in the series."""
    match = make_match("barbu", deals=3)
    old = stored(match)[2]
    services.deal_delete(match=match, number=3)
    services.deal_record(match=fresh(match), data=old)
    deleted = match.changes.get(kind="deleted")
    with pytest.raises(RuleError) as refused:
        services.deal_restore(match=match, change=deleted.pk)
    assert refused.value.code == "restore_breaks_later_deal"
    assert refused.value.message.startswith("deal 3 cannot be put back: deal 3 would become deal 4")
    assert refused.value.place.deal == 3 and refused.value.place.field == "contract"
    assert fresh(match).deal_count == 3


def test_deals_in_progress_follow_their_deals(auth_client, make_match):
    match = make_match("biriba", deals=3)
    press(auth_client, reverse("deal_edit", args=[match.pk, 3]), "", *run("S", "3 4 5"))
    press(auth_client, reverse("deal_edit", args=[match.pk, 2]), "", *run("S", "3 4 5"))
    press(auth_client, reverse("deal_new", args=[match.pk]), "", *run("H", "3 4 5"))
    services.deal_delete(match=match, number=2)
    rows = set(DealDraft.objects.filter(match=match).values_list("number", "editing"))
    # deal 2's correction went with it; deal 3's follows it to 2; the next deal is 3 now
    assert rows == {(2, True), (3, False)}
    deleted = match.changes.get(kind="deleted")
    services.deal_restore(match=match, change=deleted.pk)
    rows = set(DealDraft.objects.filter(match=match).values_list("number", "editing"))
    assert rows == {(3, True), (4, False)}


# --- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_each_kind_of_change_and_is_itself_a_change(make_match):
    match = make_match("burraco", deals=3)
    deals = stored(match)
    # a deal entered: undo takes it off
    entered = match.changes.order_by("-id").first()
    services.change_undo(match=match, change=entered.pk, by="Babis")
    assert stored(match) == deals[:2]
    undo = match.changes.order_by("-id").first()
    assert undo.kind == "deleted" and undo.detail == {"undo_of": entered.pk}
    # undo again: the deletion taken back (the deal back in its place)
    services.change_undo(match=match, change=undo.pk, by="Babis")
    assert stored(match) == deals
    # a correction: undo puts the deal back as it was
    data = deal_for("burraco", 1)
    data["sides"][0]["melds"].append(["8C", "9C", "10C"])
    services.deal_correct(match=match, number=2, data=data)
    corrected = match.changes.order_by("-id").first()
    services.change_undo(match=match, change=corrected.pk)
    assert stored(match) == deals
    assert match.changes.order_by("-id").first().kind == "corrected"


def test_an_undo_from_a_page_another_phone_overtook_does_nothing(make_match):
    match = make_match("biriba", deals=2)
    shown = match.changes.order_by("-id").first()
    services.deal_record(match=fresh(match), data=deal_for("biriba", 2))
    with pytest.raises(RuleError) as refused:
        services.change_undo(match=match, change=shown.pk)
    assert refused.value.code == "undo_overtaken"
    assert fresh(match).deal_count == 3


def test_undo_of_a_deal_corrected_since_does_not_lose_the_correction(make_match):
    """The newest change is the one undone: a correction after an entry is undone first."""
    match = make_match("biriba", deals=2)
    entered = match.changes.order_by("-id").first()
    data = deal_for("biriba", 1)
    data["sides"][1]["melds"].append(["8C", "9C", "10C"])
    services.deal_correct(match=match, number=2, data=data)
    with pytest.raises(RuleError):
        services.change_undo(match=match, change=entered.pk)
    assert stored(match)[1]["sides"][1]["melds"][-1] == ["8C", "9C", "10C"]
