"""Real receivers on the loopback for webhook and push tests (and bench/notify_bench.py).

``Receiver`` is an http.server in a thread that records every request (path, headers, body,
arrival time) and answers each path with the statuses a test queues (204 by default), or with
a redirect. ``Device`` is what a browser keeps for a push subscription: a P-256 key pair and an
auth secret; it decrypts what the push service was sent with http_ece (RFC 8291, aes128gcm)
and checks the VAPID signature (RFC 8292), as a real push service and browser would.
"""

from __future__ import annotations

import base64
import json
import secrets
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float  # time.time() when it arrived

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    server: ThreadingHTTPServer | None = None
    requests: list[Request] = field(default_factory=list)
    answers: dict[str, list[int]] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    arrived: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.arrived = threading.Condition(self.lock)

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                request = Request(
                    self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time()
                )
                with receiver.arrived:
                    receiver.requests.append(request)
                    queued = receiver.answers.get(self.path) or []
                    # What push services and webhooks answer when all is well.
                    default = 201 if self.path.startswith("/push/") else 204
                    status = queued.pop(0) if queued else default
                    location = receiver.redirects.get(self.path)
                    receiver.arrived.notify_all()
                if location:
                    self.send_response(307)
                    self.send_header("Location", location)
                else:
                    self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def answer(self, path: str, *statuses: int) -> None:
        with self.lock:
            self.answers[path] = list(statuses)

    def at(self, path: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.path == path]

    def wait_for(self, path: str, count: int = 1, timeout: float = 30.0) -> list[Request]:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len([r for r in self.requests if r.path == path]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no request {count} at {path} within {timeout} s")
                self.arrived.wait(left)
            return [r for r in self.requests if r.path == path]


class Device:
    """A browser's push subscription: its keys, and reading what arrives for it."""

    def __init__(self, receiver: Receiver, name: str = "phone") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        self.path = f"/push/{name}-{secrets.token_hex(4)}"
        self.endpoint = receiver.url(self.path)

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self) -> dict[str, str]:
        """What push.js posts to the subscribe view."""
        return {"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": b64url(self.auth)}

    def read(self, request: Request) -> dict[str, Any]:
        assert request.headers["content-encoding"] == "aes128gcm"
        clear = http_ece.decrypt(
            request.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(clear)


def vapid_claims(request: Request) -> dict[str, Any]:
    """The claims of the request's VAPID token after checking its ES256 signature against the
    key it names (``Authorization: vapid t=<jwt>, k=<public key>``)."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    header, claims, signature = fields["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    return {**json.loads(unb64url(claims)), "k": fields["k"]}


class DripServer:
    """A server that holds whoever connects: it reads the request, then answers one byte every
    ``interval`` seconds, for ever (or until the client goes). ``stage`` says where it drips:
    ``"headers"`` (the status line itself), ``"body"`` (prompt headers of a 200 with a long
    body, then the body), ``"silent"`` (never a byte) or ``"flood"`` (a 200 with a body of
    ``flood`` bytes sent as fast as the client reads). Every connection is counted and timed."""

    def __init__(self, stage: str = "headers", interval: float = 1.0, flood: int = 0) -> None:
        self.stage, self.interval, self.flood = stage, interval, flood
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.connections: list[tuple[float, float | None]] = []  # (opened, closed) times
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def start(self) -> DripServer:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}{path}"

    def stop(self) -> None:
        self.stopping.set()
        self.sock.close()

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._hold, args=(client,), daemon=True).start()

    def _hold(self, client: socket.socket) -> None:
        with self.lock:
            index = len(self.connections)
            self.connections.append((time.monotonic(), None))
        try:
            client.settimeout(5)
            client.recv(65536)  # the request (enough of it)
            if self.stage == "flood":
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {self.flood}\r\n\r\n".encode()
                client.sendall(head)
                chunk = b"x" * 65536
                for _ in range(self.flood // len(chunk)):
                    client.sendall(chunk)
                return
            if self.stage == "body":
                client.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
            drip = b"H" if self.stage == "headers" else b"x"
            while not self.stopping.is_set():
                readable, _, _ = select.select([client], [], [], self.interval)
                if readable and not client.recv(1):
                    return  # the client closed the connection
                if self.stage != "silent":
                    client.sendall(drip)
        except OSError:
            pass  # the client went away: what a deadline does
        finally:
            client.close()
            with self.lock:
                self.connections[index] = (self.connections[index][0], time.monotonic())

    def held(self) -> list[float | None]:
        """How long each connection was held (None: still open)."""
        with self.lock:
            return [
                None if closed is None else closed - opened for opened, closed in self.connections
            ]
