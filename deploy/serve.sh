#!/bin/sh
# The web service's command (Dockerfile, docker-compose.yml): apply migrations, collect static
# files, then serve HTTP and websockets with daphne as this shell's successor (exec), so
# `docker stop` reaches daphne itself.
#
# --websocket-max-message-size: daphne refuses (closes with 1009) any websocket message over
#   64 KB before the app sees it; the longest message of either protocol is under 2 KB.
# --proxy-headers, only with BEHIND_PROXY=1 (nginx in front, deploy/nginx.conf): the client's
#   address comes from X-Forwarded-For, which nginx overwrites; without a proxy, anyone
#   could write it.
set -e
python manage.py migrate --noinput
python manage.py collectstatic --noinput
case "$(echo "${BEHIND_PROXY:-0}" | tr '[:upper:]' '[:lower:]')" in
    1|true|yes|on) set -- --proxy-headers ;;
    *) set -- ;;
esac
exec daphne "$@" --websocket-max-message-size 65536 -b 0.0.0.0 -p 8000 config.asgi:application
