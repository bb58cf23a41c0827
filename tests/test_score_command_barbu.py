"""`manage.py score` on Barbu documents, as a subprocess: exit 0 with the scored JSON, or exit 1
with the refusal (naming the deal) on standard error; warnings on standard error."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLASSIC_28 = ROOT / "tests" / "data" / "barbu" / "classic-28.json"


def run_score(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "score", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_classic_28_scores_from_a_file():
    run = run_score(str(CLASSIC_28))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["finished"] is True
    assert out["totals"] == [-255, 218, -303, 340]
    assert sum(out["totals"]) == 0
    assert out["winner"] == 3
    assert out == json.loads(CLASSIC_28.read_text(encoding="utf-8"))
    assert run.stderr == ""


def test_a_refused_document_exits_1_naming_the_deal_and_the_seat():
    doc = json.loads(CLASSIC_28.read_text(encoding="utf-8"))
    doc["deals"][9]["doubles"].append({"by": 1, "on": 3})  # Babis declares deal 10
    run = run_score("-", stdin=json.dumps(doc))
    assert run.returncode == 1
    assert run.stdout == ""
    assert "deal 10, Babis, double " in run.stderr
    assert "cannot double" in run.stderr


def test_warnings_go_to_standard_error_and_the_document_is_scored():
    doc = json.loads(CLASSIC_28.read_text(encoding="utf-8"))
    doc["rules"]["compulsory_doubles"] = "warn"
    # Dora doubles Anna only in Anna's last deal (deal 7): after deal 6 she cannot reach two.
    for deal in doc["deals"][:6]:
        deal["doubles"] = [d for d in deal["doubles"] if (d["by"], d["on"]) != (3, 0)]
    run = run_score("-", stdin=json.dumps(doc))
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("warning: deal 6, Dora, doubles: Dora must double Anna")
    out = json.loads(run.stdout)
    assert [i for i, d in enumerate(out["deals"]) if "warnings" in d["score"]] == [5]
    doc["rules"]["compulsory_doubles"] = "enforce"
    run = run_score("-", stdin=json.dumps(doc))
    assert run.returncode == 1
    assert "refused: deal 6, Dora, doubles: Dora must double Anna" in run.stderr
