"""Page routes of the chouette tables, mounted at /clubs/ beside the club pages (config/urls.py): a
club's tables live under its page, /clubs/<slug>/chouettes/."""

from django.urls import path

from . import views

app_name = "chouette"

urlpatterns = [
    path("<slug:slug>/chouettes/", views.chouette_list, name="list"),
    path("<slug:slug>/chouettes/new/", views.chouette_new, name="new"),
    path("<slug:slug>/chouettes/<int:chouette_id>/", views.chouette_table, name="table"),
    path("<slug:slug>/chouettes/<int:chouette_id>/games/", views.chouette_game_record, name="game_record"),
    path("<slug:slug>/chouettes/<int:chouette_id>/games/full/", views.chouette_game_record_full,
         name="game_record_full"),
    path("<slug:slug>/chouettes/<int:chouette_id>/games/<int:game_number>/", views.chouette_game, name="game"),
    path("<slug:slug>/chouettes/<int:chouette_id>/join/", views.chouette_join, name="join"),
    path("<slug:slug>/chouettes/<int:chouette_id>/leave/", views.chouette_leave, name="leave"),
    path("<slug:slug>/chouettes/<int:chouette_id>/end/", views.chouette_end, name="end"),
    path("<slug:slug>/chouettes/<int:chouette_id>/reopen/", views.chouette_reopen, name="reopen"),
    path("<slug:slug>/chouettes/<int:chouette_id>/rules/", views.chouette_rules, name="rules"),
]
