"""The score sheet's service worker as a release serves it: the files it keeps for a sheet
opened with no signal are the collected ones, by their hashed names, all served, and all
under the prefix it serves from its cache (templates/scoring/sw.js)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.test import Client

from scoring.views import OFFLINE_FILES

pytestmark = pytest.mark.django_db


def test_the_service_worker_keeps_the_released_files(production_mode):
    browser = Client()
    response = browser.get("/sw.js")
    assert response.status_code == 200
    body = response.content.decode()
    prefix = re.search(r"const STATIC = '([^']*)'", body)[1]
    files = re.findall(r"'([^']+)'", re.search(r"const FILES = \[(.*)\]", body)[1])
    assert prefix == "/static/"
    assert files == [staticfiles_storage.url(name) for name in OFFLINE_FILES]
    for name, url in zip(OFFLINE_FILES, files, strict=True):
        assert url.startswith(prefix) and url != f"{prefix}{name}", f"{url} is not hashed"
        served = browser.get(url)
        assert served.status_code == 200, url
        served.close()
