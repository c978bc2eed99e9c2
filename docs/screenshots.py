"""The README's screenshots of each study's report (docs/img/report-*.png): runs the shipped
experiments at a modest size, builds their reports and takes each page's first section (and the
Spades report's first hand diagram, docs/img/report-hand.png) in headless Chromium at 1,280
pixels, as tests/test_report_browser.py sees it (tests/browser.py: Debian's chromium through
Playwright). The PNGs are reduced to 128 colours to stay small.

    python docs/screenshots.py [--work DIR]      # about two minutes on two cores
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import WIDTH, browser, why_no_browser  # noqa: E402

import whistlab  # noqa: E402
from reports import build_report  # noqa: E402

SHOTS = {  # file -> (shipped experiment, overrides)
    "report-spades.png": ("default", {"games": 2000}),
    "report-portland.png": ("honours", {"games": 2000, "block_size": 1000}),
    "report-norwegian.png": ("norwegian", {"games": 300, "block_size": 150}),
}
HEIGHT = 1400
HANDS = {"report-spades.png": "report-hand.png"}  # also the report's first hand diagram


def shoot_hand(launched, index: Path, png: Path) -> None:
    """The first hand diagram of the page's Hands section, at ``WIDTH``."""
    page = launched.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    page.goto(index.resolve().as_uri(), wait_until="load")
    page.query_selector("#hands figure.hd").screenshot(path=str(png))
    page.close()


def shoot(launched, index: Path, png: Path) -> None:
    """The page from its first study section down, ``HEIGHT`` pixels, at ``WIDTH``."""
    page = launched.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    page.goto(index.resolve().as_uri(), wait_until="load")
    top = page.evaluate("() => document.querySelector('#run').nextElementSibling"
                        ".getBoundingClientRect().top + window.scrollY")
    page.screenshot(path=str(png), full_page=True,
                    clip={"x": 0, "y": max(0, top - 16), "width": WIDTH, "height": HEIGHT})
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="folder for the runs (default: a temporary one)")
    args = parser.parse_args()
    why = why_no_browser()
    if why:
        raise SystemExit(f"screenshots: {why}")
    work = args.work or Path(tempfile.mkdtemp(prefix="whistlab-shots-"))
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    with browser() as launched:
        for name, (experiment, overrides) in SHOTS.items():
            folder = whistlab.run(ROOT / "experiments" / f"{experiment}.toml",
                                  work / experiment, n_jobs=2, **overrides)
            index = build_report(folder, folder / "report")
            shoot(launched, index, out / name)
            shots = [name]
            if name in HANDS:
                shoot_hand(launched, index, out / HANDS[name])
                shots.append(HANDS[name])
            for shot in shots:
                Image.open(out / shot).convert("RGB").quantize(128).save(out / shot,
                                                                         optimize=True)
                print(out / shot, f"{(out / shot).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
