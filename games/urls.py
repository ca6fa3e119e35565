"""HTTP routes of online tables. ``/t/<code>/`` is the table's invite link (lobby, then the
game); ``/t/<code>/rejoin/<token>/`` brings a seat to another device (docs/protocol.md);
``/tables/`` lists the tables this browser (or its person, in a crew) holds a seat at."""

from django.urls import path

from . import views
from .alerts.urls import urlpatterns as alerts

app_name = "games"

urlpatterns = [
    path("tables/", views.tables, name="tables"),
    path("t/new/", views.new_table, name="new"),
    path("t/new/rules/", views.new_table_rules, name="new-rules"),
    path("t/<str:code>/", views.table, name="table"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/bots/", views.add_bot, name="add-bot"),
    path("t/<str:code>/remove/", views.remove_seat, name="remove"),
    path("t/<str:code>/start/", views.start, name="start"),
    path("t/<str:code>/stand-in/", views.stand_in, name="stand-in"),
    path("t/<str:code>/hint/", views.hint, name="hint"),
    path("t/<str:code>/seats/<int:position>/link/", views.seat_link, name="seat-link"),
    path("t/<str:code>/again/", views.play_again, name="again"),
    path("t/<str:code>/deal/", views.check_deal, name="deal"),
    path("t/<str:code>/match/<int:number>/", views.match_round, name="match"),
    path("t/<str:code>/match.jsonl", views.match_record, name="match-record"),
    path("t/<str:code>/rejoin/<str:token>/", views.rejoin, name="rejoin"),
    path("t/<str:code>/coach/<int:number>/", views.coach_status, name="coach-status"),
    path("t/<str:code>/review/<int:number>/", views.coach_review, name="coach-review"),
    path("c/<str:code>/crew.json", views.crew_json, name="crew-json"),
    *alerts,  # push, mail, the nudge and the tables' service worker
]
