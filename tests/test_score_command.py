"""`manage.py score`: the document in, the scored document out; refusals on stderr, exit 1."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[1]

BURRACO = {
    "format": "scorekeeper-match/1",
    "game": "burraco",
    "players": ["Anna", "Babis", "Chris", "Dora"],
    "deals": [
        {
            "sides": [
                {
                    "melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KD", "KC"]],
                    "hand": ["4C", "QD"],
                    "took_pot": True,
                    "went_out": True,
                },
                {
                    "melds": [["10S", "JS", "QS", "JK"], ["7S", "7D", "7C"]],
                    "hand": ["AH", "2C", "5D", "KS"],
                    "took_pot": True,
                },
            ]
        }
    ],
}


def run_score(doc: object, *args: str) -> subprocess.CompletedProcess:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return subprocess.run(
        [sys.executable, "manage.py", "score", "-", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture
def stdin(monkeypatch):
    def feed(doc: object) -> None:
        text = doc if isinstance(doc, str) else json.dumps(doc)
        monkeypatch.setattr(sys, "stdin", StringIO(text))

    return feed


@pytest.fixture
def score(stdin):
    def run(doc: object) -> dict:
        stdin(doc)
        out = StringIO()
        call_command("score", "-", stdout=out)
        return json.loads(out.getvalue())

    return run


def test_scores_a_document_from_stdin_and_exits_0():
    run = run_score(BURRACO)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["totals"] == [360, 25]
    assert [s["total"] for s in out["deals"][0]["score"]["sides"]] == [360, 25]
    assert out["finished"] is False and out["winner"] is None


def test_reads_a_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(BURRACO))
    out = StringIO()
    call_command("score", str(path), stdout=out)
    assert json.loads(out.getvalue())["totals"] == [360, 25]


def test_a_refused_document_exits_1_naming_deal_side_and_rule():
    doc = json.loads(json.dumps(BURRACO))
    doc["deals"][0]["sides"][1]["went_out"] = True
    run = run_score(doc)
    assert run.returncode == 1
    assert run.stdout == ""
    assert "deal 1" in run.stderr


def test_a_scored_document_scores_the_same_again(score):
    first = score(BURRACO)
    assert score(first) == first


@pytest.mark.parametrize(
    ("change", "mentions"),
    [
        (lambda d: d.update(format="scorekeeper-match/9"), "format"),
        (lambda d: d.update(game="canasta"), '"canasta"'),
        (lambda d: d.update(players=["Anna", "Babis", "Chris"]), "players"),
        (lambda d: d.update(players=["Anna", "anna", "Chris", "Dora"]), "player 2"),
        (lambda d: d.update(first_dealer=4), "first dealer"),
        (lambda d: d.update(colour="red"), '"colour"'),
        (lambda d: d.pop("deals"), '"deals"'),
        (lambda d: d.update(rules={"target": "lots"}), "rules, “Target”"),
        (lambda d: d.update(rules={"tagret": 100}), '"tagret"'),
        (lambda d: d["deals"][0]["sides"][0].update(went_ot=True), '"went_ot"'),
        (lambda d: d["deals"][0]["sides"][0]["hand"].__setitem__(1, "1H"), '"1H"'),
    ],
)
def test_malformed_documents_are_refused_with_the_path(stdin, change, mentions):
    doc = json.loads(json.dumps(BURRACO))
    change(doc)
    stdin(doc)
    with pytest.raises(CommandError) as exc:
        call_command("score", "-", stdout=StringIO())
    assert mentions in str(exc.value)


def test_bad_json_and_missing_file_are_refused(stdin, tmp_path):
    stdin("{not json")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("score", "-", stdout=StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        call_command("score", str(tmp_path / "missing.json"), stdout=StringIO())


def test_score_touches_no_database(score):
    # No django_db mark: pytest-django makes any database access here an error.
    assert score(BURRACO)["totals"] == [360, 25]


# --- input that is not text, or output that cannot show it: a refusal, never a traceback --------


def run_score_env(text: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        [sys.executable, "manage.py", "score", *args],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, **env},
    )


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda d: d.update(players=["Anna", "Babis\ud800", "Chris", "Dora"]), "player 2: "),
        (lambda d: d.update(rules={"target": 100, "t\udfff": 1}), 'rules, "t\\udfff": '),
        (
            lambda d: d["deals"][0]["sides"][0]["hand"].append("\udc00"),
            "deal 1, side 1, hand, card 3: ",
        ),
    ],
    ids=["name", "key", "card"],
)
def test_half_a_character_exits_1_with_its_place_and_no_traceback(change, refusal):
    """JSON's "\\ud800" (a lone surrogate) anywhere: exit 1, the place and the reason on
    standard error (was a traceback when the document was printed)."""
    doc = json.loads(json.dumps(BURRACO))
    change(doc)
    run = run_score_env(json.dumps(doc), "-")
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == 1, stderr
    assert run.stdout == b""
    assert f"refused: {refusal}" in stderr and "half of a character" in stderr
    assert "Traceback" not in stderr


def test_a_terminal_that_is_not_utf8_gets_the_document_with_escapes():
    """Greek names to a terminal (or pipe) that cannot show them: the same JSON, its text
    written as \\u escapes; standard input is read as UTF-8 whatever the terminal says."""
    doc = json.loads(json.dumps(BURRACO))
    doc["players"] = ["Άννα", "Μπάμπης", "Χρήστος", "Ντόρα"]
    run = run_score_env(json.dumps(doc, ensure_ascii=False), "-", PYTHONIOENCODING="ascii")
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout.isascii()
    assert json.loads(run.stdout)["players"] == doc["players"]


def test_an_indent_that_is_no_layout_is_refused_by_the_arguments():
    run = run_score_env(json.dumps(BURRACO), "-", "--indent", "100000000")
    assert run.returncode == 2
    assert b"a number of spaces from 0 to 8" in run.stderr and b"Traceback" not in run.stderr
