"""The state a session's steps lead to, kept on the session (``kept``) so that the next step is
folded into it instead of replaying every step (chouette.services._standing checks it before use).

A trigger empties ``kept`` when a step row is updated or deleted, whoever does it: a history edited
below the services (SQL, a shell) can never be read through a state computed from the old one. The
services write ``kept`` afresh after changing a step, in the same transaction. A new row needs no
trigger: the services compare the rows' count and last number with the kept ones.
"""

from django.db import migrations, models

POSTGRESQL = """
CREATE OR REPLACE FUNCTION chouette_step_forgets_kept() RETURNS trigger AS $$
BEGIN
    UPDATE clubs_chouettesession SET kept = NULL WHERE id = OLD.session_id AND kept IS NOT NULL;
    IF TG_OP = 'UPDATE' AND NEW.session_id <> OLD.session_id THEN
        UPDATE clubs_chouettesession SET kept = NULL WHERE id = NEW.session_id AND kept IS NOT NULL;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER chouette_step_forgets_kept AFTER UPDATE OR DELETE ON clubs_chouettestep
    FOR EACH ROW EXECUTE FUNCTION chouette_step_forgets_kept();
"""
POSTGRESQL_DROP = """
DROP TRIGGER IF EXISTS chouette_step_forgets_kept ON clubs_chouettestep;
DROP FUNCTION IF EXISTS chouette_step_forgets_kept();
"""
SQLITE = [
    """CREATE TRIGGER chouette_step_update_forgets_kept AFTER UPDATE ON clubs_chouettestep BEGIN
        UPDATE clubs_chouettesession SET kept = NULL WHERE id IN (OLD.session_id, NEW.session_id);
    END""",
    """CREATE TRIGGER chouette_step_delete_forgets_kept AFTER DELETE ON clubs_chouettestep BEGIN
        UPDATE clubs_chouettesession SET kept = NULL WHERE id = OLD.session_id;
    END""",
]
SQLITE_DROP = ["DROP TRIGGER IF EXISTS chouette_step_update_forgets_kept",
               "DROP TRIGGER IF EXISTS chouette_step_delete_forgets_kept"]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRESQL)
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRESQL_DROP)
    elif vendor == "sqlite":
        for statement in SQLITE_DROP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("chouette", "0001_initial")]
    operations = [
        migrations.AddField(
            model_name="chouettesession",
            name="kept",
            field=models.JSONField(blank=True, editable=False, null=True,
                                   help_text="the state after the last step, and what it was computed from"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
