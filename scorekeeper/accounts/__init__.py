"""A player's account: the limit on login attempts, and deleting the account with everything
it holds (after offering the download of every match)."""
