"""The audit log now belongs to the ``audit`` app (audit/migrations/0001_initial.py): rulings
forgets the model, state only; the table and its entries stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("rulings", "0003_dispute_settled"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
