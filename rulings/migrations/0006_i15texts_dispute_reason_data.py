"""An automatic dispute's reason was stored in English in its statement ("the reports disagree:
5-3 and 3-5. I won." / "the report of 5-3 is contested. ..."): it is now data
(``Dispute.reported_scores``), worded where it is read in the reader's language, and the statement
keeps the player's own words only. Existing automatic disputes are converted: the English prefix
is taken out of the statement and its scores kept; backwards, the prefix is written again."""

import re

from django.db import migrations

DISAGREE = re.compile(r"^the reports disagree: (\d+)-(\d+) and (\d+)-(\d+)\.\s*")
CONTESTED = re.compile(r"^the report of (\d+)-(\d+) is contested\.\s*")


def split_reason(statement: str) -> tuple[list | None, str]:
    """(the reported scores, the player's words) of an old automatic dispute's statement; (None,
    the statement) when it does not start with an English reason."""
    found = DISAGREE.match(statement)
    if found:
        a, b, c, d = (int(value) for value in found.groups())
        return [[a, b], [c, d]], statement[found.end():]
    found = CONTESTED.match(statement)
    if found:
        return [[int(found.group(1)), int(found.group(2))]], statement[found.end():]
    return None, statement


def join_reason(scores: list | None, statement: str) -> str:
    """The statement as it was stored before: the English reason, then the player's words."""
    if not scores:
        return statement
    if len(scores) >= 2:
        why = f"the reports disagree: {scores[0][0]}-{scores[0][1]} and {scores[1][0]}-{scores[1][1]}"
    else:
        why = f"the report of {scores[0][0]}-{scores[0][1]} is contested"
    return f"{why}. {statement}".strip()


def reasons_to_data(apps, schema_editor):
    Dispute = apps.get_model("rulings", "Dispute")
    changed = []
    for dispute in Dispute.objects.filter(automatic=True).only("pk", "statement", "reported_scores").iterator():
        scores, words = split_reason(dispute.statement)
        if scores is None:
            continue
        dispute.statement, dispute.reported_scores = words, scores
        changed.append(dispute)
    Dispute.objects.bulk_update(changed, ["statement", "reported_scores"], batch_size=500)


def reasons_to_text(apps, schema_editor):
    Dispute = apps.get_model("rulings", "Dispute")
    changed = []
    for dispute in (Dispute.objects.filter(automatic=True, reported_scores__isnull=False)
                    .only("pk", "statement", "reported_scores").iterator()):
        dispute.statement, dispute.reported_scores = join_reason(dispute.reported_scores, dispute.statement), None
        changed.append(dispute)
    Dispute.objects.bulk_update(changed, ["statement", "reported_scores"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("rulings", "0005_i15texts_dispute_reported_scores"),
    ]

    operations = [
        migrations.RunPython(reasons_to_data, reasons_to_text),
    ]
