"""Every word a rule message can show has a translation in each catalogue: the rules core's
templates and ``Words``, the plural forms of :data:`scorekeeper.rule_messages.PLURALS`, and the
renderer's own words (places, lists, quoted options) and scorekeeper/labels.py.

The catalogues are translated by the lead once the code is written (issue 9): until then this
test fails, listing what is missing in each language, and passes once they are complete."""

from __future__ import annotations

import ast
import gettext as gnu
import pathlib
import subprocess

import pytest

from tests.rule_messages.conftest import ROOT, rules_words

SITE = [ROOT / "scorekeeper" / "rule_messages.py", ROOT / "scorekeeper" / "labels.py"]
CATALOGUES = ("el", "it", "fr")
CONTEXT = "\x04"


def site_words() -> set[str | tuple[str, int]]:
    """The catalogue keys of the renderer's own gettext calls (``pgettext``: context and
    msgid; ``ngettext``: the singular, as a plural entry)."""
    keys: set[str | tuple[str, int]] = set()
    for path in SITE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            texts = [t for t in texts if isinstance(t, str)]
            if name in ("gettext", "_") and texts:
                keys.add(texts[0])
            elif name in ("pgettext", "pgettext_lazy") and len(texts) >= 2:
                keys.add(f"{texts[0]}{CONTEXT}{texts[1]}")
            elif name == "ngettext" and texts:
                keys.add((texts[0], 0))
    return keys


def compiled(language: str, tmp: pathlib.Path) -> dict:
    """The catalogue as msgfmt compiles it: untranslated and fuzzy entries left out."""
    po = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
    mo = tmp / f"{language}.mo"
    # GNU gettext's msgfmt, which the build uses too (make install)
    subprocess.run(["msgfmt", "-o", str(mo), str(po)], check=True, capture_output=True)
    with mo.open("rb") as f:
        return gnu.GNUTranslations(f)._catalog  # type: ignore[attr-defined]


def test_the_words_are_found_where_makemessages_looks():
    templates, words, _passed = rules_words()
    assert len(templates) > 80 and {"a list", "a rules object"} <= words
    assert any(isinstance(k, tuple) for k in site_words())  # the plural entries are seen


@pytest.mark.parametrize("language", CATALOGUES)
def test_every_rule_message_word_is_translated(language, tmp_path):
    templates, words, _passed = rules_words()
    catalogue = compiled(language, tmp_path)
    wanted: set[str | tuple[str, int]] = {*templates, *words, *site_words()}
    missing = sorted(
        (k if isinstance(k, str) else f"{k[0]} (plural)").replace(CONTEXT, " | ")
        for k in wanted
        if k not in catalogue
    )
    assert not missing, f"{len(missing)} not translated in {language}:\n" + "\n".join(missing)
