"""Project-level views that belong to no app."""

import asyncio
import logging
import secrets

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)

CHANNEL_LAYER_TIMEOUT = 2.0  # seconds for a few Redis commands, which take milliseconds


@sync_to_async
def check_database() -> None:
    """Run a real query, so a reachable server with a broken login still counts as down."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def check_channel_layer() -> None:
    """Send a message to a fresh channel and read it back: proves the layer delivers, not
    merely that Redis accepts connections. A fresh name means replicas never read each
    other's probes.

    The channel is a normal one (no "!", not from new_channel): channels-redis reads a
    process-specific channel only through the receive loop all the process's sockets share,
    whose holder blocks in BZPOPMIN until one of them gets a message, so a probe there timed
    out (503 with no fault) whenever the sockets were quiet for CHANNEL_LAYER_TIMEOUT; a
    normal channel is popped directly, by this request alone. With one Redis host (as
    config/settings.py has it) the send and the receive use the same server."""
    layer = get_channel_layer()
    channel = f"healthz.{secrets.token_hex(16)}"
    nonce = secrets.token_hex(8)
    await layer.send(channel, {"type": "healthz.ping", "nonce": nonce})
    message = await asyncio.wait_for(layer.receive(channel), CHANNEL_LAYER_TIMEOUT)
    if message.get("nonce") != nonce:
        raise RuntimeError("channel layer returned a different message")


CHECKS = {"database": check_database, "channel_layer": check_channel_layer}


@never_cache
async def healthz(request):
    """For load balancers and docker healthchecks: 200 when every dependency works, else 503
    with the failing one named (the exception class only; details go to the log)."""
    results = {}
    for name, check in CHECKS.items():
        try:
            await check()
        except Exception as exc:
            logger.exception("health check %s failed", name)
            results[name] = f"failed: {type(exc).__name__}"
        else:
            results[name] = "ok"
    healthy = all(result == "ok" for result in results.values())
    return JsonResponse(results, status=200 if healthy else 503)


# What a link was for, by its first segment (games, scoring and crews URLs): a table's,
# a score sheet's (the join link or the TV's) or a crew's link carries a code.
LINKED = {"t": "table", "s": "score sheet", "w": "score sheet", "c": "crew"}


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 page (handler404). A dead link is most often a table's, sheet's or
    crew's link mistyped or cut short, so the page says which thing the link was for when
    it has the shape of one (its route resolved, and the code matched nothing); then it
    offers to start a table or a sheet instead."""
    segment = request.path.strip("/").split("/")[0]
    missing = LINKED.get(segment) if request.resolver_match is not None else None
    return render(request, "404.html", {"missing": missing}, status=404)
