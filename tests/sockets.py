"""Closing the test sockets a test left open.

A socket the server refused (a bad origin, an unknown table, a stranger at a sheet) is closed
on the server's side only: its consumer goes on waiting for the client's disconnect, receiving
from the channel layer all the while. On Redis that receive, cancelled when the test's event
loop shuts down, can hang the teardown for good; so every test's sockets are disconnected as
a browser would, before its loop ends.
"""

from __future__ import annotations

from channels.testing import WebsocketCommunicator


def track_sockets(monkeypatch) -> list[WebsocketCommunicator]:
    """Every WebsocketCommunicator made from now on (until monkeypatch undoes it), in order."""
    opened: list[WebsocketCommunicator] = []
    init = WebsocketCommunicator.__init__

    def tracked(self, *args, **kwargs):
        init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(WebsocketCommunicator, "__init__", tracked)
    return opened


async def close_sockets(opened: list[WebsocketCommunicator]) -> None:
    """Disconnect each socket whose consumer is still running."""
    for socket in opened:
        running = socket._future is not None and not socket._future.done()  # noqa: SLF001
        if running:
            await socket.disconnect()
