"""The Jinja2 environment that draws the table screen's regions (templates/jinja2/).

A socket draws a table's regions again on every move, for every seat, a hundred busy
tables a second: Jinja2 compiles a template to Python and draws them about seven times
faster than Django's template language (docs/performance.md). Every other page stays with
Django's templates. Undefined names raise rather than draw nothing, so a region that is
handed the wrong context fails its tests instead of showing a blank.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template.defaultfilters import pluralize
from django.urls import get_script_prefix, reverse
from jinja2 import Environment, StrictUndefined

from games import dominoes


def url(name: str, *args: Any) -> str:
    """Django's ``{% url %}``: the path of a named view. Kept, as the same few paths are
    drawn into every top bar and host's form."""
    return _path(name, args, get_script_prefix())


@lru_cache(maxsize=1024)
def _path(name: str, args: tuple[Any, ...], prefix: str) -> str:
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    # cache_size -1 keeps every template in a plain dict: a dozen regions, looked up for
    # every region drawn, where the default's LRU takes a lock for each lookup.
    env = Environment(
        **{**options, "undefined": StrictUndefined, "cache_size": -1},
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(url=url, domino=dominoes.svg)
    env.filters.update(pluralize=pluralize)
    return env
