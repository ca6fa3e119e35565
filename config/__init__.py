"""Django project configuration: settings, ASGI/URL routing and the health check."""
