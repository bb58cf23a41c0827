"""The caller's membership, loaded with the match in its one query (access._with_membership):
every column as the table holds it, an active membership before a removed one, an account's
before a phone's; on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from scorekeeper import access
from scorekeeper.models import MatchMember
from scorekeeper.selectors import match_queryset

pytestmark = pytest.mark.django_db


def loaded(match, user=None, digest=None) -> MatchMember | None:
    found = access._with_membership(
        match_queryset(deals=False), user_id=user and user.pk, digest=digest
    ).get(pk=match.pk)
    return access._membership_of(found)


def columns(member: MatchMember) -> dict:
    return {f.attname: getattr(member, f.attname) for f in MatchMember._meta.concrete_fields}


def test_the_membership_comes_back_column_for_column(make_match, other_user):
    match = make_match("biriba")
    removed = timezone.now() - datetime.timedelta(days=2, microseconds=17)
    gone = MatchMember.objects.create(match=match, user=other_user, name="Léa", removed=removed)
    assert columns(loaded(match, other_user)) == columns(MatchMember.objects.get(pk=gone.pk))
    assert loaded(match, other_user).removed == removed  # aware, to the microsecond
    # an active membership comes before a removed one
    phone = MatchMember.objects.create(match=match, guest_key="k" * 64, name="Léa's phone")
    assert columns(loaded(match, other_user, "k" * 64)) == columns(
        MatchMember.objects.get(pk=phone.pk)
    )
    assert loaded(match) is None  # nobody: no membership


def test_an_accounts_membership_comes_before_a_phones_and_only_this_matchs(make_match, other_user):
    match, elsewhere = make_match("biriba"), make_match("burraco")
    MatchMember.objects.create(match=elsewhere, user=other_user, name="Elsewhere")
    phone = MatchMember.objects.create(match=match, guest_key="p" * 64, name="A phone")
    assert loaded(match, other_user) is None  # a membership of another match is not this one's
    assert loaded(match, other_user, "p" * 64).pk == phone.pk
    account = MatchMember.objects.create(match=match, user=other_user, name="An account")
    assert loaded(match, other_user, "p" * 64).pk == account.pk
    assert loaded(match, None, "p" * 64).pk == phone.pk
