"""gunicorn's settings in the production shape (docs/production.md, "Production shape"):

    .venv/bin/gunicorn -c config/gunicorn.conf.py

It serves only nginx (config/nginx/crawford.conf), on the loopback. A gthread worker hands each
new connection to a thread, which then waits for the whole request: an idle or slow client holds
that thread, and 16 of them hold all of a 4 x 4 server. nginx reads each request whole (headers
and body, under its own short timeouts) before it opens a connection here, and takes the answer
whole (buffered) from the thread, so a thread only ever meets a client that is ready and fast.
Never expose this port to clients. Settings given on the command line win over these (the fault
tests bind a free port: ``--bind 127.0.0.1:<port>``).
"""

wsgi_app = "config.wsgi"
# The loopback only: nginx is the one client.
bind = ["127.0.0.1:8000"]
worker_class = "gthread"
workers = 4
threads = 4
# nginx opens a connection per request and closes it after the answer (config/nginx/crawford.conf:
# no upstream keep-alive), so this only bounds a client that asks on the loopback itself (a
# health check): a kept connection waits in the worker's poller, without a thread, at most 2 s.
keepalive = 2
# A worker whose main loop says nothing for 30 s is killed and replaced. The longest request
# (a PDF, an import's upload) takes seconds; a row lock is waited for 10 s at most
# (CRAWFORD_LOCK_TIMEOUT_MS).
timeout = 30
# On a restart (SIGHUP, a deploy) a worker finishes what it is doing for up to 30 s.
graceful_timeout = 30
# gunicorn's own bounds, the same as nginx's (large_client_header_buffers 4 8k): a request line of
# at most 4094 bytes, 100 header fields of at most 8190 bytes each.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
