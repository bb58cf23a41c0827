"""scorekeeper/rule_messages.py: a refusal of each family, in each of the site's languages, as
a player reads it: no internal code, no index from 0, cards with their suits' symbols, the
place in the page's language; the plural forms; a notice kept as JSON read back the same."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from scorekeeper import rule_messages as rm
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import Notice, Place, RuleError
from scorekeeper.rules.incremental import notice_from_json, notice_json

LANGUAGES = ("en", "el", "it", "fr")

RUMMY = {
    "format": "scorekeeper-match/1",
    "game": "biriba",
    "players": ["Anna", "Babis"],
    "deals": [],
}


def biriba(*sides: dict, **rules) -> dict:
    doc = copy.deepcopy(RUMMY)
    doc["rules"] = rules
    doc["deals"] = [{"trump": "H", "sides": list(sides)}]
    return doc


def side(*melds: str, **more) -> dict:
    return {"melds": [m.split() for m in melds], "hand": [], "took_pot": True, **more}


BARBU = {
    "format": "scorekeeper-match/1",
    "game": "barbu",
    "players": ["Anna", "Babis", "Chris", "Dora"],
    "deals": [{"contract": "trumps", "doubles": [{"by": 1, "on": 2}]}],
}

#: One refusal of each family: the document, the code, what the place says (as the
#: catalogue's words), what the rule must show.
FAMILIES = {
    "meld": (
        biriba(side("5S 6S JK 2D"), side()),
        "two_wilds",
        lambda: [
            gettext("deal {number}").format(number=1),
            "Anna",
            gettext("meld {number} ({cards})").format(number=1, cards="5♠ 6♠ {j} 2♦"),
        ],
        ["2♦"],
    ),
    "totals": (
        biriba(
            {
                "totals": {"melded": 85, "in_hand": 0, "bonuses": {"clean_biriba": 2}},
                "took_pot": True,
            },
            side(),
        ),
        "totals_bonuses_exceed_melded",
        lambda: [
            gettext("deal {number}").format(number=1),
            "Anna",
            gettext("totals"),
            gettext("melded"),
        ],
        [],
    ),
    "barbu double": (
        BARBU,
        "positive_only_declarer",
        lambda: [
            gettext("deal {number}").format(number=1),
            "Babis",
            gettext("double {number}").format(number=1),
        ],
        [],
    ),
    "import": (
        biriba(side("5S 6S 7S", "AD 2D 3D 4D 5D 6D 7D 9X"), side()),
        "bad_card",
        lambda: [
            gettext("deal {number}").format(number=1),
            "Anna",
            gettext("meld {number}").format(number=2),
            gettext("card {number}").format(number=8),
        ],
        ['"9X"'],
    ),
    "option": (
        {**biriba(side(), side()), "rules": {"target": 0}},
        "out_of_range",
        lambda: [gettext("rules"), rm.option_label("target")],
        ["0", "1"],
    ),
}

#: What a player must never read: the document's keys and the rules' codes, indexes from 0.
LEAKS = re.compile(
    r"\w+_\w+|\[\d+\]|\bJK\b|\b(10|[2-9AJQK])[SHDC]\b|\boption (sets|target)\b|melds|totals,"
)


def refusal(doc: dict) -> RuleError:
    with pytest.raises(RuleError) as refused:
        rules_match.score_document(copy.deepcopy(doc))
    return refused.value


#: The glossary's word for a deal (/work/shared/glossary.md), as a place names deal 1.
DEAL_1 = {"en": "deal 1", "el": "μοιρασιά 1", "it": "smazzata 1", "fr": "donne 1"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("family", FAMILIES)
def test_a_refusal_of_each_family_reads_as_a_player_would(language, family):
    doc, code, pieces, shows = FAMILIES[family]
    error = refusal(doc)
    assert error.code == code
    with translation.override(language):
        joker = gettext("joker")
        want = [p.replace("{j}", joker) for p in pieces()]
        shown = rm.message(error)
        assert rm.places(error) == want
        if error.place.deal == 1:
            assert rm.places(error)[0] == DEAL_1[language]
        assert shown.startswith(rm.place(error))
        rule = rm.text(error)
        assert rule in shown
    # a card the document mistyped is answered with how a document writes one ("or JK")
    said = rule.split("(")[0] if family == "import" else rule
    assert not LEAKS.search(said), shown
    assert not LEAKS.search(" ".join(rm.places(error))), shown
    for part in shows:
        assert part in shown, (part, shown)
    if family == "barbu double":
        with translation.override(language):
            assert rm.term(error.params["contract"]) in rule  # "Trumps", not "trumps"
    if family == "meld":
        assert "♠" in shown and "♦" in shown


def test_the_issue_s_leaks_are_gone():
    """The messages issue 9 found, as the site shows them now (English)."""
    doc = {
        **copy.deepcopy(BARBU),
        "deals": [
            {"contract": "no_hearts", "doubles": [{"by": 1, "on": 0}], "hearts": [3, 3, 3, 4]}
        ],
    }
    with translation.override("en"):
        shown = rm.message(refusal(doc))
        assert shown == (
            "deal 1, ace of hearts: No hearts (declared by Anna) was played: "
            "enter the ace of hearts"
        )
        wild = biriba(side(), side())
        wild["game"] = "burraco"
        del wild["deals"][0]["trump"]
        wild["deals"][0]["sides"][0] = side("5S 6S 7S", went_out=True, final_discard="2H")
        shown = rm.message(refusal(wild))
        assert "closing discard: the closing discard 2♥ is a wild card" in shown
        assert "final_discard" not in shown
        totals = biriba(
            {
                "totals": {"melded": 100, "in_hand": 0, "bonuses": {"clean_biriba": 20}},
                "took_pot": True,
            },
            side(),
        )
        assert "(clean biriba ×20)" in rm.message(refusal(totals))
        sets = biriba(side("5S 5H 5D"), side(), sets=False)
        assert "the option “Sets” is off" in rm.message(refusal(sets))
        card = biriba(side("AD 2D 3D 4D 5D 6D 7D 9X"), side())
        assert rm.place(refusal(card)) == "deal 1, Anna, meld 1, card 8"
        target = {**biriba(side(), side()), "rules": {"target": 0}}
        assert rm.message(refusal(target)) == "rules, “Target”: 0 is too small: the least is 1"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plural_forms_follow_the_count_in_every_language(language):
    """The compulsory doubles' notice with 1, 2 and 5 of the deals left: ngettext picks the
    language's form (English, Greek, Italian, French: one for 1, the other for 2 and 5)."""
    template = next(t for t in rm.PLURALS if t.startswith("{player} must double"))

    def notice(left: int) -> Notice:
        params = {"player": "Dora", "declarer": "Anna", "required": 2, "done": 0, "left": left}
        return Notice("compulsory_doubles", template, ("deal 6", "Dora", "doubles"), params)

    with translation.override(language):
        forms = [rm.template(notice(n)) for n in (1, 2, 5)]
        assert forms[1] == forms[2]  # one form for 2 and 5 (the catalogue's for that count)
        if language == "en":
            assert forms[0] != forms[1]  # another for 1 (a translation may say both alike)
        one, two = (rm.text(notice(n)) for n in (1, 2))
        singular, plural = (
            ngettext(
                "{player} must double {declarer} at least {required} times in the deals "
                "{declarer} declares (doubles so far: {done}), and {left} of those deals is left",
                template,
                n,
            )
            for n in (1, 2)
        )
        assert one == singular.format(player="Dora", declarer="Anna", required=2, done=0, left=1)
        assert two == plural.format(player="Dora", declarer="Anna", required=2, done=0, left=2)
    if language == "en":
        assert one.endswith("and 1 of those deals is left")
        assert two.endswith("and 2 of those deals are left")


def test_every_plural_is_of_a_template_the_rules_core_gives(rules_templates):
    with translation.override("en"):
        for template, (param, choose) in rm.PLURALS.items():
            assert template in rules_templates, template
            assert choose(2) == template  # the plural form is the rules core's own
            assert "{" + param + "}" in choose(1)


def test_a_notice_kept_as_json_is_shown_the_same_in_every_language():
    """Barbu notices are kept beside their deal's score (Deal.score): read back, they are
    rendered in the page's language then, not frozen in the language they were found in."""
    doc = json.loads(
        json.dumps({**copy.deepcopy(BARBU), "rules": {"compulsory_doubles": "warn"}, "deals": []})
    )
    template = next(t for t in rm.PLURALS if t.startswith("{player} must double"))
    notice = Notice(
        "compulsory_doubles",
        template,
        ("deal 6", "Dora", "doubles"),
        {"player": "Dora", "declarer": "Anna", "required": 2, "done": 1, "left": 0},
        Place(deal=6, seat=3, field="doubles"),
    )
    kept = notice_from_json(json.loads(json.dumps(notice_json(notice))))
    assert kept == notice and doc["game"] == "barbu"
    for language in LANGUAGES:
        with translation.override(language):
            assert rm.message(kept) == rm.message(notice)
            assert rm.places(kept)[0] == gettext("deal {number}").format(number=6)


def test_a_refusal_inside_another_is_shown_in_the_page_s_language():
    inner = refusal(biriba(side("5S 6S JK 2D"), side()))
    outer = RuleError(
        "correction_breaks_later_deal",
        "this correction would make deal {later} illegal ({reason})",
        later=2,
        reason=inner,
    )
    with translation.override("en"):
        assert "meld 1 (5♠ 6♠ joker 2♦)" in rm.text(outer)
    assert "meld 1 (5S 6S JK 2D)" in outer.message  # the rules core's English, codes as written


def _refusal(deal: dict) -> RuleError:
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": ["Anna", "Babis", "Chris", "Dora"],
        "deals": [deal],
    }
    with pytest.raises(RuleError) as caught:
        rules_match.score_document(doc)
    return caught.value


def test_where_a_card_is_recorded_names_each_side_once():
    error = _refusal(
        {
            "sides": [
                {"melds": [["JK", "3H", "4H"], ["JK", "5S", "6S"]], "hand": ["JK", "JK"]},
                {"melds": [["JK", "5H", "6H"]], "hand": []},
            ]
        }
    )
    with translation.override("en"):
        text = rm.message(error)
    assert "(Anna & Chris, meld 1, meld 2, hand ×2 and Babis & Dora, meld 1)" in text
    with translation.override("fr"):
        assert rm.message(error).count("Anna & Chris") == 1


def test_a_side_s_points_for_the_deal_are_named_in_words():
    error = _refusal({"sides": [{"totals": {"points": 153}}, {"totals": {"points": 10}}]})
    with translation.override("en"):
        text = rm.message(error)
    assert text.startswith("deal 1, Anna & Chris, totals, points for the deal: 153 is not")
    assert '"points"' not in text
