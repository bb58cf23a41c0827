"""``import_match`` and ``export_match``."""

import io
import json

import pytest
from django.core.management import ManagementUtility, base, call_command
from django.core.management.base import CommandError

from scorekeeper.history.document import changes_export
from scorekeeper.models import Deal, Match, Player
from scorekeeper.selectors import match_scored
from tests.test_services import example

pytestmark = pytest.mark.django_db


def write(tmp_path, document) -> str:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_import_match_prints_the_new_id(tmp_path, user):
    out = io.StringIO()
    call_command("import_match", write(tmp_path, example("barbu-ex4")), owner="anna", stdout=out)
    match = Match.objects.get()
    assert out.getvalue().strip() == str(match.pk)
    assert match.owner == user and match.deal_count == 1


def test_import_match_refused_names_the_place_and_stores_nothing(tmp_path, user):
    document = example("burraco-ex1")
    document["deals"][0]["sides"][0]["hand"].append("1H")
    with pytest.raises(CommandError) as refused:
        call_command("import_match", write(tmp_path, document), owner="anna")
    assert "refused, nothing stored: deal 1, Anna & Chris, hand" in str(refused.value)
    assert '"1H"' in str(refused.value)
    assert (Match.objects.count(), Player.objects.count(), Deal.objects.count()) == (0, 0, 0)


def test_import_match_needs_a_known_owner_and_json(tmp_path, user):
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("import_match", write(tmp_path, example("barbu-ex4")), owner="nobody")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_match", str(bad), owner="anna")
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "content",
    [("[" * 100_000 + "]" * 100_000).encode(), b"1" * 5_000, '{"game": "\xe9"}'.encode("latin-1")],
    ids=["nested", "long-number", "latin-1"],
)
def test_import_match_refuses_a_file_python_cannot_read_without_a_traceback(
    tmp_path, user, content
):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(CommandError, match="bad.json: "):
        call_command("import_match", str(bad), owner="anna")
    assert Match.objects.count() == 0


def test_import_match_reads_a_file_saved_with_a_byte_order_mark(tmp_path, user):
    """As the import page does: editors on Windows write one."""
    path = tmp_path / "bom.json"
    path.write_text(json.dumps(example("barbu-ex4")), encoding="utf-8-sig")
    call_command("import_match", str(path), owner="anna", stdout=io.StringIO())
    assert Match.objects.count() == 1


def test_export_match_prints_the_scored_document(make_match):
    match = make_match("biriba", deals=3)
    out = io.StringIO()
    call_command("export_match", str(match.pk), stdout=out)
    expected = {**match_scored(match)[2], "changes": changes_export(match)}
    assert json.loads(out.getvalue()) == expected
    with pytest.raises(CommandError, match="no match"):
        call_command("export_match", str(match.pk + 100))


def test_import_then_export_round_trip_through_the_commands(tmp_path, user):
    out = io.StringIO()
    call_command("import_match", write(tmp_path, example("biriba-ex2")), owner="anna", stdout=out)
    exported = io.StringIO()
    call_command("export_match", out.getvalue().strip(), stdout=exported)
    first = json.loads(exported.getvalue())
    out = io.StringIO()
    call_command("import_match", write(tmp_path, first), owner="anna", stdout=out)
    exported = io.StringIO()
    call_command("export_match", out.getvalue().strip(), stdout=exported)
    assert json.loads(exported.getvalue()) == first


def test_import_match_exits_1_when_refused(tmp_path, user, capsys, monkeypatch):
    """As ``manage.py`` runs it: a refused document exits 1 with the reason on standard error."""
    # manage.py closes the database connections when a command ends: keep the test's open
    monkeypatch.setattr(base.connections, "close_all", lambda: None)
    document = example("barbu-ex2")
    document["deals"][0]["queens"] = [1, 1, 1, 2]
    path = write(tmp_path, document)
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", "import_match", path, "--owner", "anna"]).execute()
    assert exit_.value.code == 1
    captured = capsys.readouterr()
    assert "refused, nothing stored: deal 1" in captured.err
    assert captured.out == ""
    assert Match.objects.count() == 0


# --- input that is not text, arguments that are not numbers: a refusal, never a traceback -----


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda d: d["players"].__setitem__(1, "Babis\ud800"), "player 2"),
        (lambda d: d.update({"\ud800": 1}), '"\\ud800"'),
        (lambda d: d.setdefault("rules", {}).update({"x\udfff": 1}), 'rules, "x\\udfff"'),
    ],
    ids=["name", "key", "rule"],
)
def test_import_match_refuses_half_a_character_with_exit_1(
    tmp_path, user, capsys, monkeypatch, change, place
):
    monkeypatch.setattr(base.connections, "close_all", lambda: None)
    document = example("biriba-ex1")
    change(document)
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(
            ["manage.py", "import_match", write(tmp_path, document), "--owner", "anna"]
        ).execute()
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert f"refused, nothing stored: {place}: " in err and "surrogate" in err
    assert "Traceback" not in err
    assert (Match.objects.count(), Player.objects.count()) == (0, 0)


@pytest.mark.parametrize("match_id", ["²", "٣", "0", "-1", "9" * 30, "one"])
def test_export_match_refuses_an_id_that_is_not_one(make_match, capsys, match_id):
    make_match("biriba", deals=1)
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", "export_match", match_id]).execute()
    assert exit_.value.code == 2
    assert "a match id is a whole number from 1" in capsys.readouterr().err


def test_export_match_to_an_output_that_cannot_show_greek(make_match):
    from scorekeeper.management.commands.score import write_json

    match = make_match("biriba", players=["Άννα", "Μπάμπης"])
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    call_command("export_match", str(match.pk), stdout=stream)
    stream.flush()
    assert json.loads(raw.getvalue())["players"] == ["Άννα", "Μπάμπης"]
    out = base.OutputWrapper(io.StringIO())
    write_json(out, {"name": "Άννα"}, indent=0)  # an output that can: written as it is
    assert "Άννα" in out._out.getvalue()
