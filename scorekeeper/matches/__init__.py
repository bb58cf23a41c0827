"""The matches of an account or a phone, after the game: the history at ``/matches/`` (every
match, newest first, filtered and searched by query parameters), home's short list, and what
the owner does with a match that is over: archive it (hidden from home, kept in the history)
or delete it (after a page that offers its export first)."""
