"""The chouette tables move from ``clubs`` to their own app: state only. The tables
(``clubs_chouettesession``, ``clubs_chouettestep``), their rows, indexes and constraints stay exactly
as clubs/migrations/0002_members_nights_seasons_chouettes.py made them; clubs forgets the models in
clubs/migrations/0004_chouette_tables_move_to_chouette.py.

The content types of the two models follow them (``clubs`` → ``chouette``), so that whatever points
at them (permissions, admin history) still does; on a new database there are none yet and this
changes nothing."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("chouettesession", "chouettestep")


def content_types_follow(apps, schema_editor, *, source="clubs", target="chouette"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def content_types_go_back(apps, schema_editor):
    content_types_follow(apps, schema_editor, source="chouette", target="clubs")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        # The tables were created by the clubs app's second migration.
        ("clubs", "0002_members_nights_seasons_chouettes"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("matches", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ChouetteSession",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(blank=True, max_length=80)),
                        ("status", models.CharField(choices=[("open", "Playing"), ("ended", "Ended")], default="open",
                                                    max_length=16)),
                        ("started_at", models.DateTimeField(auto_now_add=True)),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        ("single_cube", models.BooleanField(default=False,
                                                            help_text="one cube for the team instead of one per member")),
                        ("jacoby", models.BooleanField(default=True)),
                        ("beavers", models.BooleanField(default=False)),
                        ("raccoons", models.BooleanField(default=False)),
                        ("automatic_doubles", models.PositiveSmallIntegerField(default=0, help_text="limit; 0: none")),
                        ("box_partner_from", models.PositiveSmallIntegerField(
                            blank=True, help_text="the Box takes a partner from this many players", null=True)),
                        ("box_must_take_half", models.BooleanField(default=False)),
                        ("lone_taker_must_beaver", models.BooleanField(default=False)),
                        ("stake", models.DecimalField(decimal_places=2, default=1, help_text="money per point",
                                                      max_digits=9)),
                        ("currency", models.CharField(default="EUR", max_length=3)),
                        ("version", models.PositiveIntegerField(default=0)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="chouettes",
                                                   to="clubs.club")),
                        ("created_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                         to=settings.AUTH_USER_MODEL)),
                        ("night", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                    related_name="chouettes", to="clubs.clubnight")),
                    ],
                    options={
                        "db_table": "clubs_chouettesession",
                        "ordering": ["-started_at", "-id"],
                        "constraints": [
                            models.CheckConstraint(condition=models.Q(("raccoons", False), ("beavers", True),
                                                                      _connector="OR"),
                                                   name="chouette_raccoons_need_beavers"),
                            models.CheckConstraint(condition=models.Q(("box_partner_from__isnull", True),
                                                                      ("box_partner_from__gte", 3), _connector="OR"),
                                                   name="chouette_box_partner_from_three"),
                            models.CheckConstraint(condition=models.Q(("stake__gte", 0)),
                                                   name="chouette_stake_not_negative"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="ChouetteStep",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("number", models.PositiveIntegerField()),
                        ("kind", models.CharField(choices=[("start", "Start (opening roll-off)"), ("join", "Player joins"),
                                                           ("leave", "Player leaves"), ("game", "Game")], max_length=8)),
                        ("record", models.JSONField(blank=True, default=dict,
                                                    help_text="start: the roll-off; game: the game record")),
                        ("voided", models.BooleanField(default=False)),
                        ("amended", models.PositiveSmallIntegerField(default=0,
                                                                     help_text="how many times the record was amended")),
                        ("recorded_at", models.DateTimeField(auto_now_add=True)),
                        ("player", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                                     related_name="+", to="matches.player")),
                        ("recorded_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                                          to=settings.AUTH_USER_MODEL)),
                        ("session", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="steps",
                                                      to="chouette.chouettesession")),
                    ],
                    options={
                        "db_table": "clubs_chouettestep",
                        "ordering": ["session", "number"],
                        "constraints": [
                            models.UniqueConstraint(fields=("session", "number"), name="chouette_step_number_once"),
                            models.CheckConstraint(condition=models.Q(models.Q(("kind__in", ("join", "leave")),
                                                                               _negated=True),
                                                                      ("player__isnull", False), _connector="OR"),
                                                   name="chouette_join_leave_names_a_player"),
                            models.UniqueConstraint(condition=models.Q(("kind", "start")), fields=("session",),
                                                    name="chouette_one_start"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
