"""The API docs (Swagger UI at /api/docs/, ReDoc at /api/redoc/) load nothing from outside: every
script, stylesheet and icon they name is one of the service's own static files (pinned by
drf-spectacular-sidecar), found by the staticfiles finders, so the docs work offline."""

from __future__ import annotations

import json
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


#: What a Content-Security-Policy may allow without naming another host.
OWN_SOURCES = {"'self'", "'none'", "'unsafe-inline'", "'unsafe-eval'", "data:", "blob:"}
#: The directives a browser checks before it loads something (each falls back to default-src).
FETCH_DIRECTIVES = ("script-src", "style-src", "img-src", "font-src", "connect-src", "worker-src", "media-src",
                    "object-src", "frame-src", "manifest-src")


def _policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


def test_the_redoc_page_lets_the_browser_load_nothing_from_another_host(client):
    # ReDoc's bundle draws the Redocly logo from its CDN whatever its options say; the page's
    # policy is what keeps the browser from asking another host for it (or anything else).
    bundle = finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    with open(bundle, encoding="utf-8") as source:
        outside = re.findall(r"""\bsrc:["'](https?://[^"']+)["']""", source.read())
    assert outside, "the bundle loads nothing from outside: this test has nothing left to prove"
    response = client.get("/api/redoc/")
    assert response.status_code == 200
    policy = _policy(response)
    assert policy.get("default-src") == ["'self'"], policy
    for directive in FETCH_DIRECTIVES:
        sources = policy.get(directive, policy["default-src"])
        assert set(sources) <= OWN_SOURCES, (directive, sources, outside)


def test_the_docs_settings_name_no_other_host():
    assert not re.search(r"https?://|//[a-z]", json.dumps(settings.SPECTACULAR_SETTINGS))
