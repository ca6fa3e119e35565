"""The alerts' routes, included by games.urls under the tables' /t/."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/sw.js", views.service_worker, name="service-worker"),
    path("t/<str:code>/push/", views.push_subscribe, name="push"),
    path("t/<str:code>/push/stop/", views.push_unsubscribe, name="push-stop"),
    path("t/<str:code>/mail/", views.mail_address, name="mail"),
    path("t/<str:code>/mail/stop/<str:token>/", views.mail_stop, name="mail-stop"),
    path("t/<str:code>/nudge/", views.nudge, name="nudge"),
]
