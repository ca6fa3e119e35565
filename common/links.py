"""An invitation link as the pages show it: the address, and the same address as a QR code
drawn on the server (templates/games/partials/qr.html), for a table, a seat and a crew."""

from __future__ import annotations

import segno
from django.utils.safestring import mark_safe


def link_with_qr(url: str) -> dict:
    qr = segno.make(url, error="m").svg_inline(border=2, dark="#000", light="#fff", omitsize=True)
    return {"url": url, "qr": mark_safe(qr)}  # noqa: S308 - segno's own SVG, no user text
