"""Every page of the site, in each of its languages, for a match of each game: no English
message of the catalogue is left on a Greek, Italian or French page, and ``<html lang>`` says
the page's language. And a refusal of each kind (a meld on the rummy pad, a Barbu double, an
import, an option of a new match), shown through the pages, reads in the page's language,
without English and without an internal code.

What counts as "shown": the page's text (tags dropped) and the words a player reads in its
attributes (``title``, ``aria-label``, ``placeholder``, ``alt``, the questions a key asks). The
English looked for is every msgid of ``locale/<lang>/LC_MESSAGES/django.po`` whose translation
differs from it; a msgid with placeholders is looked for by its literal pieces of two words or
more. The players' names are taken out first (they are the table's, not the site's words).
"""

from __future__ import annotations

import html
import io
import json
import re
from functools import cache

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper import services
from scorekeeper.models import Match, MatchChange, Player
from scorekeeper.sharing.services import share_link_get_or_create
from tests.browser.test_languages_browser import BIRIBA, BURRACO
from tests.conftest import PLAYERS4, draft_of, press, rummy_deal, run
from tests.i18n.catalogues import TRANSLATED, catalogue, read_po
from tests.test_services import example

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", *TRANSLATED]

#: English msgids a translated page may show as they are, each for its reason. Kept small: a
#: msgid whose translation equals it (the games' names in Italian and French, "OK"…) is left
#: out without being listed here.
ALLOWED = {
    # The language picker names each language in its own language (lang="en"), on every page.
    "English",
}
ALLOWED_IN = {
    # French says "le score" too ("Évolution du score"); the English msgid "score" is the
    # kind of a share link (models.ShareLink), translated "marquer" there.
    "fr": {"score"},
    # The glossary's Greek keeps the Italian word for the meld ("καθαρό burraco"), written
    # "Burraco" at the start of a sentence; the game itself is "Μπουράκο" (and "Biriba",
    # always "Μπιρίμπα", is still looked for).
    "el": {"Burraco"},
}

#: A placeholder of a msgid: %(name)s, %s, %d, {name}.
PLACEHOLDER = re.compile(r"%\([^)]*\)[sd]|%[sd]|\{[^}]*\}")
#: Attributes whose words a player reads or hears.
READ_ATTRIBUTES = re.compile(
    r'\s(?:title|aria-label|placeholder|alt|data-ask|hx-confirm|data-offline-message)="([^"]*)"'
)
#: A rule's code or a JSON key (``no_hearts``, ``melds[0]``), and a card written as a code.
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\w\[\d+\]")
CARD_CODE = re.compile(r"(?<![\w%])(?:10|[2-9AJQK])[SHDC](?!\w)")


@cache
def english_of(language: str) -> tuple[tuple[str, re.Pattern], ...]:
    """The English pieces of the catalogue a ``language`` page must not show, each with the
    pattern that finds it as words (not inside a longer word, an address, a file's name)."""
    pieces: dict[str, re.Pattern] = {}
    for entry in read_po(catalogue(language)):
        if not entry.translated:
            continue
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        translations = set(entry.msgstr.values())
        for source in sources:
            if source in translations:
                continue  # the same in both languages
            for piece in _pieces(source, whole=not PLACEHOLDER.search(source)):
                if piece in ALLOWED | ALLOWED_IN.get(language, set()) or piece in translations:
                    continue
                # as words, not inside an address or a file's name (/watch/, scorekeeper-match/1)
                pieces[piece] = re.compile(rf"(?<![\w/-]){re.escape(piece)}(?![\w/-])")
    return tuple(pieces.items())


def _pieces(source: str, *, whole: bool) -> list[str]:
    source = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(source)))
    if whole:
        return [source.strip()] if re.search(r"[A-Za-z]{2}", source) else []
    found = []
    for piece in PLACEHOLDER.split(source):
        piece = piece.strip(" :,.;·()«»\"'")
        if len(piece.split()) >= 2 and re.search(r"[A-Za-z]{2}", piece):
            found.append(piece)
    return found


def shown(content: str, names: list[str]) -> str:
    """The words of a page a player reads, its tags dropped, the players' names taken out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", content, flags=re.S)
    attributes = " | ".join(READ_ATTRIBUTES.findall(page))
    page = re.sub(r"</?bdi>", "", page)
    page = re.sub(r"<[^>]+>", " | ", page) + " | " + attributes
    page = html.unescape(page)
    for name in sorted(names, key=len, reverse=True):
        page = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " | ", page, flags=re.I)
    return re.sub(r"\s+", " ", page)


def english_on(language: str, content: str, names: list[str]) -> list[str]:
    words = shown(content, names)
    return sorted(piece for piece, pattern in english_of(language) if pattern.search(words))


def html_lang(content: str) -> str | None:
    found = re.search(r'<html lang="([^"]*)"', content)
    return found and found.group(1)


# --- the matches and the pages ----------------------------------------------------------------

NAMES = [*PLAYERS4, "anna", "babis"]


@pytest.fixture
def table(make_match, user, other_user):
    """A match of each game with a few deals: Biriba under the confirmation by the other side
    (its last deal waiting), Burraco, Barbu with doubles (one match in progress, one finished,
    which gives the players' pages their figures), and what their pages link to."""
    biriba = make_match("biriba", deals=2, confirmation=True)
    burraco = make_match("burraco", deals=2)
    barbu = make_match("barbu", deals=3)
    finished = make_match("barbu", deals=28)
    assert barbu.deals.get(number=1).data["doubles"]  # a deal with doubles
    assert Match.objects.get(pk=finished.pk).finished_at
    # Burraco for three: Babis alone against Anna & Chris in deal 1
    three = make_match("burraco", players=PLAYERS4[:3], rules={"three_players": "fibur"})
    services.deal_record(match=three, data={"solo": 1, **rummy_deal("burraco")})
    return {
        "biriba": biriba,
        "burraco": burraco,
        "barbu": barbu,
        "finished": finished,
        "burraco3": three,
    }


def match_pages(match: Match) -> list[str]:
    pages = [
        reverse("match_detail", args=[match.pk]),
        reverse("deal_breakdown", args=[match.pk, 1]),
        reverse("match_chart", args=[match.pk]),
        reverse("deal_edit", args=[match.pk, 1]),
        reverse("match_history", args=[match.pk]),
        reverse("match_share", args=[match.pk, "score"]),
        reverse("match_share", args=[match.pk, "watch"]),
        reverse("watch", args=[share_link_get_or_create(match=match, kind="watch").token]),
        reverse("match_sheet", args=[match.pk]),
        reverse("match_delete", args=[match.pk]),
    ]
    change = MatchChange.objects.filter(match=match).order_by("pk").last()
    if change is not None:
        pages.append(reverse("match_change", args=[match.pk, change.pk]))
    if not Match.objects.get(pk=match.pk).finished_at:
        pages.append(reverse("deal_new", args=[match.pk]))
    return pages


def site_pages(table) -> list[str]:
    player = Player.objects.filter(name="Anna").first()
    pages = [
        "/",
        reverse("match_new"),
        *(reverse("match_new") + f"?switch_game={game}" for game in ("biriba", "burraco", "barbu")),
        reverse("match_new") + "?game=burraco&switch_seats=3",
        reverse("match_import"),
        reverse("match_list"),
        reverse("player_list"),
        reverse("player_detail", args=[player.pk]),
        reverse("account"),
        reverse("account_delete"),
        reverse("account_data_import"),
        reverse("join_code"),
        "/no-such-page/",
        reverse("match_detail", args=[999_999]),
    ]
    for match in table.values():
        pages += match_pages(match)
    return pages


def get(client: Client, path: str, language: str):
    response = client.get(path, headers={"accept-language": language})
    assert response.status_code in (200, 404), (path, response.status_code)
    return response


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_speaks_its_language(auth_client, table, speaking, language):
    untranslated: dict[str, list[str]] = {}
    pages = site_pages(table)
    visitor = Client()  # the pages of someone not logged in
    responses = [(path, get(auth_client, path, language)) for path in pages]
    responses += [
        (path, get(visitor, path, language))
        for path in ("/", reverse("login"), reverse("signup"), "/no-such-page/")
    ]
    scoreboard = dict(responses)[reverse("match_detail", args=[table["biriba"].pk])]
    assert 'data-waiting="2"' in scoreboard.content.decode()  # a deal waits for the other side
    for path, response in responses:
        content = response.content.decode()
        assert html_lang(content) == language, path
        if language != "en":
            if found := english_on(language, content, NAMES):
                untranslated[path] = found
    assert not untranslated, untranslated


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_check_finds_a_string_shown_untranslated(language):
    """The check above can fail: an English message in the text, one with its placeholder
    filled, one in an attribute; and the players' names, an address, a file's name are not
    taken for English."""
    page = '<p>Enter deal 3</p><a href="/x/">✓</a><button title="Log in">→</button>'
    assert {"Enter deal", "Log in"} <= set(english_on(language, page, NAMES))
    page = "<p><bdi>Anna</bdi> &amp; <bdi>Chris</bdi></p><p>/watch/x/ scorekeeper-match/1</p>"
    assert english_on(language, page, NAMES) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_check_finds_the_english_of_a_real_page(auth_client, make_match, language):
    """Every English page of a match, read as if it were in ``language``, is full of what the
    check looks for: the catalogue's own words, as the pages show them."""
    match = make_match("barbu", deals=2)
    for path in match_pages(match):
        content = get(auth_client, path, "en").content.decode()
        assert len(english_on(language, content, NAMES)) >= 3, path


ENTRY_IN_USE = {
    # a deal entered on the rummy pad: the melds' readings, the hand, the pot, the verdict...
    "biriba": [
        BIRIBA,
        ["side:1", "mode:totals", "side:0", "went_out:1"],
    ],
    "burraco": [
        BURRACO,
        ["pot_no:0", "side:1", *run("S", "3 4 5 6 7 8 9"), "went_out:1"],
    ],
    # Barbu: the doubles opened and a redouble, the counts, another contract's own keys
    "barbu": [
        ["contract:no_tricks", "doubles:open", "double:1:0:1", "double:2:0:1", "focus:tricks:1"],
        ["contract:domino", "doubles:open"],
        ["contract:no_hearts"],
        ["contract:trumps", "trump:H", "step:tricks:0:+1"],
    ],
}


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", list(ENTRY_IN_USE))
def test_the_entry_pages_in_use_speak_their_language(
    auth_client, make_match, speaking, language, game
):
    """What the entry pages draw only once keys are pressed, as a full page and as a tap's
    answer: no English either."""
    match = make_match(game)  # deal 1: every contract still to declare
    auth_client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    url = reverse("deal_new", args=[match.pk])
    untranslated = {}
    for keys in ENTRY_IN_USE[game]:
        for htmx in (False, True):
            response = press(auth_client, url, "", *keys, htmx=htmx)
            content = response.content.decode()
            assert 'data-message="entry_unreadable"' not in content, keys
            if "doubles:open" in keys and not htmx:  # (a tap's answer keeps what it holds)
                assert 'data-doubles="open"' in content, keys
            if found := english_on(language, content, NAMES):
                untranslated[(keys[-1], htmx)] = found
    assert not untranslated, untranslated


# --- a refusal of each kind, through the pages ------------------------------------------------


def opening(language: str, msgid: str) -> str:
    """The words of ``msgid``'s translation before its first placeholder."""
    with translation.override(language):
        said = gettext(msgid)
    assert language == "en" or said != msgid, msgid
    return squeezed(re.split(r"\s*\(?\{", said)[0])


def squeezed(words: str) -> str:
    """Spaces as :func:`shown` leaves them (a no-break space is one too)."""
    return re.sub(r"\s+", " ", words).strip()


def refusal_is_in(language: str, response, *messages: str) -> str:
    """The page refuses with each of ``messages`` (msgids) in ``language``, and shows no English
    message of the catalogue, no rule's code or JSON key, no card by its code."""
    content = response.content.decode()
    words = shown(content, NAMES)
    for msgid in messages:
        assert opening(language, msgid) in words, msgid
    if language != "en":
        assert english_on(language, content, NAMES) == []
    assert not INTERNAL.findall(words), INTERNAL.findall(words)
    assert not CARD_CODE.findall(words), CARD_CODE.findall(words)
    return words


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_meld_refused_on_the_rummy_pad(auth_client, make_match, speaking, language):
    match = make_match("biriba")
    url = reverse("deal_new", args=[match.pk])
    auth_client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    keys = ["trump:S", *run("D", "A 2 3"), "joker", "rank:5", *run("C", "2"), *run("D", "7")]
    response = press(auth_client, url, "", *keys, htmx=False)
    wilds = "two wild cards in one meld ({wilds})"
    words = refusal_is_in(language, response, wilds, "Not a legal deal yet")
    assert "2♣" in words and 'class="emeld target illegal"' in response.content.decode()
    response = press(auth_client, url, draft_of(response), "save", htmx=False)
    refusal_is_in(language, response, wilds, "Not saved:")
    assert not match.deals.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_barbu_double_refused(auth_client, make_match, speaking, language):
    match = make_match("barbu")
    url = reverse("deal_new", args=[match.pk])
    auth_client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    keys = ["contract:trumps", "trump:S", "double:1:2:1", *["step:tricks:0:+1"] * 13]
    only = (
        "in the positive contract {contract} only the declarer {declarer} may be doubled, "
        "not {player}"
    )
    response = press(auth_client, url, "", *keys, htmx=False)
    refusal_is_in(language, response, only, "Not a legal deal yet")
    response = press(auth_client, url, draft_of(response), "save", htmx=False)
    refusal_is_in(language, response, only, "Not done:")
    assert not match.deals.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_import_refused(auth_client, speaking, language):
    document = example("biriba-ex1")
    document["deals"][0]["sides"][1]["melds"][0] = ["5C", "6C", "JK", "2D"]
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "match.json"
    response = auth_client.post(
        reverse("match_import"), {"file": upload}, headers={"accept-language": language}
    )
    assert response.status_code == 200
    words = refusal_is_in(language, response, "Refused, nothing was stored.")
    assert re.search(r"\b1\b", words)  # deal 1, meld 1: counted from 1
    assert not Match.objects.exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_option_refused_on_the_new_match_page(auth_client, speaking, language):
    data = {"game": "biriba", "seats": 4, "first_dealer": 0, "opt_target": 0}
    data |= {"opt_sets": "true", "opt_trump_doubles": "true", "opt_card_values": "standard"}
    data |= {"opt_whole_suit": "replaces", "opt_close_needs_clean_biriba": "false"}
    data |= {"opt_pot_needs_biriba": "false", "opt_going_out_bonus": 100}
    data |= {"opt_no_pot_penalty": 100}
    data |= {f"player_{i}": name for i, name in enumerate(PLAYERS4)}
    response = auth_client.post(reverse("match_new"), data, headers={"accept-language": language})
    assert response.status_code == 200
    refused = response.context["form"].errors["opt_target"]
    words = refusal_is_in(language, response)
    assert refused and all(squeezed(str(message)) in words for message in refused)
    assert not Match.objects.exists()
