"""The bounds of a whole number in PostgreSQL's columns: every number the service takes (the API,
the pages' forms, the services that take JSON) stays within its column's, so a number no column
holds is refused with a message naming its field, never a database error. The domain's own,
narrower bounds (a score, a cube, a match length) live with the domain.
"""

#: ``integer`` (Django's IntegerField, PositiveIntegerField). Ids are ``bigint``, but a service of
#: clubs and events stays far below two billion rows, so one ceiling serves them too.
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)
#: ``smallint`` (PositiveSmallIntegerField).
SMALLINT_MAX = 2**15 - 1
