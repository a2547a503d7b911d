"""The accounts API (mounted under /api/v1/; one module per resource, ``accounts.api.urls`` joins
them). Thin views over allauth's own forms and flows, so allauth still makes and checks the
verification keys and reset links, counts its per-address email limits and sends its emails
(through the outbox: accounts/adapter.py), while the API keeps the house's schema, strict request
bodies and error body (core/api.py). allauth's headless API was not taken: it has its own error
shape and its own OpenAPI document.

- ``POST auth/signup/``: a new account (and its player); a verification link is emailed.
- ``POST auth/email/verify/``: the key of that link (the last part of its path).
- ``POST auth/email/resend/``: the link again.
- ``POST auth/login/`` and ``POST auth/logout/``: a session (a browser's client); ``POST
  auth/token/``: a new token for ``Authorization: Token …`` (each call another, kept hashed).
- ``POST auth/password/reset/`` and ``POST auth/password/reset/confirm/``: a reset link emailed,
  then the new password with the link's key.
- ``GET``/``PATCH me/``: his username, display name and email address; ``POST me/delete/``.
- ``GET me/tokens/``, ``DELETE me/tokens/<id>/``: his API tokens (never their keys), one revoked;
  ``POST me/sign-out-everywhere/``: every session and token of his ended (this browser's session
  kept). A password reset or change and an email change end them too (accounts/receivers.py).

Every password is checked by ``django.contrib.auth.authenticate`` with the request, so the sign-in
lockout (django-axes) counts failures here exactly as on the sign-in page: after too many for one
username from one address, even the right password gets a 429 ``locked_out`` until the cool-off
ends. The endpoints that sign in, make accounts or send emails are throttled per address (scope
``accounts``). Answers never tell whether an address has an account (sign-up with a taken address,
reset, resend all answer the same; the address's owner gets an email that says so).
"""
