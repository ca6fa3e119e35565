"""For the alerts' tests: a push service on 127.0.0.1 and a browser's subscription to it,
a browser seated at a table, and a table played turn by turn with the alerts' hook called
after every commit, as the services call it (then waiting for its threads to post).

The app posts an alert to the endpoint a browser's subscription names; here that is a
plain HTTP server in a thread, which keeps what it was sent (answering 201, or the status a
test sets for a path), and the subscription is made as a browser makes it: an EC P-256 key
pair and a 16-byte secret, so that a test decrypts what the app sent (``http_ece``).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from py_vapid import Vapid02

from games import services
from games.alerts import background, push
from games.alerts.push import b64url
from games.alerts.sending import after_change
from games.forms import parse_intent as parse
from games.models import Table
from tests.games.tables import first_legal_move


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # by lower-case name
    body: bytes


@dataclass
class PushService:
    url: str  # http://127.0.0.1:<port>
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # a path's status, else 201
    slow: dict[str, float] = field(default_factory=dict)  # seconds a path takes to answer


@dataclass
class Browser:
    """A browser's side of one subscription: what it gives the page, and its secrets."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def subscription(self) -> dict:
        """As ``PushSubscription.toJSON()`` gives it to the page's script."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, message: Received) -> dict:
        """The alert a push message carries, decrypted as the browser decrypts it."""
        assert message.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            message.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def browser(service: PushService, name: str) -> Browser:
    return Browser(
        f"{service.url}/push/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    )


def start() -> tuple[PushService, HTTPServer]:
    """A push service listening on a free port; shut the server down after the test."""
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(service.slow.get(self.path, 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return service, server


def seated_client(table: Table, position: int) -> Client:
    """A browser holding the seat (its session has the seat's token, from the rejoin link)."""
    client = Client()
    seat = table.seats.get(position=position)
    assert client.get(f"/t/{table.code}/rejoin/{seat.token}/").status_code == 302
    return client


def on_turn(table: Table) -> int:
    table.refresh_from_db()
    return table.game().round.turn


def play_until_turn_of(table: Table, tokens: dict[int, str], position: int) -> None:
    """Each seat plays its first legal move, the hook called after every commit, until the
    seat of ``position`` is on turn."""
    while on_turn(table) != position:
        token = tokens[on_turn(table)]
        services.act(table.code, token=token, intent=parse(first_legal_move(table, token)))
        changed(table.code)


def changed(code: str) -> None:
    """The alerts' hook, as the services call it after a commit, and the wait until what it
    handed to the alerts' threads is out."""
    after_change(code=code)
    background.settle()


def serve(settings) -> Iterator[PushService]:
    """The push service, on the allowed list (as only the tests put it), and a VAPID key:
    a test module's fixture yields from it."""
    found, server = start()
    key = Vapid02()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = push.b64url(
        key.private_key.private_numbers().private_value.to_bytes(32, "big")
    )
    settings.WEB_PUSH_SERVICES = [*settings.WEB_PUSH_SERVICES, found.url]
    yield found
    server.shutdown()
    server.server_close()


def subscribe(client: Client, table: Table, subscription: dict):
    return client.post(f"/t/{table.code}/push/", subscription, content_type="application/json")
