# The web service of docker-compose.yml: daphne serving HTTP and websockets.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . .
RUN pip install . \
    && useradd --system --home-dir /app app \
    && mkdir -p /app/staticfiles \
    && chown -R app /app/staticfiles
USER app

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py collectstatic --noinput && daphne --proxy-headers -b 0.0.0.0 -p 8000 config.asgi:application"]
