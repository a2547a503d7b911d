"""The accounts services and selectors: a user made with his role and password, a taken username
refused, a user found by his exact username."""

import pytest

from accounts.models import User
from accounts.selectors import user_by_username
from accounts.services import user_create
from core.errors import Conflict
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_user_create_makes_a_user_with_his_role_and_password_and_never_staff():
    user = user_create(username="olive", password="a-good-one", role=User.Role.ORGANISER, first_name="Olive",
                       last_name="Organiser")
    user.refresh_from_db()
    assert (user.role, user.get_full_name(), user.email, user.is_staff) == ("organiser", "Olive Organiser", "", False)
    assert user.check_password("a-good-one")
    assert not user_create(username="nopass", password=None).has_usable_password()


def test_user_create_refuses_a_taken_username_and_changes_nothing():
    taken = UserFactory(username="alice")
    with pytest.raises(Conflict) as refused:
        user_create(username="alice", password="other")
    assert refused.value.code == "username_taken"
    assert User.objects.filter(username="alice").count() == 1
    assert User.objects.get(username="alice").password == taken.password


def test_user_by_username_finds_the_exact_username_or_none():
    alice = UserFactory(username="alice")
    assert user_by_username("alice") == alice
    assert user_by_username("ALICE") is None and user_by_username("bob") is None
