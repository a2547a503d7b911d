"""Every state change of the accounts app: ``<entity>_<action>``, one transaction each.

Staff accounts are Django's (``manage.py createsuperuser``); the rest are made here.
"""

from __future__ import annotations

from django.db import transaction

from core.errors import Conflict

from .models import User


@transaction.atomic
def user_create(*, username: str, password: str | None, role: str = User.Role.PLAYER, first_name: str = "",
                last_name: str = "", email: str = "") -> User:
    """Create a user (not staff) with ``role``, signing in with ``password`` (None: no usable
    password until one is set). Raises Conflict (``username_taken``) when the username is taken."""
    if User.objects.filter(username=username).exists():
        raise Conflict(f"the username {username!r} is taken", code="username_taken")
    return User.objects.create_user(username, email=email, password=password, role=role, first_name=first_name,
                                    last_name=last_name)
