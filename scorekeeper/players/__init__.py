"""An account's players: the list with the matches each sits in; renaming one (every match
follows: the name lives on :class:`~scorekeeper.models.Player`), merging two that are the same
person, removing one that sits in no match."""
