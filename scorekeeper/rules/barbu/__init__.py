"""Barbu: the rules engine (see docs/rules.md, "Barbu", and docs/match-format.md, "Barbu deals").

Four players, no partners, one pack of 52 (or five players in Salade, 50 cards: the black twos
out). The dealer is the declarer and names a contract; players may double each other; each
deal is settled pair by pair; the match ends when every player has declared every contract of
the match: the variant's (with Chinese Poker when ``chinese_poker`` adds it), or the house
list ``contracts``, at the variant's values or the house's ``contract_values``.

The engine names that ``scorekeeper.rules.match`` calls: ``NAME``, ``PLAYER_COUNTS`` (and
``DOCUMENT_PLAYER_COUNTS``), ``check_players``, ``parse_rules``, ``rules_at_table``,
``rules_json``, ``parse_deal``, ``deal_json`` and ``score``; and those that
``scorekeeper.rules.incremental`` calls to score one deal at a time: ``start``, ``step``,
``standing``, ``tally_json`` and ``tally_from_json`` (``score`` is the fold of ``step``: the
:class:`BarbuTally` the deals before a deal leave, its :class:`Ledger` of contracts named, doubles
made and players flagged). For the site:

- ``allowed_doubles(declarer, contract, existing, rules=, names=)``: every double or redouble
  each seat could make now, with the reason for those the rules forbid;
- ``shortcut_choices(declarer, contract, existing, rules=, names=)``: what "maximum" and
  "family" would do for each seat, or why they may not be said; ``expand_shortcut(kind, by,
  declarer, contract, existing, rules=, names=)``: the doubles list after one is said;
- ``keep_allowed_doubles(doubles, declarer=, contract=, rules=)``: what stands when the
  contract changes; ``SettlementLine.gainer``: who gains on a pair (nobody at 0);
- the sheet's counts (:mod:`.sheet`): ``count_total``, ``count_tallies``, ``count_rest``,
  ``suit_tallies``, ``suit_rest``, ``whole_tricks`` and ``deal_sum``;
- ``next_deal(header, rules, deals)`` (also ``MatchResult.next_deal``): the next declarer,
  the contracts they may name and the doubles each other player still owes them;
- ``contracts_left(header, rules, deals, declarer=None)``;
- ``score_deal(header, rules, deal, index=)``: one deal on its own; ``preview_deal(header,
  rules, deals, deal)``: the next deal checked against the deals before it;
- swapping two deals' contracts (:mod:`.swap`): ``swap_partner(match, number, contract)``,
  the deal of the same declarer to swap with when deal ``number`` is corrected to
  ``contract``; ``swap_contracts(match, number, other)``, the two deals after the swap;
  ``swapped_deals(match, number, other)``, the same with the doubles each one drops;
- the match's contracts and values (issue 12): ``match_contracts(rules)`` (the contracts each
  declarer names, in order; ``contracts_of(variant)`` stays the variant's own list),
  ``data_keys(rules, contract)`` (what a deal of it records: Chinese Poker ``net``, a seat
  each; a salade counting the last two tricks ``last_two``), ``units_of(rules, contract)``
  and ``match_values(rules)`` (each contract's values and total, their sum, what a complete
  match adds up to, and whether it is checked for zero), ``zero_sum(rules)``;
- five players: ``rules.seats`` (``parse_rules(raw, seats)``), ``tricks_in_deal(seats)``,
  ``counts(seats)``, and the ``seats=`` keyword of the sheet's counts.

Decisions where the rules are silent:

- The document records businesses, not the auction: any doubled player may redouble, whatever
  the order in which the players spoke, and the order of the ``doubles`` list does not matter.
- Compulsory doubles are counted over a declarer's deals: their series under series rotation,
  every fourth deal under quick rotation. After each deal, a player who can no longer double
  the declarer twice in the declarer's deals left is refused (``enforce``) or flagged once
  (``warn``). A redoubled business counts as a double by the player who doubled.
- King has no doubling: ``compulsory_doubles`` is ``off`` and every negative is played.
- A deal still to enter (``"to_enter": true``: its contract named, its data not yet entered,
  as after a swap of contracts) counts in the schedule and its doubles count as made for the
  compulsory doubles (they were said before play, whatever the cards later show). It scores
  zeros with an empty settlement (no business is settled before the cards are known) and is
  never a split; the match is not finished while a deal is to enter.
- A swap keeps each deal's doubles that the new contract allows and drops the others (only
  doubles between non-declarers, when the new contract is positive); ``swapped_deals`` says
  which, with the rule's reason.
- Zero-sum matches (classic, Ravage City, King; house values whose contract totals add up
  to 0) are checked after every deal (the running sum is the sum of the contract totals so
  far), after every complete series and at the end; a breach raises :class:`ScoringFault`, an
  ``AssertionError`` that is the program's own fault.
- Issue 12's choices are in :mod:`.house` (house values, Chinese Poker) and docs/decisions.md
  ("Barbu: Chinese Poker, house values, five players").
"""

from __future__ import annotations

from .contracts import (
    CONTRACTS,
    COUNTS,
    HOUSE_CONTRACTS,
    SUIT_CARDS,
    Contract,
    contract_total,
    contracts_of,
    contracts_per_declarer,
    counts,
    data_keys,
    deal_count,
    default_contracts,
    match_contracts,
    split_scores,
    tricks_in_deal,
    zero_sum,
)
from .deal import BarbuDeal, check_deal, deal_json, is_split, parse_contract, parse_deal
from .doubles import (
    Action,
    Double,
    DoubleChoice,
    Refusal,
    SettlementLine,
    Shortcut,
    ShortcutChoice,
    allowed_doubles,
    double_refusal,
    expand_shortcut,
    keep_allowed_doubles,
    settle,
    shortcut_choices,
    shortcut_refusal,
)
from .house import ContractValue, MatchValues, match_values, units_of
from .options import (
    DEFAULT_RULES,
    BarbuRules,
    CompulsoryDoubles,
    Rotation,
    UndoubledNegative,
    Variant,
    check_players,
    parse_rules,
    rules_at_table,
    rules_json,
)
from .schedule import deals_left_in_series, declarer_of, match_length
from .scoring import (
    BarbuTally,
    Ledger,
    ScoringFault,
    contracts_for_deal,
    contracts_left,
    next_deal,
    preview_deal,
    raw_scores,
    score,
    score_deal,
    standing,
    start,
    step,
    tally_from_json,
    tally_json,
    winners,
)
from .sheet import (
    DealSum,
    Tally,
    count_rest,
    count_tallies,
    count_tally,
    count_total,
    counted_keys,
    deal_sum,
    suit_rest,
    suit_tallies,
    whole_tricks,
)
from .swap import (
    DroppedDouble,
    SwappedDeal,
    swap_contracts,
    swap_partner,
    swapped_deals,
)

NAME = "barbu"
#: The players a new match is offered for (the site's choice of seats): four, in every variant,
#: or five in Salade (the new-match page then offers Salade only).
PLAYER_COUNTS = (4, 5)
#: The players a match document may have: four, or five in Salade (``check_players`` refuses
#: five with any other variant, naming the players).
DOCUMENT_PLAYER_COUNTS = (4, 5)

__all__ = [
    "DOCUMENT_PLAYER_COUNTS",
    "HOUSE_CONTRACTS",
    "ContractValue",
    "MatchValues",
    "check_players",
    "rules_at_table",
    "counts",
    "data_keys",
    "default_contracts",
    "match_contracts",
    "match_values",
    "tricks_in_deal",
    "units_of",
    "zero_sum",
    "CONTRACTS",
    "COUNTS",
    "SUIT_CARDS",
    "DealSum",
    "ShortcutChoice",
    "Tally",
    "count_rest",
    "count_tallies",
    "count_tally",
    "count_total",
    "counted_keys",
    "deal_sum",
    "keep_allowed_doubles",
    "shortcut_choices",
    "shortcut_refusal",
    "suit_rest",
    "suit_tallies",
    "whole_tricks",
    "contracts_for_deal",
    "DEFAULT_RULES",
    "NAME",
    "PLAYER_COUNTS",
    "Action",
    "BarbuDeal",
    "BarbuRules",
    "CompulsoryDoubles",
    "Contract",
    "Double",
    "DoubleChoice",
    "Refusal",
    "Rotation",
    "ScoringFault",
    "SettlementLine",
    "Shortcut",
    "UndoubledNegative",
    "Variant",
    "allowed_doubles",
    "check_deal",
    "contract_total",
    "contracts_left",
    "contracts_of",
    "contracts_per_declarer",
    "deal_count",
    "deal_json",
    "deals_left_in_series",
    "declarer_of",
    "double_refusal",
    "DroppedDouble",
    "SwappedDeal",
    "parse_contract",
    "swap_contracts",
    "swap_partner",
    "swapped_deals",
    "expand_shortcut",
    "is_split",
    "match_length",
    "next_deal",
    "parse_deal",
    "parse_rules",
    "preview_deal",
    "raw_scores",
    "rules_json",
    "score",
    "score_deal",
    "settle",
    "split_scores",
    "winners",
    "BarbuTally",
    "Ledger",
    "standing",
    "start",
    "step",
    "tally_from_json",
    "tally_json",
]
