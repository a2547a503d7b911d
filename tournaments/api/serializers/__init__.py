"""Serializers of the tournaments API, one module per resource: the event (events), its entries
(entries), its draw and rounds (rounds), its standings, placings and a player's next match
(standings)."""
