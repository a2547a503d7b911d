"""The plumbing every app stands on, and nothing of any one app: domain errors and their HTTP
mapping, the API's base classes, serializers, pagination and error body, the pages' error
helpers, the task retry policy, row locking, the API throttles and text made safe to store.

``core`` imports only Django, DRF, Celery, ``engine`` and ``tournaments.draw`` (both pure); every
app imports it, it imports no app.
"""
