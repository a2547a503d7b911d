"""The production shape (docs/production.md) as files: gunicorn's settings (config/gunicorn.conf.py)
and nginx's site (config/nginx/crawford.conf) load, and agree with that page and the service's
settings. Their behaviour under idle and slow clients is in tests/faults/test_proxy.py."""

from __future__ import annotations

import re
import subprocess

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from gunicorn.app.base import Application

from tests.faults.stack import BASE_DIR, GUNICORN_CONF, NGINX, NGINX_SITE, render_nginx

PRODUCTION = (BASE_DIR / "docs" / "production.md").read_text()
SITE = NGINX_SITE.read_text()


def production_shape() -> str:
    return PRODUCTION.split("## Production shape", 1)[1].split("\n## ", 1)[0]


def directive(name: str) -> list[str]:
    """The values of every uncommented ``name`` directive in the site."""
    return re.findall(rf"^[ \t]*{name}[ \t]+([^;{{}}\n]+);", SITE, flags=re.M)


class SettingsFile(Application):
    """gunicorn's own reading of a settings file (as ``gunicorn -c``), without serving anything."""

    def __init__(self, path):
        self.path = path
        super().__init__()

    def load_config(self):
        self.load_config_from_file(str(self.path))

    def load(self):  # pragma: no cover - never served
        raise AssertionError


def test_the_nginx_site_passes_nginx_t(tmp_path):
    conf = render_nginx(tmp_path, port=18080, upstream_port=18000)
    result = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr and "test is successful" in result.stderr


def test_the_nginx_site_buffers_and_times_out_clients_and_passes_what_the_service_trusts():
    assert directive("proxy_request_buffering") == ["on"]
    assert directive("proxy_buffering") == ["on"]
    assert directive("client_header_timeout") == ["10s"]
    assert directive("client_body_timeout") == ["10s"]
    # The body's limit is the service's own (CRAWFORD_MAX_REQUEST_BYTES), and so is its 413's detail.
    [size] = directive("client_max_body_size")
    assert size == f"{settings.MAX_REQUEST_BYTES // (1024 * 1024)}m"
    assert settings.MAX_REQUEST_BYTES % (1024 * 1024) == 0
    shown = filesizeformat(settings.MAX_REQUEST_BYTES).replace("\xa0", " ")
    assert f'"the request body is over the limit of {shown}", "code": "body_too_large"' in SITE
    headers = dict(value.split(None, 1) for value in directive("proxy_set_header"))
    # Django's SECURE_PROXY_SSL_HEADER, replaced from the scheme nginx was reached by.
    assert settings.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert headers["X-Forwarded-Proto"] == "$scheme"
    # The client's address appended last, where CRAWFORD_NUM_PROXIES=1 (the page's) reads it.
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    assert "CRAWFORD_NUM_PROXIES=1" in production_shape()
    # Host is checked by Django; X-Forwarded-Host is never trusted, and not passed on.
    assert headers["Host"] == "$host" and headers["X-Forwarded-Host"] == '""'
    assert not getattr(settings, "USE_X_FORWARDED_HOST", False)
    # The upstream is gunicorn's bind.
    assert directive("server") == ["127.0.0.1:8000"]


def test_gunicorns_settings_file_loads_with_the_readmes_values():
    cfg = SettingsFile(GUNICORN_CONF).cfg
    shape = production_shape()
    assert ".venv/bin/gunicorn -c config/gunicorn.conf.py" in shape
    workers, threads = map(int, re.search(r"gthread, (\d+) workers x (\d+) threads", shape).groups())
    assert (cfg.worker_class_str, cfg.workers, cfg.threads) == ("gthread", workers, threads)
    assert cfg.wsgi_app == "config.wsgi"
    # Behind nginx only: the loopback, where the site's upstream points.
    assert cfg.bind == ["127.0.0.1:8000"]
    assert 1 <= cfg.keepalive <= 5
    assert cfg.timeout == 30 and cfg.graceful_timeout == 30
    # nginx gives up on gunicorn no later than gunicorn gives up on a worker.
    assert directive("proxy_read_timeout") == [f"{cfg.timeout}s"]
    assert (cfg.limit_request_line, cfg.limit_request_fields, cfg.limit_request_field_size) == (4094, 100, 8190)
    assert directive("large_client_header_buffers") == ["4 8k"]
    assert "nginx" in shape and "config/nginx/crawford.conf" in shape
