"""The audit log is append-only below the ORM too: on PostgreSQL a trigger refuses every UPDATE
and DELETE of ``rulings_auditentry`` (TRUNCATE stays possible: test databases are flushed with it).
SQLite, the embedded default for a local run, relies on the model and queryset guards."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION rulings_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: %% refused', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER rulings_audit_append_only BEFORE UPDATE OR DELETE ON rulings_auditentry
    FOR EACH ROW EXECUTE FUNCTION rulings_audit_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS rulings_audit_append_only ON rulings_auditentry;
DROP FUNCTION IF EXISTS rulings_audit_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("rulings", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
