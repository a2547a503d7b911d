"""API routes of the clubs app, mounted under /api/v1/."""

from django.urls import include, path

from . import clubs, memberships, nights, seasons

urlpatterns = [
    path("", include("clubs.api.walkins")),
    path("clubs/", clubs.ClubCollectionApi.as_view(), name="api-clubs"),
    path("clubs/<int:club_id>/", clubs.ClubDetailApi.as_view(), name="api-club"),
    path("clubs/<int:club_id>/memberships/", memberships.MembershipListApi.as_view(), name="api-club-memberships"),
    path("clubs/<int:club_id>/memberships/request/", memberships.MembershipRequestApi.as_view(),
         name="api-club-membership-request"),
    path("clubs/<int:club_id>/memberships/invite/", memberships.MembershipInviteApi.as_view(),
         name="api-club-membership-invite"),
    path("clubs/<int:club_id>/memberships/accept/", memberships.MembershipAcceptApi.as_view(),
         name="api-club-membership-accept"),
    path("clubs/<int:club_id>/memberships/leave/", memberships.MembershipLeaveApi.as_view(), name="api-club-membership-leave"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/approve/", memberships.MembershipApproveApi.as_view(),
         name="api-club-membership-approve"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/decline/", memberships.MembershipDeclineApi.as_view(),
         name="api-club-membership-decline"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/role/", memberships.MembershipRoleApi.as_view(),
         name="api-club-membership-role"),
    path("clubs/<int:club_id>/memberships/<int:membership_id>/remove/", memberships.MembershipRemoveApi.as_view(),
         name="api-club-membership-remove"),
    path("clubs/<int:club_id>/seasons/", seasons.SeasonCollectionApi.as_view(), name="api-club-seasons"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/", seasons.SeasonDetailApi.as_view(), name="api-club-season"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/ladder/", seasons.LadderApi.as_view(), name="api-club-ladder"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/ladder.csv", seasons.LadderCsvApi.as_view(),
         name="api-club-ladder-csv"),
    path("clubs/<int:club_id>/calendar.ics", clubs.CalendarApi.as_view(), name="api-club-calendar"),
    path("clubs/<int:club_id>/nights/", nights.NightCollectionApi.as_view(), name="api-club-nights"),
    path("clubs/<int:club_id>/nights/<int:night_id>/", nights.NightDetailApi.as_view(), name="api-club-night"),
    path("clubs/<int:club_id>/nights/<int:night_id>/close/", nights.NightCloseApi.as_view(), name="api-club-night-close"),
    path("clubs/<int:club_id>/nights/<int:night_id>/check-in/", nights.NightCheckInApi.as_view(),
         name="api-club-night-check-in"),
]
