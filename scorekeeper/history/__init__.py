"""A match's history: every change kept with who made it and when (record.py writes it in the
change's own transaction), read as a list a player takes in at a glance (selectors.py,
views.py)."""
