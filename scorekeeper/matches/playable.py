"""What the site's pages can play: the rules core scores more forms than the pages draw yet.

A match of a form the pages cannot enter or show (a number of players no new match offers)
is refused where a match is made (a new match, an import, a data file), with a message that
names the form, so that nothing stored leads to a page that cannot draw it. The rules core's
``PLAYER_COUNTS`` is what a new match offers; its ``DOCUMENT_PLAYER_COUNTS`` what a document
may hold.
"""

from __future__ import annotations

from scorekeeper.rules import match as rules_match
from scorekeeper.rules.errors import RuleError


def match_check_playable(parsed: rules_match.Match) -> None:
    """Raise :class:`RuleError` (code ``not_on_site``) when the pages cannot play ``parsed``."""
    count = len(parsed.header.players)
    if count not in parsed.engine.PLAYER_COUNTS:
        raise RuleError(
            "not_on_site",
            "A match of {count} players cannot be played on this site yet",
            where=("players",),
            count=count,
        )
