"""The audit log moves from ``rulings`` to its own app: state only. The table
(``rulings_auditentry``), its indexes, every entry and the PostgreSQL trigger that refuses UPDATE
and DELETE (rulings/migrations/0002_audit_append_only.py) stay exactly as they are; the model's
content type (and so its permissions) follows it to the new app."""

from django.db import migrations, models


def content_type_follows(apps, schema_editor, *, source="rulings", target="audit"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=target, model="auditentry").exists():
        ContentType.objects.filter(app_label=source, model="auditentry").update(app_label=target)


def content_type_goes_back(apps, schema_editor):
    content_type_follows(apps, schema_editor, source="audit", target="rulings")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        # The table was created, and made append-only, by the rulings app's first migrations.
        ("rulings", "0002_audit_append_only"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("actor_id", models.IntegerField(blank=True, null=True)),
                        ("actor_name", models.CharField(blank=True, max_length=150)),
                        ("action", models.CharField(help_text="what happened, e.g. match.result_confirmed, ruling.made",
                                                    max_length=64)),
                        ("object_type", models.CharField(max_length=64)),
                        ("object_id", models.BigIntegerField(blank=True, null=True)),
                        ("tournament_id", models.IntegerField(blank=True, db_index=True, null=True)),
                        ("match_id", models.IntegerField(blank=True, db_index=True, null=True)),
                        ("club_id", models.IntegerField(blank=True, db_index=True, null=True)),
                        ("before", models.JSONField(blank=True, null=True)),
                        ("after", models.JSONField(blank=True, null=True)),
                        ("note", models.TextField(blank=True)),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "ordering": ["-at", "-id"],
                        "db_table": "rulings_auditentry",
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_follows, content_type_goes_back),
    ]
