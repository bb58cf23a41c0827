"""Exports: a match as CSV and as a printable score sheet, the history as CSV, and every
match of an account in one data file (``scorekeeper-data/1``) with its import back."""
