"""Rule messages can be translated later: each is a stable code plus a fixed English template
with named placeholders (the template is the message id), never text assembled in code."""

import ast
import pathlib
import string

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
