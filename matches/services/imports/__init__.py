"""Importing .mat match files in batches, in two steps: check the files, then, once the importer
has said who each name is, write one match per file.

Modules: ``upload`` (the upload checked and the job created), ``files`` (one file checked, then its
match written), ``names`` (the players' names, their likely players and the importer's mapping),
``jobs`` (a job run, abandoned or swept, and read for the API, the page and the command).

Flow: :func:`import_job_create` checks the upload (zip archives expanded safely; an uploaded file
refused fails alone, with its reason), stores the job and its files and writes
``import_job_run_task`` in the task outbox (core/outbox.py). The task calls :func:`import_job_run`:
it checks the pending files one by one (:func:`import_file_check`, each in its own transaction),
keeps what each holds in its row (``ImportFile.parsed``) and collects the players' names with
the players each likely is (:func:`import_candidates`); nothing is written to matches or players.
The importer maps each name (:func:`import_job_map`) to an existing player, a new guest player or
"skip"; the task then writes each file's match (:func:`import_file_process`, one transaction per
file) with that mapping.

Guarantees:
- a file is processed once per step: its status moves from "pending" (then "checked") by a
  conditional update in the same transaction as its result, so a second run (a redelivered task,
  two workers) finds it done and changes nothing; the job's counters move in that same transaction;
- one match per match file: the canonical hash (sha256 of the engine's own .mat rendering, without
  tags) is unique in the database, so the same match with CRLF line ends, a byte-order mark or
  other tags is a duplicate, even when two imports race;
- a file that fails stores ``{line, game, message}`` and the other files go on;
- no player is created nor named before the importer chooses: a name mapped to a player of an
  event the import is for must be one of its entrants; a guest player is created once per job;
- the importer directs an imported match only if he plays in it; an import for an event makes
  the event's director the matches' director (the event context of ``matches.hooks``);
- an imported match is on a named player's record only once he (or a director of his, or
  staff) confirms it; only the importer's own side is consented at once: see
  ``matches.services.consent``.
- a job whose worker died is found by :func:`import_jobs_sweep` (its ``progressed_at`` stopped) and
  sent again, resuming at its first file not processed; after IMPORT_MAX_REDISPATCH tries it is
  failed. A job waiting for its mapping is left alone.
"""

