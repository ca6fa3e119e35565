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
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns as games_websockets  # noqa: E402
from scoring.routing import websocket_urlpatterns as scoring_websockets  # noqa: E402

websocket_urlpatterns = [*games_websockets, *scoring_websockets]

if os.environ.get("LOAD_TEST_ECHO") == "1":  # the load benchmark's floor: config/echo.py
    from django.urls import path  # noqa: E402

    from config.echo import EchoConsumer  # noqa: E402

    websocket_urlpatterns.append(path("ws/echo/<str:group>/", EchoConsumer.as_asgi()))

# Everything loaded so far (Django, the apps, the templates' modules) lives as long as the
# process: move it out of the garbage collector's sight, so that a full collection scans only
# what the tables create. A full scan of it all stalled every table for 100-200 ms.
gc.freeze()
# Even so, a full collection of a busy process (400 sockets' objects, the tables' caches)
# stalls every table for about 100 ms, and Python's default runs one every ten collections
# of the middle generation: every 20 s or so at 100 busy tables, where it was what most
# often pushed a move past 100 ms (benchmarks/load.py, docs/performance.md). Reference
# counting frees nearly all our garbage at once; what waits for the full collection is
# mostly the cycles a closed connection leaves, which can wait ten times longer.
gc.set_threshold(700, 10, 100)  # Python's defaults, but a full collection 10 times rarer

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
