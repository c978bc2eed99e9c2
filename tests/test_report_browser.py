"""Each study's report in a real browser (issue 22 item 7): headless Chromium at 1,280 pixels
(`browser`) shows no horizontal overflow, every figure at least 180 pixels tall, a table of
contents whose every link resolves, tables and hand diagrams within the body, and no console
error — for a default-like Spades run, a Spades run of many cells (the bag rules), Spades at
every table of RULES.md §4.7 (experiments/tables.toml), Portland's honours and Norwegian whist.

Skipped, saying why, only where no browser can be had (no Playwright, no Chromium); under CI
(``CI`` set, as `.ci/run` runs) a missing browser fails instead: .ci/run installs it."""

from __future__ import annotations

import os

import pytest

import whistlab
from browser import browser, measure, why_no_browser
from reports import build_report
from sim.inputs import shipped

MIN_HEIGHT = 180
RUNS = {
    "spades_default": ({"name": "default", "rules": "spades.standard", "strategy": "seed",
                        "games": 60, "seed": 1, "block_size": 30}, {}),
    "spades_bag_rules": ("bags", {"games": 8, "block_size": 8}),
    "spades_tables": ("tables", {"games": 8, "block_size": 8}),  # every table (issue 22 item 5)
    "portland_honours": ("honours", {"games": 60, "block_size": 60}),
    "norwegian": ("norwegian", {"games": 12, "block_size": 12}),
}


@pytest.fixture(scope="module")
def chromium():
    why = why_no_browser()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must check the reports in a browser, but {why}")
        pytest.skip(why)
    with browser() as launched:
        yield launched


@pytest.fixture(scope="module", params=list(RUNS))
def report(request, tmp_path_factory):
    experiment, overrides = RUNS[request.param]
    if isinstance(experiment, str):
        experiment = shipped("experiments") / f"{experiment}.toml"
    folder = whistlab.run(experiment, tmp_path_factory.mktemp(request.param) / "r", n_jobs=1,
                          **overrides)
    return request.param, build_report(folder, folder / "report")


def test_the_report_holds_at_1280_pixels(report, chromium):
    name, index = report
    seen = measure(chromium, index)
    assert seen["scrollWidth"] <= seen["clientWidth"], (name, seen["scrollWidth"])
    assert seen["figures"], name
    for figure in seen["figures"]:
        assert figure["loaded"], (name, figure["alt"])
        assert figure["height"] >= MIN_HEIGHT, (name, figure)
        assert figure["width"] <= seen["clientWidth"], (name, figure)
    assert seen["hands"], name  # the Hands section's diagrams (issue 22 item 4)
    assert all(width <= seen["clientWidth"] for width in seen["hands"]), (name, seen["hands"])
    assert len(seen["contents"]) >= 5 and not seen["unresolved"], (name, seen["unresolved"])
    assert not seen["wideTables"], (name, seen["wideTables"])
    assert not seen["errors"], (name, seen["errors"])


def test_the_checks_can_fail(tmp_path, chromium):
    """The same measures on a page that breaks each rule: a strip of a figure, a wide table,
    a contents link to nothing and a console error."""
    page = tmp_path / "index.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="max-width:1200px">'
        '<nav><a href="#nowhere">x</a></nav>'
        '<img alt="strip" style="width:1160px;height:110px" src="data:image/png;base64,'
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5E'
        'rkJggg==">'
        '<table><tr>' + "<td>wide cell of a table</td>" * 90 + '</tr></table>'
        '<script>console.error("broken")</script></body></html>', encoding="utf-8")
    seen = measure(chromium, page)
    assert seen["scrollWidth"] > seen["clientWidth"]
    assert seen["figures"][0]["height"] < MIN_HEIGHT
    assert seen["unresolved"] == ["#nowhere"]
    assert seen["wideTables"]
    assert seen["errors"] == ["broken"]
