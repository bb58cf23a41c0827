"""The match's history in the document (``changes``): optional, read strictly, written back as
it was read, never scored. Each malformed change is refused naming it (``changes[3], at``) in
words and as values (``Place(field="changes", index=3, key="at")``)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from scorekeeper.rules import changes as rules_changes
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError

from .test_places import check_place, header_of, mutations, paths

DEAL = {
    "trump": "H",
    "sides": [
        {"melds": [["3H", "4H", "5H"]], "hand": ["KD"], "took_pot": True, "went_out": False},
        {"melds": [["3S", "4S", "5S"]], "hand": [], "took_pot": True, "went_out": False},
    ],
}
CORRECTED = copy.deepcopy(DEAL)
CORRECTED["sides"][1]["melds"].append(["8C", "9C", "10C"])

AT = "2026-12-01T20:14:03Z"

#: A change of every kind, as the document writes them (canonical: keys in order, ``by`` set).
HISTORY: list[dict] = [
    {"at": AT, "by": "Anna", "kind": "entered", "deal": 1, "after": DEAL, "points_after": [0, 5]},
    {
        "at": "2026-12-01T20:15:00.204519Z",
        "by": "Babis",
        "kind": "corrected",
        "deal": 1,
        "before": DEAL,
        "after": CORRECTED,
        "points_before": [0, 5],
        "points_after": [0, 35],
    },
    {
        "at": "2026-12-01T20:15:09Z",
        "by": "Babis",
        "kind": "corrected",
        "deal": 1,
        "before": CORRECTED,
        "after": DEAL,
        "points_before": [0, 35],
        "points_after": [0, 5],
        "undo_of": 1,
    },
    {"at": AT, "by": "", "kind": "deleted", "deal": 1, "before": DEAL, "points_before": [0, 5]},
    {
        "at": AT,
        "by": "Anna",
        "kind": "restored",
        "deal": 1,
        "after": DEAL,
        "points_after": [0, 5],
        "undo_of": 3,
        "restores": 3,
    },
    {"at": AT, "by": "Anna", "kind": "confirmed", "deal": 1},
    {"at": AT, "by": "Anna", "kind": "rejected", "deal": 1, "reason": "the wrong hand"},
    {"at": AT, "by": "Anna", "kind": "swapped", "deal": 1, "other_deal": 2},
    {"at": AT, "by": "Chris", "kind": "joined", "member": "Chris"},
    {"at": AT, "by": "Anna", "kind": "removed", "member": "Chris"},
    {"at": AT, "by": "Anna", "kind": "link", "link": "watch"},
    {"at": AT, "by": "Anna", "kind": "finished", "winner": 1, "totals": [0, 5]},
    {"at": AT, "by": "Anna", "kind": "reopened", "winner": None, "totals": [0, 5]},
]


def document(**extra) -> dict:
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": ["Anna", "Babis"],
        "deals": [copy.deepcopy(DEAL)],
    }
    doc.update(json.loads(json.dumps(extra)))  # no part shared with another (as JSON reads)
    return doc


def refused(doc: dict) -> RuleError:
    with pytest.raises(RuleError) as refusal:
        rules_match.score_document(doc)
    return refusal.value


# --- a document without a history, and one with ------------------------------------------------


def test_a_document_without_changes_is_valid_and_is_exported_without_them():
    out = rules_match.score_document(document())
    assert "changes" not in out
    assert rules_match.parse_document(document()).changes == ()
    # an empty history is no history: the same document
    assert rules_match.score_document(document(changes=[])) == out


def test_every_kind_is_read_and_written_back_unchanged_after_the_scores():
    out = rules_match.score_document(document(changes=HISTORY))
    assert out["changes"] == HISTORY
    assert list(out)[-1] == "changes"  # the history follows what export adds
    for change in out["changes"]:
        assert list(change) == [k for k in rules_changes.KEY_ORDER if k in change]
    # what export writes, score reads back as it is
    assert rules_match.score_document(copy.deepcopy(out)) == out
    assert json.dumps(rules_match.score_document(json.loads(json.dumps(out)))) == json.dumps(out)


def test_every_kind_of_the_format_is_in_the_history_tested_here():
    assert list(dict.fromkeys(c["kind"] for c in HISTORY)) == list(rules_changes.KINDS)
    assert set(rules_changes.KIND_KEYS) == set(rules_changes.KINDS)


def test_scoring_ignores_the_history():
    plain = rules_match.score_document(document())
    with_history = rules_match.score_document(document(changes=HISTORY))
    assert {k: v for k, v in with_history.items() if k != "changes"} == plain
    assert json.dumps(plain) == json.dumps(
        {k: v for k, v in with_history.items() if k != "changes"}
    )
    # a history that does not match the deals at all is still only a history
    odd = [{"at": AT, "kind": "entered", "deal": 7, "after": {"anything": ["goes", 1]}}]
    assert rules_match.score_document(document(changes=odd))["totals"] == plain["totals"]


def test_a_barbu_document_carries_a_history_of_four_columns():
    doc = {
        "format": "scorekeeper-match/1",
        "game": "barbu",
        "players": ["Anna", "Babis", "Chris", "Dora"],
        "deals": [
            {
                "contract": "no_queens",
                "doubles": [{"by": seat, "on": 0} for seat in (1, 2, 3)],
                "queens": [1, 1, 1, 1],
            }
        ],
        "changes": [
            {"at": AT, "by": "Dora", "kind": "entered", "deal": 1, "after": {"contract": "x"}},
            {"at": AT, "kind": "finished", "winner": 3, "totals": [-6, -6, -6, -6]},
        ],
    }
    out = rules_match.score_document(doc)
    assert out["changes"][1] == {"at": AT, "by": "", **doc["changes"][1]}
    assert "winner" in rules_match.score_document(doc) and len(out["totals"]) == 4


def test_a_change_is_written_in_its_canonical_form():
    given = [
        {"points_after": [1, 2], "after": {"b": 1, "a": 2}, "deal": 3, "kind": "entered", "at": AT},
        {"kind": "joined", "member": "Dora", "at": "2026-12-01T20:14:03.5Z", "by": "Dora"},
        {"kind": "link", "link": "score", "at": "2026-12-01T20:14:03.000000Z"},
        {"kind": "link", "link": "score", "at": "2026-12-01T20:14:03.123456Z"},
    ]
    out = rules_match.score_document(document(changes=given))["changes"]
    assert out == [
        {"at": AT, "by": "", "kind": "entered", "deal": 3, "after": {"b": 1, "a": 2}}
        | {"points_after": [1, 2]},
        {"at": "2026-12-01T20:14:03.500000Z", "by": "Dora", "kind": "joined", "member": "Dora"},
        {"at": AT, "by": "", "kind": "link", "link": "score"},
        {"at": "2026-12-01T20:14:03.123456Z", "by": "", "kind": "link", "link": "score"},
    ]
    assert list(out[0]) == ["at", "by", "kind", "deal", "after", "points_after"]
    assert list(out[0]["after"]) == ["b", "a"]  # a deal in the history is kept as written


def test_a_deal_in_the_history_is_kept_as_written_and_not_judged():
    strange = {"sides": [{"melds": [["T♥", "jk"]]}], "trump": "nowhere", "note": None}
    match = rules_match.parse_document(
        document(changes=[{"at": AT, "kind": "deleted", "deal": 1, "before": strange}])
    )
    assert match.changes[0]["before"] == strange
    # each export is a copy of its own: changing one changes neither the match nor the next
    first = rules_match.export_document(match, rules_match.score_match(match))
    first["changes"][0]["before"]["trump"] = "changed"
    again = rules_match.export_document(match, rules_match.score_match(match))
    assert again["changes"][0]["before"] == strange


# --- a malformed change is refused, naming it --------------------------------------------------

LONG = "x" * 151


def change(**keys) -> dict:
    """The corrected deal of :data:`HISTORY` (``changes[1]``) with ``keys`` changed; a key set
    to ``...`` is left out."""
    out = {**copy.deepcopy(HISTORY[1]), **keys}
    return {k: v for k, v in out.items() if v is not ...}


#: (name, the changes, the words of the place, its values, the code)
MALFORMED = [
    ("not-a-list", {"first": 1}, ("changes",), {"field": "changes"}, "bad_type"),
    ("null", None, ("changes",), {"field": "changes"}, "bad_type"),
    ("not-an-object", [HISTORY[0], 5], ("changes[1]",), {}, "bad_type"),
    ("a-list-entry", [HISTORY[0], ["entered"]], ("changes[1]",), {}, "bad_type"),
    ("no-kind", [HISTORY[0], change(kind=...)], ("changes[1]",), {}, "missing_key"),
    ("no-at", [HISTORY[0], change(at=...)], ("changes[1]",), {}, "missing_key"),
    ("unknown-kind", [HISTORY[0], change(kind="merged")], ("changes[1]", "kind"), {}, "bad_choice"),
    ("kind-typo", [HISTORY[0], change(kind="corected")], ("changes[1]", "kind"), {}, "bad_choice"),
    ("kind-number", [HISTORY[0], change(kind=3)], ("changes[1]", "kind"), {}, "bad_type"),
    ("unknown-key", [HISTORY[0], change(mood="fine")], ("changes[1]", "mood"), {}, "unknown_key"),
    (
        "key-of-another-kind",
        [HISTORY[0], change(member="Chris")],
        ("changes[1]", "member"),
        {},
        "unknown_key",
    ),
    (
        "by_user-is-no-key",
        [HISTORY[0], change(by_user=3)],
        ("changes[1]", "by_user"),
        {},
        "unknown_key",
    ),
    ("required-of-its-kind", [HISTORY[0], change(before=...)], ("changes[1]",), {}, "missing_key"),
    (
        "at-space",
        [HISTORY[0], change(at="2026-12-01 20:14:03Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-no-zone",
        [HISTORY[0], change(at="2026-12-01T20:14:03")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-offset",
        [HISTORY[0], change(at="2026-12-01T20:14:03+00:00")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-no-seconds",
        [HISTORY[0], change(at="2026-12-01T20:14Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-no-day",
        [HISTORY[0], change(at="2026-02-30T20:14:03Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-hour-24",
        [HISTORY[0], change(at="2026-12-01T24:00:00Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-leap-second",
        [HISTORY[0], change(at="2026-12-31T23:59:60Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-seven-decimals",
        [HISTORY[0], change(at="2026-12-01T20:14:03.1234567Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-other-digits",
        [HISTORY[0], change(at="٢٠٢٦-12-01T20:14:03Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    (
        "at-year-0",
        [HISTORY[0], change(at="0000-12-01T20:14:03Z")],
        ("changes[1]", "at"),
        {},
        "bad_moment",
    ),
    ("at-number", [HISTORY[0], change(at=1764620043)], ("changes[1]", "at"), {}, "bad_type"),
    ("by-number", [HISTORY[0], change(by=5)], ("changes[1]", "by"), {}, "bad_type"),
    ("by-null", [HISTORY[0], change(by=None)], ("changes[1]", "by"), {}, "bad_type"),
    ("by-long", [HISTORY[0], change(by=LONG)], ("changes[1]", "by"), {}, "text_too_long"),
    (
        "by-half-a-character",
        [HISTORY[0], change(by="Ann\ud800")],
        ("changes[1]", "by"),
        {},
        "bad_text",
    ),
    ("deal-0", [HISTORY[0], change(deal=0)], ("changes[1]", "deal"), {}, "out_of_range"),
    ("deal-huge", [HISTORY[0], change(deal=1_000_001)], ("changes[1]", "deal"), {}, "out_of_range"),
    ("deal-text", [HISTORY[0], change(deal="1")], ("changes[1]", "deal"), {}, "bad_type"),
    ("deal-true", [HISTORY[0], change(deal=True)], ("changes[1]", "deal"), {}, "bad_type"),
    ("deal-float", [HISTORY[0], change(deal=1.0)], ("changes[1]", "deal"), {}, "bad_type"),
    ("deal-null", [HISTORY[0], change(deal=None)], ("changes[1]", "deal"), {}, "bad_type"),
    ("before-list", [HISTORY[0], change(before=[])], ("changes[1]", "before"), {}, "bad_type"),
    ("after-text", [HISTORY[0], change(after="deal 1")], ("changes[1]", "after"), {}, "bad_type"),
    ("after-null", [HISTORY[0], change(after=None)], ("changes[1]", "after"), {}, "bad_type"),
    (
        "after-not-a-number",
        [HISTORY[0], change(after={"x": float("nan")})],
        ("changes[1]", "after"),
        {},
        "bad_number",
    ),
    (
        "after-infinite",
        [HISTORY[0], change(after={"x": [float("inf")]})],
        ("changes[1]", "after"),
        {},
        "bad_number",
    ),
    (
        "points-text",
        [HISTORY[0], change(points_after="0 35")],
        ("changes[1]", "points_after"),
        {},
        "bad_type",
    ),
    (
        "points-null",
        [HISTORY[0], change(points_before=None)],
        ("changes[1]", "points_before"),
        {},
        "bad_type",
    ),
    (
        "points-empty",
        [HISTORY[0], change(points_after=[])],
        ("changes[1]", "points_after"),
        {},
        "bad_length",
    ),
    (
        "points-more-than-players",
        [HISTORY[0], change(points_after=[1, 2, 3])],
        ("changes[1]", "points_after"),
        {},
        "bad_length",
    ),
    (
        "points-entry-text",
        [HISTORY[0], change(points_after=[0, "35"])],
        ("changes[1]", "points_after[1]"),
        {},
        "bad_type",
    ),
    (
        "points-entry-true",
        [HISTORY[0], change(points_before=[True, 0])],
        ("changes[1]", "points_before[0]"),
        {},
        "bad_type",
    ),
    (
        "points-entry-huge",
        [HISTORY[0], change(points_after=[0, 10**13])],
        ("changes[1]", "points_after[1]"),
        {},
        "out_of_range",
    ),
    (
        "member-empty",
        [{"at": AT, "kind": "joined", "member": "  "}],
        ("changes[0]", "member"),
        {},
        "empty_name",
    ),
    (
        "member-long",
        [{"at": AT, "kind": "removed", "member": LONG}],
        ("changes[0]", "member"),
        {},
        "text_too_long",
    ),
    ("member-missing", [{"at": AT, "kind": "joined"}], ("changes[0]",), {}, "missing_key"),
    (
        "link-unknown",
        [{"at": AT, "kind": "link", "link": "share"}],
        ("changes[0]", "link"),
        {},
        "bad_choice",
    ),
    (
        "winner-no-seat",
        [{"at": AT, "kind": "finished", "winner": 2, "totals": [1, 2]}],
        ("changes[0]", "winner"),
        {},
        "out_of_range",
    ),
    (
        "winner-text",
        [{"at": AT, "kind": "finished", "winner": "0", "totals": [1, 2]}],
        ("changes[0]", "winner"),
        {},
        "bad_type",
    ),
    (
        "winner-missing",
        [{"at": AT, "kind": "finished", "totals": [1, 2]}],
        ("changes[0]",),
        {},
        "missing_key",
    ),
    (
        "totals-missing",
        [{"at": AT, "kind": "reopened", "winner": None}],
        ("changes[0]",),
        {},
        "missing_key",
    ),
    (
        "totals-entry",
        [{"at": AT, "kind": "reopened", "winner": None, "totals": [1, None]}],
        ("changes[0]", "totals[1]"),
        {},
        "bad_type",
    ),
    (
        "reason-long",
        [{"at": AT, "kind": "rejected", "deal": 1, "reason": "x" * 1001}],
        ("changes[0]", "reason"),
        {},
        "text_too_long",
    ),
    (
        "other-deal-0",
        [{"at": AT, "kind": "swapped", "deal": 1, "other_deal": 0}],
        ("changes[0]", "other_deal"),
        {},
        "out_of_range",
    ),
    ("undo-in-the-first", [change(undo_of=0)], ("changes[0]", "undo_of"), {}, "no_earlier_change"),
    (
        "undo-of-itself",
        [HISTORY[0], change(undo_of=1)],
        ("changes[1]", "undo_of"),
        {},
        "out_of_range",
    ),
    (
        "undo-of-a-later",
        [HISTORY[0], change(undo_of=5)],
        ("changes[1]", "undo_of"),
        {},
        "out_of_range",
    ),
    (
        "undo-negative",
        [HISTORY[0], change(undo_of=-1)],
        ("changes[1]", "undo_of"),
        {},
        "out_of_range",
    ),
    ("undo-text", [HISTORY[0], change(undo_of="0")], ("changes[1]", "undo_of"), {}, "bad_type"),
    (
        "undo-of-no-deal",
        [HISTORY[8], change(undo_of=0)],
        ("changes[1]", "undo_of"),
        {},
        "bad_reference",
    ),
    (
        "restores-no-deleted-deal",
        [*HISTORY[:3], {**HISTORY[4], "undo_of": 2, "restores": 2}],
        ("changes[3]", "restores"),
        {},
        "bad_reference",
    ),
]


def _place_of(words: tuple[str, ...]) -> dict:
    """The values the words of a change's refusal stand for."""
    if words == ("changes",):
        return {"field": "changes"}
    index = int(words[0].removeprefix("changes[").removesuffix("]"))
    place: dict = {"field": "changes", "index": index}
    if len(words) > 1:
        place["key"] = words[1].split("[")[0]
    return place


@pytest.mark.parametrize(
    ("changes", "words", "place", "code"),
    [case[1:] for case in MALFORMED],
    ids=[case[0] for case in MALFORMED],
)
def test_a_malformed_change_is_refused_naming_it(changes, words, place, code):
    doc = document()
    doc["changes"] = changes
    error = refused(doc)
    assert error.code == code, error.message
    assert error.where == words, error.message
    assert error.message.startswith(", ".join(words) + ": ")
    assert error.place.as_dict() == {**_place_of(words), **place}
    assert error.as_dict()["place"] == error.place.as_dict()
    check_place(error, header_of(doc))


def test_the_messages_say_what_is_wrong():
    def message(changes) -> str:
        return refused(document(changes=changes)).message

    assert message([change(at="2026-12-01 20:14")]) == (
        'changes[0], at: "2026-12-01 20:14" is not a moment in UTC written as '
        "2026-12-01T20:14:03Z (a second may have up to six decimals)"
    )
    assert message([change(kind="merged")]).startswith(
        'changes[0], kind: "merged" is not one of: entered, corrected, deleted, restored,'
    )
    assert message([HISTORY[8], change(undo_of=0)]) == (
        'changes[1], undo_of: change 1 is a change of kind "joined", not a change to a deal'
    )
    assert message([change(member="Chris")]).startswith('changes[0], member: unknown key "member"')


def test_the_first_bad_change_is_the_one_named_and_a_bad_deal_comes_before_it():
    bad = [HISTORY[0], change(deal=0), change(at="yesterday")]
    assert refused(document(changes=bad)).where == ("changes[1]", "deal")
    doc = document(changes=bad)
    doc["deals"][0]["sides"][0]["hand"] = ["1H"]
    assert refused(doc).place.deal == 1


def test_every_mutation_of_a_history_is_refused_at_that_change_or_read():
    doc = document(changes=HISTORY)
    header = header_of(doc)
    refused_count = 0
    codes = set()
    # a deal of the history is not read past its top: its first level is enough
    for path in (p for p in paths(doc["changes"], ("changes",)) if len(p) <= 4):
        for mutated in mutations(doc, path):
            try:
                out = rules_match.score_document(mutated)
            except RuleError as error:
                refused_count += 1
                codes.add(error.code)
                if error.code != "bad_text" or len(error.where) <= 2:
                    check_place(error, header)
                else:  # half a character inside a deal of the history: the change and its key
                    assert error.where[:2] == (f"changes[{path[1]}]", path[2])
                    assert error.place.key == path[2]
                assert error.place.field == "changes", error.message
                assert error.place.deal is None
                if len(path) > 2:  # a key of the change: that change
                    assert error.place.index == path[1], (path, error.message)
                elif len(path) == 2:  # the change itself, or dropped: the later ones move up
                    assert error.place.index >= path[1], (path, error.message)
                continue
            # what is read is written back, and reads back as it is
            assert rules_match.score_document(copy.deepcopy(out)) == out
    assert refused_count > 500
    assert {"bad_type", "unknown_key", "missing_key", "bad_moment", "bad_choice"} <= codes
    assert {"out_of_range", "bad_length", "bad_text", "bad_reference"} <= codes


# --- the moment of a change --------------------------------------------------------------------


def test_a_moment_is_read_and_written_in_utc():
    assert rules_changes.moment_of(AT) == datetime(2026, 12, 1, 20, 14, 3, tzinfo=UTC)
    assert rules_changes.moment_of("2026-12-01T20:14:03.12Z") == datetime(
        2026, 12, 1, 20, 14, 3, 120000, tzinfo=UTC
    )
    assert rules_changes.moment_of("2026-12-01") is None
    athens = timezone(timedelta(hours=2))
    assert rules_changes.moment_text(datetime(2026, 12, 1, 22, 14, 3, tzinfo=athens)) == AT
    assert rules_changes.moment_text(datetime(2026, 12, 1, 20, 14, 3)) == AT  # naive: UTC
    assert (
        rules_changes.moment_text(datetime(2026, 12, 1, 20, 14, 3, 7, tzinfo=UTC))
        == "2026-12-01T20:14:03.000007Z"
    )
    assert rules_changes.moment_text(datetime(999, 1, 2, 3, 4, 5)) == "0999-01-02T03:04:05Z"
    for text in (AT, "2026-12-01T20:14:03.000007Z", "0999-01-02T03:04:05Z"):
        moment = rules_changes.moment_of(text)
        assert moment is not None and rules_changes.moment_text(moment) == text
