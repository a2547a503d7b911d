"""Reads shared by the matches app's API and pages, one module per area (matches, claims, the
directory, players)."""
