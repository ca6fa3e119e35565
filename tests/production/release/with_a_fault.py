"""The site's URLs and one more, whose view fails: the 500 page's test asks for it."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler404, urlpatterns  # noqa: F401  (the site's own, kept)


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a fault in a view, as a bug would make one")


urlpatterns = [*urlpatterns, path("fails/", fails)]
