"""Websocket routes of this app, collected by config.asgi into the project's URLRouter."""

from django.urls import path

from .consumers import SheetConsumer

websocket_urlpatterns = [
    path("ws/sheet/<str:code>/", SheetConsumer.as_asgi()),
    path("ws/sheet/view/<str:viewer_code>/", SheetConsumer.as_asgi()),
]
