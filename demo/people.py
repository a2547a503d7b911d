"""The demo's people: the organiser and ten players, each a user signing in with the demo password,
each player with his player profile; and the logins ``manage.py demo_data`` prints.

A user or a player that exists (by username; a user's player) is left as it is: a second run
changes nothing, not even a password hash.
"""

from __future__ import annotations

from accounts.models import User
from accounts.selectors import user_by_username
from accounts.services import user_create
from clubs.services.common import home_club_offer
from matches.models import Player
from matches.services.matches import player_create, player_for_user

DEMO_PASSWORD = "crawford-demo"
ORGANISER_USERNAME = "organiser"
ORGANISER_NAME = ("Olive", "Organiser")

# (username, first name, last name, country). The first is the player the demo signs in as.
PLAYERS = [
    ("alice", "Alice", "Lambert", "GB"),
    ("bob", "Bob", "Okafor", "NG"),
    ("carol", "Carol", "Jensen", "DK"),
    ("dave", "Dave", "Moreau", "FR"),
    ("erin", "Erin", "Walsh", "IE"),
    ("frank", "Frank", "Weber", "DE"),
    ("grace", "Grace", "Rossi", "IT"),
    ("heidi", "Heidi", "Larsen", "NO"),
    ("ivan", "Ivan", "Petrov", "BG"),
    ("judy", "Judy", "Tanaka", "JP"),
]

#: What the organiser and the first player find when they sign in (see demo.matches, demo.tournaments).
LOGIN_NOTES = {
    ORGANISER_USERNAME: "owns the demo club, runs its two tournaments and directs the disputed match",
    PLAYERS[0][0]: "a result to confirm, a disputed match and one scheduled",
}


def demo_user(username: str, *, first: str = "", last: str = "", role: str = User.Role.PLAYER) -> User:
    """The user ``username``, created the first time with the demo password."""
    user = user_by_username(username)
    if user is None:
        # No email address: the demo's many reports would otherwise each send (or, in
        # development, print) a notification.
        user = user_create(username=username, password=DEMO_PASSWORD, first_name=first, last_name=last, role=role)
    return user


def demo_organiser() -> User:
    first, last = ORGANISER_NAME
    return demo_user(ORGANISER_USERNAME, first=first, last=last, role=User.Role.ORGANISER)


def demo_player(username: str, first: str, last: str, country: str, club_id: int) -> Player:
    """The player of user ``username``, created the first time with the club as his home club."""
    user = demo_user(username, first=first, last=last)
    player = player_for_user(user)
    if player is None:
        player = player_create(display_name=f"{first} {last}", user=user, country=country)
        home_club_offer(player, club_id)
    return player


def login_lines(users: list[User]) -> list[str]:
    """One line per demo login (username, role, name; ``users`` in order), then who shares the
    password, and how to get a staff login when none is among them."""
    width = max(len(user.get_username()) for user in users)
    lines = ["Demo logins:"]
    for user in users:
        role = User.Role(user.role).label.lower() + (", staff" if user.is_staff else "")
        note = LOGIN_NOTES.get(user.get_username())
        lines.append(f"  {user.get_username():<{width}}  {role} ({user.get_full_name()})" + (f": {note}" if note else ""))
    first, *others = (username for username, *_ in PLAYERS)
    lines.append(f"Every demo login has the password {DEMO_PASSWORD}: {ORGANISER_USERNAME} and {first}, "
                 f"and {others[0]} to {others[-1]} share it too.")
    if not any(user.is_staff for user in users):
        lines.append("No staff login is made: create one with `.venv/bin/python manage.py createsuperuser`.")
    return lines
