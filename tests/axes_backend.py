"""The sign-in lockout backend for the test suite."""

from axes.backends import AxesStandaloneBackend


class TestClientLockoutBackend(AxesStandaloneBackend):
    """django-axes' backend, except for ``authenticate`` calls without a request.

    Django's test client signs in with ``authenticate(username=..., password=...)`` and no request,
    which the real backend refuses with an error (it cannot tell who is trying). Every sign-in that
    comes from a web request (the sign-in page, the admin, the API token endpoint) carries one, so
    this changes nothing that the tests of the lockout exercise.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
