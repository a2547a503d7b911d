"""The audit log: one append-only entry per change, written by every app in the change's own
transaction (:func:`audit.services.audit_record`), read through :mod:`audit.selectors`.

It stands just above ``core``: entries name objects by type and id (no foreign key), so the log
knows no app and every app may write to it.
"""
