"""Which addresses a webhook may reach (webhooks/transport.py): in production only public ones,
checked when the webhook is made and again at each delivery, every address its host resolves to,
IPv4 hidden in IPv6 (mapped, compatible, 6to4, Teredo, NAT64) and the numeric forms of IPv4
(``2130706433``, ``0x7f.1``) read as the address they mean; a delivery connects to the address it
checked, never to what a second lookup answers. The resolver is a local stand-in
(``socket.getaddrinfo`` patched): these tests never reach the internet.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import pytest

from core.errors import DomainError
from tests.tournaments.factories import closed
from webhooks import services, transport
from webhooks.models import Delivery, Subscription

pytestmark = pytest.mark.django_db

PUBLIC_V4, PUBLIC_V6 = "93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"

NOT_PUBLIC = [
    "127.0.0.1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    "::1", "::", "::127.0.0.1", "::10.0.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    "2002:7f00:1::", "2002:a00:1::1",  # 6to4 of 127.0.0.1 and 10.0.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo (its client 127.0.0.1)
    "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::a00:1",  # NAT64 of 127.0.0.1, 10.0.0.1
    "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1", "fec0::1", "ff02::1", "ff0e::1",
    "2130706433", "0x7f.1", "0177.0.0.1", "0x7f000001", "127.1", "10.1",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_every_form_of_a_private_address_is_not_public(address):
    assert transport.private_address(address)
    assert not transport.public_ip(transport.literal_ip(address))


@pytest.mark.parametrize("address", [PUBLIC_V4, PUBLIC_V6, "2002:5db8:d822::1", "8.8.8.8"])
def test_public_addresses_are_public(address):
    assert not transport.private_address(address)
    assert transport.public_ip(ipaddress.ip_address(address))


def test_a_name_is_not_an_address():
    assert transport.literal_ip("hooks.example.org") is None
    assert transport.literal_ip("1.example") is None


def _address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


@pytest.fixture
def resolver(monkeypatch):
    """The stand-in resolver: ``resolver.names[name]`` is what a lookup of ``name`` answers (a list
    of addresses, or a function of how many lookups came before); ``resolver.asked`` the lookups.
    A name it does not know is not found; an address is itself."""

    class Resolver:
        names: dict = {}
        asked: list = []

        def __call__(self, host, port=None, *args, **kwargs):
            if isinstance(host, bytes):
                host = host.decode()
            if _address(host):
                found = [host]
            elif host in self.names:
                self.asked.append(host)
                answer = self.names[host]
                found = answer(len(self.asked)) if callable(answer) else answer
            else:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return [(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                     (address, int(port or 0))) for address in found]

    stand_in = Resolver()
    stand_in.names, stand_in.asked = {}, []
    monkeypatch.setattr(socket, "getaddrinfo", stand_in)
    return stand_in


def made(url):
    tournament = closed()
    return services.subscription_create(user=tournament.organiser, url=url, events=["results"], tournament=tournament)


@pytest.mark.parametrize("url", [
    "https://[::127.0.0.1]:8443/hook", "https://[::ffff:127.0.0.1]/hook", "https://[::1]/hook", "https://[::]/hook",
    "https://[2002:7f00:1::]/hook", "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook",
    "https://[64:ff9b::7f00:1]/hook", "https://[fe80::1]/hook", "https://[fd00::1]/hook", "https://[ff02::1]/hook",
    "https://2130706433/hook", "https://0x7f.1/hook", "https://0177.0.0.1/hook", "http://2130706433/hook",
])
def test_in_production_a_webhook_to_a_private_address_in_any_form_is_refused(settings, resolver, url):
    settings.WEBHOOKS_LOCAL_HTTP = False
    with pytest.raises(DomainError) as refused:
        made(url)
    assert refused.value.code == "bad_webhook" and refused.value.details == {"field": "url"}
    assert not Subscription.objects.exists()


@pytest.mark.parametrize("addresses", [["10.0.0.5"], [PUBLIC_V4, "127.0.0.1"], [PUBLIC_V6, "::127.0.0.1"],
                                       ["2002:7f00:1::"], ["64:ff9b::a00:5"], ["fd00::5"], ["169.254.169.254"]])
def test_in_production_a_webhook_to_a_name_that_resolves_to_any_private_address_is_refused(settings, resolver,
                                                                                            addresses):
    settings.WEBHOOKS_LOCAL_HTTP = False
    resolver.names["hooks.example.test"] = addresses
    with pytest.raises(DomainError) as refused:
        made("https://hooks.example.test/crawford")
    assert refused.value.code == "bad_webhook"
    assert resolver.asked == ["hooks.example.test"]
    assert not Subscription.objects.exists()


def test_in_production_a_webhook_to_a_name_that_resolves_publicly_or_not_yet_is_made(settings, resolver):
    settings.WEBHOOKS_LOCAL_HTTP = False
    resolver.names["hooks.example.test"] = [PUBLIC_V4, PUBLIC_V6]
    assert made("https://hooks.example.test/crawford").url == "https://hooks.example.test/crawford"
    # Not found now (a receiver being set up): each delivery resolves and checks it again.
    assert made("https://later.example.test/crawford").url == "https://later.example.test/crawford"


def test_a_delivery_connects_to_the_address_it_checked_not_to_a_second_lookup(settings, resolver, receiver,
                                                                               monkeypatch):
    port = urlsplit(receiver.url).port
    # The first lookup answers a public address, any later one this computer (DNS rebinding).
    resolver.names["hook.example.test"] = lambda asked: [PUBLIC_V4] if asked == 1 else ["127.0.0.1"]
    tried = []

    def connect(addresses, port, timeout):
        tried.append([str(address) for address in addresses])
        raise ConnectionRefusedError("the tests reach no public address")

    monkeypatch.setattr(transport, "connect", connect, raising=False)
    settings.WEBHOOKS_LOCAL_HTTP = False
    answer = transport.post(f"http://hook.example.test:{port}/hooks/crawford", b"{}", {})
    assert not answer.delivered
    assert receiver.requests == []
    assert resolver.asked == ["hook.example.test"]
    assert tried == [[PUBLIC_V4]]


@pytest.mark.parametrize("addresses", [["::127.0.0.1"], ["2002:7f00:1::"], ["64:ff9b::7f00:1"],
                                       [PUBLIC_V4, "127.0.0.1"]])
def test_a_delivery_to_a_name_that_now_resolves_privately_sends_nothing(settings, resolver, receiver, addresses):
    tournament = closed()
    subscription = Subscription.objects.create(owner=tournament.organiser, tournament=tournament, on_results=True,
                                               url="https://hook.example.test/crawford")
    delivery = Delivery.objects.create(subscription=subscription, event="results", payload={"type": "test"})
    resolver.names["hook.example.test"] = addresses
    settings.WEBHOOKS_LOCAL_HTTP = False
    outcome = services.delivery_attempt(delivery_id=delivery.pk, attempt=1)
    delivery.refresh_from_db()
    assert outcome.attempted and delivery.status == Delivery.Status.PENDING
    assert delivery.last_error == transport.REFUSED and delivery.last_status_code is None
    assert receiver.requests == []


def test_a_delivery_keeps_the_host_name_in_its_request_while_connecting_to_the_checked_address(resolver,
                                                                                             receiver):
    port = urlsplit(receiver.url).port
    resolver.names["hook.example.test"] = ["127.0.0.1"]
    answer = transport.post(f"http://hook.example.test:{port}/hooks/crawford", b'{"a": 1}', {"X-Test": "yes"})
    assert answer.delivered, answer
    [request] = receiver.requests
    assert request.headers["host"] == f"hook.example.test:{port}"
    assert (request.path, request.body, request.headers["x-test"]) == ("/hooks/crawford", b'{"a": 1}', "yes")
    assert resolver.asked == ["hook.example.test"]


def test_a_delivery_to_a_name_not_found_says_so(resolver, receiver):
    answer = transport.post("http://nowhere.example.test/hook", b"{}", {})
    assert answer.status_code is None and "gaierror" in answer.error
