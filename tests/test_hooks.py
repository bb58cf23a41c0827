"""The stable data- hooks of /work/shared/test-hooks.md, on the pages that exist today, plain
and htmx: each is where the list says, means what it says, and finds one element.

The pages are read with a small HTML tree (html.parser): a hook's element, its text, and what
pressing it posts (the entry page's hidden fields, or the form around a scoreboard control).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.entry import drafts as st
from scorekeeper.models import Deal
from scorekeeper.rules.errors import RuleError
from scorekeeper.selectors import match_scored
from scorekeeper.templatetags.score_tags import points
from tests.conftest import (
    BARBU_CLASSIC,
    BARBU_DATA,
    HTMX,
    draft_of,
    overwrite_deals,
    press,
    rummy_deal,
    run,
)
from tests.test_services import biriba_going_out, example

#: Neither side took its pot: answered on the pad (a save asks until it is).
NO_POTS = ["pot_no:0", "pot_no:1"]

pytestmark = pytest.mark.django_db

VOID = {"input", "br", "img", "meta", "link", "hr", "source", "area", "col", "wbr", "base"}
BOTH = pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def walk(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.walk()

    def closest(self, tag: str) -> Element | None:
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node

    def find(self, hook: str, value: str | None = None) -> list[Element]:
        return [
            e for e in self.walk() if hook in e.attrs and (value is None or e.attrs[hook] == value)
        ]

    def one(self, hook: str, value: str | None = None) -> Element:
        found = self.find(hook, value)
        assert len(found) == 1, f"{hook}={value!r}: {len(found)} elements"
        return found[0]

    def fields(self) -> dict[str, str]:
        """What this form posts besides the button pressed."""
        return {
            e.attrs["name"]: e.attrs.get("value", "")
            for e in self.walk()
            if e.tag == "input" and e.attrs.get("type") == "hidden" and "name" in e.attrs
        }


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.node = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v if v is not None else "" for k, v in attrs}, self.node)
        self.node.children.append(element)
        if tag not in VOID:
            self.node = element

    def handle_startendtag(self, tag, attrs):
        self.node.children.append(Element(tag, {k: v or "" for k, v in attrs}, self.node))

    def handle_endtag(self, tag):
        node = self.node
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.node = node.parent

    def handle_data(self, data):
        self.node.children.append(data)


def tree(response) -> Element:
    assert response.status_code == 200, response.status_code
    parser = _Tree()
    parser.feed(response.content.decode())
    return parser.root


def as_number(text: str) -> int:
    """A number as the pages write it (−1 245) read back."""
    return int(re.sub(r"\s", "", text).replace("\u2212", "-"))


def entry_fields(page: Element) -> dict[str, str]:
    """What an entry page posts with any key: the hidden fields inside #entry (the draft, the
    deal, the base), whole page or htmx partial alike."""
    return page.one("id", "entry").fields()


def press_hook(client, url: str, page: Element, hook: str, value: str | None = None, **kw):
    """Press the entry page's key a hook marks, as the page would post it (with htmx)."""
    button = page.one(hook, value)
    assert button.tag == "button" and button.attrs.get("name") == "action", button.attrs
    data = {**entry_fields(page), "action": button.attrs["value"]}
    return client.post(url, data, headers=kw.get("headers", HTMX))


# --- the scoreboard ----------------------------------------------------------------------------


@BOTH
@pytest.mark.parametrize(("game", "deals"), [("biriba", 3), ("burraco", 1), ("barbu", 2)])
def test_the_scoreboard_totals_counts_and_rows(auth_client, make_match, headers, game, deals):
    match = make_match(game, deals=deals)
    page = tree(auth_client.get(reverse("match_detail", args=[match.pk]), headers=headers))
    _parsed, result, _ = match_scored(match)
    totals = page.find("data-total")
    assert [t.attrs["data-total"] for t in totals] == [str(k) for k in range(len(result.totals))]
    assert [t.text for t in totals] == [points(total) for total in result.totals]
    assert [as_number(t.text) for t in totals] == result.totals
    board = page.one("data-deal-count")
    assert board.attrs["data-deal-count"] == str(Deal.objects.filter(match=match).count())
    assert board.attrs["data-finished"] == "false"
    assert [r.attrs["data-deal"] for r in page.find("data-deal")] == [
        str(n) for n in range(1, deals + 1)
    ]
    for n in range(1, deals + 1):
        row = page.one("data-deal", str(n))
        correct = row.one("data-correct", str(n))
        assert correct.tag == "a"
        assert correct.attrs["href"] == reverse("deal_edit", args=[match.pk, n])


@BOTH
def test_each_deal_s_delete_control_and_its_confirmation_delete_that_deal(
    auth_client, make_match, headers
):
    match = make_match("biriba", deals=3)
    url = reverse("match_detail", args=[match.pk])
    page = tree(auth_client.get(url, headers=headers))
    # one control a deal; one confirmation on the page (the last deal's, below the deals)
    assert sorted(d.attrs["data-delete"] for d in page.find("data-delete")) == ["1", "2", "3"]
    assert len(page.find("data-confirm")) == 1
    last = page.one("data-delete", "3")
    assert last.parent.one("data-confirm").closest("form").fields()["number"] == "3"
    # an earlier deal's control, inside its breakdown, asks for its confirmation
    delete = page.one("data-deal", "2").one("data-delete")
    assert delete.tag == "a"
    page = tree(auth_client.get(url + delete.attrs["href"].split("#")[0], headers=headers))
    confirm = page.one("data-confirm")
    form = confirm.closest("form")
    assert form.fields()["number"] == "2" and confirm.attrs.get("type") == "submit"
    third = match.deals.get(number=3).data
    response = auth_client.post(url, form.fields(), headers=headers)
    assert response.status_code in (200, 302)
    assert list(match.deals.values_list("number", flat=True)) == [1, 2]
    assert match.deals.get(number=2).data == third
    page = tree(auth_client.get(url, headers=headers))
    assert page.one("data-deal-count").attrs["data-deal-count"] == "2"
    assert sorted(d.attrs["data-delete"] for d in page.find("data-delete")) == ["1", "2"]
    # Undo, one tap: names the change it takes back; the deal comes back in its place
    undo = page.one("data-undo")
    assert undo.attrs.get("type") == "submit"
    response = auth_client.post(url, undo.closest("form").fields(), headers=headers)
    assert response.status_code in (200, 302)
    assert list(match.deals.values_list("number", flat=True)) == [1, 2, 3]
    assert match.deals.get(number=3).data == third


def test_a_finished_match_says_so(auth_client, make_match):
    match = make_match("biriba", rules={"target": 500})
    services.deal_record(match=match, data=biriba_going_out("C"))
    assert match.is_finished
    page = tree(auth_client.get(reverse("match_detail", args=[match.pk])))
    board = page.one("data-finished")
    assert board.attrs["data-finished"] == "true"
    assert board.attrs["data-deal-count"] == str(match.deals.count())


def test_a_deal_being_entered_is_not_counted(auth_client, make_match):
    match = make_match("burraco", deals=1)
    press(auth_client, reverse("deal_new", args=[match.pk]), "", *run("H", "3 4 5"))
    page = tree(auth_client.get(reverse("match_detail", args=[match.pk])))
    assert page.one("data-deal-count").attrs["data-deal-count"] == "1"
    assert len(page.find("data-deal")) == 1


@BOTH
def test_a_match_that_no_longer_passes_the_rules_shows_the_refusal_code(
    auth_client, make_match, headers
):
    match = make_match("biriba", deals=2)
    overwrite_deals(match, {"sides": "not a list"}, number=2)
    page = tree(auth_client.get(reverse("match_detail", args=[match.pk]), headers=headers))
    with pytest.raises(RuleError) as refused:
        match_scored(match)
    assert page.one("data-message").attrs["data-message"] == refused.value.code
    assert page.one("data-delete").attrs["data-delete"] == "2"
    assert page.find("data-total") == [] and page.find("data-deal-count") == []


@BOTH
def test_a_refused_delete_is_shown_with_its_code(auth_client, make_match, headers):
    match = make_match("biriba", deals=2)
    url = reverse("match_detail", args=[match.pk])
    data = {"action": "delete_last", "number": 1}
    response = auth_client.post(url, data, headers=headers, follow=not headers)
    message = tree(response).one("data-message")
    assert message.attrs["data-message"] == "not_last_deal" and message.tag == "li"
    assert "deal 1 is not the last deal any more" in message.text
    assert match.deals.count() == 2


# --- the rummy pad -----------------------------------------------------------------------------


RUMMY_KEYS: list[tuple[str, str | None, str]] = [
    *[("data-suit", s, f"suit:{s}") for s in st.SUITS],
    *[("data-rank", r, f"rank:{r}") for r in st.RANKS],
    ("data-card", "JK", "joker"),
    *[("data-card", f"2{s}", f"card:2{s}") for s in st.SUITS],
    ("data-target", "hand", "target:hand"),
    ("data-new-meld", None, "new_meld"),
    ("data-side", "0", "side:0"),
    ("data-side", "1", "side:1"),
    ("data-pot", "0", "pot:0"),
    ("data-went-out", "0", "went_out:0"),
    ("data-save", None, "save"),
]


def _entry_url(match, number=None):
    if number is None:
        return reverse("deal_new", args=[match.pk])
    return reverse("deal_edit", args=[match.pk, number])


def _every_key_is_a_submit_button(page: Element) -> None:
    """Every key and choice is a submit button name="action" (in the form, or the partial)."""
    forms = page.find("id", "entry-form")
    if forms:
        assert forms[0].tag == "form"
    entry = forms[0] if forms else page.one("id", "entry")
    buttons = [e for e in entry.walk() if e.tag == "button"]
    assert buttons
    for button in buttons:
        assert button.attrs.get("name") == "action" and button.attrs.get("value"), button.attrs
        assert button.attrs.get("type", "submit") == "submit", button.attrs


@BOTH
@pytest.mark.parametrize("game", ["biriba", "burraco"])
def test_every_key_of_the_rummy_pad_has_its_hook(auth_client, make_match, headers, game):
    match = make_match(game, deals=2)
    page = tree(auth_client.get(_entry_url(match), headers=headers))
    assert page.one("data-entry-deal").attrs["data-entry-deal"] == "3"
    _every_key_is_a_submit_button(page)
    keys = RUMMY_KEYS + (
        [("data-trump", s, f"trump:{s}") for s in st.SUITS] if game == "biriba" else []
    )
    for hook, value, action in keys:
        key = page.one(hook, value)
        assert key.tag == "button" and key.attrs["value"] == action, (hook, value)
    for two in st.SUITS:
        assert "data-wild" in page.one("data-card", f"2{two}").attrs
    assert "data-wild" not in page.one("data-card", "JK").attrs
    assert len(page.find("data-wild")) == 4
    if game == "burraco":
        assert page.find("data-trump") == []


def test_the_pot_and_went_out_hooks_follow_the_side_shown(auth_client, make_match):
    match = make_match("biriba")
    url = _entry_url(match)
    page = tree(press(auth_client, url, "", "side:1"))
    assert page.one("data-pot").attrs["data-pot"] == "1"
    assert page.one("data-went-out").attrs["data-went-out"] == "1"
    page = tree(press_hook(auth_client, url, page, "data-pot", "1"))
    page = tree(press_hook(auth_client, url, page, "data-went-out", "1"))
    draft = st.RummyDraft.loads(
        page.one("name", "draft").attrs["value"], game="biriba", side_count=2
    )
    assert draft.sides[1].took_pot and draft.sides[1].went_out
    assert not draft.sides[0].took_pot


def test_the_keys_mean_what_the_hooks_say(auth_client, make_match):
    """A rank key adds that rank of the chosen suit; a wild two is a two; the hand target
    sends the next cards to the hand; a new meld starts one."""
    match = make_match("biriba")
    url = _entry_url(match)
    page = tree(auth_client.get(url))
    for hook, value in [
        ("data-trump", "C"),
        ("data-suit", "H"),
        ("data-rank", "7"),
        ("data-rank", "8"),
        ("data-card", "2S"),
        ("data-new-meld", None),
        ("data-suit", "D"),
        ("data-rank", "10"),
        ("data-rank", "J"),
        ("data-card", "JK"),
        ("data-target", "hand"),
        ("data-suit", "C"),
        ("data-rank", "K"),
    ]:
        page = tree(press_hook(auth_client, url, page, hook, value))
    draft = json.loads(page.one("name", "draft").attrs["value"])
    assert draft["trump"] == "C"
    side = draft["sides"][0]
    assert side["melds"] == [["7H", "8H", "2S"], ["10D", "JD", "JK"]] and side["hand"] == ["KC"]


@BOTH
def test_a_refused_deal_shows_the_rule_code_on_the_verdict(auth_client, make_match, headers):
    match = make_match("biriba")
    keys = ["trump:S", *run("D", "A 2 3"), "joker", "rank:5", *run("C", "2"), *run("D", "7")]
    response = press(auth_client, _entry_url(match), "", *keys, htmx=bool(headers))
    verdict = tree(response).one("data-message")
    assert verdict.attrs["data-message"] == "two_wilds" and "two wild cards" in verdict.text


@BOTH
def test_the_banners_carry_their_codes(auth_client, make_match, headers):
    match = make_match("burraco")
    url = _entry_url(match)
    draft = draft_of(
        press(auth_client, url, "", *run("H", "3 4 5"), "side:1", *run("S", "3 4 5"), *NO_POTS)
    )
    # restored: the draft is back after a trip to the scoreboard
    page = tree(auth_client.get(url, headers=headers))
    assert page.one("data-message").attrs["data-message"] == "draft_restored"
    # a save from a page drawn before another phone stored deal 1
    services.deal_record(match=match, data=rummy_deal("burraco"))
    posted = {"draft": draft, "action": "save", "deal": "1"}
    page = tree(auth_client.post(url, posted, headers=headers))
    banner = page.one("data-message", "deal_saved_meanwhile")
    assert "Deal 1 was saved meanwhile" in banner.text
    assert match.deals.count() == 1
    # an entry the page cannot read
    page = tree(auth_client.post(url, {"draft": "{no", "action": "save"}, headers=headers))
    assert page.one("data-message").attrs["data-message"] == "entry_unreadable"


@BOTH
def test_a_correction_is_saved_through_save_then_confirm(auth_client, make_match, headers):
    match = make_match("burraco", deals=2)
    url = _entry_url(match, 1)
    page = tree(auth_client.get(url, headers=headers))
    assert page.one("data-entry-deal").attrs["data-entry-deal"] == "1"
    page = tree(press_hook(auth_client, url, page, "data-side", "1"))
    page = tree(press_hook(auth_client, url, page, "data-target", "hand"))
    page = tree(press_hook(auth_client, url, page, "data-suit", "C"))
    page = tree(press_hook(auth_client, url, page, "data-rank", "Q"))
    # without JavaScript the Save key asks on the page; its accept is data-confirm
    page = tree(press_hook(auth_client, url, page, "data-save", headers=headers))
    assert page.find("data-save") == []
    confirm = page.one("data-confirm")
    data = {**entry_fields(page), "action": confirm.attrs["value"]}
    response = auth_client.post(url, data, headers=headers)
    assert response.status_code == 302 or response.headers.get("HX-Redirect")
    assert Deal.objects.get(match=match, number=1).data["sides"][1]["hand"] == ["KD", "QC"]


# --- the Barbu sheet ---------------------------------------------------------------------------


@BOTH
def test_the_barbu_sheet_names_the_contracts_left_and_saves(auth_client, make_match, headers):
    match = make_match("barbu", deals=1)  # Anna named no_tricks in deal 1
    url = _entry_url(match)
    page = tree(auth_client.get(url, headers=headers))
    assert page.one("data-entry-deal").attrs["data-entry-deal"] == "2"
    _every_key_is_a_submit_button(page)
    contracts = {e.attrs["data-contract"]: e for e in page.find("data-contract")}
    assert set(contracts) == {"no_hearts", "no_queens", "barbu", "no_last_two", "trumps", "domino"}
    for code, key in contracts.items():
        assert key.tag == "button" and key.attrs["value"] == f"contract:{code}"
    assert page.one("data-save").attrs["value"] == "save"
    # a contract with nothing counted yet: the preview's refusal carries the rule's code
    page = tree(press_hook(auth_client, url, page, "data-contract", "no_queens"))
    page = tree(press(auth_client, url, entry_fields(page)["draft"], "double:1:0:1"))
    refusal = page.one("id", "preview").one("data-message")
    draft = st.BarbuDraft.loads(entry_fields(page)["draft"], contracts=("no_queens",))
    with pytest.raises(RuleError) as refused:
        services.deal_record(match=match, data=draft.deal_json(with_data=True))
    assert refusal.attrs["data-message"] == refused.value.code


def test_a_notice_of_the_rules_on_the_scoreboard_carries_its_code(auth_client, make_match):
    """Under compulsory_doubles "warn", Dora never doubling Anna in Anna's seven deals is a
    notice, not a refusal."""
    match = make_match("barbu", rules={"compulsory_doubles": "warn"})
    for contract in BARBU_CLASSIC:
        doubles = [{"by": 1, "on": 0}, {"by": 2, "on": 0}]
        data = {"contract": contract, "doubles": doubles, **BARBU_DATA[contract]}
        services.deal_record(match=match, data=data)
    _parsed, result, _ = match_scored(match)
    assert result.notices
    page = tree(auth_client.get(reverse("match_detail", args=[match.pk])))
    codes = [e.attrs["data-message"] for e in page.find("data-message")]
    assert codes and set(codes) == {n.code for n in result.notices}


# --- the import page ---------------------------------------------------------------------------


@BOTH
def test_the_import_refusal_carries_the_rule_code(auth_client, user, headers):
    document = example("biriba-ex1")
    document["deals"][0]["sides"][1]["melds"][0] = ["5C", "6C", "JK", "2D"]
    with pytest.raises(RuleError) as refused:
        services.match_import(owner=user, document=json.loads(json.dumps(document)))
    response = auth_client.post("/matches/import/", {"text": json.dumps(document)}, headers=headers)
    refusal = tree(response).one("data-message")
    assert refusal.attrs["data-message"] == refused.value.code == "two_wilds"
    assert "Refused, nothing was stored." in refusal.text
