"""ASGI entry point: HTTP goes to Django, websockets to the apps' consumers.

Django is set up (get_asgi_application) before the routing modules are imported, because
consumers import models. Websockets pass the allowed-hosts origin check (a page on another
site cannot open a socket with our cookies) and get the session user via AuthMiddlewareStack.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from crews.routing import websocket_urlpatterns as crews_websockets  # noqa: E402
from games.coach import WORKER_CHANNEL  # noqa: E402
from games.routing import websocket_urlpatterns as games_websockets  # noqa: E402
from games.waker import start_polling  # noqa: E402
from games.worker import CoachWorker  # noqa: E402
from scoring.routing import websocket_urlpatterns as scoring_websockets  # noqa: E402

websocket_urlpatterns = [*games_websockets, *crews_websockets, *scoring_websockets]

if os.environ.get("LOAD_TEST_ECHO") == "1":  # the load benchmark's floor: config/echo.py
    from django.urls import path  # noqa: E402

    from config.echo import EchoConsumer  # noqa: E402

    websocket_urlpatterns.append(path("ws/echo/<str:group>/", EchoConsumer.as_asgi()))

# A full garbage collection stalls every table of the process (100-200 ms at 100 busy
# tables): what is loaded now lives as long as the process, so it is kept out of the scans,
# and full collections run ten times rarer than Python's default (docs/performance.md).
gc.freeze()
gc.set_threshold(700, 10, 100)


def with_the_clock(app):
    """Start this process's poll for due tables (games.waker) with the first connection it
    serves, HTTP or websocket: daphne has no start-up hook (no ASGI lifespan)."""

    async def serve(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            start_polling()
        return await app(scope, receive, send)

    return serve


application = with_the_clock(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
            # The coach's worker: `manage.py runworker coach` (games/worker.py).
            "channel": ChannelNameRouter({WORKER_CHANNEL: CoachWorker.as_asgi()}),
        }
    )
)
