"""Every account's language "as my browser says" unless its holder chose English himself.

Until now an account began in English: the demo's, every walk-in and every account made by staff
or a director, and an account signed up on an English page, all hold "en" without anyone having
chosen it. Who did choose it left a trace: his profile's change is audited
(``player.profile_updated``, by himself, with the language it became in ``after``), whether made on
the profile page, through the API or with the language switcher. So an "en" account moves to
"browser" unless the last language its holder gave himself in the audit log is English. Accounts in
another language keep it: nobody is given one by default but English.
"""

from django.db import migrations, models


def follow_the_browser(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    AuditEntry = apps.get_model("audit", "AuditEntry")
    chosen: dict[int, str] = {}
    changes = (AuditEntry.objects.filter(action="player.profile_updated", after__has_key="preferred_language")
               .exclude(actor_id=None).order_by("at", "pk").values_list("actor_id", "after"))
    for actor_id, after in changes.iterator():
        chosen[actor_id] = after["preferred_language"]
    kept = [user_id for user_id, code in chosen.items() if code == "en"]
    User.objects.filter(preferred_language="en").exclude(pk__in=kept).update(preferred_language="browser")


def back_to_english(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(preferred_language="browser").update(preferred_language="en")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_api_tokens_sessions_generation"),
        ("audit", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="preferred_language",
            field=models.CharField(choices=[("browser", "As my browser says"), ("en", "English"), ("ko", "한국어"),
                                            ("ar", "العربية"), ("ro", "Română")],
                                   db_default="browser", default="browser", max_length=8),
        ),
        migrations.RunPython(follow_the_browser, back_to_english),
    ]
