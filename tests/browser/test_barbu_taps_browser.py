"""The taps benchmark's Barbu matches entered through the real page at 360 px, deal by deal,
with benchmarks/taps_barbu.py: every deal is stored as the match document holds it (so
scored as the rules core scores it), and the taps stay within issue 13's targets (contracts
with tricks, hearts or queens: median at most 7; Ravage City: median at most 16; a split or
Domino: at most 5, a Domino's doubles on top, one tap each: its order takes three taps, its
contract and Save two)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from benchmarks.taps_barbu import play
from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.rules import match as rules_match
from scorekeeper.selectors import match_document

from .conftest import fits, new_phone, sign_up, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "taps_data"
COUNTED = ("no_tricks", "no_hearts", "no_queens", "trumps")


def kind(deal: dict) -> str:
    if deal["contract"] == "ravage_city":
        return "ravage"
    if deal["contract"] == "domino" or not deal.get("doubles") and deal["contract"] != "trumps":
        return "short"  # Domino, or an undoubled negative contract (split)
    return "counted" if deal["contract"] in COUNTED else "other"


@pytest.mark.parametrize("name", ["barbu", "barbu-ravage"])
def test_the_benchmark_matches_go_in_within_the_targets(
    live_server, chromium, django_user_model, name
):
    (doc,) = json.loads((DATA / f"{name}.json").read_text())
    page = new_phone(chromium)
    sign_up(page, live_server.url)
    match = services.match_create(
        owner=django_user_model.objects.get(username="anna"),
        game="barbu",
        players=doc["players"],
        first_dealer=doc.get("first_dealer", 0),
        rules=doc.get("rules", {}),
    )
    url = f"{live_server.url}/matches/{match.pk}/deals/new/"
    taps: dict[str, list[int]] = {}
    for number, deal in enumerate(doc["deals"], start=1):
        page.goto(url)
        count = play(page, deal)
        if deal["contract"] == "domino":
            count -= len(deal["doubles"])  # one tap a double, beside the target
        taps.setdefault(kind(deal), []).append(count)
        fits(page)
        tap(page, "save")
        page.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
        stored = Deal.objects.get(match=match, number=number).data
        assert stored == deal, (number, stored, deal)
    ours, theirs = (
        rules_match.score_document(match_document(match)),
        rules_match.score_document(doc),
    )
    assert ours["deals"] == theirs["deals"] and ours["totals"] == theirs["totals"]
    print(f"\n{name}:", {k: (statistics.median(v), max(v), len(v)) for k, v in taps.items()})
    if "counted" in taps:
        assert statistics.median(taps["counted"]) <= 7, taps
    if "ravage" in taps:
        assert statistics.median(taps["ravage"]) <= 16, taps
    assert max(taps["short"]) <= 5, taps
