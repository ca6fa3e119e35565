"""Cells of a CSV file the app writes, made safe to open in a spreadsheet.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab
or a carriage return before one) as a formula: a player named
``=HYPERLINK("http://evil.example","x")`` would become a live link in whoever opens the
export. OWASP's rule (CSV injection) is to start such a cell with a single quote, which the
spreadsheet shows as text. Only text is touched: a number the app writes itself, a score of
-5 say, stays a number in the sheet.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """``value`` as a CSV cell: text that a spreadsheet would read as a formula gets a
    leading ``'``; numbers and everything else are written as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value
