"""Project URLs. Each app owns its own paths and is included at the root."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.views import healthz, not_found

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("crews.urls")),
    path("", include("scoring.urls")),
]

# The 500 page is Django's own handler with templates/500.html: it renders with no context.
handler404 = not_found
