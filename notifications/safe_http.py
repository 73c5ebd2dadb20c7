"""Outgoing HTTP to addresses players give us: webhooks and push services.

A player could name any URL, including ones that point into our own network (the cloud metadata
service, a database, the admin of a router). So every request resolves the host first, refuses
it if any of its addresses is not a public one (IPv6 addresses that carry an IPv4 one, such as
6to4, Teredo, NAT64 and IPv4-mapped, are judged by the IPv4 inside too), and then connects to
exactly the address it checked (a second DNS answer cannot swap in a private one). Redirects are
followed only to URLs that pass the same check. Only ``https`` is allowed unless settings say
otherwise.

A request never runs on a web request's path (it is a Celery task's job), and it has a total
deadline: the DNS lookup, connecting, TLS, sending and reading the answer's headers and body
together, redirects included (NOTIFICATIONS_HTTP_DEADLINE seconds, 10 by default). A server that
answers one byte a second is cut off at the deadline rather than holding a worker; what it sent
is read up to MAX_BODY bytes, the rest is not read.

Settings (both off in production, the default): NOTIFICATIONS_ALLOW_HTTP_TARGETS allows plain
``http``; NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS allows loopback addresses (127.0.0.0/8, ::1),
which the tests and benchmarks need for their local receivers. Private, link-local and
reserved ranges are refused whatever the settings.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LookupTimeout
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

DEADLINE = 10.0  # seconds for a whole request, redirects included (NOTIFICATIONS_HTTP_DEADLINE)
MAX_REDIRECTS = 3
MAX_BODY = 64 * 1024  # bytes of an answer's body that are read; the rest is left unread
USER_AGENT = "Firenze-notifications/1.0"
# Host names that never lead to a public address, refused without asking DNS.
LOCAL_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".home.arpa", ".lan")
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: local use, never public
# DNS lookups run here so that one that hangs is given up at the deadline.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="safe-http-dns")


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


def host_of(url: str) -> str:
    """The host of a URL, for messages: never its path or query (a webhook's secret)."""
    try:
        return urlsplit(url).hostname or "the server"
    except ValueError:
        return "the server"


def _allow_http() -> bool:
    return bool(getattr(settings, "NOTIFICATIONS_ALLOW_HTTP_TARGETS", False))


def _allow_loopback() -> bool:
    return bool(getattr(settings, "NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS", False))


def deadline_seconds() -> float:
    return float(getattr(settings, "NOTIFICATIONS_HTTP_DEADLINE", DEADLINE))


IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def _unwrapped(ip: IP) -> list[IP]:
    """The addresses a packet to ``ip`` really goes to: an IPv4-mapped, IPv4-compatible or
    NAT64 address is its IPv4 address; 6to4 and Teredo are themselves and the IPv4 addresses
    they carry (the 6to4 router; the Teredo server and client)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return [ip]
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip in NAT64 or (int(ip) >> 32 == 0 and int(ip) > 1):  # ::a.b.c.d (not :: or ::1)
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    carried: list[IP] = [ip]
    if ip.sixtofour is not None:
        carried.append(ip.sixtofour)
    if ip.teredo is not None:
        carried.extend(ip.teredo)
    return carried


def _parse(address: str) -> IP:
    return ipaddress.ip_address(address.split("%", 1)[0])


def _routable(ip: IP) -> bool:
    if ip in NAT64_LOCAL:
        return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def is_public(address: str) -> bool:
    """A globally routable unicast address, and so is every IPv4 address it carries."""
    return all(_routable(ip) for ip in _unwrapped(_parse(address)))


def allowed_address(address: str) -> bool:
    if is_public(address):
        return True
    return _allow_loopback() and all(ip.is_loopback for ip in _unwrapped(_parse(address)))


@dataclass
class Target:
    scheme: str
    host: str
    port: int
    path: str
    addresses: list[str] = field(default_factory=list)


def check_url(url: str) -> Target:
    """What can be told about ``url`` without the network (a form's check): https, a host, and
    no address or name that is private or local. Raises Refused with a sentence a player can act
    on; the addresses are resolved and checked again when a request is sent (check)."""
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
    if _local(host):
        raise Refused(_private(host))
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme, host, port or (443 if scheme == "https" else 80), path)


def _local(host: str) -> bool:
    """An address that is not allowed, or a name that can only be local; no DNS is asked."""
    try:
        return not allowed_address(host)
    except ValueError:
        pass  # not an address as written: a name, or an old-style IPv4 such as 127.1
    try:
        return not allowed_address(socket.inet_ntoa(socket.inet_aton(host)))
    except OSError:
        pass  # a name
    name = host.rstrip(".").lower()
    if name == "localhost":
        return not _allow_loopback()
    return name.endswith(LOCAL_SUFFIXES)


def _private(host: str) -> str:
    return _(
        "%(host)s points to a private or local address; only public addresses are allowed."
    ) % {"host": host}


def check(url: str, deadline: float | None = None) -> Target:
    """check_url, then resolve the host (given up at ``deadline``, a time.monotonic() value) and
    check every address it has; raises Refused, or RetryLater when DNS does not answer in time."""
    target = check_url(url)
    if deadline is None:
        deadline = time.monotonic() + deadline_seconds()
    lookup = _LOOKUPS.submit(socket.getaddrinfo, target.host, target.port, type=socket.SOCK_STREAM)
    try:
        infos = lookup.result(timeout=max(0.0, deadline - time.monotonic()))
    except LookupTimeout:
        raise RetryLater(f"the DNS lookup of {target.host} did not finish in time") from None
    except (socket.gaierror, UnicodeError):
        raise Refused(_("The host %(host)s could not be found.") % {"host": target.host}) from None
    target.addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not target.addresses:
        raise Refused(_("The host %(host)s could not be found.") % {"host": target.host})
    if not all(allowed_address(address) for address in target.addresses):
        raise Refused(_private(target.host))
    return target


class Deadline:
    """The moment a request must be over by. Sockets it guards are shut down when it passes,
    which ends whatever they wait for (a connect, a TLS handshake, a header line, a body that
    trickles in), however often the server sends a byte."""

    def __init__(self, at: float) -> None:
        self.at = at
        self.passed = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, self.remaining()), self._cut)
        self._timer.daemon = True

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def guard(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            passed = self.passed
        if passed:
            _shut(sock)

    def _cut(self) -> None:
        with self._lock:
            self.passed = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def __enter__(self) -> Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed
        sock.shutdown(socket.SHUT_RDWR)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, deadline: Deadline) -> None:
        super().__init__(host, port, timeout=max(0.01, deadline.remaining()))
        self._address = address
        self._deadline = deadline

    def _open(self) -> socket.socket:
        sock = socket.create_connection(
            (self._address, self.port), max(0.01, self._deadline.remaining())
        )
        self._deadline.guard(sock)
        return sock

    def connect(self) -> None:
        self.sock = self._open()


class _PinnedHTTPSConnection(_PinnedHTTPConnection):
    default_port = http.client.HTTPS_PORT

    def connect(self) -> None:
        # Certificate and SNI are checked against the host name, not the address.
        context = ssl.create_default_context()
        self.sock = context.wrap_socket(self._open(), server_hostname=self.host)


def _request_once(
    target: Target, body: bytes, headers: dict[str, str], deadline: Deadline
) -> Response:
    kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    last_error: Exception | None = None
    for address in target.addresses:
        if deadline.remaining() <= 0:
            break
        connection = kind(target.host, target.port, address, deadline)
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            return Response(
                response.status,
                response.reason,
                {k.lower(): v for k, v in response.getheaders()},
                _read_body(response),
            )
        except ssl.SSLCertVerificationError as exc:
            raise GiveUp(
                f"TLS certificate of {target.host} not valid: {exc.verify_message}"
            ) from None
        except (OSError, http.client.HTTPException) as exc:
            last_error = exc
        finally:
            connection.close()
    if deadline.passed or deadline.remaining() <= 0:
        raise RetryLater(
            f"{target.host} did not answer within {deadline_seconds():g} s (the deadline of a "
            "request)"
        )
    raise RetryLater(f"could not reach {target.host}: {last_error}")


def _read_body(response: http.client.HTTPResponse) -> bytes:
    """Up to MAX_BODY bytes of the body, as much as arrives before the deadline: the status and
    headers already decided how the request went."""
    chunks: list[bytes] = []
    size = 0
    try:
        while size < MAX_BODY:
            chunk = response.read1(MAX_BODY - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except (OSError, http.client.HTTPException):
        pass  # cut at the deadline, or the server closed early
    return b"".join(chunks)


def post(
    url: str, body: bytes, headers: dict[str, str], *, deadline: float | None = None
) -> Response:
    """POST ``body`` to ``url`` (after check()); follows 307/308 redirects to allowed URLs.
    The whole of it, redirects included, is over within ``deadline`` seconds (default
    NOTIFICATIONS_HTTP_DEADLINE). Raises Refused, GiveUp or RetryLater; any HTTP status is
    returned to the caller."""
    headers = {"User-Agent": USER_AGENT, **headers, "Content-Length": str(len(body))}
    seconds = deadline_seconds() if deadline is None else deadline
    with Deadline(time.monotonic() + seconds) as limit:
        for _attempt in range(MAX_REDIRECTS + 1):
            target = check(url, limit.at)
            response = _request_once(target, body, headers, limit)
            if response.status in (301, 302, 303, 307, 308):
                location = response.headers.get("location")
                if response.status not in (307, 308) or not location:
                    raise GiveUp(f"{target.host} answered with a redirect ({response.status})")
                url = urljoin(url, location)
                continue
            return response
    raise GiveUp("too many redirects")
