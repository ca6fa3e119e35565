"""Websocket routes of this app, collected by config.asgi into the project's URLRouter."""

from django.urls import path

from .consumers import TableConsumer
from .your_tables import YourTablesConsumer

websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
    path("ws/tables/", YourTablesConsumer.as_asgi()),
]
