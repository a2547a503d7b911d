"""Two texts the application stored in English become data, worded where they are read:

- a contested report's statement had the contesting side's words appended ("...\\n\\nContested:
  it was 3-5", or "Contested: it was 3-5" alone): they move to ``Report.contest_statement``;
- a claim refused because its player was given to another claim kept the English reason "The
  player was given to another user's claim.": it becomes ``reason_code`` "given_to_another".

Backwards, the texts are written again as they were."""

from django.db import migrations

CONTESTED = "Contested: "
GIVEN_TO_ANOTHER = "The player was given to another user's claim."
GIVEN_TO_ANOTHER_CODE = "given_to_another"


def split_contest(statement: str) -> tuple[str, str] | None:
    """(the reporter's words, the contesting side's) of an old report's statement, or None when
    no contest was appended to it."""
    if statement.startswith(CONTESTED):
        return "", statement[len(CONTESTED):]
    head, found, tail = statement.partition("\n\n" + CONTESTED)
    if found:
        return head, tail
    return None


def join_contest(statement: str, contest: str) -> str:
    """The statement as it was stored before (``match_contest``'s old text)."""
    return (statement + "\n\n" + CONTESTED + contest).strip() if contest else statement


def texts_to_data(apps, schema_editor):
    Report = apps.get_model("matches", "Report")
    PlayerClaim = apps.get_model("matches", "PlayerClaim")
    changed = []
    for report in Report.objects.filter(statement__contains=CONTESTED).only("pk", "statement", "contest_statement"):
        split = split_contest(report.statement)
        if split is None:
            continue
        report.statement, report.contest_statement = split
        changed.append(report)
    Report.objects.bulk_update(changed, ["statement", "contest_statement"], batch_size=500)
    PlayerClaim.objects.filter(reason=GIVEN_TO_ANOTHER).update(reason="", reason_code=GIVEN_TO_ANOTHER_CODE)


def data_to_texts(apps, schema_editor):
    Report = apps.get_model("matches", "Report")
    PlayerClaim = apps.get_model("matches", "PlayerClaim")
    changed = []
    for report in Report.objects.exclude(contest_statement="").only("pk", "statement", "contest_statement"):
        report.statement, report.contest_statement = join_contest(report.statement, report.contest_statement), ""
        changed.append(report)
    Report.objects.bulk_update(changed, ["statement", "contest_statement"], batch_size=500)
    PlayerClaim.objects.filter(reason_code=GIVEN_TO_ANOTHER_CODE).update(reason=GIVEN_TO_ANOTHER, reason_code="")


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0014_i15texts_contest_and_claim_reason"),
    ]

    operations = [
        migrations.RunPython(texts_to_data, data_to_texts),
    ]
