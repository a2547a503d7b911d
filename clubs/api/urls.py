"""API routes of the clubs app, mounted under /api/v1/."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("", include("clubs.api.walkins")),
    path("clubs/", views.ClubCollectionApi.as_view(), name="api-clubs"),
    path("clubs/<int:club_id>/", views.ClubDetailApi.as_view(), name="api-club"),
    path("clubs/<int:club_id>/memberships/", views.MembershipListApi.as_view(), name="api-club-memberships"),
    path("clubs/<int:club_id>/memberships/request/", views.MembershipRequestApi.as_view(),
         name="api-club-membership-request"),
    path("clubs/<int:club_id>/memberships/invite/", views.MembershipInviteApi.as_view(),
         name="api-club-membership-invite"),
    path("clubs/<int:club_id>/memberships/accept/", views.MembershipAcceptApi.as_view(),
         name="api-club-membership-accept"),
    path("clubs/<int:club_id>/memberships/leave/", views.MembershipLeaveApi.as_view(), name="api-club-membership-leave"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/approve/", views.MembershipApproveApi.as_view(),
         name="api-club-membership-approve"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/decline/", views.MembershipDeclineApi.as_view(),
         name="api-club-membership-decline"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/role/", views.MembershipRoleApi.as_view(),
         name="api-club-membership-role"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/remove/", views.MembershipRemoveApi.as_view(),
         name="api-club-membership-remove"),
    path("clubs/<int:club_id>/seasons/", views.SeasonCollectionApi.as_view(), name="api-club-seasons"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/", views.SeasonDetailApi.as_view(), name="api-club-season"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/ladder/", views.LadderApi.as_view(), name="api-club-ladder"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/ladder.csv", views.LadderCsvApi.as_view(),
         name="api-club-ladder-csv"),
    path("clubs/<int:club_id>/calendar.ics", views.CalendarApi.as_view(), name="api-club-calendar"),
    path("clubs/<int:club_id>/nights/", views.NightCollectionApi.as_view(), name="api-club-nights"),
    path("clubs/<int:club_id>/nights/<int:night_id>/", views.NightDetailApi.as_view(), name="api-club-night"),
    path("clubs/<int:club_id>/nights/<int:night_id>/close/", views.NightCloseApi.as_view(), name="api-club-night-close"),
    path("clubs/<int:club_id>/nights/<int:night_id>/check-in/", views.NightCheckInApi.as_view(),
         name="api-club-night-check-in"),
]
