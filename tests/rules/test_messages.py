"""Rule messages can be translated later: each is a stable code plus a fixed English template
with named placeholders (the template is the message id), never text assembled in code."""

import ast
import pathlib
import string

from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import EXCERPT_MAX, RuleError, excerpt

RULES = pathlib.Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"


def message_calls():
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in ("RuleError", "Notice") and len(node.args) >= 2:
                yield f"{path.relative_to(RULES)}:{node.lineno}", node


def literal(node: ast.expr) -> str | None:
    """The string a template expression always has, or None when it is passed through."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def test_every_message_has_a_snake_case_code_and_a_fixed_template():
    bad = []
    calls = list(message_calls())
    assert len(calls) > 50
    for where, call in calls:
        code, template = call.args[0], call.args[1]
        if isinstance(code, ast.Constant):
            if not (isinstance(code.value, str) and code.value.isidentifier()):
                bad.append(f"{where}: code {code.value!r}")
        elif not isinstance(code, ast.Name | ast.Attribute | ast.JoinedStr):
            bad.append(f"{where}: the code is computed")  # f"{key}_sum" is a fixed family
        if isinstance(template, ast.JoinedStr | ast.BinOp | ast.Call):
            bad.append(f"{where}: the template is assembled in code (an f-string or +)")
    assert bad == []


def test_templates_use_only_named_placeholders():
    bad = []
    for where, call in message_calls():
        text = literal(call.args[1])
        if text is None:
            continue
        fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
        if any(not f.isidentifier() for f in fields):
            bad.append(f"{where}: {text!r}")
    assert bad == []


# --- a message quotes a short excerpt of what it refuses ----------------------------------------


def test_an_excerpt_is_cut_with_its_closing_mark_kept():
    assert excerpt("short") == "short"
    cut = excerpt("x" * 1000)
    assert len(cut) == EXCERPT_MAX and cut.endswith("x…")
    quoted = excerpt('"' + "a" * 1000 + '"')
    assert len(quoted) == EXCERPT_MAX and quoted.startswith('"a') and quoted.endswith('a…"')
    place = excerpt("meld 1 (" + "AD " * 1000 + ")")
    assert len(place) == EXCERPT_MAX and place.startswith("meld 1 (AD") and place.endswith("…)")
    assert excerpt(10**500).endswith("0…") and len(excerpt(10**500)) == EXCERPT_MAX


def test_an_excerpt_shows_half_a_character_as_its_escape():
    assert excerpt("Ann\ud800a") == "Ann\\ud800a"
    assert excerpt("Ελένη") == "Ελένη"  # whole characters stay as they are
    assert len(excerpt("\udfff" * 1000)) == EXCERPT_MAX
    excerpt("\udfff" * 1000).encode("utf-8")


def test_every_parameter_and_place_of_a_message_is_an_excerpt():
    meld = "meld 1 (" + " ".join(["AD", "2D", "3D", "JK"] * 50_000) + ")"
    error = RuleError(
        "two_wilds", "{name} is named twice {wilds}", name='"' + "N" * 10**6 + '"',
        wilds="\ud800", where=("deal 1", "Anna " * 10**5, meld),
    )  # fmt: skip
    assert len(error.message) < 4 * EXCERPT_MAX + 100
    assert len(error.text) < 2 * EXCERPT_MAX + 100
    assert [len(w) for w in error.shown_where] == [6, EXCERPT_MAX, EXCERPT_MAX]
    assert error.shown_where[2].startswith("meld 1 (AD 2D 3D JK")
    error.message.encode("utf-8")  # the lone surrogate is shown as \ud800
    assert "\\ud800" in error.text
    # the places themselves are kept whole for whoever reads them (a form field, a deal number)
    assert error.where[2] == meld
    assert error.as_dict()["where"] == list(error.shown_where)


def test_a_200_000_card_meld_is_refused_in_a_few_hundred_characters():
    cards = ["AD", "2D", "3D", "JK"] * 50_000
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": ["Anna", "Babis"],
        "deals": [
            {
                "trump": "H",
                "sides": [
                    {"melds": [cards], "hand": [], "took_pot": True},
                    {"melds": [], "hand": [], "took_pot": True},
                ],
            }
        ],
    }
    try:
        rules_match.score_document(doc)
    except RuleError as error:
        refused = error
    assert refused.shown_where[:2] == ("deal 1", "Anna")
    assert refused.shown_where[2].startswith("meld 1 (AD 2D 3D JK AD")
    assert len(refused.message) < 600


def test_a_long_key_or_name_is_quoted_in_part():
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": ["K" * 100_000, "K" * 100_000],
        "deals": [],
    }
    for bad, code in ((doc, "duplicate_player"), ({**doc, "x" * 100_000: 1}, "unknown_key")):
        try:
            rules_match.parse_document(bad)
        except RuleError as error:
            assert error.code == code
            assert len(error.message) < 3 * EXCERPT_MAX
        else:
            raise AssertionError("not refused")
