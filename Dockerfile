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
# Migrations, static files, then daphne with its limits (deploy/serve.sh says which).
CMD ["sh", "deploy/serve.sh"]
