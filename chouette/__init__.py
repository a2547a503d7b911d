"""Chouette tables (RULES.md §7) at a club: a session's settings and its recorded steps (models), the
services that start a table, seat and unseat players, record, amend and void games and end it, the
selectors that recompute the line-up, the ledger and the settlement from the steps with the engine
(``engine.chouette``), the pages and the API. Stands on clubs (a table belongs to a club, and may be
played at one of its nights); clubs asks it what it needs through :mod:`clubs.hooks`."""
