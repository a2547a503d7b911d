"""The plumbing every app stands on, and nothing of any one app: domain errors and their HTTP
mapping, the API's base classes, serializers, pagination and error body, the pages' error
helpers, the task retry policy, the task outbox and its relay, the workers' heartbeats and
``/health/``, row locking, the API throttles and text made safe to store. Its only tables are the
outbox's and the heartbeats' (core/models.py).

``core`` imports only Django, DRF, Celery, redis, ``engine`` and ``tournaments.draw`` (both pure); every
app imports it, it imports no app.
"""
