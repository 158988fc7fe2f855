"""Every chart's tooltip shows the point's configuration, n, the 95% interval and rounded values.

The reports are rebuilt from the committed raw data into a temporary directory (as in
``test_registry_fixture``) and every saved ``*.vl.json`` spec is walked layer by layer.  A tooltip
over data that carries an n-like column must show it; over data that carries interval columns
(``ci_low*`` / ``*_ci_low`` and their ``high``) must show both, or the value with its interval as one text
rounded by ``numfmt`` (a nominal field titled ``… [95% CI]``); every quantitative field carries a
``format`` (no raw floats such as 1.12810891386 on hover).  Model curves (no n in their data) only
need a label.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from conftest import committed_root

N_LIKE = {"n", "runs", "passes"}
CHART_NAMES = {
    "llama_bench_rates",
    "spec_speedup_alpha",
    "spec_acceptance",
    "spec_memory",
    "tau_vs_k",
    "speedup_vs_k",
    "experts_vs_bound",
    "offload_sweep",
    "depth_speedup",
}
#: Charts whose tooltips show the point's value rounded by ``numfmt`` (a ``*_shown`` text field), the
#: interval (or that there is none) and the run ids.
ROUNDED = {"tau_vs_k", "speedup_vs_k", "experts_vs_bound", "offload_sweep", "depth_speedup"}


def _build(root: Path, out: Path) -> None:
    from benchbook.experiments.draftself import report as draftself_report
    from benchbook.experiments.llama_bench import report as llama_bench_report
    from benchbook.experiments.offload import report as offload_report
    from benchbook.experiments.spec_depth import report as spec_depth_report
    from benchbook.experiments.speculative import report as speculative_report

    params = yaml.safe_load((root / "params.yaml").read_text())
    for report in (llama_bench_report, speculative_report, draftself_report):
        report.build(params, root=root, raw_dir=Path("data/raw"), reports_dir=out)
    offload_report.build(
        {"report": {"confidence": 0.95}}, root=root, raw_dir=Path("data/raw"), reports_dir=out
    )
    spec_depth_report.build({}, root=root, raw_dir=Path("data/raw"), reports_dir=out)


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("reports")
    _build(committed_root(), out)
    return {p.name.removesuffix(".vl.json"): json.loads(p.read_text()) for p in out.rglob("*.vl.json")}


def _columns(data: dict | None, datasets: dict) -> set[str]:
    if data is None:
        return set()
    rows = data["values"] if "values" in data else datasets.get(data.get("name"), [])
    return {k for r in rows for k in r}


def _tooltips(node: dict, datasets: dict, cols: set[str] = frozenset()) -> Iterator[tuple[list, set]]:
    """(tooltip field list, columns of the data it reads) for every unit spec under ``node``."""
    if "data" in node:
        cols = _columns(node["data"], datasets)
    tip = node.get("encoding", {}).get("tooltip")
    if tip is not None:
        yield (tip if isinstance(tip, list) else [tip]), cols
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for child in node.get(key, []):
            yield from _tooltips(child, datasets, cols)
    if "spec" in node:
        yield from _tooltips(node["spec"], datasets, cols)


def _interval_pairs(cols: set[str]) -> list[tuple[str, str]]:
    lows = [c for c in cols if "ci_low" in c]
    return [(lo, lo.replace("ci_low", "ci_high")) for lo in lows if lo.replace("ci_low", "ci_high") in cols]


def test_every_chart_is_rebuilt(specs):
    assert CHART_NAMES <= set(specs), CHART_NAMES - set(specs)


@pytest.mark.parametrize("name", sorted(CHART_NAMES))
def test_tooltip_shows_configuration_n_interval_rounded(specs, name):
    spec = specs[name]
    tips = list(_tooltips(spec, spec.get("datasets", {})))
    assert tips, f"{name}: no tooltip"
    assert any(N_LIKE & {f["field"] for f in tip} for tip, _ in tips), f"{name}: no tooltip shows n"
    for tip, cols in tips:
        fields = {f["field"]: f for f in tip}
        where = f"{name} tooltip {sorted(fields)}"
        assert any(f["type"] == "nominal" for f in tip), f"{where}: no configuration field"
        if N_LIKE & cols:
            assert N_LIKE & set(fields), f"{where}: data has {sorted(N_LIKE & cols)}, tooltip has no n"
        shown_ci = any(f["type"] == "nominal" and "CI]" in (f.get("title") or "") for f in tip)
        for lo, hi in _interval_pairs(cols):
            assert (lo in fields and hi in fields) or shown_ci, (
                f"{where}: data has {lo}/{hi}, tooltip lacks them"
            )
        for f in tip:
            if f["type"] == "quantitative":
                assert "format" in f, f"{where}: {f['field']} has no format"


@pytest.mark.parametrize("name", sorted(ROUNDED))
def test_tooltip_shows_rounded_value_interval_and_run_ids(specs, name):
    spec = specs[name]
    tips = [tip for tip, cols in _tooltips(spec, spec.get("datasets", {})) if "run_ids_short" in cols]
    assert tips, f"{name}: no tooltip over points with run ids"
    for tip in tips:
        fields = {f["field"]: f for f in tip}
        assert "run_ids_short" in fields and fields["run_ids_short"]["title"].startswith("run ids")
        shown = [f for f in tip if f["field"].endswith("_shown")]
        assert shown and all(f["type"] == "nominal" for f in shown), f"{name}: no rounded value"
        # the interval: in the shown value ("v [low, high]") or a field saying there is none
        assert "interval" in fields or any("CI]" in f.get("title", "") for f in shown), name
        assert N_LIKE & set(fields), name


def test_tooltip_values_follow_numfmt(specs):
    from benchbook.numfmt import fmt_interval, fmt_value

    def points(name: str) -> list[dict]:
        spec = specs[name]
        rows = []
        for node in [spec, *spec.get("layer", []), *spec.get("vconcat", [])]:
            for sub in [node, *node.get("layer", [])]:
                data = sub.get("data") or {}
                rows += data.get("values", []) or spec.get("datasets", {}).get(data.get("name"), [])
        return [r for r in rows if "run_ids_short" in r]

    for r in points("speedup_vs_k"):
        ci = (r["ci_low"], r["ci_high"]) if r["ci_low"] is not None else None
        assert r["speedup_shown"] == fmt_interval(r["speedup"], ci)
        assert "; AR " in r["run_ids_short"]
    for r in points("tau_vs_k"):
        assert r["tau_shown"] == fmt_value(r["tau"]) and r["interval"] == "none (pooled over runs)"
    ok = [r for r in points("offload_sweep") if r["status"] == "ok"]
    assert ok and all(r["rate_shown"].split(" [")[0] != "—" for r in ok)
    # n_cpu_moe 7, tg on the GPU host: interval [126.5, 142.9], half-width 8.2, whose second significant
    # digit is the first decimal: 134.4 [126.5, 142.9]
    tg7 = next(r for r in ok if r["n_cpu_moe"] == 7 and r["test"] == "tg")
    assert tg7["rate_shown"] == "134.4 [126.5, 142.9]"
    depth = points("depth_speedup")
    for r in depth:
        ci = (r["speedup_ci_low"], r["speedup_ci_high"]) if r["speedup_ci_low"] is not None else None
        assert r["speedup_shown"] == fmt_interval(r["speedup"], ci)
    # from n = 3 repetitions a depth speedup shows its interval (stats.paired_ratio_interval): self-n4 at
    # depth 0 on the GPU host, 0.4291 [0.3160, 0.5827], half-width 0.133: 0.43 [0.32, 0.58]; n = 2 on
    # the CPU host: the value alone
    shown = {(r["host"], r["config_id"], r["depth"]): r for r in depth}
    assert shown[("e3618a24", "self-n4", 0)]["speedup_shown"] == "0.43 [0.32, 0.58]"
    assert shown[("3f1dfa40", "self-n4", 0)]["speedup_shown"] == "0.578"
    assert shown[("3f1dfa40", "self-n4", 0)]["interval"] == "none: n = 2 < 3 repetitions"


#: d3-format's spec (github.com/d3/d3-format, "format specifiers"):
#: [[fill]align][sign][symbol][0][width][,][.precision][~][type]
D3_FORMAT = re.compile(r"^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?$")
#: types that keep significant digits (never print a non-zero as 0): g, r (decimal), p (percent), s (SI);
#: "d" rounds to an integer and is for integer columns only.  Fixed point ("f", "%", ".2f" showed 0.004
#: as 0.00) and exponent ("e") types are refused.
SIGNIFICANT = {"g", "r", "p", "s"}
#: integer columns a tooltip may format with "d"
COUNTS = N_LIKE | {"k", "n_max", "depth", "rep", "n_cpu_moe", "n_tokens", "accepted", "drafted"}


def _values(spec: dict, field: str) -> list[float]:
    """Every number of column ``field`` in the chart's data (inline values and named datasets)."""
    rows = [r for ds in spec.get("datasets", {}).values() for r in ds]
    stack = [spec]
    while stack:
        node = stack.pop()
        rows += (node.get("data") or {}).get("values", [])
        stack += [c for k in ("layer", "vconcat", "hconcat", "concat") for c in node.get(k, [])]
        stack += [node["spec"]] if "spec" in node else []
    return [r[field] for r in rows if isinstance(r.get(field), (int, float))]


def test_tooltip_formats_never_show_a_non_zero_value_as_zero(specs):
    seen = {}
    for name in sorted(CHART_NAMES):
        spec = specs[name]
        for tip, _ in _tooltips(spec, spec.get("datasets", {})):
            for f in tip:
                if f["type"] != "quantitative":
                    continue
                m = D3_FORMAT.match(f["format"])
                assert m, f"{name}: {f['field']}: {f['format']!r} is not a d3 format"
                kind = m.group(10)
                if kind == "d":
                    assert f["field"] in COUNTS, f"{name}: {f['field']} is not a count, yet formatted as one"
                else:
                    assert kind in SIGNIFICANT, f"{name}: {f['field']}: {f['format']!r} can show 0.004 as 0"
                if kind == "g":  # g turns to exponent notation (5e+4) from 10^precision up
                    top = max((abs(v) for v in _values(spec, f["field"])), default=0)
                    assert top < 10 ** int(m.group(8)[1:]), f"{name}: {f['field']} {top} reads as 1e+N"
                seen[(name, f["field"])] = f["format"]
    # the formats that were fixed point: α (".3f"), τ (".2f"), cv (".1%": 0.0004 read 0.0%), RSS (",.1f")
    assert seen[("spec_speedup_alpha", "alpha")] == ".3~g"
    assert seen[("spec_speedup_alpha", "tau")] == ".3~g"
    assert seen[("spec_acceptance", "alpha")] == ".3~g"
    assert seen[("llama_bench_rates", "cv")] == ".2~p"
    # the interval bounds of a rate or speedup that the tooltip shows as numfmt text ("tok/s [95% CI]":
    # 49,700 [48,200, 51,200]) are not listed again at another rounding (",.4~r" showed 48,230)
    # (charts.tidy_tooltips)
    assert not {k for k in seen if k[1] in ("ci_low_tps", "ci_high_tps", "speedup_ci_low", "speedup_ci_high")}
    assert seen[("spec_memory", "peak_rss_mib")] == ",.4~r"


@pytest.mark.parametrize(
    ("fmt", "value", "shown"),
    [
        (".2f", 0.004, "0.00"),  # the old τ format: a non-zero read as zero
        (".3~g", 0.004, "0.004"),  # α and τ now
        (".3~g", 15.6789, "15.7"),
        (".1%", 0.0004, "0.0%"),  # the old cv format
        (".2~p", 0.0004, "0.04%"),  # cv now
        (".4~g", 73456.7, "7.346e+4"),  # the old interval-bound format above 10^4
        (",.4~r", 73456.7, "73,460"),  # the bounds now
        (",.4~r", 0.004, "0.004"),
    ],
)
def test_vega_prints_the_formats_as_the_tooltips_rely_on(fmt, value, shown):
    import vl_convert as vlc

    spec = {
        "data": {"values": [{"v": value}]},
        "mark": "text",
        "encoding": {"text": {"field": "v", "type": "quantitative", "format": fmt}},
    }
    svg = vlc.vegalite_to_svg(json.dumps(spec))  # the Vega build the site bundles (vl-convert)
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == [shown]


#: Vega-Lite's text for a tooltip field it formats with no format (its default tooltip of a composite
#: mark such as errorbar): the value at full precision, e.g. ``ci_high 1.1252890381``
RAW_FORMAT = re.compile(r'format\(datum\["([^"]+)"\], ""\)')
#: the row filter ``charts.tidy_tooltips`` writes: ``isValid(datum["f"]) && !isValid(datum["g"])``
VALID_TEST = re.compile(r'(!?)isValid\(datum\["([^"]+)"\]\)')
#: the reports' own row filters: ``datum.status == 'ok'``, ``datum.test != 'pp'``
EQUALS_TEST = re.compile(r"^datum\.(\w+) (==|!=) '([^']*)'$")


def _keep(row: dict, test: str) -> bool:
    if m := EQUALS_TEST.match(test):
        return (row.get(m.group(1)) == m.group(3)) == (m.group(2) == "==")
    tests = VALID_TEST.findall(test)
    assert tests, f"a filter this test cannot read: {test!r}"
    return all((row.get(f) is not None) != bool(neg) for neg, f in tests)


def _vega_tooltips(spec: dict) -> list[str]:
    """The tooltip signal of every mark of ``spec`` compiled to Vega (vl-convert, the site's bundle)."""
    import vl_convert as vlc

    out = []
    stack: list = [vlc.vegalite_to_vega(json.dumps(spec))]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            tip = (node.get("encode") or {}).get("update", {}).get("tooltip") if "encode" in node else None
            if isinstance(tip, dict) and "signal" in tip:
                out.append(tip["signal"])
            stack += list(node.values())
        elif isinstance(node, list):
            stack += node
    return out


def _units(node: dict, rows: list[dict], datasets: dict) -> Iterator[tuple[dict, list[dict]]]:
    """(unit spec, the rows it draws) for every unit with a tooltip list, rows filtered by its filters
    (the reports' ``EQUALS_TEST`` and the ``isValid`` tests ``tidy_tooltips`` adds)."""
    data = node.get("data")
    if data is not None:
        rows = data["values"] if "values" in data else datasets.get(data.get("name"), [])
    for t in node.get("transform", []):
        if isinstance(t.get("filter"), str):
            rows = [r for r in rows if _keep(r, t["filter"])]
    if isinstance(node.get("encoding", {}).get("tooltip"), list):
        yield node, rows
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for child in node.get(key, []):
            yield from _units(child, rows, datasets)
    if "spec" in node:
        yield from _units(node["spec"], rows, datasets)


@pytest.mark.parametrize("name", sorted(CHART_NAMES))
def test_no_tooltip_shows_an_unrounded_value_or_a_null_field(specs, name):
    """Issue 32 §5: Vega-Lite's default tooltip of an error bar listed its ends unrounded (draft-self
    ``ci_high 1.1252890381``), and a llama-bench bar of fewer than 3 repetitions listed its missing
    interval and cv (``null``/``0``).  Every tooltip now shows formatted fields only, and none a field
    that its point lacks."""
    spec = specs[name]
    raw = sorted({f for sig in _vega_tooltips(spec) for f in RAW_FORMAT.findall(sig)})
    assert raw == [], f"{name}: tooltips show {raw} unrounded"
    for unit, rows in _units(spec, [], spec.get("datasets", {})):
        for f in unit["encoding"]["tooltip"]:
            missing = [
                r
                for r in rows
                if f["field"] in {k for row in rows for k in row} and r.get(f["field"]) is None
            ]
            assert not missing, f"{name}: tooltip field {f['field']} is null in {len(missing)} points"


def test_error_bars_share_their_points_tooltip_and_short_bars_lose_their_missing_fields(specs):
    # draft-self speedup: the error bar (Vega-Lite's default listed lower_ci_low/upper_ci_low at full
    # precision) now shows the tooltip of the points over the same data
    layers = specs["speedup_vs_k"]["layer"]
    bars = [u for u in layers if (u.get("mark") or {}).get("type") == "errorbar"]
    assert bars and all(isinstance(u["encoding"]["tooltip"], list) for u in bars)
    twins = [u for u in layers if u.get("data") == bars[0].get("data") and u is not bars[0]]
    assert any(u["encoding"].get("tooltip") == bars[0]["encoding"]["tooltip"] for u in twins)
    # llama-bench: 6 of the 12 bars have n < 3 (no interval, no cv): they are drawn by a copy of the bar
    # layer whose tooltip lacks cv; the other 6 keep it
    spec = specs["llama_bench_rates"]
    units = list(_units(spec, [], spec.get("datasets", {})))
    bar_units = [(u, rows) for u, rows in units if (u.get("mark") or {}).get("type") == "bar"]
    shown = sorted(
        (len(rows), "cv" in {f["field"] for f in u["encoding"]["tooltip"]}) for u, rows in bar_units
    )
    assert shown == [(6, False), (6, True)]


def test_tidy_tooltips_on_a_hand_made_spec():
    from benchbook.charts import tidy_tooltips

    tip = [{"field": "k", "type": "nominal"}, {"field": "lo", "type": "quantitative", "format": ".3~g"}]
    spec = {
        "data": {"values": [{"k": "a", "lo": 1.0, "hi": 2.0}, {"k": "b", "lo": None, "hi": None}]},
        "layer": [
            {"mark": "point", "encoding": {"x": {"field": "k", "type": "nominal"}, "tooltip": tip}},
            {"mark": {"type": "errorbar"}, "encoding": {"y": {"field": "lo", "type": "quantitative"}}},
        ],
    }
    out = tidy_tooltips(spec)
    assert (
        spec["layer"][1]["encoding"].get("tooltip") is None and "tooltip" not in spec["layer"][1]["encoding"]
    )
    point, bar = out["layer"]
    # the point layer split: row a keeps lo, row b (lo null) shows only k
    assert [p["transform"][-1]["filter"] for p in point["layer"]] == [
        'isValid(datum["lo"])',
        '!isValid(datum["lo"])',
    ]
    assert [[f["field"] for f in p["encoding"]["tooltip"]] for p in point["layer"]] == [["k", "lo"], ["k"]]
    assert [[f["field"] for f in p["encoding"]["tooltip"]] for p in bar["layer"]] == [["k", "lo"], ["k"]]
    # clean control: no null field, no composite mark without a tooltip -> the same spec
    clean = {"data": {"values": [{"k": "a", "lo": 1.0}]}, "layer": [spec["layer"][0]]}
    assert tidy_tooltips(clean) == clean


def test_record_text_in_chart_data_shows_controls_as_code_points(tmp_path):
    """Breaker S2: a failure reason quoting llama-bench's stderr with U+202E (RTL override) and ESC reached
    the offload chart's tooltips (spec, spec.js) and the SVG's aria-labels raw."""
    import altair as alt

    from benchbook import charts
    from benchbook.escape import visible_controls

    reason = "cudaMalloc failed \u202eyromem fo tuo\x1b[31m"
    rows = [
        {"n_cpu_moe": 0, "avg_ts": 10.0, "reason": reason},
        {"n_cpu_moe": 4, "avg_ts": 12.0, "reason": "ok"},
    ]
    chart = alt.Chart(alt.Data(values=rows)).mark_point()
    chart = chart.encode(x="n_cpu_moe:Q", y="avg_ts:Q", tooltip=["reason:N"])
    paths = charts.save(chart, tmp_path, "offload_sweep")
    shown = "cudaMalloc failed ⟨U+202E⟩yromem fo tuo⟨U+001B⟩[31m"
    for kind in ("spec", "js", "svg"):
        text = Path(paths[kind]).read_text()
        assert [c for c in text if c != visible_controls(c)] == [], kind
    spec = json.loads(Path(paths["spec"]).read_text())
    assert [r["reason"] for r in spec["data"]["values"]] == [shown, "ok"]
    assert "⟨U+202E⟩" in Path(paths["svg"]).read_text()  # the aria-label names the point's reason
