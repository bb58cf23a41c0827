"""What the pages call the rules' codes: contracts, meld readings, bonuses (translatable).

The rules core speaks in stable codes (``no_queens``, ``semi_clean``, ``clean_biriba``); these
are the words a player reads. The scoreboard and the deal-entry pages both use them, so that a
contract or a bonus has one name across the site.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: The minus sign a negative figure is written with, on every page and in every message.
MINUS = "\u2212"

CONTRACTS: dict[str, Promise] = {
    "no_tricks": _("No tricks"),
    "no_hearts": _("No hearts"),
    "no_queens": _("No queens"),
    "barbu": _("Barbu (K♥)"),
    "no_last_two": _("No last two"),
    "trumps": _("Trumps"),
    "domino": _("Domino"),
    "ravage_city": _("Ravage City"),
    "no_last_trick": _("No last trick"),
    "salade": _("Salade"),
    "no_king": _("No king (K♥)"),
    "no_girls": _("No girls"),
    "no_boys": _("No boys"),
    "chinese_poker": _("Chinese Poker"),
}
MELD_KINDS: dict[str, Promise] = {"run": _("run"), "set": _("set")}
PURITIES: dict[str, Promise] = {
    "clean": _("clean"),
    "semi_clean": _("semi-clean"),
    "dirty": _("dirty"),
}
BONUSES: dict[str, Promise] = {
    "clean_biriba": _("clean biriba"),
    "dirty_biriba": _("dirty biriba"),
    "clean_trump_biriba": _("clean trump biriba"),
    "dirty_trump_biriba": _("dirty trump biriba"),
    "clean_whole_suit": _("clean whole suit"),
    "dirty_whole_suit": _("dirty whole suit"),
    "clean_trump_whole_suit": _("clean trump whole suit"),
    "dirty_trump_whole_suit": _("dirty trump whole suit"),
    "clean_set_biriba": _("clean biriba of a set"),
    "dirty_set_biriba": _("dirty biriba of a set"),
    "clean_burraco": _("burraco pulito"),
    "semi_clean_burraco": _("burraco semipulito"),
    "dirty_burraco": _("burraco sporco"),
}

GAMES: dict[str, Promise] = {
    "biriba": pgettext_lazy("game", "Biriba"),
    "burraco": pgettext_lazy("game", "Burraco"),
    "barbu": pgettext_lazy("game", "Barbu"),
}
#: The pot of each rummy game, by the rules core's word for it.
POTS: dict[str, Promise] = {"biribaki": _("biribaki"), "pozzetto": _("pozzetto")}
#: A rank as a set of it is named (``a set of kings``).
RANK_PLURALS: dict[str, Promise] = {
    "A": _("aces"),
    "2": _("twos"),
    "3": _("threes"),
    "4": _("fours"),
    "5": _("fives"),
    "6": _("sixes"),
    "7": _("sevens"),
    "8": _("eights"),
    "9": _("nines"),
    "10": _("tens"),
    "J": _("jacks"),
    "Q": _("queens"),
    "K": _("kings"),
}
SUITS: dict[str, Promise] = {
    "S": _("spades"),
    "H": _("hearts"),
    "D": _("diamonds"),
    "C": _("clubs"),
}
#: What a Barbu deal records, by its key in the document (``the {key} taken``: nouns).
BARBU_DATA: dict[str, Promise] = {
    "tricks": _("tricks"),
    "hearts": _("hearts"),
    "ace_of_hearts": _("ace of hearts"),
    "queens": _("queens"),
    "king_of_hearts": _("king of hearts"),
    "last_two": _("last two tricks"),
    "trump": _("trump suit"),
    "finish_order": _("finishing order"),
    "start_rank": _("starting rank"),
    "suits": _("cards of each suit"),
    "last_trick": _("last trick"),
    "boys": _("jacks and kings"),
    "net": _("net results"),
}
#: What a house value of a Barbu contract is given for (``contract_values``' units), bare
#: nouns: the messages say "its {unit}", "the {unit} of {contract}".
UNITS: dict[str, Promise] = {
    "trick": _("trick"),
    "heart": _("heart"),
    "ace_of_hearts": _("ace of hearts"),
    "queen": _("queen"),
    "king_of_hearts": _("king of hearts"),
    "last_two": _("last two tricks"),
    "last_trick": _("last trick"),
    "trump_trick": _("trump trick"),
    "payouts": _("payouts"),
    "most_cards": _("most cards of a suit"),
}
#: The options a document may give that the new-match page does not offer (yet): their names
#: (in a refusal, and in a match's house rules on its scoreboard).
OPTIONS: dict[str, Promise] = {
    "match_deals": _("Deals in the match"),
    "vp_table": _("Victory points table"),
    "card_values": _("Card values"),  # Burraco's house values (Biriba's: an option)
    "burraco_bonuses": _("Burraco bonuses"),
    "chinese_poker": _("Chinese Poker"),
    "chinese_poker_multiplier": _("Chinese Poker multiplier"),
    "contracts": _("Contracts played"),
    "contract_values": _("Contract values"),
    "domino_payouts": _("Domino payouts"),
}
OPTION_VALUES: dict[tuple[str, str], Promise] = {
    ("vp_table", "fibur"): _("FIBUR's table"),
}


def _word(table: dict[str, Promise], code: str) -> str:
    return str(table.get(code, code.replace("_", " ")))


def contract_name(code: str) -> str:
    return _word(CONTRACTS, code)


def bonus_name(code: str) -> str:
    return _word(BONUSES, code)


def meld_kind(code: str) -> str:
    return _word(MELD_KINDS, code)


def purity(code: str) -> str:
    return _word(PURITIES, code)


def game_name(code: str) -> str:
    return _word(GAMES, code)


def pot_name(code: str) -> str:
    return _word(POTS, code)


def rank_plural(code: str) -> str:
    return _word(RANK_PLURALS, code)


def suit_name(code: str) -> str:
    return _word(SUITS, code)


def unit_name(code: str) -> str:
    return _word(UNITS, code)


def barbu_data(code: str) -> str:
    return _word(BARBU_DATA, code)
