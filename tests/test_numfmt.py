"""The one number formatter: exact strings for the rounding rule (two significant digits of the
interval's half-width; three significant digits without an interval)."""

import pytest

from benchbook.numfmt import decimal_place, fmt_fixed, fmt_interval, fmt_number, fmt_value, never_zero


@pytest.mark.parametrize(
    ("value", "ci", "shown"),
    [
        # 17,271.40 tok/s ± 40%: half-width 6,908.56 -> 6,900 (2 digits, hundreds): all at hundreds
        (17271.40, (17271.40 * 0.6, 17271.40 * 1.4), "17,300 [10,400, 24,200]"),
        # half-width (125.3 - 117.6) / 2 = 3.85 -> 3.9: one decimal
        (120.97, (117.6, 125.3), "121.0 [117.6, 125.3]"),
        # the compact shape: half-width 3.5 -> 3.5, one decimal, trailing zeros kept
        (121.0, (118.0, 125.0), "121.0 [118.0, 125.0]"),
        # half-width 12.5 -> 12: units
        (72.63, (60.1, 85.1), "73 [60, 85]"),
        # half-width 0.26 -> two decimals (a speedup of 0.48× with 95% CI 0.22–0.74)
        (0.4812, (0.2203, 0.7421), "0.48 [0.22, 0.74]"),
        # half-width 0.0105 -> 0.010 (3 decimals)
        (1.12810891386, (1.118, 1.139), "1.128 [1.118, 1.139]"),
        # a zero-width interval says nothing about precision: three significant digits
        (4.875, (4.875, 4.875), "4.88"),
        # no interval
        (4.875, None, "4.88"),
        (17271.40, None, "17,300"),
        (0.012345, None, "0.0123"),
        (1.5, None, "1.50"),
        (0.0, None, "0"),
        (-0.0004, None, "-0.000400"),
        (9.996, None, "10.0"),  # rounding carries into a new digit: still three digits
        (1612544, None, "1,612,544"),  # an int is an exact count
    ],
)
def test_rounding_rule_exact_strings(value, ci, shown):
    assert fmt_interval(value, ci) == shown


def test_negative_bound_and_no_minus_zero():
    # half-width 0.5 -> 0.50: two decimals; a bound that is not zero never prints as zero (breaker #13:
    # it gets its first significant digit, sign kept); an exact zero prints without a sign
    assert fmt_interval(0.2, (-0.001, 0.999)) == "0.20 [-0.001, 1.00]"
    assert fmt_interval(-0.0, (-1.0, 1.0)) == "0.0 [-1.0, 1.0]"
    assert fmt_interval(-3.2, (-4.1, -2.3)) == "-3.20 [-4.10, -2.30]"


def test_decimal_place():
    assert decimal_place(3.85, 2) == 1
    assert decimal_place(6908.56, 2) == -2
    assert decimal_place(0.0123, 3) == 4
    assert decimal_place(99.96, 3) == 0  # 99.96 -> 100 (three digits at units)
    with pytest.raises(ValueError, match="no significant digits"):
        decimal_place(0.0, 2)


def test_fmt_number_unit_once():
    num = {"value": 120.97, "ci95": [117.6, 125.3], "unit": "tok/s"}
    assert fmt_number(num) == "121.0 [117.6, 125.3] tok/s"
    assert fmt_number(num, unit=False) == "121.0 [117.6, 125.3]"
    assert fmt_number({"value": 0.25, "unit": ""}) == "0.250"


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"interval \(2\.0, 1\.0\) is not \[low, high\]"):
        fmt_interval(1.5, (2.0, 1.0))
    with pytest.raises(ValueError, match="not a finite number"):
        fmt_value(float("nan"))


def test_a_value_or_bound_that_is_not_zero_is_never_shown_as_zero():
    # breaker #13: half-width (3.0 - 0.001) / 2 = 1.4995 -> 1.5, one decimal: 0.04 and 0.001 printed as
    # 0.0 ("0.0 [0.0, 3.0]"); half-width 39.85 -> 40, units: 0.3 printed as 0 ("5 [0, 80]")
    assert fmt_interval(0.04, (0.001, 3.0)) == "0.04 [0.001, 3.0]"
    assert fmt_interval(5.0, (0.3, 80.0)) == "5 [0.3, 80]"
    assert (never_zero(0.04, 1), never_zero(-0.04, 1), never_zero(0.0, 1)) == ("0.04", "-0.04", "0.0")
    # the fixed-decimals formatter of report tables (spec_depth) follows the same rule
    assert (fmt_fixed(0.001, 2), fmt_fixed(3.14159, 2), fmt_fixed(None, 2), fmt_fixed(7, 2)) == (
        "0.001",
        "3.14",
        "–",
        "7",
    )
