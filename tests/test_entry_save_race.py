"""A save and another phone's tap, forced in order, with real transactions (issue 24, item 7):
the tap lands after the saving page was drawn and before its save takes the lock. On a side
the saving screen did not have open it is saved with the deal; on its own side the save is
refused once and nothing is stored. Run on SQLite and on PostgreSQL (CI's second pass)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.entry import views as entry_views
from scorekeeper.models import Deal
from tests.conftest import press, run
from tests.test_entry_shared import new_url, phone, tap

pytestmark = pytest.mark.django_db(transaction=True)

KEYS = ["trump:S", *run("H", "3 4 5"), "pot:0", "side:1", *run("S", "3 4 5"), "pot:1", "side:0"]


@pytest.mark.parametrize(
    ("between", "stored"),
    [
        (["side:1", "target:hand", *run("D", "9")], True),  # elsewhere: saved with it
        (["side:0", "target:hand", *run("D", "9")], False),  # on the side it had open
    ],
)
def test_a_tap_between_the_screen_and_its_save(between, stored, user, make_match, monkeypatch):
    match = make_match("biriba")
    url = new_url(match)
    anna, bruno = phone(user), phone(user)
    page = press(anna, url, "", *KEYS)
    real_save = entry_views.deal_save

    def save_after_bruno_s_tap(**kwargs):
        press(bruno, url, "", *between)  # committed before the save takes its locks
        return real_save(**kwargs)

    monkeypatch.setattr(entry_views, "deal_save", save_after_bruno_s_tap)
    response = tap(anna, url, page, "save")
    if stored:
        assert response.headers.get("HX-Redirect") == reverse("match_detail", args=[match.pk])
        assert Deal.objects.get(match=match).data["sides"][1]["hand"] == ["9D"]
    else:
        assert 'data-message="draft_changed"' in response.content.decode()
        assert not Deal.objects.filter(match=match).exists()
