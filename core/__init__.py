"""The plumbing every app stands on, and nothing of any one app: domain errors and their HTTP
mapping, the API's base classes, serializers, pagination and error body, the pages' error
helpers, the task retry policy, row locking and the API throttles.

``core`` imports only Django, DRF, Celery, ``engine`` and ``tournaments.draw`` (both pure); every
app imports it, it imports no app.
"""
