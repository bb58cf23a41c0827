"""Player names: one spelling in, one key for the person, refused when a name hides something,
and drawn isolated so that a name in another script never reorders the line around it.

Every way a name comes in (the new-match form, an imported document, :class:`Player` itself)
goes through :func:`normalize` (NFC, spaces collapsed and trimmed) and :func:`refusal`:

- refused: control characters, Unicode's Default_Ignorable_Code_Point set (soft hyphen, zero
  width spaces and joiners, the Hangul fillers, variation selectors, tags, ...), every other
  format character (category Cf, e.g. U+0600 ARABIC NUMBER SIGN), surrogates, private-use and
  unassigned code points (noncharacters included). Direction controls (U+061C, U+200E-U+200F,
  U+202A-U+202E, U+2066-U+2069) have a refusal of their own: names are isolated when drawn
  (:func:`isolate`), no name needs them.
- accepted, because real names need them, only where they do something visible: ZWNJ U+200C
  and ZWJ U+200D after a virama (Indic and Sinhala conjuncts: "ශ්‍රී") or between two letters
  of a joining script (Persian "خانه‌ای"); ZWJ between two emoji ("👩‍👩‍👧", "🏳️‍🌈");
  VS15/VS16 (U+FE0E/U+FE0F, text or emoji presentation) after a symbol or punctuation
  character, or in a keycap ("1️⃣"); the tags of the three subdivision flags
  ("🏴󠁧󠁢󠁳󠁣󠁴󠁿").

:func:`key` is what makes two spellings one person (of one owner, and at one table): NFKC and
case folded (fullwidth "Ａｎｎａ" = "ANNA" = "anna", the comparison RFC 8266 gives nicknames),
without the joiners and presentation selectors accepted above ("👍️" = "👍").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.html import escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext

from scorekeeper.rules.errors import RuleError

#: The longest name, in code points, after :func:`normalize`.
NAME_MAX = 40
#: :func:`key` makes one code point at most this many (U+FDFA, an Arabic ligature, is 18).
KEY_GROWTH = 18
KEY_MAX = NAME_MAX * KEY_GROWTH

ZWNJ = "\u200c"
ZWJ = "\u200d"
VS15 = "\ufe0e"
VS16 = "\ufe0f"
KEYCAP = "\u20e3"
#: Invisible characters a name may hold where they do something; the key ignores them.
JOINERS = frozenset({ZWNJ, ZWJ})
PRESENTATION = frozenset({VS15, VS16})
_KEY_DROPS = dict.fromkeys(map(ord, JOINERS | PRESENTATION))

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1).
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: The characters that set or embed a direction (Bidi_Control).
DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Scripts whose letters join: ZWNJ and ZWJ between two of their letters change the shapes.
_JOINING_SCRIPTS = (
    "ARABIC ",
    "SYRIAC ",
    "NKO ",
    "MONGOLIAN ",
    "MANDAIC ",
    "MANICHAEAN ",
    "PSALTER PAHLAVI ",
    "ADLAM ",
    "HANIFI ROHINGYA ",
    "SOGDIAN ",
    "OLD UYGHUR ",
    "CHORASMIAN ",
    "PHAGS-PA ",
)
_VIRAMA = 9  # canonical combining class
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
# England, Scotland, Wales: a black flag, tag letters, a cancel tag (UTS #51).
_FLAG_TAGS = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f")


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def normalize(name: str) -> str:
    """NFC, every run of spaces (any Unicode space, tab, line break) one space, trimmed."""
    return " ".join(unicodedata.normalize("NFC", str(name)).split())


def key(name: str) -> str:
    """The form of a name that makes two spellings the same person."""
    folded = unicodedata.normalize("NFKC", normalize(name))
    folded = unicodedata.normalize("NFKC", folded.casefold()).translate(_KEY_DROPS)
    return " ".join(folded.split())


def describe(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character a page cannot show, as people can read it."""
    label = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    return f"{label} {name}" if name else label


def _base_before(name: str, i: int) -> str:
    """The character before position ``i``, combining marks skipped."""
    j = i - 1
    while j >= 0 and unicodedata.category(name[j]).startswith("M"):
        j -= 1
    return name[j] if j >= 0 else ""


def _base_after(name: str, i: int) -> str:
    j = i + 1
    while j < len(name) and unicodedata.category(name[j]).startswith("M"):
        j += 1
    return name[j] if j < len(name) else ""


def _joining_letter(char: str) -> bool:
    return (
        bool(char)
        and unicodedata.category(char).startswith("L")
        and unicodedata.name(char, "").startswith(_JOINING_SCRIPTS)
    )


def _emoji(char: str) -> bool:
    return bool(char) and (unicodedata.category(char) == "So" or ord(char) in _EMOJI_MODIFIERS)


def _emoji_before(name: str, i: int) -> bool:
    j = i - 1
    while j >= 0 and name[j] in PRESENTATION:
        j -= 1
    return j >= 0 and _emoji(name[j])


def _joiner_does_something(name: str, i: int) -> bool:
    before = name[i - 1] if i else ""
    if before and unicodedata.combining(before) == _VIRAMA:
        return True
    if _joining_letter(_base_before(name, i)) and _joining_letter(_base_after(name, i)):
        return True
    return name[i] == ZWJ and _emoji_before(name, i) and _emoji(name[i + 1 : i + 2])


def _selector_does_something(name: str, i: int) -> bool:
    before = name[i - 1] if i else ""
    if not before:
        return False
    if before in "0123456789#*" and name[i] == VS16:
        return name[i + 1 : i + 2] == KEYCAP
    return unicodedata.category(before)[0] in "SP"


def _flag_tags(name: str) -> set[int]:
    """Positions of the tag characters that spell a subdivision flag."""
    return {i for m in _FLAG_TAGS.finditer(name) for i in range(m.start() + 1, m.end())}


def refusal(name: str, *, where: tuple[str, ...] = ()) -> RuleError | None:
    """Why ``name`` (already :func:`normalize`\\ d) cannot be a player's name, or None.

    Only the characters: the length and whether a table already has the name are
    :func:`check`'s."""
    flags = _flag_tags(name) if "\U0001f3f4" in name else set()
    for i, char in enumerate(name):
        category = unicodedata.category(char)
        if category == "Cc":
            return RuleError(
                "name_control",
                gettext("a name may not contain control characters ({char})"),
                char=describe(char),
                where=where,
            )
        if char in DIRECTION_CONTROLS:
            return RuleError(
                "name_direction",
                gettext(
                    "a name may not contain characters that change the writing direction ({char})"
                ),
                char=describe(char),
                where=where,
            )
        if char in JOINERS and _joiner_does_something(name, i):
            continue
        if char in PRESENTATION and _selector_does_something(name, i):
            continue
        if i in flags:
            continue
        if category == "Cf" or is_default_ignorable(char):
            return RuleError(
                "name_invisible",
                gettext("a name may not contain invisible characters ({char})"),
                char=describe(char),
                where=where,
            )
        if category == "Cs":
            return RuleError(
                "name_surrogate",
                gettext(
                    "a name may not contain a lone surrogate ({char}): the text was not "
                    "encoded correctly"
                ),
                char=describe(char),
                where=where,
            )
        if category == "Co":
            return RuleError(
                "name_private_use",
                gettext(
                    "a name may not contain private-use characters ({char}): they look "
                    "different on every phone"
                ),
                char=describe(char),
                where=where,
            )
        if category == "Cn":
            return RuleError(
                "name_unassigned",
                gettext(
                    "a name may not contain {char}: this site does not know that character "
                    "(it knows Unicode {version})"
                ),
                char=describe(char),
                version=unicodedata.unidata_version,
                where=where,
            )
    return None


def check(names: Sequence[Any]) -> None:
    """What the site asks of the names of one table, seat by seat: characters it can show and
    store, a length it stores, no one twice (by :func:`key`). Non-strings and empty names are
    left to the rules core, which refuses them. Raises :class:`RuleError` with
    ``where=("players[i]",)``."""
    seen: dict[str, int] = {}
    for i, raw in enumerate(names):
        if not isinstance(raw, str):
            continue
        name = normalize(raw)
        where = (f"players[{i}]",)
        problem = refusal(name, where=where)
        if problem is not None:
            raise problem
        if len(name) > NAME_MAX:
            raise RuleError(
                "name_too_long",
                gettext("a name may have at most {limit} characters"),
                limit=NAME_MAX,
                where=where,
            )
        if not name:
            continue
        person = key(name)
        if person in seen:
            raise RuleError(
                "duplicate_player",
                gettext("{name} is named twice (in seat {seat} and in seat {again})"),
                name=f'"{name}"',
                seat=seen[person] + 1,
                again=i + 1,
                where=where,
            )
        seen[person] = i


def validate(value: object) -> None:
    """The model field's validator (the admin, ``full_clean``): :func:`refusal` as a
    :class:`ValidationError`."""
    problem = refusal(normalize(str(value)))
    if problem is not None:
        raise ValidationError(problem.text, code=problem.code)


# ---------------------------------------------------------------------------------------------
# Drawing names isolated


def names_of(source: Any) -> tuple[str, ...]:
    """The names of the players a message about ``source`` may quote. A side's name
    ("Anna & Chris") is isolated player by player: the page's "&" between two names in two
    scripts keeps the page's order, each name its own.

    ``source``: a match (its seated players), a match document (its ``players``), a form with
    seats (what was typed in them), or a list of names."""
    if source is None or source == "":
        return ()
    cached = getattr(source, "_names_shown", None)
    if cached is not None:
        return cached
    if isinstance(source, dict):
        players = [p for p in source.get("players") or [] if isinstance(p, str)]
    elif hasattr(source, "seated_players"):
        players = [p.name for p in source.seated_players]
    elif hasattr(source, "seats") and hasattr(source, "data"):  # the new-match form
        players = [str(source.data.get(f"player_{s}") or "") for s in range(source.seats)]
        players = [normalize(p) for p in players]
    elif isinstance(source, str):
        players = [source]
    else:
        players = [str(p) for p in source]
    found = tuple(dict.fromkeys(n for n in players if n))
    try:
        source._names_shown = found
    except (AttributeError, TypeError):
        pass
    return found


def bdi(name: object) -> SafeString:
    """A name, escaped and isolated: ``<bdi>דנה</bdi>``."""
    return format_html("<bdi>{}</bdi>", name)


#: Unicode's first-strong isolate and its end: :func:`bdi` for text that holds no markup.
FSI, PDI = "\u2068", "\u2069"


def isolated_text(name: object) -> str:
    """A name isolated in text that holds no markup (an SVG's ``<desc>``, a ``title``): the
    Unicode isolates around it, as ``<bdi>`` does in HTML."""
    return f"{FSI}{name}{PDI}"


@functools.lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    longest_first = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")


def isolate(text: object, names: Iterable[str]) -> SafeString:
    """``text`` (a message in plain text) escaped, with every one of ``names`` in it isolated
    in ``<bdi>``. Text that is already HTML (safe) is returned as it is."""
    if isinstance(text, SafeData):
        return text  # type: ignore[return-value]
    text = "" if text is None else str(text)
    names = tuple(sorted({n for n in names if n}))
    if not names or not text:
        return escape(text)
    out: list[str] = []
    position = 0
    for found in _names_pattern(names).finditer(text):
        out.append(escape(text[position : found.start()]))
        out.append(bdi(found.group()))
        position = found.end()
    out.append(escape(text[position:]))
    return mark_safe("".join(out))


def sentence(template: str, **names: str) -> SafeString:
    """A sentence built around names (``_("Welcome, %(name)s!")``), as HTML with the names
    isolated: for messages shown on the next page."""
    return isolate(template % names, names.values())
