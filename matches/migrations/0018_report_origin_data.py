"""The results the application wrote in English into a report's statement ("Imported from x.mat",
"Forfeit: Ana withdrew from the tournament.") become its origin code and name, worded where they
are read (Report.origin_text); the statement keeps only people's words. Undone, the sentences
come back."""

import re

from django.db import migrations

IMPORTED = re.compile(r"^Imported from (?P<name>.+)$", re.S)
FORFEIT = re.compile(r"^Forfeit: (?P<name>.+) withdrew from the tournament\.$", re.S)


def statements_to_origins(apps, schema_editor):
    Report = apps.get_model("matches", "Report")
    for origin, pattern, prefix in (("imported", IMPORTED, "Imported from "), ("forfeit", FORFEIT, "Forfeit: ")):
        # Only the organiser's results (side null): an import's and a forfeit's; a side's words stay.
        reports = Report.objects.filter(origin="", side__isnull=True, statement__startswith=prefix)
        for report in reports.only("pk", "statement"):
            found = pattern.match(report.statement)
            if found is not None:
                Report.objects.filter(pk=report.pk).update(origin=origin, origin_name=found["name"][:255], statement="")


def origins_to_statements(apps, schema_editor):
    Report = apps.get_model("matches", "Report")
    for report in Report.objects.exclude(origin="").only("pk", "origin", "origin_name"):
        sentence = (f"Imported from {report.origin_name}" if report.origin == "imported"
                    else f"Forfeit: {report.origin_name} withdrew from the tournament.")
        Report.objects.filter(pk=report.pk).update(statement=sentence, origin="", origin_name="")


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0017_report_origin"),
    ]

    operations = [
        migrations.RunPython(statements_to_origins, origins_to_statements),
    ]
