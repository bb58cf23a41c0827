"""The words the rules core gives the site to translate, found in its source (as makemessages
finds them: the template of every ``RuleError``, ``Notice`` and ``Refusal``, and ``Words``)."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = ROOT / "scorekeeper" / "rules"


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def rules_words() -> tuple[set[str], set[str], list[str]]:
    """The templates, the ``Words``, and each call whose template is not written out."""
    templates: set[str] = set()
    words: set[str] = set()
    passed: list[str] = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in ("RuleError", "Notice", "Refusal") and len(node.args) >= 2:
                text = _literal(node.args[1])
                if text is None:
                    passed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                else:
                    templates.add(text)
            elif name == "Words" and node.args:
                text = _literal(node.args[0])
                if text is not None:
                    words.add(text)
    return templates, words, passed


@pytest.fixture(scope="session")
def rules_templates() -> set[str]:
    return rules_words()[0]
