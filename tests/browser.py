"""A report page in a real browser: headless Chromium, the system's (Debian's ``chromium``,
which ``.ci/run`` installs), driven by Playwright's Python package (`pip install -e
'.[test]'`); Playwright's own browser downloads are not used.

`browser()` starts it (or says why it cannot: no Playwright, no Chromium); `measure` reads
what a person would see of a page at a window's width: its width against the window's, the
figures' displayed sizes, the table of contents' links, the tables' widths, the console's
errors."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

__all__ = ["WIDTH", "browser", "chromium", "measure", "why_no_browser"]

WIDTH = 1280
CANDIDATES = ("chromium", "chromium-browser", "google-chrome")

MEASURE = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const doc = document.documentElement;
  const box = e => e.getBoundingClientRect();
  return {
    scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth,
    figures: [...document.images].map(i => ({alt: i.alt, width: box(i).width,
        height: box(i).height, loaded: i.complete && i.naturalWidth > 0})),
    contents: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href')),
    unresolved: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href'))
        .filter(h => !h.startsWith('#') || !document.getElementById(h.slice(1))),
    hands: [...document.querySelectorAll('figure.hd')].map(f => box(f).width),
    wideTables: [...document.querySelectorAll('table')]
        .filter(t => box(t).width > box(document.body).width)
        .map(t => (t.closest('section') || {}).id + ': ' + Math.round(box(t).width)),
  };
}"""


def chromium() -> str | None:
    """The system's Chromium (``WHISTLAB_CHROMIUM`` names another), None when there is none."""
    named = os.environ.get("WHISTLAB_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    return next((p for p in map(shutil.which, CANDIDATES) if p), None)


def why_no_browser() -> str | None:
    """Why no page can be opened here (None: it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if chromium() is None:
        return ("no Chromium on this machine (Debian: apt-get install chromium, which .ci/run "
                "does; or WHISTLAB_CHROMIUM=/path/to/chromium)")
    return None


@contextmanager
def browser():
    """A headless Chromium of the system, through Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        launched = play.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def measure(launched, index: Path, width: int = WIDTH, screenshot: Path | None = None,
            height: int = 900) -> dict:
    """What ``index`` shows in a window ``width`` pixels wide (every ``<details>`` opened),
    with the console's errors; a screenshot of its top ``height`` pixels first when asked."""
    page = launched.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(index.resolve().as_uri(), wait_until="load")
    if screenshot is not None:
        page.screenshot(path=str(screenshot))
    seen = page.evaluate(MEASURE)
    page.close()
    return seen | {"errors": errors}
