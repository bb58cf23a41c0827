"""The caller's membership, loaded with the match in its one query (access._with_membership):
every column as the table holds it, an active membership before a removed one, an account's
before a phone's; on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Q
from django.utils import timezone

from scorekeeper import access
from scorekeeper.models import MatchMember
from scorekeeper.selectors import match_queryset

pytestmark = pytest.mark.django_db


def loaded(match, who: Q) -> MatchMember | None:
    found = access._with_membership(match_queryset(deals=False), who).get(pk=match.pk)
    return access._membership_of(found)


def columns(member: MatchMember) -> dict:
    return {f.attname: getattr(member, f.attname) for f in MatchMember._meta.concrete_fields}


def test_the_membership_comes_back_column_for_column(make_match, other_user):
    match = make_match("biriba")
    removed = timezone.now() - datetime.timedelta(days=2, microseconds=17)
    gone = MatchMember.objects.create(match=match, user=other_user, name="Léa", removed=removed)
    assert columns(loaded(match, Q(user=other_user))) == columns(
        MatchMember.objects.get(pk=gone.pk)
    )
    assert loaded(match, Q(user=other_user)).removed == removed  # aware, to the microsecond
    # an active membership comes before a removed one
    phone = MatchMember.objects.create(match=match, guest_key="k" * 64, name="Léa's phone")
    who = Q(user=other_user) | Q(guest_key="k" * 64)
    assert columns(loaded(match, who)) == columns(MatchMember.objects.get(pk=phone.pk))
    assert loaded(match, Q(pk__in=[])) is None  # nobody: no membership
