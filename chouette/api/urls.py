"""API routes of the chouette tables, mounted under /api/v1/ beside the clubs API (config/urls.py): a
club's tables live under it, /api/v1/clubs/<club_id>/chouettes/."""

from django.urls import path

from . import chouettes

urlpatterns = [
    path("clubs/<int:club_id>/chouettes/", chouettes.ChouetteCollectionApi.as_view(), name="api-club-chouettes"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/", chouettes.ChouetteDetailApi.as_view(),
         name="api-club-chouette"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/version/", chouettes.ChouetteVersionApi.as_view(),
         name="api-club-chouette-version"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/join/", chouettes.ChouetteJoinApi.as_view(),
         name="api-club-chouette-join"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/leave/", chouettes.ChouetteLeaveApi.as_view(),
         name="api-club-chouette-leave"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/games/", chouettes.ChouetteGameCollectionApi.as_view(),
         name="api-club-chouette-games"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/games/<int:game_number>/",
         chouettes.ChouetteGameDetailApi.as_view(), name="api-club-chouette-game"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/end/", chouettes.ChouetteEndApi.as_view(),
         name="api-club-chouette-end"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/reopen/", chouettes.ChouetteReopenApi.as_view(),
         name="api-club-chouette-reopen"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/settlement/", chouettes.ChouetteSettlementApi.as_view(),
         name="api-club-chouette-settlement"),
    path("clubs/<int:club_id>/chouettes/<int:chouette_id>/rules/", chouettes.ChouetteRulesApi.as_view(),
         name="api-club-chouette-rules"),
]
