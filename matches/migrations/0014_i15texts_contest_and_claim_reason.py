# A contested report keeps the contesting side's words apart (contest_statement), and a claim the
# application refused keeps a code (reason_code) worded where it is read; see 0015 for the rows.

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0013_directory_search_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='playerclaim',
            name='claim_refusal_has_reason',
        ),
        migrations.AddField(
            model_name='playerclaim',
            name='reason_code',
            field=models.CharField(blank=True, choices=[('given_to_another', "The player was given to another user's claim.")], db_default='', default='', help_text='why the claim was refused, when the application refused it', max_length=32),
        ),
        migrations.AddField(
            model_name='report',
            name='contest_statement',
            field=models.TextField(blank=True, db_default='', default='', help_text="the other side's words when it contested the report"),
        ),
        migrations.AddConstraint(
            model_name='playerclaim',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'refused'), _negated=True), models.Q(('reason', ''), _negated=True), models.Q(('reason_code', ''), _negated=True), _connector='OR'), name='claim_refusal_has_reason'),
        ),
    ]
