"""The catalogues as the tests read them: a small reader of GNU gettext's ``.po`` files (no
polib: the tests need the entries, their flags and whether each is translated, nothing
more), and the catalogues compiled into a folder of the test's own (never ``locale/``)."""

from __future__ import annotations

import ast
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.utils.translation import to_locale

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
#: The languages beside English, the source language.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalogue(language: str, locale: Path = LOCALE) -> Path:
    return locale / to_locale(language) / "LC_MESSAGES" / "django.po"


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())

    def __str__(self) -> str:
        return f"{self.msgid!r} (context {self.msgctxt!r})" if self.msgctxt else repr(self.msgid)


def _string(text: str) -> str:
    """A quoted string of a ``.po`` file (C escapes, as in Python's)."""
    return ast.literal_eval(text)


def read_po(path: Path) -> list[Entry]:
    """The entries of a catalogue, without its header and its obsolete ones (``#~``)."""
    entries: list[Entry] = []
    entry, part = Entry(), None

    def finish() -> None:
        nonlocal entry, part
        if part is not None and entry.msgid:
            entries.append(entry)
        entry, part = Entry(), None

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            finish()
        elif line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue  # comments, references, and the obsolete entries (#~)
        elif line.startswith('"'):
            value = _string(line)
            if part == "msgid":
                entry.msgid += value
            elif part == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + value
            elif part == "msgid_plural":
                entry.msgid_plural = (entry.msgid_plural or "") + value
            elif isinstance(part, int):
                entry.msgstr[part] += value
        else:
            keyword, _space, value = line.partition(" ")
            if keyword.startswith("msgstr["):
                part = int(keyword[7:-1])
                entry.msgstr[part] = _string(value)
            elif keyword == "msgstr":
                part = 0
                entry.msgstr[0] = _string(value)
            elif keyword in {"msgid", "msgctxt", "msgid_plural"}:
                if keyword == "msgctxt" or (keyword == "msgid" and part not in (None, "msgctxt")):
                    finish()
                part = keyword
                setattr(entry, keyword, _string(value))
            else:
                raise ValueError(f"{path}: cannot read {line!r}")
    finish()
    return entries


def compile_catalogues(into: Path, locale: Path = LOCALE) -> Path:
    """Every catalogue compiled (``msgfmt --check``, as ``make install`` does) into ``into``,
    laid out as a ``LOCALE_PATHS`` folder."""
    for language in TRANSLATED:
        mo = into / to_locale(language) / "LC_MESSAGES" / "django.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["msgfmt", "--check", "-o", str(mo), str(catalogue(language, locale))],
            check=True,
            capture_output=True,
        )
    return into
