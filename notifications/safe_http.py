"""Outgoing HTTP to addresses players give us: webhooks and push services.

A player could name any URL, including ones that point into our own network (the cloud metadata
service, a database, the admin of a router). So every request resolves the host first, refuses
it if any of its addresses is not a public one, and then connects to exactly the address it
checked (a second DNS answer cannot swap in a private one). Redirects are followed only to URLs
that pass the same check. Only ``https`` is allowed unless settings say otherwise.

Settings (both off in production, the default): NOTIFICATIONS_ALLOW_HTTP_TARGETS allows plain
``http``; NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS allows loopback addresses (127.0.0.0/8, ::1),
which the tests and benchmarks need for their local receivers. Private, link-local and
reserved ranges are refused whatever the settings.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

TIMEOUT = 10.0
MAX_REDIRECTS = 3
MAX_BODY = 64 * 1024
USER_AGENT = "Firenze-notifications/1.0"


class RetryLater(Exception):
    """The target may work later (connection refused, timeout, 429, 5xx): retry with backoff."""


class GiveUp(Exception):
    """The target will not work as it is (refused address, 4xx): do not retry."""


class Refused(GiveUp):
    """We will not send there: not https, or an address that is not public."""


@dataclass
class Response:
    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def _allow_http() -> bool:
    return bool(getattr(settings, "NOTIFICATIONS_ALLOW_HTTP_TARGETS", False))


def _allow_loopback() -> bool:
    return bool(getattr(settings, "NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS", False))


def is_public(address: str) -> bool:
    """A globally routable unicast address (IPv4-mapped IPv6 judged as the IPv4 inside)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def allowed_address(address: str) -> bool:
    if is_public(address):
        return True
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return _allow_loopback() and ip.is_loopback


@dataclass
class Target:
    scheme: str
    host: str
    port: int
    path: str
    addresses: list[str]


def check(url: str) -> Target:
    """Parse and resolve ``url``; raises Refused with a sentence a player can act on."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused(_("That is not a valid URL.")) from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and _allow_http()):
        raise Refused(_("Only https:// addresses are allowed."))
    host = parts.hostname
    if not host:
        raise Refused(_("The URL has no host name."))
    port = port or (443 if scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(_("The host %(host)s could not be found.") % {"host": host}) from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise Refused(_("The host %(host)s could not be found.") % {"host": host})
    for address in addresses:
        if not allowed_address(address):
            raise Refused(
                f"{host} points to a private or local address; only public addresses are allowed."
            )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme, host, port, path, addresses)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, **kwargs) -> None:
        super().__init__(host, port, **kwargs)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, **kwargs) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, context=self._tls, **kwargs)
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        # Certificate and SNI are checked against the host name, not the address.
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


def _request_once(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> Response:
    kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    last_error: OSError | None = None
    for address in target.addresses:
        connection = kind(target.host, target.port, address, timeout=timeout)
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read(MAX_BODY)
            return Response(
                response.status,
                response.reason,
                {k.lower(): v for k, v in response.getheaders()},
                data,
            )
        except ssl.SSLCertVerificationError as exc:
            raise GiveUp(
                f"TLS certificate of {target.host} not valid: {exc.verify_message}"
            ) from None
        except (OSError, http.client.HTTPException) as exc:
            last_error = exc if isinstance(exc, OSError) else OSError(str(exc))
        finally:
            connection.close()
    raise RetryLater(f"could not reach {target.host}: {last_error}")


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT) -> Response:
    """POST ``body`` to ``url`` (after check()); follows 307/308 redirects to allowed URLs.
    Raises Refused, GiveUp or RetryLater; any HTTP status is returned to the caller."""
    headers = {"User-Agent": USER_AGENT, **headers, "Content-Length": str(len(body))}
    for _attempt in range(MAX_REDIRECTS + 1):
        target = check(url)
        response = _request_once(target, body, headers, timeout)
        if response.status in (301, 302, 303, 307, 308):
            location = response.headers.get("location")
            if response.status not in (307, 308) or not location:
                raise GiveUp(f"{target.host} answered with a redirect ({response.status})")
            url = urljoin(url, location)
            continue
        return response
    raise GiveUp("too many redirects")
