"""Archiving, unarchiving and deleting a match (scorekeeper/matches/services.py), the import's
mark, and a deletion racing a deal being saved, with real transactions and connections (both
databases: row locks on PostgreSQL, IMMEDIATE transactions on SQLite's file)."""

from __future__ import annotations

import pytest

from scorekeeper import services
from scorekeeper.matches import services as matches_services
from scorekeeper.models import (
    Deal,
    DealDraft,
    Match,
    MatchChange,
    MatchMember,
    MatchSeat,
    Player,
    ShareLink,
)
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.sharing import services as sharing
from tests.conftest import deal_for
from tests.test_concurrency import at_once, codes, fresh


@pytest.mark.django_db
def test_archive_and_unarchive_change_only_where_the_match_is_listed(make_match):
    match = make_match("biriba", deals=2)
    before = Match.objects.values().get(pk=match.pk)
    matches_services.match_archive(match=match)
    after = Match.objects.values().get(pk=match.pk)
    assert after["archived"] is not None and match.archived == after["archived"]
    assert {k: v for k, v in after.items() if k != "archived"} == {
        k: v for k, v in before.items() if k != "archived"
    }  # not its version, not its "updated": no phone redraws for it, home keeps its order
    matches_services.match_unarchive(match=match)
    assert Match.objects.values().get(pk=match.pk) == before and match.archived is None


@pytest.mark.django_db
def test_a_match_imported_says_when_a_match_made_here_never_does(make_match, user):
    made = make_match("barbu", deals=2)
    assert Match.objects.get(pk=made.pk).imported is None
    imported = services.match_import(owner=user, document=match_scored(made)[2])
    assert Match.objects.get(pk=imported.pk).imported is not None


@pytest.mark.django_db
def test_deleting_takes_everything_of_the_match_and_keeps_the_players(make_match, other_user):
    match = make_match("biriba", deals=2)
    kept = make_match("burraco", deals=1)
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, user=other_user)
    sharing.share_link_get_or_create(match=match, kind="watch")
    services.deal_delete_last(match=match, number=2)
    players = set(Player.objects.values_list("pk", flat=True))
    deleted = matches_services.match_delete(match=fresh(match), version=fresh(match).version)
    assert deleted.pk == match.pk and deleted.game == "biriba" and deleted.deal_count == 1
    assert deleted.columns == ("Anna & Chris", "Babis & Dora")
    assert deleted.players == ("Anna", "Babis", "Chris", "Dora")
    for model in (Deal, DealDraft, MatchChange, MatchMember, MatchSeat, ShareLink):
        assert not model.objects.filter(match_id=match.pk).exists(), model.__name__
    assert not Match.objects.filter(pk=match.pk).exists()
    assert Match.objects.filter(pk=kept.pk).exists() and kept.deals.count() == 1
    assert set(Player.objects.values_list("pk", flat=True)) == players


@pytest.mark.django_db
def test_a_deletion_from_an_older_page_or_of_a_match_gone_is_refused(make_match):
    match = make_match("barbu", deals=1)
    drawn = match.version
    services.deal_record(match=match, data=deal_for("barbu", 1))
    with pytest.raises(RuleError) as refused:
        matches_services.match_delete(match=match, version=drawn)
    assert refused.value.code == "match_changed_before_delete"
    assert Match.objects.get(pk=match.pk).deal_count == 2
    matches_services.match_delete(match=match)  # no version: whatever it holds now
    with pytest.raises(RuleError) as gone:
        matches_services.match_delete(match=match)
    assert gone.value.code == "match_gone"


@pytest.mark.django_db(transaction=True)
def test_a_deletion_racing_a_deal_being_saved(make_match):
    """Both drawn from the same version: whichever gets the match first wins. The deal saved
    first makes the deletion refused (the match changed since its page); the deletion first
    leaves the save nothing to save to: it is refused (``match_gone``). Never half of each."""
    for _ in range(6):
        match = make_match("biriba", deals=1)
        drawn = match.version
        phone = fresh(match)  # as the phone read it, before either starts
        results, errors = at_once(
            lambda m=phone: (
                "saved",
                services.deal_record(match=m, data=deal_for("biriba", 1)),
            ),
            lambda m=match, v=drawn: ("deleted", matches_services.match_delete(match=m, version=v)),
        )
        assert len(results) == 1, errors
        won = results[0][0]
        if won == "saved":
            assert codes(errors) == ["match_changed_before_delete"]
            assert fresh(match).deal_count == 2 and match.deals.count() == 2
        else:
            assert codes(errors) == ["match_gone"]  # the save is told, nothing half-done
            assert not Match.objects.filter(pk=match.pk).exists()
            assert not Deal.objects.filter(match_id=match.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_deleting_the_same_match_delete_it_once(make_match):
    match = make_match("burraco", deals=2)
    results, errors = at_once(
        *[lambda: matches_services.match_delete(match=match, version=match.version)] * 4
    )
    assert len(results) == 1 and codes(errors) == ["match_gone"] * 3
    assert not Match.objects.filter(pk=match.pk).exists()
