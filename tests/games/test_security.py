"""Security: the websocket origin check, CSRF on every form, staff-only admin, seat tokens."""

from __future__ import annotations

import json
import re
import string

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config.asgi import application
from games.models import Table, TableSeat, new_seat_token
from scoring.models import Match

from .conftest import ORIGIN, make_table


async def _socket(path: str, origin: bytes | None):
    headers = [(b"origin", origin)] if origin is not None else []
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    return socket, connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (b"http://localhost", True),
        (b"http://127.0.0.1", True),
        (b"https://evil.example", False),
        (b"http://localhost.evil.example", False),
        (None, False),  # no Origin: not a browser page of ours
    ],
)
async def test_a_socket_is_accepted_only_from_a_page_of_this_site(origin, allowed):
    from channels.db import database_sync_to_async

    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    for path in (f"/ws/table/{code}/?seat={tokens['Ana']}", f"/ws/table/{code}/"):
        socket, connected = await _socket(path, origin)
        assert connected is allowed
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_score_sheet_socket_checks_the_origin_too():
    from channels.db import database_sync_to_async

    match = await database_sync_to_async(Match.objects.create)()
    _, connected = await _socket(f"/ws/sheet/{match.code}/", b"https://evil.example")
    assert not connected


def post_urls() -> list[str]:
    """Every URL of the project's own apps, filled with sample arguments: each will be sent a
    POST without a CSRF token."""
    urls = []

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                urls.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"sample-\1", route))

    walk(get_resolver().url_patterns)
    return [u for u in urls if not u.startswith("/admin/") or u in ("/admin/login/",)]


@pytest.mark.django_db
def test_every_form_of_the_site_refuses_a_post_without_its_csrf_token():
    code, host, _ = make_table(bots=(), start=False)
    urls = [u.replace("sample-code", code) for u in post_urls()]
    urls += ["/admin/login/", "/admin/scoring/match/import/"]
    client = Client(enforce_csrf_checks=True)
    seats_before = TableSeat.objects.count()
    refused = {}
    for url in urls:
        status = client.post(url, {"name": "Mallory", "level": "greedy", "position": 1}).status_code
        refused[url] = status
    accepted = {u: s for u, s in refused.items() if s not in (403, 404, 405)}
    assert accepted == {}, f"these took a POST without a CSRF token: {accepted}"
    assert refused[f"/t/{code}/join/"] == 403
    assert refused["/t/new/"] == 403
    assert refused["/s/new/"] == 403
    assert TableSeat.objects.count() == seats_before


@pytest.mark.django_db
def test_the_admin_is_for_staff_only(client):
    User.objects.create_user("player", password="secret-enough")
    assert client.get("/admin/").status_code == 302
    client.login(username="player", password="secret-enough")
    response = client.get("/admin/scoring/match/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_seat_tokens_are_long_random_and_unique():
    tokens = {new_seat_token() for _ in range(2000)}
    assert len(tokens) == 2000
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for token in list(tokens)[:50]:
        assert len(token) >= 32 and set(token) <= alphabet  # 24 random bytes: 192 bits


@pytest.mark.django_db(transaction=True)
async def test_a_token_off_by_one_character_holds_no_seat():
    from channels.db import database_sync_to_async

    code, _, tokens = await database_sync_to_async(make_table)(bots=())
    token = tokens["Ben"]
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    socket = WebsocketCommunicator(
        application, f"/ws/table/{code}/?seat={forged}", headers=[ORIGIN]
    )
    await socket.connect()
    message = json.loads(await socket.receive_from())
    assert message["type"] == "error" and "do not have a seat" in message["message"]
    assert await socket.receive_output(timeout=1) == {"type": "websocket.close", "code": 4404}


@pytest.mark.django_db
def test_a_forged_rejoin_link_gives_nothing(client):
    code, _, tokens = make_table(bots=(), start=False)
    forged = tokens["Ben"][::-1]
    response = client.get(reverse("games:rejoin", args=[code, forged]))
    assert response.status_code == 404
    assert "table_seats" not in client.session
    assert Table.objects.get(code=code).seats.filter(token=forged).count() == 0
