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


def test_an_interval_reads_as_its_bounds_alone():
    from simkit.core import stats

    rate, mean = stats.Interval(0.123, 0.101, 0.145, 400), stats.Interval(1234.5, 1200.0, 1269.0, 9)
    assert page_text.fill("{x:pct} (95 % CI {x:interval pct})", x=rate) == "12.3 % (95 % CI 10.1 to 14.5 %)"
    assert page_text.fill("{x:number2}, {x:interval}", x=mean) == "1,234.50, 1,200.00 to 1,269.00"
    none = stats.Interval(math.nan, math.nan, math.nan, 0)
    assert page_text.fill("{x:number2} ({x:interval pct})", x=none) == "n/a (n/a)"
    assert page_text.fill("{x:number2}", x=2.5) == "2.50"  # a plain number too
