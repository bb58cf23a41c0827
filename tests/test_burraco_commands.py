"""``score``, ``import_match`` and ``export_match`` carry what Burraco for three, victory points
and house values add: each deal's ``solo`` and ``score.players``, totals one a seat, the
winner a seat, the top-level ``victory_points``, and the house's rules as they were read."""

from __future__ import annotations

import io
import json
import pathlib

import pytest
from django.core.management import call_command

from scorekeeper.models import Match
from scorekeeper.rules.match import score_document

pytestmark = pytest.mark.django_db

DATA = pathlib.Path(__file__).resolve().parent / "data" / "rummy"


def tot(melded=0, in_hand=0, bonuses=None, took_pot=True, went_out=False) -> dict:
    return {
        "totals": {"melded": melded, "in_hand": in_hand, "bonuses": bonuses or {}},
        "took_pot": took_pot,
        "went_out": went_out,
    }


#: rules.md's "Burraco for three players", example 2: solo and pair, then each alone.
THREE = {
    "format": "scorekeeper-match/1",
    "game": "burraco",
    "rules": {"three_players": "fibur"},
    "players": ["Anna", "Babis", "Chris"],
    "deals": [
        {
            "solo": 0,
            "sides": [
                tot(500, 0, {"clean_burraco": 2}, went_out=True),
                tot(235, 60, {"dirty_burraco": 1}),
            ],
        },
        {
            "sides": [
                tot(150, 20),
                tot(400, 0, {"clean_burraco": 1, "dirty_burraco": 1}, went_out=True),
                tot(60, 90, took_pot=False),
            ]
        },
        {"solo": None, "sides": [tot(300, 0, {"clean_burraco": 1}, went_out=True), tot(), tot()]},
    ],
}


def example(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["doc"]


def scored_by_command(document: dict, tmp_path: pathlib.Path) -> dict:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("score", str(path), stdout=out)
    return json.loads(out.getvalue())


def round_trip(document: dict, tmp_path: pathlib.Path) -> dict:
    """The document imported, then exported."""
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("import_match", str(path), owner="anna", stdout=out)
    match = Match.objects.get(pk=int(out.getvalue()))
    out = io.StringIO()
    call_command("export_match", str(match.pk), stdout=out)
    return json.loads(out.getvalue())


def test_score_carries_the_three_player_keys(tmp_path):
    scored = scored_by_command(THREE, tmp_path)
    assert scored == score_document(THREE)
    assert [d["score"]["players"] for d in scored["deals"]] == [
        [1000, 138, 138],
        [130, 800, -130],
        [600, 0, 0],
    ]
    assert [d.get("solo", "left out") for d in scored["deals"]] == [0, "left out", None]
    assert scored["totals"] == [1730, 938, 8] and scored["winner"] == 0


def test_import_and_export_carry_burraco_for_three(tmp_path, user):
    """The site stores it as the rules core scores it: each deal's ``solo`` and
    ``score.players``, totals one a seat, the winner a seat, the three-player options."""
    scored = scored_by_command(THREE, tmp_path)
    exported = round_trip(THREE, tmp_path)
    for key in ("totals", "finished", "winner"):
        assert exported[key] == scored[key]
    assert [d["score"] for d in exported["deals"]] == [d["score"] for d in scored["deals"]]
    assert [d.get("solo", "left out") for d in exported["deals"]] == [0, "left out", None]
    assert exported["rules"]["three_players"] == "fibur"
    assert exported["rules"]["alone_from"] == 1000 and exported["rules"]["target"] == 1505
    assert Match.objects.get().totals == [1730, 938, 8]


@pytest.mark.parametrize(
    "name",
    ["burraco-vp-ex1-three-deals", "burraco-vp-ex3-custom-table", "burraco-house-ex1-values"],
)
def test_import_and_export_carry_victory_points_and_house_values(tmp_path, user, name):
    document = example(name)
    scored = scored_by_command(document, tmp_path)
    exported = round_trip(document, tmp_path)
    for key in ("totals", "finished", "winner"):
        assert exported[key] == scored[key]
    assert exported.get("victory_points") == scored.get("victory_points")
    assert [d["score"] for d in exported["deals"]] == [d["score"] for d in scored["deals"]]
    for key, value in document["rules"].items():
        if key in ("card_values", "burraco_bonuses"):  # written whole: every rank, bonus
            assert exported["rules"][key] == exported["rules"][key] | value
        else:
            assert exported["rules"][key] == value
    if "match_deals" in document["rules"]:
        assert exported["victory_points"] == scored["victory_points"] is not None
        assert "target" not in exported["rules"]
