"""Deal entry: the rummy card pad (Biriba, Burraco) and the Barbu contract sheet.

One deal in progress per deal, shared by every phone of the match and kept in the database
(:class:`~scorekeeper.models.DealDraft`), never in a phone's session or in the form:

- :mod:`.drafts`: the deal in progress as plain values: what the table shares (the cards,
  counts and choices entered) and where one phone's taps go (its open side, meld, field and
  chosen suit), and every key of the pads as an action applied to them. No rule of the games.
- :mod:`.services`: the writes: open the deal in progress, apply a tap under its row lock (a
  tap sent twice is applied once), start over, save it as a deal (once, whoever presses Save).
- :mod:`.rummy`, :mod:`.barbu`: what each pad shows, asked of the rules core.
- :mod:`.forms`, :mod:`.views`: the one page of each pad and its form.
"""
