"""Sharing a match: score links that make co-scorers, watch links for a read-only live view,
each with a QR code and a short code to type at ``/join/``."""
