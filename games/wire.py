"""What a table's socket has sent its page, and the view that brings the page up to date.

A view after a socket's first carries only the regions that differ from what that socket
last sent (docs/protocol.md, "Diffs"): each socket keeps a :class:`Sent`, a digest of each
region its page holds, and the recent moves' lines, of which a view then sends only the
new ones. The page swaps in what arrives and keeps the rest. A view is whole (every region)
when the socket has sent nothing yet, after a gap (the view's version skips one the page
never saw), and when the consumer asks for one (a ping that found the page behind, a move
refused as stale): a page that might hold anything else is drawn again from scratch.

The digests are Python's ``hash`` of the region's HTML: a socket's state lives in one
process, the consumer's, so a digest never leaves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
from django.utils.html import escape


@dataclass(frozen=True)
class Region:
    """One region of a screen: its id and HTML, and the regions inside it (a board's lanes,
    a dock's hand), which a view may send without their container."""

    id: str
    html: str
    inner: tuple[Region, ...] = ()

    def kept(self) -> str:
        """The placeholder that stands for this region where the page keeps its own: an
        element of the same tag, empty, with its id."""
        tag = self.element[1:].split(" ", 1)[0].split(">", 1)[0]
        return f'<{tag} id="{self.id}" data-keep></{tag}>'

    @property
    def element(self) -> str:
        """The region's element, without the spacing the template left around it."""
        return self.html.strip()

    def shell(self) -> str:
        """The region without its inner regions' content: what the page must be sent whole
        when it changes (the inner regions' ids stay, in their order)."""
        html = self.html
        for inner in self.inner:
            html = html.replace(inner.html, inner.id, 1)
        return html


@dataclass(frozen=True)
class Drawn:
    """A screen drawn for a socket: the view's data, its regions in page order, and the
    recent moves' lines (newest first) that the log region shows."""

    data: dict[str, Any]
    regions: tuple[Region, ...]
    log: tuple[str, ...] = ()
    keep: int = 0  # how many lines the log shows at most
    lobby: bool = False


@dataclass
class Sent:
    """What one socket has sent its page: a digest of each region, the log's lines, and the
    version of the last view. Kept on the consumer (games.consumers.TableConsumer.sent)."""

    regions: dict[str, int] = field(default_factory=dict)
    log: tuple[int, ...] = ()
    version: int | None = None
    within: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a container's inner ids

    def message(self, drawn: Drawn, *, whole: bool = False) -> str:
        """The view message that brings this socket's page to ``drawn``, as JSON text; what
        it sends is remembered."""
        version = drawn.data.get("version")
        whole = (
            whole
            or drawn.lobby
            or self.version is None
            or version is None
            or version > self.version + 1
        )
        if whole:
            self.regions.clear()
            self.within.clear()
            self.log = ()
        html = "".join(self._changed(drawn, whole))
        self.version = version
        body = drawn.data | {"whole": whole, "html": html}
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS).decode()

    def _changed(self, drawn: Drawn, whole: bool) -> list[str]:
        parts: list[str] = []
        for region in drawn.regions:
            if region.id == "table-log":
                parts.append(self._log(drawn, region, whole))
            elif region.inner:
                parts.append(self._container(region, whole))
            else:
                parts.append(self._swap(region))
        return parts

    def _swap(self, region: Region) -> str:
        """The region's HTML if the page holds another, else nothing."""
        digest = hash(region.html)
        if self.regions.get(region.id) == digest:
            return ""
        self.regions[region.id] = digest
        return region.html

    def _container(self, region: Region, whole: bool) -> str:
        """A region with regions inside (the board's lanes, the dock's hand): the inner
        regions that changed alone while the rest is the same; else the whole region, with
        a placeholder (``data-keep``) for each inner region the page holds as it is."""
        shell = hash(region.shell())
        if not whole and self.regions.get(region.id) == shell:
            return "".join(self._swap(inner) for inner in region.inner)
        html = region.html
        ids = tuple(inner.id for inner in region.inner)
        for old in set(self.within.get(region.id, ())) - set(ids):  # gone with the container
            self.regions.pop(old, None)
        for inner in region.inner:
            digest = hash(inner.html)
            if not whole and self.regions.get(inner.id) == digest:
                html = html.replace(inner.element, inner.kept(), 1)
            self.regions[inner.id] = digest
        self.regions[region.id] = shell
        self.within[region.id] = ids
        return html

    def _log(self, drawn: Drawn, region: Region, whole: bool) -> str:
        """The log whole, or only its new lines, to go on top of those the page shows."""
        lines = tuple(hash(line) for line in drawn.log)
        before, self.log = self.log, lines
        digest = hash(region.html)
        held = self.regions.get(region.id)
        self.regions[region.id] = digest
        if whole or held is None:
            return region.html
        if held == digest:
            return ""
        if before and lines:
            for added in range(1, len(lines) + 1):
                rest = len(lines) - added
                if lines[added:] == before[:rest] and (
                    rest == len(before) or len(lines) == drawn.keep
                ):
                    new = "".join(f"<li>{escape(line)}</li>" for line in drawn.log[:added])
                    return f'<ol id="table-log-lines" data-prepend="{drawn.keep}">{new}</ol>'
        return region.html
