"""``manage.py score --language el|it|fr|en``: refusals and warnings in that language (English
by default), as the site shows them; the document itself is the same in every language."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest
from django.utils import translation

from scorekeeper import rule_messages
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFUSED = {
    "format": "scorekeeper-match/1",
    "game": "biriba",
    "players": ["Anna", "Babis"],
    "deals": [
        {
            "trump": "H",
            "sides": [
                {"melds": [["5S", "6S", "JK", "2D"]], "hand": [], "took_pot": True},
                {"melds": [], "hand": [], "took_pot": True},
            ],
        }
    ],
}


def score(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score", "-", *args],
        input=json.dumps(REFUSED),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_score_in_french_refuses_in_french():
    run = score("--language", "fr")
    assert run.returncode == 1 and run.stdout == ""
    with pytest.raises(RuleError) as refused:
        rules_match.score_document(json.loads(json.dumps(REFUSED)))
    with translation.override("fr"):
        said = rule_messages.message(refused.value)
    assert said in run.stderr
    assert said.startswith("donne 1, Anna, combinaison 1 (5♠ 6♠ joker 2♦)")
    assert "two wild cards" not in run.stderr and "JK" not in run.stderr


def test_score_speaks_english_unless_told():
    run = score()
    assert run.returncode == 1
    assert (
        "refused: deal 1, Anna, meld 1 (5♠ 6♠ joker 2♦): two wild cards in one meld" in run.stderr
    )


def test_a_language_the_site_does_not_speak_is_refused():
    run = score("--language", "cs")
    assert run.returncode == 2 and "invalid choice" in run.stderr
