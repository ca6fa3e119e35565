"""HTTP routes of the crews. ``/c/<code>/`` is the crew's join link: the code is its secret.
The JSON export is the online table's (games.urls): it holds the online matches' records."""

from django.urls import path

from . import views

app_name = "crews"

urlpatterns = [
    path("c/new/", views.new_crew, name="new"),
    path("c/<str:code>/", views.crew, name="crew"),
    path("c/<str:code>/live/", views.live, name="live"),
    path("c/<str:code>/join/", views.join, name="join"),
    path("c/<str:code>/members/", views.add_member, name="add-member"),
    path("c/<str:code>/claims/<int:member_id>/", views.answer_claim, name="answer-claim"),
    path("c/<str:code>/leave/", views.leave, name="leave"),
    path("c/<str:code>/season/", views.new_season, name="new-season"),
    path("c/<str:code>/sheet/", views.new_sheet, name="new-sheet"),
    path("c/<str:code>/sheets/<str:match_code>/", views.open_sheet, name="open-sheet"),
    path("c/<str:code>/file/", views.file_match, name="file"),
    path("c/<str:code>/crew.csv", views.export_csv, name="export-csv"),
]
