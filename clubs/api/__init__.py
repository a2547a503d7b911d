"""The clubs API under /api/v1/clubs/: clubs, memberships, seasons and their ladder (JSON and
CSV), the iCal feed, club nights. See :mod:`clubs.api.views` for the status codes and
:mod:`clubs.permissions` for who may read and do what."""
