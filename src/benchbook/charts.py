"""Charts: Altair specs saved for the site (spec JSON, a JS file that registers it, static SVG).

Pages never recompute a chart: the report stage saves ``<name>.vl.json`` (the Vega-Lite spec),
``<name>.spec.js`` (``window.BB_SPECS[name] = spec``, loadable from file:// pages) and ``<name>.svg``
(static fallback rendered offline by vl-convert).  A page shows it with a ``<div class="bb-chart"
data-spec="NAME">`` holding the SVG, which ``site_libs/vega/bb-charts.js`` replaces with the
interactive chart; the Vega bundle is written once by the site stage (``site_libs/vega/vega-bundle.js``).
"""

from __future__ import annotations

import json
from pathlib import Path

import altair as alt
import vl_convert as vlc

from benchbook import atomicfile


def save(chart: alt.TopLevelMixin, out_dir: str | Path, name: str) -> dict:
    """Write spec, spec.js and svg for ``chart`` under ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    spec = chart.to_dict()
    paths = {"spec": out / f"{name}.vl.json", "js": out / f"{name}.spec.js", "svg": out / f"{name}.svg"}
    atomicfile.write_text(paths["spec"], json.dumps(spec, indent=1))
    atomicfile.write_text(
        paths["js"],
        "window.BB_SPECS = window.BB_SPECS || {};\n"
        f"window.BB_SPECS[{json.dumps(name)}] = {json.dumps(spec)};\n",
    )
    atomicfile.write_text(paths["svg"], vlc.vegalite_to_svg(spec))
    return {k: str(v) for k, v in paths.items()}
