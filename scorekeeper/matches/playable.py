"""What the site's pages can play: the rules core scores more forms than the pages draw yet.

A match of a form the pages cannot enter or show (Burraco for three, Salade for five, the
Chinese Poker contract, a salade that counts the last two tricks) is refused where a match is
made (a new match, an import, a data file), with a message that names the form, so that
nothing stored leads to a page that cannot draw it. The rules core's ``PLAYER_COUNTS`` is what
a new match offers; its ``DOCUMENT_PLAYER_COUNTS`` what a document may hold.
"""

from __future__ import annotations

from scorekeeper.rules import barbu
from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError


def match_check_playable(parsed: rules_match.Match) -> None:
    """Raise :class:`RuleError` (code ``not_on_site``) when the pages cannot play ``parsed``."""
    game, count = parsed.header.game, len(parsed.header.players)
    if count not in parsed.engine.PLAYER_COUNTS:
        if game == "burraco" and count == 3:
            raise RuleError(
                "not_on_site",
                "Burraco for three players cannot be played on this site yet",
                where=("players",),
            )
        if game == "barbu" and count == 5:
            raise RuleError(
                "not_on_site",
                "Salade for five players cannot be played on this site yet",
                where=("players",),
            )
        raise RuleError(
            "not_on_site",
            "A match of {count} players cannot be played on this site yet",
            where=("players",),
            count=count,
        )
    if game != "barbu":
        return
    played = barbu.match_contracts(parsed.rules)
    if barbu.Contract.CHINESE_POKER in played:
        raise RuleError(
            "not_on_site",
            "The Chinese Poker contract cannot be played on this site yet",
            where=("rules", "chinese_poker"),
        )
    if barbu.Contract.SALADE in played and "last_two" in barbu.data_keys(
        parsed.rules, barbu.Contract.SALADE
    ):
        raise RuleError(
            "not_on_site",
            "A salade that counts the last two tricks cannot be played on this site yet",
            where=("rules", "contract_values"),
        )
