"""Chouette stands on clubs, never the other way (STYLE.md §3.0). That no module of clubs imports
chouette is tests/test_layers.py's walk; here, the pages: no template of clubs names a chouette
route (a club page links the tables through clubs.hooks, which chouette answers)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_no_clubs_page_names_a_chouette_route():
    pages = sorted((ROOT / "templates" / "clubs").rglob("*.html"))
    assert pages and [str(p.relative_to(ROOT)) for p in pages if "chouette:" in p.read_text()] == []
