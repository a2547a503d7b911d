"""The demo: a club, an organiser, players, their matches and two events, loaded through every
app's services (``manage.py demo_data``). It sits above all the apps, next to ``config``: no app
imports it."""
