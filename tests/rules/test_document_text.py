"""Text that cannot be written out is refused with its place, before anything reads it.

JSON's ``"\\ud800"`` reads as half of a character (a lone surrogate): no page, file or database
can hold it. The rules core refuses a document holding one anywhere (a name, a key, a card, a
rule) with the place named as its other refusals name places.
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import match as rules_match
from scorekeeper.rules import schema
from scorekeeper.rules.errors import RuleError


def document(**changes):
    doc = {
        "format": "scorekeeper-match/1",
        "game": "biriba",
        "players": ["Anna", "Babis"],
        "deals": [
            {
                "trump": "H",
                "sides": [
                    {"melds": [["3H", "4H", "5H"]], "hand": ["KD"], "took_pot": True},
                    {"melds": [["3S", "4S", "5S"]], "hand": [], "took_pot": True},
                ],
            }
        ],
    }
    doc.update(changes)
    return doc


def refusal(doc) -> RuleError:
    with pytest.raises(RuleError) as refused:
        rules_match.score_document(doc)
    return refused.value


def surrogate_in_card():
    doc = document()
    doc["deals"][0]["sides"][1]["hand"] = ["AH", "\udc00"]
    return doc


@pytest.mark.parametrize(
    ("doc", "where", "what"),
    [
        (document(players=["Anna", "B\ud800"]), ("players[1]",), "text"),
        (document(game="bi\ud800riba"), ("game",), "text"),
        (document(rules={"target": 100, "x\udbff": 1}), ("rules", '"x\\udbff"'), "key"),
        (document(rules={"card_values": "\ud800"}), ("rules", "card_values"), "text"),
        ({**document(), "\ud800": 1}, ('"\\ud800"',), "key"),
        (surrogate_in_card(), ("deal 1", "sides[1]", "hand[1]"), "text"),
    ],
    ids=["name", "game", "rule-key", "rule-value", "top-key", "card"],
)
def test_half_a_character_is_refused_with_its_place(doc, where, what):
    error = refusal(doc)
    assert error.code == "bad_text"
    assert error.where == where
    assert error.text.startswith(f"this {what} holds \\u")
    assert "lone surrogate" in error.text
    error.message.encode("utf-8")  # the refusal itself can be shown


def test_the_place_reads_as_the_rules_write_places():
    error = refusal(surrogate_in_card())
    assert error.message.startswith("deal 1, sides[1], hand[1]: this text holds \\uDC00")


def test_a_document_of_whole_characters_is_not_touched():
    doc = document(players=["Ελένη", "Babis 🂡"])
    assert rules_match.score_document(doc)["players"] == ["Ελένη", "Babis 🂡"]
    schema.encodable(doc)  # no refusal


def test_what_is_not_json_is_left_to_the_strict_reading():
    schema.encodable({"a": object()})  # not a JSON value: no claim about its text
    assert refusal(["\ud800"]).code == "bad_type"  # not a document at all, said first


@given(
    st.recursive(
        st.one_of(st.text(), st.integers(), st.booleans(), st.none()),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(), inner, max_size=3)
        ),
        max_leaves=12,
    ),
    st.sampled_from(["\ud800", "\udfff", "a\udc00b"]),
    st.data(),
)
def test_half_a_character_anywhere_is_found(value, bad, data):
    """Put one anywhere in any JSON value: it is found, and the refusal can be written out."""
    places = [("root",)]

    def walk(node, path):
        if isinstance(node, dict):
            for key, item in node.items():
                places.append((*path, "key", key))
                walk(item, (*path, key))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, (*path, i))
        places.append(("value", *path))

    walk(value, ())
    place = data.draw(st.sampled_from(places[1:] or places))
    if place[0] == "root" or place == ("value",):
        value = bad
    elif place[0] == "value":
        parent = value
        for key in place[1:-1]:
            parent = parent[key]
        parent[place[-1]] = bad
    else:
        path, key = place[:-2], place[-1]
        parent = value
        for step in path:
            parent = parent[step]
        parent[key + bad] = parent.pop(key)
    with pytest.raises(RuleError) as refused:
        schema.encodable(value)
    assert refused.value.code == "bad_text"
    refused.value.message.encode("utf-8")
    json.dumps(refused.value.as_dict(), ensure_ascii=False).encode("utf-8")
