"""Card notation: every accepted spelling, canonical output, bad strings quoted."""

import pytest

from scorekeeper.rules.cards import (
    JOKER,
    Card,
    Suit,
    cards_text,
    parse_card,
    parse_cards,
    parse_suit,
    standard_pack,
)
from scorekeeper.rules.errors import RuleError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("qs", "QS"),
        ("Qs", "QS"),
        ("AS", "AS"),
        ("as", "AS"),
        ("2C", "2C"),
        ("kd", "KD"),
        ("jc", "JC"),
        ("10♥", "10H"),
        ("T♥", "10H"),
        ("Q♠", "QS"),
        ("A♦", "AD"),
        ("7♣", "7C"),
        ("7♧", "7C"),
        ("9♡", "9H"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("Jk", "JK"),
        ("joker", "JK"),
        ("JOKER", "JK"),
        ("Joker", "JK"),
        (" 5D ", "5D"),
    ],
)
def test_every_notation_reads_to_its_canonical_card(text, canonical):
    assert str(parse_card(text)) == canonical


def test_canonical_output_is_uppercase_with_10_and_letters():
    assert str(Card(10, Suit.HEARTS)) == "10H"
    assert str(Card(1, Suit.SPADES)) == "AS"
    assert str(Card(13, Suit.CLUBS)) == "KC"
    assert str(JOKER) == "JK"
    assert Card(10, Suit.HEARTS).pretty == "10♥"


def test_every_card_of_the_pack_round_trips():
    for card in [*standard_pack(), JOKER]:
        assert parse_card(str(card)) == card
        assert parse_card(str(card).lower()) == card
        assert parse_card(card.pretty) == card


@pytest.mark.parametrize("bad", ["1H", "11H", "10X", "ZZ", "H10", "", "10", "J", "KK", "JKS", "♠Q"])
def test_a_bad_string_is_refused_quoting_it(bad):
    with pytest.raises(RuleError) as e:
        parse_card(bad)
    assert e.value.code == "bad_card"
    assert f'"{bad}"' in e.value.message


@pytest.mark.parametrize("bad", [10, None, ["QS"], {"rank": "Q"}, True])
def test_a_card_that_is_not_a_string_is_refused_quoting_it(bad):
    with pytest.raises(RuleError) as e:
        parse_card(bad)
    assert e.value.code == "bad_card"
    assert "is not a card" in e.value.message


def test_a_list_of_cards_names_the_index_of_the_bad_one():
    assert parse_cards(["th", "J♥", "joker"]) == [
        Card(10, Suit.HEARTS),
        Card(11, Suit.HEARTS),
        JOKER,
    ]
    with pytest.raises(RuleError) as e:
        parse_cards(["QS", "KS", "XS"])
    assert e.value.where == ("[2]",)
    assert '"XS"' in e.value.message


def test_suits_by_letter_or_symbol():
    assert parse_suit("d") is Suit.DIAMONDS
    assert parse_suit("♦") is Suit.DIAMONDS
    with pytest.raises(RuleError) as e:
        parse_suit("X")
    assert e.value.code == "bad_suit" and '"X"' in e.value.message


def test_cards_text_joins_canonical_cards():
    assert cards_text(parse_cards(["th", "jk", "2c"])) == "10H JK 2C"


def test_wildness():
    assert parse_card("JK").is_wild and parse_card("2S").is_wild
    assert not parse_card("3S").is_wild
