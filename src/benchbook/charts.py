"""Charts: Altair specs saved for the site (spec JSON, a JS file that registers it, static SVG).

Pages never recompute a chart: the report stage saves ``<name>.vl.json`` (the Vega-Lite spec),
``<name>.spec.js`` (``window.BB_SPECS[name] = spec``, loadable from file:// pages) and ``<name>.svg``
(static fallback rendered offline by vl-convert).  A page shows it with a ``<div class="bb-chart"
data-spec="NAME">`` holding the SVG, which ``site_libs/vega/bb-charts.js`` replaces with the
interactive chart; the Vega bundle is written once by the site stage (``site_libs/vega/vega-bundle.js``).

Every spec is saved through ``tidy_tooltips`` and ``inert_text``: a tooltip shows only what a report
chose to show, as it rounded it, and no field that a point does not have; record text in it is inert.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import altair as alt
import vl_convert as vlc

from benchbook import atomicfile
from benchbook.escape import visible_controls


def inert_text(node):
    """``node`` (a Vega-Lite spec or part of it) with every string through ``visible_controls``: record
    text in a chart's data (a failure reason quoting llama-bench's stderr, a host's CPU name) shows a
    bidirectional or control character as ``⟨U+202E⟩`` in tooltips and in the SVG's aria-labels instead
    of re-ordering or hiding the text.  Dict keys are changed too (a field name is record text when a
    column is named from data).  Returns a new structure."""
    if isinstance(node, str):
        return visible_controls(node)
    if isinstance(node, dict):
        return {inert_text(k): inert_text(v) for k, v in node.items()}
    if isinstance(node, list):
        return [inert_text(v) for v in node]
    return node


def save(chart: alt.TopLevelMixin, out_dir: str | Path, name: str) -> dict:
    """Write spec, spec.js and svg for ``chart`` under ``out_dir``; return their paths.  Every string of
    the spec goes through ``inert_text`` first (untrusted record text is shown, never acted on)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    spec = inert_text(tidy_tooltips(chart.to_dict()))
    paths = {"spec": out / f"{name}.vl.json", "js": out / f"{name}.spec.js", "svg": out / f"{name}.svg"}
    atomicfile.write_text(paths["spec"], json.dumps(spec, indent=1))
    atomicfile.write_text(
        paths["js"],
        "window.BB_SPECS = window.BB_SPECS || {};\n"
        f"window.BB_SPECS[{json.dumps(name)}] = {json.dumps(spec)};\n",
    )
    atomicfile.write_text(paths["svg"], vlc.vegalite_to_svg(spec))
    return {k: str(v) for k, v in paths.items()}


#: Vega-Lite composite marks: without a ``tooltip`` encoding each gets a default tooltip listing its
#: fields at full precision (``format(datum.f, "")``: ``ci_high 1.1252890381``)
COMPOSITE_MARKS = frozenset({"errorbar", "errorband", "boxplot"})
#: view-composition keys whose children are views
_CHILDREN = ("layer", "vconcat", "hconcat", "concat")
#: marks that join their points into one shape (splitting their rows would break the shape)
CONNECTED_MARKS = frozenset({"line", "area", "trail"})
#: the keys of a single view that each copy of a split view takes (the others, such as its data, size,
#: title and a top-level spec's ``$schema``/``config``/``datasets``, stay on the layer that holds them)
_UNIT_KEYS = frozenset({"mark", "encoding", "transform", "projection"})
#: transforms that keep each row's fields as they are (so a row's null fields are known from the data)
_ROW_TRANSFORMS = frozenset({"filter", "calculate"})


def _mark_type(unit: dict) -> str | None:
    mark = unit.get("mark")
    return mark.get("type") if isinstance(mark, dict) else mark


def _rows(data: dict | None, datasets: dict, inherited: list[dict]) -> list[dict]:
    if data is None:
        return inherited
    if "values" in data and isinstance(data["values"], list):
        return data["values"]
    return datasets.get(data.get("name"), [])


def _null(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _valid(field: str) -> str:
    """A Vega expression true where ``field`` is neither null nor NaN (Vega's ``isValid``; Vega-Lite's
    ``valid`` predicate would also refuse a text value, through ``isFinite``)."""
    return f"isValid(datum[{json.dumps(field)}])"


def _split_by_nulls(unit: dict, rows: list[dict]) -> dict:
    """``unit`` unchanged, or, where some of its ``rows`` lack values of tooltip fields, a layer (with the
    unit's data, size and title) of one copy of its mark and encoding per set of null fields: each copy
    filtered (``_valid`` expressions) to the rows with exactly those fields null, its tooltip without
    them.  Positions do not move (the copies share
    their layer's scales).  A line, area or trail (``CONNECTED_MARKS``) is not split: its tooltip loses
    only the fields that no row has.  A unit with selection ``params`` or a transform that reshapes rows
    is left as it is."""
    tip = unit.get("encoding", {}).get("tooltip")
    if not isinstance(tip, list) or "params" in unit or not rows:
        return unit
    if any(not _ROW_TRANSFORMS.issuperset(t) for t in unit.get("transform", [])):
        return unit
    columns = {k for r in rows for k in r}
    fields = [f["field"] for f in tip if isinstance(f, dict) and f.get("field") in columns]
    if not fields:
        return unit
    fields = [f for f in fields if any(_null(r.get(f)) for r in rows)]  # the filters name only these
    signatures = sorted({tuple(f for f in fields if _null(r.get(f))) for r in rows})
    if signatures == [()]:
        return unit
    if len(signatures) == 1 or _mark_type(unit) in CONNECTED_MARKS:
        # every row lacks the same fields, or the rows make one shape: drop the fields no row has
        signatures = [tuple(f for f in fields if all(_null(r.get(f)) for r in rows))]
        out = copy.deepcopy(unit)
        out["encoding"]["tooltip"] = [f for f in tip if f.get("field") not in signatures[0]]
        return out
    layers = []
    for nulls in signatures:
        part = {k: copy.deepcopy(v) for k, v in unit.items() if k in _UNIT_KEYS}
        part["encoding"]["tooltip"] = [f for f in tip if f.get("field") not in nulls]
        test = " && ".join(_valid(f) if f not in nulls else f"!{_valid(f)}" for f in fields)
        part["transform"] = [*unit.get("transform", []), {"filter": test}]
        layers.append(part)
    return {**{k: v for k, v in unit.items() if k not in _UNIT_KEYS}, "layer": layers}


def _bound_stem(field: str) -> str | None:
    """``tps`` for ``ci_low_tps``/``ci_high_tps``, ``speedup`` for ``speedup_ci_low``; None for a field
    that is not an interval bound."""
    for end in ("ci_low", "ci_high"):
        if end in field:
            return field.replace(end, "").strip("_") or None
    return None


def _without_repeated_bounds(tip: list) -> list:
    """``tip`` without the quantitative interval bounds (``ci_low_X``, ``X_ci_high`` …) of a quantity ``X``
    whose value and interval it already shows as text rounded by ``numfmt`` (a nominal ``X_shown`` titled
    ``… [95% CI]``): the bounds repeated the interval at another rounding (``48,230`` beside
    ``49,700 [48,200, 51,200]``)."""
    shown = {
        f["field"].removesuffix("_shown")
        for f in tip
        if isinstance(f, dict) and f.get("field", "").endswith("_shown") and "CI]" in (f.get("title") or "")
    }
    return [
        f
        for f in tip
        if not (isinstance(f, dict) and f.get("type") == "quantitative" and _bound_stem(f["field"]) in shown)
    ]


def _tidy(node: dict, datasets: dict, rows: list[dict]) -> dict:
    rows = _rows(node.get("data"), datasets, rows)
    node = dict(node)
    if isinstance(node.get("encoding", {}).get("tooltip"), list):
        node["encoding"] = {
            **node["encoding"],
            "tooltip": _without_repeated_bounds(node["encoding"]["tooltip"]),
        }
    if "layer" in node:
        children = [dict(c) for c in node["layer"]]
        with_tip = [c for c in children if isinstance(c.get("encoding", {}).get("tooltip"), list)]
        for child in children:
            if _mark_type(child) in COMPOSITE_MARKS and "tooltip" not in child.get("encoding", {}):
                twin = next((c for c in with_tip if c.get("data") == child.get("data")), None)
                child["encoding"] = {
                    **child.get("encoding", {}),
                    "tooltip": copy.deepcopy(twin["encoding"]["tooltip"]) if twin else None,
                }
        node["layer"] = children
    elif _mark_type(node) in COMPOSITE_MARKS and "tooltip" not in node.get("encoding", {}):
        node["encoding"] = {**node.get("encoding", {}), "tooltip": None}
    for key in _CHILDREN:
        if key in node:
            node[key] = [_tidy(c, datasets, rows) for c in node[key]]
    if "spec" in node:
        node["spec"] = _tidy(node["spec"], datasets, rows)
    return _split_by_nulls(node, rows) if "mark" in node else node


def tidy_tooltips(spec: dict) -> dict:
    """``spec`` (a Vega-Lite dict) with tooltips that show values rounded as on the pages and no null field:

    * a composite mark (``COMPOSITE_MARKS``) without a ``tooltip`` encoding takes the tooltip of a
      sibling layer over the same data, or none (``tooltip: null``); Vega-Lite's default for it lists
      its fields unrounded (a draft-self error bar showed ``ci_high 1.1252890381``);
    * a tooltip that shows a value with its interval as ``numfmt`` text (``X_shown``, titled
      ``… [95% CI]``) does not list the interval's bounds again as numbers (``_without_repeated_bounds``);
    * a layer whose points lack values of some tooltip fields (an interval of fewer than 3
      repetitions, a configuration that did not run) is split into one copy per set of missing fields
      (``_split_by_nulls``): a tooltip lists only fields its point has (a llama-bench bar listed
      ``null`` and ``0`` for its missing interval and cv).

    Returns a new dict; ``spec`` is not changed.
    """
    return _tidy(copy.deepcopy(spec), spec.get("datasets", {}), [])
