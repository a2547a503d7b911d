"""WSGI entry point for ``bench/api.py`` only: the product's settings with the benchmark's URLconf.

Django reads ROOT_URLCONF from settings and has no environment variable for it, so it is set here,
before the application (and with it the URL resolver) is built.
"""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
settings.ROOT_URLCONF = "bench.noop"
application = get_wsgi_application()
