"""Screenshots and layout measurements of built pages in headless chromium (DevTools protocol).

Usage: ``python scripts/page_shots.py SITE_DIR OUT_DIR [PAGE ...]`` (default pages: speculative.html,
draftself.html).  For each page and each width (1280 and 800 px) it writes ``OUT_DIR/<page>-<width>.jpg``
(the whole page) and prints one JSON line: the page's document width against the viewport, the widest
table and chart (their own width and whether their content overflows the column without a scroll
container), and the page's height.
"""

from __future__ import annotations

import base64
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cdp import Browser, CDPError  # noqa: E402  (tests/cdp.py: the standard-library DevTools client)

WIDTHS = (1280, 800)
CHARTS_DONE = "[...document.querySelectorAll('.bb-chart')].every(e => e.dataset.rendered || e.dataset.error)"
MEASURE = """(() => {
  const col = document.querySelector('main') || document.body;
  const colW = col.getBoundingClientRect().width;
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const box = el => { const r = el.getBoundingClientRect();
    return {width: Math.round(r.width), content: el.scrollWidth, scrolls: scrolls(el),
            right: Math.round(r.right)}; };
  const widest = sel => [...document.querySelectorAll(sel)].map(box)
    .sort((a, b) => b.content - a.content)[0] || null;
  return {viewport: innerWidth, document: document.documentElement.scrollWidth, column: Math.round(colW),
          height: document.documentElement.scrollHeight, table: widest('main table'),
          chart: widest('.bb-chart')};
})()"""
CHARTS_DONE = "[...document.querySelectorAll('.bb-chart')].every(e => e.dataset.rendered || e.dataset.error)"


def main(argv: list[str]) -> int:
    site, out = Path(argv[0]).resolve(), Path(argv[1])
    pages = argv[2:] or ["speculative.html", "draftself.html"]
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("page_shots: no chromium on PATH", file=sys.stderr)
        return 2
    with (
        tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile,
        Browser(chromium, Path(profile)) as browser,
    ):
        page = browser.page()
        for name in pages:
            for width in WIDTHS:
                page.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=width,
                    height=900,
                    deviceScaleFactor=1,
                    mobile=False,
                )
                page.goto((site / name).as_uri())
                try:
                    page.wait_for(CHARTS_DONE, 20)
                except Exception:  # a chart that never draws keeps its SVG fallback: measure anyway
                    pass
                facts = page.evaluate(MEASURE)
                # JPEG: a whole page as PNG is 1-2 MB; quality 60 keeps text legible at a third of that
                path: Path | None = out / f"{Path(name).stem.replace('/', '-')}-{width}.jpg"
                try:
                    shot = page.call(
                        "Page.captureScreenshot", format="jpeg", quality=60, captureBeyondViewport=True
                    )
                    path.write_bytes(base64.b64decode(shot["data"]))
                except CDPError:  # "Page is too large" (over ~16,000 px of height): measure only
                    path = None
                print(
                    json.dumps({"page": name, "width": width, "image": str(path) if path else None, **facts})
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
