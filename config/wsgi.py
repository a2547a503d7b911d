"""The WSGI application (gunicorn, runserver). Each web server process that loads it also runs the
outbox's relay on a thread of its own (core.outbox.relay_in_process_start), so that what the outbox
holds is sent when beat is stopped; with a broker only, and not before Django is set up."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from core.outbox import relay_in_process_start  # noqa: E402 -- the apps are loaded only now

relay_in_process_start()
