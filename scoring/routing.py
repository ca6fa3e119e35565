"""Websocket routes of this app, collected by config.asgi into the project's URLRouter."""

websocket_urlpatterns = []
