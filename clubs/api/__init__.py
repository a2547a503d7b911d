"""The clubs API under /api/v1/clubs/: clubs, memberships, seasons and their ladder (JSON and
CSV), the iCal feed, club nights and walk-in members, one module per resource (``urls`` joins
them). :mod:`clubs.permissions` says who may read and do what.

One class per operation (routes by method share a class, as in the
other apps). Each reads its body with a strict serializer, checks who reads (member-only objects:
:mod:`clubs.permissions`), calls one service or selector and answers with what a selector reads
back. The services check who acts, under the club's row lock.

Status codes: 200 (201 for a created club, season or night; 204 for a declined, removed or left
membership and a deleted season), 400 for a bad body (unknown or read-only field, wrong type,
unknown username, dates out of order), 401 anonymous on writes and member-only reads, 403 for
anyone the operation is not for (``not_club_member``, ``not_club_manager``, ``not_club_owner``),
404 unknown club, membership, season or night (another club's too), 405 wrong method, 409 when the
club's state forbids it (``last_owner``, ``already_member``, ``closed_to_requests``,
``night_closed``, ``name_taken``...). A repeated request, invitation, acceptance, approval,
check-in or close changes nothing and answers 200.
"""
