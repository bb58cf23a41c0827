"""Confirmation by the other side, a house rule of the match (``Match.confirmation``, off by
default; Bridgemate works this way: North enters, East accepts).

With it on, a deal saved (entered, corrected or put back) by a player of one side *waits for*
the other side: the scoreboard shows it and leaves it out of the totals, the next deal can be
entered meanwhile. A player of another side (in Barbu, any other player) accepts it on their
own phone, or rejects it with a reason: the deal then waits for its correction, the reason
shown, and waits again once corrected. The owner may accept or reject on behalf of a table
that has one phone. Each phone says which player it is (``Match.owner_seat``,
``MatchMember.seat``). Every acceptance and rejection is in the match's history.

- :mod:`.selectors`: the totals without the deals not accepted, who may accept what;
- :mod:`.services`: :func:`~.services.seat_claim`, :func:`~.services.deal_confirm`,
  :func:`~.services.deal_reject`;
- :mod:`.views`: the scoreboard's buttons for them.
"""
