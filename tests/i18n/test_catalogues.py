"""Every message of the code is in every catalogue, translated and not fuzzy; every catalogue
compiles under ``msgfmt --check``; and the site's languages are exactly its catalogues'.

The messages are extracted as the lead extracts them, with the project's ``makemessages``
(the rules core's ``RuleError``/``Notice`` templates too), but into a copy of the catalogues,
merged there by ``msgmerge``: a message of the code that no catalogue holds comes out
untranslated, one whose English changed comes out fuzzy. ``locale/`` is never written.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.conf import settings
from django.core.management import call_command

from scorekeeper.management.commands.makemessages import Command as MakeMessages
from tests.i18n.catalogues import LOCALE, ROOT, TRANSLATED, catalogue, read_po

#: Where the site's words are (``makemessages`` is run from a copy of them).
SOURCES = ("scorekeeper", "templates")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The catalogues as ``makemessages`` would leave them now, in a copy of the tree."""
    tree = tmp_path_factory.mktemp("tree")
    for folder in SOURCES:
        shutil.copytree(
            ROOT / folder,
            tree / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "static", "*.mo"),
        )
    shutil.copytree(LOCALE, tree / "locale", ignore=shutil.ignore_patterns("*.mo"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tree)
        patch.setattr(settings, "LOCALE_PATHS", [tree / "locale"])
        call_command(MakeMessages(), locale=TRANSLATED, verbosity=0)
    return tree / "locale"


def test_the_project_s_makemessages_finds_the_rules_messages():
    assert {"--keyword=RuleError:2", "--keyword=Notice:2"} <= set(MakeMessages.xgettext_options)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_code_is_translated_in_the_catalogue(extracted, language):
    committed = {e.key for e in read_po(catalogue(language))}
    merged = read_po(catalogue(language, extracted))
    assert merged, "makemessages extracted nothing"
    missing = [e for e in merged if e.key not in committed]
    fuzzy = [e for e in merged if e.key in committed and e.fuzzy]
    untranslated = [e for e in merged if e.key in committed and not e.fuzzy and not e.translated]
    said = []
    for what, entries in (
        ("missing from the catalogue", missing),
        ("fuzzy", fuzzy),
        ("untranslated", untranslated),
    ):
        if entries:
            said.append(f"{len(entries)} {what}:\n" + "\n".join(f"  {e}" for e in entries))
    assert not said, (
        f"locale/{language}/LC_MESSAGES/django.po does not hold every message of the code "
        f"(run the project's makemessages, translate, make install):\n" + "\n".join(said)
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_passes_msgfmt_check_with_every_message_translated(language, tmp_path):
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "django.mo")]
        + [str(catalogue(language))],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    statistics = checked.stderr.strip()
    assert "translated message" in statistics, statistics
    assert "fuzzy" not in statistics and "untranslated" not in statistics, statistics


def test_the_site_s_languages_are_its_catalogues():
    """A language is a line in ``settings.LANGUAGES`` and a catalogue, nothing else."""
    catalogued = {path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/django.po")}
    assert catalogued == {catalogue(code).parent.parent.name for code in TRANSLATED}
    assert settings.LANGUAGE_CODE == "en"  # the source language needs none


def test_the_reader_sees_what_is_missing_fuzzy_or_untranslated(tmp_path):
    """The test above can fail: the reader of catalogues tells each case apart."""
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: a.py:1\nmsgid "Done"\nmsgstr "Έγινε"\n\n'
        '#, fuzzy, python-format\nmsgid "%(n)s deal"\nmsgid_plural "%(n)s deals"\n'
        'msgstr[0] "%(n)s μοιρασιά"\nmsgstr[1] "%(n)s μοιρασιές"\n\n'
        'msgctxt "suit"\nmsgid "Hearts"\nmsgstr ""\n\n'
        'msgid "Two"\nmsgid_plural "Twos"\nmsgstr[0] "Δύο"\nmsgstr[1] ""\n\n'
        'msgid ""\n"long "\n"line"\nmsgstr "μακριά"\n\n'
        '#~ msgid "Gone"\n#~ msgstr "Φύγαμε"\n',
        encoding="utf-8",
    )
    entries = {e.key: e for e in read_po(po)}
    assert set(entries) == {
        (None, "Done"),
        (None, "%(n)s deal"),
        ("suit", "Hearts"),
        (None, "Two"),
        (None, "long line"),
    }
    assert entries[(None, "Done")].translated and not entries[(None, "Done")].fuzzy
    assert entries[(None, "%(n)s deal")].fuzzy and entries[(None, "%(n)s deal")].translated
    assert not entries[("suit", "Hearts")].translated
    assert not entries[(None, "Two")].translated
    assert entries[(None, "long line")].msgstr == {0: "μακριά"}
