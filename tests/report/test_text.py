"""Rates and differences on the page: no "-0.0", and 1 win never reads like 0 wins."""

import math

from simkit.reporting import text as page_text


def test_one_win_and_no_win_never_print_alike():
    assert page_text.pct(0 / 3000) == "0.0 %"
    assert page_text.pct(1 / 3000) == "0.03 %"
    assert page_text.pct(1 / 10**6) == "< 0.001 %"
    assert page_text.fmt_pct(1 / 3000) != page_text.fmt_pct(0.0)
    assert page_text.pct(0.1234) == "12.3 %" and page_text.pct(math.nan) == "n/a"


def test_no_negative_zero():
    for x in (-0.0, -1e-9, 0.0):
        assert not page_text.pct(x).startswith("-0.0")
        assert page_text.points(x) in ("0.000", "0.0")
    assert page_text.points(-0.0004) == "-0.04" and page_text.points(0.021) == "+2.1"
    assert page_text.fmt_pct(-0.0) == "0.0 %"


def test_signed_numbers_never_read_minus_zero():
    assert page_text.signed(-0.001) == "0.00" and page_text.signed(1.234) == "+1.23"
    assert page_text.signed(-2.5, 1) == "-2.5" and page_text.signed(float("nan")) == "n/a"
