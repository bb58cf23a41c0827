"""What a pad key will enter, shown before it is pressed (issue 24, item 9: the run shortcut
surprised a new user six times in one evening: 9♦ J♦ a two-card meld, A♠ K♠ taken as
adjacent). The page says it on #entry (data-key-previews, by action); entry.js puts each on
its key (the pad's keys are drawn once and kept: tests/browser/test_key_previews_browser.py)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from scorekeeper.entry import drafts as st
from tests.conftest import draft_of, press, run

pytestmark = pytest.mark.django_db


def previews(response) -> dict[str, str]:
    found = re.search(r'data-key-previews="([^"]*)"', response.content.decode())
    assert found, "no previews on #entry"
    return json.loads(html.unescape(found[1]))


def meld_after(client, url: str, keys: list[str]) -> list[str]:
    page = press(client, url, "", "reset:yes", *keys)
    return st.RummyDraft.loads(draft_of(page), game="biriba", side_count=2).sides[0].melds[-1]


def test_rank_keys_say_the_run_they_fill_and_the_new_meld_they_start(auth_client, make_match):
    url = reverse("deal_new", args=[make_match("biriba").pk])
    run_so_far = run("H", "3 4 5")
    shown = previews(press(auth_client, url, "", *run_so_far))
    assert shown["rank:9"] == "6–9" and shown["rank:K"] == "6–K"  # two ranks or more: filled
    assert "rank:6" not in shown and "rank:7" not in shown  # its own card (7: a wild's place)
    assert shown["rank:4"] == "new"  # 4♥ twice in a run: a new meld
    # each key then does what it said
    assert meld_after(auth_client, url, [*run_so_far, "rank:9"]) == [
        f"{r}H" for r in "3 4 5 6 7 8 9".split()
    ]
    assert meld_after(auth_client, url, [*run_so_far, "rank:7"]) == ["3H", "4H", "5H", "7H"]
    assert meld_after(auth_client, url, [*run_so_far, "rank:4"]) == ["4H"]


def test_a_suit_key_over_a_set_says_the_card_it_adds(auth_client, make_match):
    url = reverse("deal_new", args=[make_match("burraco").pk])
    shown = previews(press(auth_client, url, "", "suit:S", "rank:K", "suit:D", "suit:C"))
    assert shown["suit:H"] == "+K♥"
    assert not any(k.startswith("rank:") for k in shown)  # over a set: no "new" on every rank
    lone = previews(press(auth_client, url, "", "reset:yes", *run("D", "9")))
    assert lone["suit:S"] == "+9♠" and "suit:D" not in lone  # ♦ again only chooses ♦


def test_in_hand_or_on_a_new_meld_no_key_says_anything(auth_client, make_match):
    url = reverse("deal_new", args=[make_match("burraco").pk])
    assert previews(press(auth_client, url, "", *run("H", "3 4 5"), "target:hand")) == {}
    assert previews(press(auth_client, url, "", "new_meld")) == {}
