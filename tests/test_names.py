"""Player names (scorekeeper.names): one spelling in, one key for the person, invisible and
direction characters refused with the seat named, and every name drawn isolated in <bdi>."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from scorekeeper import names, services
from scorekeeper.models import Match, Player, name_key
from scorekeeper.rules.errors import RuleError
from tests.conftest import HTMX, barbu_deal, draft_of, overwrite_deals, press, rummy_deal, run
from tests.test_services import counts, example
from tests.test_views import new_match_data

pytestmark = pytest.mark.django_db

# Hebrew, Arabic (a name ending in a digit, which bidi moves), a name with HTML in it, Greek
RTL4 = ["דנה", "أحمد 2", "R&B <i>", "Άννα"]


# --- normalising --------------------------------------------------------------------------------


def test_a_name_is_nfc_with_its_spaces_collapsed_and_trimmed():
    assert names.normalize("  Zoe\u0308 ") == "Zo\u00eb"  # a combining diaeresis composed
    assert names.normalize("Anna\u00a0\u3000 Maria\t\n") == "Anna Maria"  # any Unicode space
    assert names.normalize("\u0391\u0301\u03bd\u03bd\u03b1") == "\u0386\u03bd\u03bd\u03b1"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Anna", "ANNA"),
        ("Anna", " anna "),
        ("Anna", "\uff21\uff4e\uff4e\uff41"),  # fullwidth, as a Japanese keyboard types it
        ("Άννα", "ΆΝΝΑ"),
        ("Zoë", "ZOE\u0308"),
        ("Ⅱ Bob", "ii bob"),  # a Roman numeral, a compatibility form
        ("علی\u200cرضا", "علیرضا"),  # ZWNJ does not make another person
        ("👍\ufe0f", "👍"),  # emoji presentation or not, the same thumb
    ],
)
def test_two_spellings_of_one_person_have_one_key(one, other):
    assert name_key(one) == name_key(other) == names.key(one)


def test_different_people_have_different_keys():
    assert len({names.key(n) for n in ["Anna", "Anne", "Ana", "Άννα", "אנה", "Anna 2"]}) == 6


def test_no_character_folds_longer_than_the_key_column_allows():
    surrogates = range(0xD800, 0xE000)
    growth = max(len(names.key(chr(c))) for c in range(0x110000) if c not in surrogates)
    assert growth == names.KEY_GROWTH
    assert Player._meta.get_field("key").max_length == names.NAME_MAX * names.KEY_GROWTH


# --- refusing what a name may not hold ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code", "text"),
    [
        ("Anna\u200b", "name_invisible", "invisible characters (U+200B ZERO WIDTH SPACE)"),
        ("An\u00adna", "name_invisible", "invisible characters (U+00AD SOFT HYPHEN)"),
        ("\u3164", "name_invisible", "invisible characters (U+3164 HANGUL FILLER)"),
        ("Anna\ufeff", "name_invisible", "(U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
        ("Anna\u2060", "name_invisible", "(U+2060 WORD JOINER)"),
        ("Anna\U000e0041", "name_invisible", "(U+E0041 TAG LATIN CAPITAL LETTER A)"),
        ("a\u0600", "name_invisible", "(U+0600 ARABIC NUMBER SIGN)"),  # format, not ignorable
        ("An\u200dna", "name_invisible", "(U+200D ZERO WIDTH JOINER)"),  # joins nothing here
        ("Anna\u200c", "name_invisible", "(U+200C ZERO WIDTH NON-JOINER)"),
        ("Anna\ufe0f", "name_invisible", "(U+FE0F VARIATION SELECTOR-16)"),
        ("Anna\u202e", "name_direction", "writing direction (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("\u2067Anna", "name_direction", "(U+2067 RIGHT-TO-LEFT ISOLATE)"),
        ("Anna\u200f", "name_direction", "(U+200F RIGHT-TO-LEFT MARK)"),
        ("\u061cAnna", "name_direction", "(U+061C ARABIC LETTER MARK)"),
        ("Ba\x00bis", "name_control", "control characters (U+0000)"),
        ("Do\x1b[2Jra", "name_control", "control characters (U+001B)"),
        ("Anna\ud800", "name_surrogate", "a lone surrogate (U+D800)"),
        ("Anna\ue000", "name_private_use", "private-use characters (U+E000)"),
        ("Anna\U000f0000", "name_private_use", "(U+F0000)"),
        ("Anna\u0378", "name_unassigned", "U+0378: this site does not know that character"),
        ("Anna\ufffe", "name_unassigned", "U+FFFE"),  # a noncharacter
    ],
)
def test_a_name_hiding_a_character_is_refused_naming_it(name, code, text):
    refused = names.refusal(names.normalize(name), where=("players[1]",))
    assert refused is not None and refused.code == code
    assert text in refused.text and refused.message.startswith("players[1]: a name may not")
    refused.message.encode("utf-8")  # the message itself can always be written out


def test_every_default_ignorable_code_point_is_refused_inside_a_name():
    """Unicode's whole Default_Ignorable_Code_Point set, each between two letters (where
    none of them does anything)."""
    checked = 0
    for low, high in names.DEFAULT_IGNORABLE:
        for code in range(low, high + 1):
            refused = names.refusal(f"a{chr(code)}b")
            assert refused is not None, f"U+{code:04X}"
            assert refused.code in ("name_invisible", "name_direction"), f"U+{code:04X}"
            checked += 1
    assert checked == 4174


@pytest.mark.parametrize(
    "name",
    [
        "Anna",
        "Άννα Παπαδοπούλου",
        "דנה",
        "أحمد 2",
        "Zoë",
        "李小龍",
        "R&B <i>",
        "خانه\u200cای",  # Persian: ZWNJ between two joining letters
        "ශ්\u200dරී",  # Sinhala: ZWJ after the virama
        "क्\u200dष",  # Devanagari: ZWJ after the virama
        "👩\u200d👩\u200d👧",  # an emoji ZWJ sequence
        "🏳\ufe0f\u200d🌈",  # VS16 after an emoji, then ZWJ
        "❤\ufe0f Babis",
        "1\ufe0f\u20e3 Chris",  # a keycap
        "Ewan 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "Dora 👋🏽",  # a skin-tone modifier
    ],
)
def test_real_names_are_accepted(name):
    assert names.refusal(names.normalize(name)) is None
    names.check(["Chris", name])


def test_the_names_of_one_table_are_checked_seat_by_seat():
    with pytest.raises(RuleError) as refused:
        names.check(["Anna", "Babis", "\uff21\uff4e\uff4e\uff41", "Dora"])
    assert refused.value.code == "duplicate_player" and refused.value.where == ("players[2]",)
    assert refused.value.text == '"Ａｎｎａ" is named twice (in seat 1 and in seat 3)'
    with pytest.raises(RuleError) as refused:
        names.check(["Anna", "B" * 41])
    assert refused.value.code == "name_too_long"
    names.check(["A" + " " * 60 + "B", "", 7])  # spaces collapse; the rest is the rules core's


# --- through the services -------------------------------------------------------------------------


def test_anna_and_anna_with_a_zero_width_space_never_sit_at_one_table(user):
    for players in (["Anna", "Anna\u200b"], ["Anna\u200b", "Anna"]):
        with pytest.raises(RuleError) as refused:
            services.match_create(
                owner=user, game="burraco", players=players, first_dealer=0, rules={}
            )
        assert refused.value.code == "name_invisible"
    assert refused.value.message == (
        "players[0]: a name may not contain invisible characters (U+200B ZERO WIDTH SPACE)"
    )
    assert counts() == (0, 0, 0, 0)


def test_a_fullwidth_spelling_is_the_same_person_at_the_table_and_across_matches(user):
    with pytest.raises(RuleError) as refused:
        services.match_create(
            owner=user, game="burraco", players=["Anna", "ＡＮＮＡ"], first_dealer=0, rules={}
        )
    assert (refused.value.code, refused.value.where) == ("duplicate_player", ("players[1]",))
    first = services.match_create(
        owner=user, game="burraco", players=["Zoe\u0308", "  Babis  "], first_dealer=0, rules={}
    )
    assert [p.name for p in first.seated_players] == ["Zoë", "Babis"]
    again = services.player_get_or_create(owner=user, name="ＺＯＥ\u0308")
    assert again == first.seated_players[0] and Player.objects.count() == 2


@pytest.mark.parametrize(
    ("bad", "code"),
    [("Chr\u202eis", "name_direction"), ("Chr\ud800is", "name_surrogate")],
)
def test_import_refuses_a_hidden_character_with_the_seat_named(user, bad, code):
    document = example("biriba-ex1")
    document["players"][2] = bad
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert (refused.value.code, refused.value.where) == (code, ("players[2]",))
    refused.value.message.encode("utf-8")
    assert counts() == (0, 0, 0, 0)


def test_import_refuses_two_spellings_of_one_person_the_rules_core_would_let_in(user):
    document = example("biriba-ex1")
    document["players"][3] = "ＡＮＮＡ"
    document["players"][0] = "anna"
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=document)
    assert (refused.value.code, refused.value.where) == ("duplicate_player", ("players[3]",))
    assert counts() == (0, 0, 0, 0)


# --- on the new-match form ----------------------------------------------------------------------


def _seat_block(html: str, seat: int) -> str:
    """The seat's part of the table diagram: its label, field and errors."""
    blocks = [b.split('class="dealer-pick"')[0] for b in html.split('<div class="seat ')[1:]]
    found = [b for b in blocks if f'name="player_{seat}"' in b]
    assert len(found) == 1, html
    return found[0]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_refusal_shows_on_the_seat_field_of_the_new_match_form(auth_client, headers):
    data = new_match_data("burraco", players=["Anna", "Babis\u200b"])
    data |= {"opt_preset": "classic", "opt_target": "", "opt_semipulito": ""}
    response = auth_client.post("/matches/new/", data, headers=headers)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors == {
        "player_1": ["a name may not contain invisible characters (U+200B ZERO WIDTH SPACE)"]
    }
    seat = _seat_block(response.content.decode(), 1)
    assert "has-error" in seat and "Seat 2" in seat
    assert (
        '<p class="error" data-message="name_invisible">a name may not contain invisible '
        "characters (U+200B ZERO WIDTH SPACE)</p>"
    ) in seat
    assert "data-message" not in _seat_block(response.content.decode(), 0)
    assert Match.objects.count() == Player.objects.count() == 0


def test_the_new_match_form_sees_a_fullwidth_spelling_already_seated(auth_client):
    data = new_match_data("burraco", players=["אנה", "Babis", "Ａｎｎａ", "Anna"])
    data |= {"opt_preset": "classic", "opt_target": "", "opt_semipulito": ""}
    response = auth_client.post("/matches/new/", data)
    assert response.context["form"].errors == {"player_3": ["Anna already sits in seat 3."]}
    seat = _seat_block(response.content.decode(), 3)
    assert '<p class="error"><bdi>Anna</bdi> already sits in seat 3.</p>' in seat


# --- keys of the players stored before: the data migration --------------------------------------

BEFORE = ("scorekeeper", "0003_seats_restrict_player_key_longer")
AFTER = ("scorekeeper", "0004_player_keys_fold_compatibility_forms")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_recomputes_every_key_and_keeps_two_people_who_now_fold_alike():
    apps = _migrate(BEFORE)
    OldUser = apps.get_model("auth", "User")
    OldPlayer = apps.get_model("scorekeeper", "Player")
    anna = OldUser.objects.create(username="anna")
    babis = OldUser.objects.create(username="babis")
    # as the site stored them before: keys case folded only
    wide = OldPlayer.objects.create(owner=anna, name="Ａｎｎａ", key="ａｎｎａ")
    plain = OldPlayer.objects.create(owner=anna, name="Anna", key="anna")
    roman = OldPlayer.objects.create(owner=anna, name="Ⅱ Dora", key="ⅱ dora")
    theirs = OldPlayer.objects.create(owner=babis, name="ANNA", key="anna")
    try:
        _migrate(AFTER)
        keys = dict(Player.objects.values_list("pk", "key"))
        assert keys[wide.pk] == "anna"  # the older of the two keeps the plain key
        assert keys[plain.pk] == f"anna\x1f{plain.pk}"  # still a person of its own
        assert keys[roman.pk] == "ii dora" and keys[theirs.pk] == "anna"
        owner = User.objects.get(pk=anna.pk)
        assert services.player_get_or_create(owner=owner, name="anna").pk == wide.pk
        assert services.player_get_or_create(owner=owner, name="II DORA").pk == roman.pk
        _migrate(BEFORE)
        keys = dict(OldPlayer.objects.values_list("pk", "key"))
        assert keys == {
            wide.pk: "ａｎｎａ",
            plain.pk: "anna",
            roman.pk: "ⅱ dora",
            theirs.pk: "anna",
        }
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


# --- drawn isolated -----------------------------------------------------------------------------


def test_isolate_escapes_and_wraps_each_known_name():
    shown = names.isolate('deal 1, Anna & Chris, meld 1: "Ann" <b>', ["Anna", "Chris", "Ann"])
    assert isinstance(shown, SafeString)
    assert shown == (
        "deal 1, <bdi>Anna</bdi> &amp; <bdi>Chris</bdi>, meld 1: &quot;<bdi>Ann</bdi>&quot; "
        "&lt;b&gt;"
    )
    # the longest name first; a name inside a longer word is not a name
    assert names.isolate("Anna Maria, Annabel", ["Anna", "Anna Maria"]) == (
        "<bdi>Anna Maria</bdi>, Annabel"
    )
    assert names.isolate("R&B <i> wins", ["R&B <i>"]) == "<bdi>R&amp;B &lt;i&gt;</bdi> wins"
    already = mark_safe("<bdi>Anna</bdi> wins")
    assert names.isolate(already, ["Anna"]) is already  # HTML already: never escaped twice
    assert names.isolate("a < b", []) == "a &lt; b" and names.isolate(None, ["x"]) == ""


def test_a_sentence_built_around_a_name_is_html_with_the_name_isolated():
    assert names.sentence("Welcome, %(name)s!", name="<دنا>") == (
        "Welcome, <bdi>&lt;دنا&gt;</bdi>!"
    )


class _Outside(HTMLParser):
    """The text of a page outside <bdi>, <title> and attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("bdi", "title", "script"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("bdi", "title", "script"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            # text without markup (an SVG's <desc>) isolates a name with Unicode's isolates
            self.text.append(re.sub("\u2068[^\u2069]*\u2069", "", data))


def assert_isolated(html: str, players=RTL4) -> None:
    """Every player's name on the page is inside a <bdi>; nothing is escaped twice."""
    outside = _Outside()
    outside.feed(html)
    text = "".join(outside.text)
    for name in players:
        assert name not in text, (
            f"{name!r} drawn outside <bdi>: {text[text.find(name) - 80 :][:160]!r}"
        )
    assert "&amp;amp;" not in html and "&amp;lt;" not in html and "&amp;quot;" not in html
    assert "<i>" not in html  # a name's markup is text


def _match(user, game="biriba", players=RTL4, deals=0):
    match = services.match_create(owner=user, game=game, players=players, first_dealer=0, rules={})
    for i in range(deals):
        services.deal_record(match=match, data=rummy_deal(game, i))
    return match


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_rummy_scoreboard_draws_every_name_isolated(auth_client, user, headers):
    match = _match(user, deals=2)
    html = auth_client.get(reverse("match_detail", args=[match.pk]), headers=headers)
    html = html.content.decode()
    assert_isolated(html)
    assert "<bdi>דנה</bdi> &amp; <bdi>R&amp;B &lt;i&gt;</bdi>" in html  # a side, name by name
    assert "<strong><bdi>R&amp;B &lt;i&gt;</bdi></strong> deals" in html
    assert "<bdi>أحمد 2</bdi> dealt" in html


def test_the_barbu_scoreboard_draws_every_name_isolated(auth_client, user):
    document = example("barbu-ex2")
    document["players"] = list(RTL4)
    match = services.match_import(owner=user, document=document)
    html = auth_client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert_isolated(html)
    assert "<strong><bdi>דנה</bdi></strong> declares" in html
    # a deal's breakdown, loaded when its row is opened, or a page of its own
    for headers in ({}, HTMX):
        url = reverse("deal_breakdown", args=[match.pk, 1])
        breakdown = auth_client.get(url, headers=headers).content.decode()
        assert_isolated(breakdown)
        assert "<bdi>R&amp;B &lt;i&gt;</bdi> doubled <bdi>דנה</bdi>" in breakdown


def test_the_match_cards_on_home_draw_names_isolated(auth_client, user):
    _match(user, deals=1)
    _match(user, game="barbu", players=["Chris", "أحمد 2", "דנה", "Άννα"])
    for headers in ({}, HTMX):
        assert_isolated(auth_client.get("/", headers=headers).content.decode())


def test_the_rummy_pad_draws_names_isolated_in_tabs_verdicts_and_confirmations(auth_client, user):
    match = _match(user)
    url = reverse("deal_new", args=[match.pk])
    page = auth_client.get(url).content.decode()
    assert_isolated(page)
    # a meld the rules refuse: the verdict names the side
    keys = ["trump:S", *run("D", "A 2 3"), "joker", "rank:5", *run("C", "2"), *run("D", "7")]
    html = press(auth_client, url, "", *keys).content.decode()
    assert_isolated(html)
    assert (
        '<p class="verdict-why" id="why-not" data-message="two_wilds">deal 1, <bdi>דנה</bdi> '
        "&amp; <bdi>R&amp;B &lt;i&gt;</bdi>, meld 1 (A♦ 2♦ 3♦ joker 5♦ 2♣ 7♦)"
    ) in html
    # a legal deal with the second side empty, saved without JavaScript: the confirmation
    keys = ["reset:yes", "trump:S", *run("H", "3 4 5"), "pot:0", "side:1", "pot_no:1"]
    draft = draft_of(press(auth_client, url, "", *keys))
    asked = auth_client.post(url, {"draft": draft, "action": "save"}).content.decode()
    assert_isolated(asked)
    assert "Nothing entered for <bdi>أحمد 2</bdi> &amp; <bdi>Άννα</bdi> — save anyway?" in asked


def test_the_barbu_sheet_draws_names_isolated(auth_client, user):
    match = _match(user, game="barbu")
    url = reverse("deal_new", args=[match.pk])
    for action in ("contract:no_tricks", "contract:barbu"):
        response = press(auth_client, url, "", action)
        assert_isolated(response.content.decode())
    response = press(auth_client, url, "", "contract:no_queens", "double:1:0:1")
    html = response.content.decode()
    assert_isolated(html)
    assert "<bdi>أحمد 2</bdi>" in html


def test_a_refusal_on_the_import_page_names_the_side_isolated(auth_client):
    document = example("biriba-ex1")
    document["players"] = list(RTL4)
    document["deals"][0]["sides"][1]["melds"][0] = ["5C", "6C", "JK", "2D"]
    for headers in ({}, HTMX):
        response = auth_client.post(
            "/matches/import/", {"text": json.dumps(document)}, headers=headers
        )
        html = response.content.decode()
        assert '<div class="refusal" role="alert" data-message="two_wilds">' in html
        assert '<span class="chip"><bdi>أحمد 2</bdi> &amp; <bdi>Άννα</bdi></span>' in html
        assert "&amp;amp;" not in html
    assert Match.objects.count() == 0


def test_a_refusal_shown_as_a_message_on_the_next_page_has_its_names_isolated(auth_client, user):
    match = _match(user, game="barbu")
    services.deal_record(match=match, data=barbu_deal(0))
    # a stored deal the rules now refuse (as a change of the rules could), naming a player
    overwrite_deals(match, {**barbu_deal(0), "doubles": [{"by": 0, "on": 0}]})
    response = auth_client.get(reverse("deal_new", args=[match.pk]), follow=True)
    html = response.content.decode()
    assert_isolated(html)
    assert (
        '<li class="msg double_self error" data-message="double_self">deal 1, <bdi>דנה</bdi>, '
        "double 1: <bdi>דנה</bdi> cannot double themselves</li>"
    ) in html
    assert '<div class="refusal" role="alert" data-message="double_self">' in html


def test_the_welcome_names_the_new_player_isolated(client):
    data = {"username": "דנה", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    html = client.post("/accounts/signup/", data, follow=True).content.decode()
    assert "Welcome, <bdi>דנה</bdi>! Start your first match." in html


def test_the_known_players_chips_are_isolated(auth_client, user):
    _match(user)
    html = auth_client.get("/matches/new/").content.decode()
    assert (
        '<button type="submit" name="fill_seat" value="أحمد 2" formmethod="get" '
        'formaction="/matches/new/" formnovalidate class="chip" data-fill-seat="أحمد 2">'
        "<bdi>أحمد 2</bdi></button>" in html
    )
    assert_isolated(html)
