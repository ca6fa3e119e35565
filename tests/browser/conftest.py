"""Browser tests drive Debian's chromium through pytest-playwright.

Playwright's sync API runs an event loop in the test thread, which makes Django refuse ORM
calls there (SynchronousOnlyOperation); allowing it is safe here because the test thread
only drives the browser. It is set in this conftest alone, as the notes on channels advise.
"""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, require_chromium):
    """Use /usr/bin/chromium (Playwright's own browser downloads are not available), with
    the flags it needs to run headless as root in a container. Without the background
    networking flags Chromium keeps dialling Google's hosts, which this closed network refuses."""
    return {
        **browser_type_launch_args,
        "executable_path": require_chromium,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
