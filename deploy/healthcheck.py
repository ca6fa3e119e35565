"""Container healthcheck: GET /healthz on this replica, exit 0 only on 200.

The request carries a Host header taken from ALLOWED_HOSTS, so Django accepts it whatever
host names the deployment uses ("127.0.0.1" would be refused unless it were listed).
"""

import os
import sys
import urllib.request


def host() -> str:
    for name in os.environ.get("ALLOWED_HOSTS", "").split(","):
        name = name.strip().lstrip(".")  # ".example.com" allows example.com itself too
        if name and name != "*":
            return name
    return "localhost"


def main() -> int:
    request = urllib.request.Request("http://127.0.0.1:8000/healthz", headers={"Host": host()})
    try:
        with urllib.request.urlopen(request, timeout=4) as response:
            return 0 if response.status == 200 else 1
    except Exception as exc:  # any failure means unhealthy; say why in `docker inspect`
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
