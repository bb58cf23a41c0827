"""A player's figures worked out again in this test, straight from the matches' exported
documents (``match_export_document``: what a download or ``manage.py export_match`` writes,
each deal as entered with the ``score`` the rules core gave it), and compared with what
scorekeeper/stats gives (:func:`player_stats`) and what the player's page shows, over random
but legal finished matches of every game and many house rules (tests/stats/random_matches.py).

Nothing here reads a summary, ``Match.stats`` or ``Deal.score``: the code below is a second,
independent reading of the public documents. Where a figure can be read from what was entered
rather than from the score, it is: the bonuses from the totals entered or each meld's reading,
the Barbu businesses settled from the raw scores and the factors, the compulsory doubles from
the doubles said and the rotation.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.history.document import match_export_document
from scorekeeper.models import Match, Player
from scorekeeper.stats.players import player_stats
from tests.conftest import rummy_deal
from tests.stats.matches import barbu_match as tied_barbu
from tests.stats.random_matches import NAMES, barbu_match, rummy_match

pytestmark = pytest.mark.django_db

HEAD_TO_HEAD_MIN = 3  # the issue: every other player met in at least 3 matches
COMPULSORY = 2  # rules.md: each other player doubles the declarer twice in their deals


def _by_hand(exact: Fraction) -> int:
    """The nearest whole number, a half away from zero, as a player rounds (2.5 → 3, −2.5 → −3)."""
    whole = math.floor(abs(exact) + Fraction(1, 2))
    return whole if exact >= 0 else -whole


def _percent(part: int, whole: int) -> int | None:
    return _by_hand(Fraction(100 * part, whole)) if whole else None


def _average(points: int, count: int) -> float | None:
    return _by_hand(Fraction(10 * points, count)) / 10 if count else None


@dataclass
class Expected:
    """One player's figures in one game, as this test works them out."""

    played: int = 0
    won: int = 0
    streak: int = 0
    longest: int = 0
    best: tuple[int, int] | None = None  # (result, match id)
    worst: tuple[int, int] | None = None
    points: int = 0
    deals: int = 0
    went_out: int = 0
    pots_missed: int = 0
    bonuses: Counter = field(default_factory=Counter)
    contracts: dict[str, list[int]] = field(default_factory=dict)
    made: int = 0
    received: int = 0
    redoubled: int = 0
    businesses_won: int = 0
    businesses_lost: int = 0
    net: int = 0
    compulsory: list[int] = field(default_factory=lambda: [0, 0])
    met: dict[str, Counter] = field(default_factory=dict)


def column_of(document: dict[str, Any], seat: int) -> int:
    """Rummy: four players are two pairs (seats 0 and 2, 1 and 3), else one side a player;
    Barbu: every player is their own column."""
    if document["game"] != "barbu" and len(document["players"]) == 4:
        return seat % 2
    return seat


def winning_columns(document: dict[str, Any]) -> set[int]:
    """rules.md: a rummy match is won by its ``winner``; in Barbu the players tied first all
    win (the document then names no winner), and in King every player with a positive total."""
    totals = document["totals"]
    if document["game"] != "barbu":
        assert document["winner"] is not None
        return {document["winner"]}
    if (document.get("rules") or {}).get("variant") == "king":
        return {seat for seat, total in enumerate(totals) if total > 0}
    return {seat for seat, total in enumerate(totals) if total == max(totals)}


def result_of(document: dict[str, Any], column: int) -> int:
    """What ranks a match best or worst: the lead over the best other column (rummy), the
    player's own total (Barbu)."""
    totals = document["totals"]
    if document["game"] == "barbu":
        return totals[column]
    return totals[column] - max(t for c, t in enumerate(totals) if c != column)


def rummy_deal_figures(expected: Expected, deal: dict[str, Any], column: int) -> None:
    entered, score = deal["sides"][column], deal["score"]["sides"][column]
    expected.points += score["total"]
    expected.deals += 1
    expected.went_out += bool(entered.get("went_out"))
    expected.pots_missed += not entered.get("took_pot")
    if "totals" in entered:  # the bonuses as entered
        expected.bonuses.update(entered["totals"]["bonuses"])
    else:  # each meld's reading
        expected.bonuses.update(m["bonus"] for m in score["melds"] if m.get("bonus"))


def barbu_match_figures(expected: Expected, document: dict[str, Any], seat: int) -> None:
    rules = document.get("rules") or {}
    deals = document["deals"]
    per_declarer = len(deals) // 4
    quick = rules.get("variant") == "king" or rules.get("rotation") == "quick"
    on_declarer: Counter = Counter()  # declarer: doubles by ``seat`` on them in their deals
    for index, deal in enumerate(deals):
        score = deal["score"]
        step = index if quick else index // per_declarer
        declarer = (document.get("first_dealer", 0) + step) % 4
        assert score["declarer"] == declarer
        raw = score["raw"]
        for double in deal.get("doubles", []):
            by, on, factor = double["by"], double["on"], 2 if double.get("redoubled") else 1
            expected.made += by == seat
            expected.received += on == seat
            expected.redoubled += on == seat and factor == 2
            if by == seat and on == declarer:
                on_declarer[declarer] += 1
            if seat in (by, on):
                other = on if by == seat else by
                gain = factor * (raw[seat] - raw[other])
                expected.net += gain
                expected.businesses_won += gain > 0
                expected.businesses_lost += gain < 0
        total = score["total"][seat]
        expected.points += total
        expected.deals += 1
        kept = expected.contracts.setdefault(deal["contract"], [0, 0])
        kept[0] += 1
        kept[1] += total
    if rules.get("compulsory_doubles", "enforce") != "off" and rules.get("variant") != "king":
        for declarer in range(4):
            if declarer != seat:
                expected.compulsory[0] += on_declarer[declarer] >= COMPULSORY
                expected.compulsory[1] += 1


def expected_figures(documents: list[tuple[int, dict[str, Any]]]) -> dict[str, dict[str, Expected]]:
    """Each player's (by name) figures in each game, from the finished matches' documents in
    the order they finished."""
    out: dict[str, dict[str, Expected]] = {}
    for pk, document in documents:
        assert document["finished"]
        game, players = document["game"], document["players"]
        winners = winning_columns(document)
        for seat, name in enumerate(players):
            expected = out.setdefault(name, {}).setdefault(game, Expected())
            column = column_of(document, seat)
            won = column in winners
            expected.played += 1
            expected.won += won
            expected.streak = expected.streak + 1 if won else 0
            expected.longest = max(expected.longest, expected.streak)
            result = result_of(document, column)
            if expected.best is None or result >= expected.best[0]:
                expected.best = (result, pk)
            if expected.worst is None or result <= expected.worst[0]:
                expected.worst = (result, pk)
            if game == "barbu":
                barbu_match_figures(expected, document, seat)
            else:
                for deal in document["deals"]:
                    rummy_deal_figures(expected, deal, column)
            for other_seat, other in enumerate(players):
                if other_seat == seat:
                    continue
                theirs = column_of(document, other_seat)
                met = expected.met.setdefault(other, Counter())
                met["met"] += 1
                met["won"] += won
                met["lost"] += not won
                if theirs == column:
                    met["partners"] += 1
                    met["partners_won"] += won
                else:
                    totals = document["totals"]
                    met["opponents"] += 1
                    met["ahead"] += totals[column] > totals[theirs]
                    met["behind"] += totals[column] < totals[theirs]
    return out


def as_stats(expected: Expected, game: str) -> dict[str, Any]:
    """The figures in the shape :func:`player_stats` gives them (names left out)."""
    out: dict[str, Any] = {
        "played": expected.played,
        "won": expected.won,
        "lost": expected.played - expected.won,
        "rate": _percent(expected.won, expected.played),
        "longest": expected.longest,
        "current": expected.streak,
        "best": expected.best,
        "worst": expected.worst,
        "deals": expected.deals,
        "points": expected.points,
        "per_deal": _average(expected.points, expected.deals),
        "head_to_head": {
            name: {
                key: met[key]
                for key in (
                    "met",
                    "won",
                    "lost",
                    "partners",
                    "partners_won",
                    "opponents",
                    "ahead",
                    "behind",
                )
            }  # fmt: skip
            for name, met in expected.met.items()
            if met["met"] >= HEAD_TO_HEAD_MIN
        },
    }
    if game == "barbu":
        out["contracts"] = {
            code: (count, _average(points, count))
            for code, (count, points) in expected.contracts.items()
        }
        out["doubles"] = {
            "made": expected.made,
            "received": expected.received,
            "redoubled": expected.redoubled,
            "won": expected.businesses_won,
            "lost": expected.businesses_lost,
            "net": expected.net,
        }
        out["compulsory"] = {"met": expected.compulsory[0], "of": expected.compulsory[1]}
    else:
        out["went_out"] = expected.went_out
        out["going_out_rate"] = _percent(expected.went_out, expected.deals)
        out["pots_missed"] = expected.pots_missed
        out["bonuses"] = {kind: n for kind, n in expected.bonuses.items() if n}
    return out


def given(figures: dict[str, Any]) -> dict[str, Any]:
    """What :func:`player_stats` gives for one game, in the shape of :func:`as_stats`."""
    out = {
        key: figures[key]
        for key in (
            "played", "won", "lost", "rate", "longest", "current", "deals", "points", "per_deal",
        )
    }  # fmt: skip
    for key in ("best", "worst"):
        out[key] = (figures[key]["result"], figures[key]["match"].pk)
    out["head_to_head"] = {
        row["player"].name: {
            key: row[key]
            for key in (
                "met",
                "won",
                "lost",
                "partners",
                "partners_won",
                "opponents",
                "ahead",
                "behind",
            )
        }  # fmt: skip
        for row in figures["head_to_head"]
    }
    if figures["game"] == "barbu":
        out["contracts"] = {c["code"]: (c["deals"], c["average"]) for c in figures["contracts"]}
        out["doubles"] = dict(figures["doubles"])
        out["compulsory"] = dict(figures["compulsory"])
    else:
        for key in ("went_out", "going_out_rate", "pots_missed"):
            out[key] = figures[key]
        out["bonuses"] = {b["code"]: b["count"] for b in figures["bonuses"]}
    return out


# --- the page ----------------------------------------------------------------------------------


def _section(html: str, game: str) -> str:
    found = re.search(
        rf'<section[^>]*data-player-stats="{game}".*?</figure>\s*</section>', html, re.S
    )
    assert found, f"no {game} section"
    return found.group(0)


def _stat(html: str, name: str) -> str | None:
    found = re.search(rf'data-stat="{name}" data-value="([^"]*)"', html)
    return found.group(1) if found else None


def check_page(client, player: Player, figures: dict[str, dict[str, Any]]) -> None:
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert html.count("data-player-stats=") == len(figures)
    for game, want in figures.items():
        found = _section(html, game)
        shown = {
            "played": want["played"],
            "won": want["won"],
            "rate": want["rate"],
            "longest-streak": want["longest"],
            "current-streak": want["current"],
        }
        if game == "barbu":
            shown |= {f"doubles-{k}": want["doubles"][k] for k in ("made", "received", "won")}
            shown |= {
                "doubles-lost": want["doubles"]["lost"],
                "doubles-net": want["doubles"]["net"],
            }
        else:
            shown |= {"going-out-rate": want["going_out_rate"], "pots-missed": want["pots_missed"]}
        for name, value in shown.items():
            assert _stat(found, name) == str(value), (player.name, game, name)
        assert float(_stat(found, "per-deal")) == want["per_deal"], (player.name, game)
        assert f'data-best-match="{want["best"][1]}"' in found
        assert f'data-worst-match="{want["worst"][1]}"' in found
        if game == "barbu" and want["compulsory"]["of"]:
            assert (
                f'data-stat="compulsory" data-value="{want["compulsory"]["met"]}" '
                f'data-of="{want["compulsory"]["of"]}"'
            ) in found
        elif game == "barbu":
            assert 'data-stat="compulsory"' not in found
        else:
            for kind, count in want["bonuses"].items():
                assert f'data-bonus="{kind}" data-value="{count}"' in found
        rows = re.findall(r'data-head-to-head="(\d+)"', found)
        assert len(rows) == len(want["head_to_head"])


# --- the test ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_figures_agree_with_the_exported_documents(auth_client, user, seed):
    rng = random.Random(seed)
    makers = (
        [lambda: rummy_match(rng, user, "biriba")] * 6
        + [lambda: rummy_match(rng, user, "burraco")] * 6
        + [lambda: barbu_match(rng, user)] * 5
        # and a Barbu match where all four tie first (each takes what the declarer's turn
        # hands them): all four win it
        + [lambda: tied_barbu(user, rng.sample(NAMES, 4), rotate=True)]
    )
    rng.shuffle(makers)
    matches = [make() for make in makers]
    assert {m.game for m in matches} == {"biriba", "burraco", "barbu"}
    # a match in progress counts nothing
    going_on = services.match_create(
        owner=user, game="biriba", players=NAMES[:4], first_dealer=0, rules={}
    )
    services.deal_record(match=going_on, data=rummy_deal("biriba"))

    documents = [
        (match.pk, match_export_document(Match.objects.get(pk=match.pk)))
        for match in Match.objects.filter(owner=user, status=Match.Status.FINISHED).order_by(
            "finished_at", "created", "pk"
        )
    ]
    assert len(documents) == len(matches)
    expected = expected_figures(documents)
    assert expected, "no player in any match"
    compared = Counter()
    for name in NAMES:
        player = Player.objects.filter(owner=user, name=name).first()
        if player is None:
            assert name not in expected
            continue
        stats = {figures["game"]: given(figures) for figures in player_stats(player)}
        want = {game: as_stats(e, game) for game, e in expected.get(name, {}).items()}
        assert stats.keys() == want.keys(), name
        for game in want:
            assert stats[game] == want[game], (name, game)
            compared[game] += 1
        check_page(auth_client, player, want)
    assert set(compared) == {"biriba", "burraco", "barbu"}
