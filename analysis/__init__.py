"""GNU Backgammon's verdict on every recorded match: error rates, blunders, PR, as gnubg gives them.

The pure analysis (``analysis.compute`` with its reader ``analysis.gnubg_reader`` and its results
``analysis.verdict``; the compute and the reader are the only callers of ``analysis.gnubg_adapter``,
the only module that imports ``gnubg``) replays a match with the engine, has gnubg run its own
analysis of it and reads back gnubg's figures, each of its positions checked against the engine's.
The Django side (models, services, selectors, tasks, API) keeps one :class:`~analysis.models.MatchAnalysis`
per match, queued on Celery's ``analysis`` queue after a result with a log is confirmed, a match
file is imported, or a director asks. analysis stands above matches and below the events and
clubs: it hears about matches through ``matches.hooks`` and about an event's depth through
:mod:`analysis.hooks`, which tournaments registers into.
"""
