"""The scoreboard of an archived match says so to its owner, with the way back to home
(templates/matches/_archived.html, scorekeeper/matches/views.py ``match_unarchive``): plain and
htmx, the owner alone."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats

from scorekeeper.matches import services as matches_services
from scorekeeper.models import Match
from scorekeeper.sharing import services as sharing
from tests.conftest import HTMX, text

pytestmark = pytest.mark.django_db


def scoreboard(client: Client, match: Match) -> str:
    response = client.get(reverse("match_detail", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_owner_is_told_the_match_is_archived_and_since_when(auth_client, make_match):
    match = make_match("biriba", deals=1)
    assert "data-archived-on" not in scoreboard(auth_client, match)
    archived = matches_services.match_archive(match=match).archived
    html = scoreboard(auth_client, match)
    assert f'data-archived-on="{archived:%Y-%m-%d}"' in html
    assert f'data-unarchive="{match.pk}"' in html
    assert f'action="{reverse("match_unarchive", args=[match.pk])}"' in html
    day = formats.date_format(archived, "DATE_FORMAT")
    assert f"Archived on {day}" in text(auth_client.get(reverse("match_detail", args=[match.pk])))


def test_back_to_home_from_the_scoreboard(auth_client, make_match):
    match = matches_services.match_archive(match=make_match("barbu", deals=1))
    assert f'data-match="{match.pk}"' not in auth_client.get(reverse("home")).content.decode()
    response = auth_client.post(reverse("match_unarchive", args=[match.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("match_detail", args=[match.pk])
    assert Match.objects.get(pk=match.pk).archived is None
    page = auth_client.get(response["Location"]).content.decode()
    assert 'data-message="match_unarchived"' in page
    assert "data-archived-on" not in page
    assert str(match.pk) in auth_client.get(reverse("home")).content.decode()


def test_with_htmx_the_whole_page_is_drawn_again(auth_client, make_match):
    match = matches_services.match_archive(match=make_match("burraco", deals=1))
    response = auth_client.post(reverse("match_unarchive", args=[match.pk]), headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("match_detail", args=[match.pk])
    assert Match.objects.get(pk=match.pk).archived is None


def test_a_match_not_archived_is_left_as_it_is(auth_client, make_match):
    match = make_match("biriba")
    response = auth_client.post(reverse("match_unarchive", args=[match.pk]))
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).archived is None


def test_only_the_owner_sees_it_and_brings_it_back(client, make_match, other_user):
    match = matches_services.match_archive(match=make_match("biriba", deals=1))
    link = sharing.share_link_get_or_create(match=match, kind="score")
    sharing.member_join(link=link, user=other_user)
    client.force_login(other_user)
    html = scoreboard(client, match)  # a co-scorer sees the scoreboard, not the line
    assert "data-archived-on" not in html and "data-unarchive" not in html
    response = client.post(reverse("match_unarchive", args=[match.pk]))
    assert response.status_code == 404
    assert Match.objects.get(pk=match.pk).archived is not None
    assert client.get(reverse("match_unarchive", args=[match.pk])).status_code == 405
