"""Websocket routes of this app, collected by config.asgi into the project's URLRouter."""

from django.urls import path

from .consumers import CrewConsumer

websocket_urlpatterns = [path("ws/crew/<str:code>/", CrewConsumer.as_asgi())]
