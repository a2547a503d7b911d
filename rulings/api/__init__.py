"""The rulings API, under /api/v1/: disputes, statements, rulings, appeals, committees and votes, and
an event's public rulings (one module per resource: disputes, rulings, appeals; ``urls`` joins them).

One view per operation: it reads the body with a strict serializer, calls one service (or reads),
and answers with what it reads back. The services decide who may act and hold every rule; a view
only decides who may *read* (``rulings.access``).

A dispute, its rulings and its appeals are private to the match's players, its director (the
match's or its event's organiser), staff and the members of its appeals' committees. Anyone else
gets a 404, as if it did not exist (like another user's import job): an outsider learns nothing,
not even that a match was disputed. An event's rulings (category, outcome, rule, date) are public.

Status codes: 200, 201 for what a POST creates (a dispute, a statement, a ruling, an appeal), 400
for a bad body (unknown or read-only field, wrong type; a service's refusal names its field in
``errors``), 401 anonymous, 403 for someone who may read but not act (a player ruling, the
director appealing, a non-member voting), 404 unknown or hidden, 409 when the state forbids it
(``dispute_closed``, ``appeal_window_closed``, ``already_appealed``, ``committee_named``,
``no_committee``, ``appeal_decided``, ``ruling_refused``), 429 when the writes come too fast.
"""
