"""The API docs (Swagger UI at /api/docs/, ReDoc at /api/redoc/) load nothing from outside: every
script, stylesheet and icon they name is one of the service's own static files (pinned by
drf-spectacular-sidecar), found by the staticfiles finders, so the docs work offline."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

#: src="...", href="..." and the quoted URLs the pages' inline scripts build from.
REFERENCES = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|["'](/static/[^"']+)["']""")


def _references(html: str) -> list[str]:
    return [a or b for a, b in REFERENCES.findall(html)]


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_reference_only_local_static_files(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert "/api/schema/" in html
    # No CDN (jsdelivr, unpkg...) and no other host at all.
    assert not re.search(r"https?://", html), re.findall(r"https?://\S+", html)
    assets = [url for url in _references(html) if url.startswith(settings.STATIC_URL)]
    assert any(url.endswith(".js") for url in assets), assets
    for url in assets:
        found = finders.find(url[len(settings.STATIC_URL):].split("?")[0])
        assert found, f"{url} is not one of the service's static files"


def test_redoc_and_swagger_ui_come_from_the_sidecar():
    assert settings.SPECTACULAR_SETTINGS["SWAGGER_UI_DIST"] == "SIDECAR"
    assert settings.SPECTACULAR_SETTINGS["REDOC_DIST"] == "SIDECAR"
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
