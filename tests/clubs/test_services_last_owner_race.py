"""Two owners demoting (or removing) each other at the same moment never leave the club without an
owner: the services run under the club's row lock and re-read the actor's role under it."""

from __future__ import annotations

import pytest

from clubs.models import Membership
from clubs.services import membership_remove, membership_role_change
from tests.clubs.factories import club_cast
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("service", ["demote", "remove"])
def test_two_owners_acting_on_each_other_at_once_leave_exactly_one_owner(service):
    cast = club_cast()
    second = cast.membership(cast.members[0])
    Membership.objects.filter(pk=second.pk).update(role="owner")
    first = cast.membership(cast.owner)

    def act(actor, target):
        if service == "demote":
            return lambda: membership_role_change(club_id=cast.club.pk, membership_id=target.pk, user=actor,
                                                  role="member")
        return lambda: membership_remove(club_id=cast.club.pk, membership_id=target.pk, user=actor)

    outcomes = at_once([act(cast.owner, second), act(cast.members[0], first)])
    assert sorted(outcomes) == ["done", "not_club_owner"]
    assert Membership.objects.filter(club=cast.club, status="active", role="owner").count() == 1
