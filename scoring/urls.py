"""HTTP routes of this app; the app chooses its own path prefixes (included at "/")."""

app_name = "scoring"

urlpatterns = []
