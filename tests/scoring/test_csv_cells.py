"""The CSV cell rule of common.csv_cells, which every CSV the app writes goes through."""

import pytest

from common.csv_cells import csv_cell


@pytest.mark.parametrize(
    "text",
    ['=HYPERLINK("http://evil.example","x")', "+1", "-Ben", "@SUM(A1)", "\t=1", "\r=1"],
)
def test_text_that_a_spreadsheet_would_run_gets_a_leading_quote(text):
    assert csv_cell(text) == f"'{text}"


@pytest.mark.parametrize("value", ["Ana", "12-12", "not counted", "", "Ben=2"])
def test_other_text_is_written_as_it_is(value):
    assert csv_cell(value) == value


@pytest.mark.parametrize("value", [-5, 0, 13, -10])
def test_numbers_stay_numbers(value):
    assert csv_cell(value) == value
