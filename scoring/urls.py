"""HTTP routes of the score sheet. ``/s/<code>/`` is the join link (it edits), ``/w/<code>/``
the read-only link for a TV; the two codes are different secrets. The service worker sits
at the site root so that its scope covers both."""

from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("s/new/", views.new_match, name="new"),
    path("s/new/rules/", views.new_match_rules, name="new-rules"),
    path("s/<str:code>/", views.sheet, name="sheet"),
    path("s/<str:code>/join/", views.join, name="join"),
    path("s/<str:code>/history/", views.history, name="history"),
    path("s/<str:code>/manifest.webmanifest", views.manifest, name="manifest"),
    path("w/<str:viewer_code>/", views.viewer, name="viewer"),
    path("w/<str:viewer_code>/sheet.csv", views.export_csv, name="export-csv"),
    path("w/<str:viewer_code>/sheet.json", views.export_json, name="export-json"),
    path("sw.js", views.service_worker, name="service-worker"),
]
