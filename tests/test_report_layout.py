"""The report's layout rules (issue 22 items 1-3), without a browser: figures of bounded width,
parts that do not apply left out with a sentence, no sentence about a degenerate comparison,
long tables shortened with the whole table folded and the CSV linked, numbers right-aligned,
a summary of findings with intervals; and the kit's pieces on hand-made tables."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest
from PIL import Image

import whistlab
from page import check_links
from reports import build_report
from reports.kit.cells import num, text
from reports.kit.figures import DPI, MAX_WIDTH, grid
from reports.kit.tables import LIMIT, View, clearest, shown

ONE = {"name": "one", "rules": "spades.standard", "strategy": "seed", "games": 40, "seed": 3,
       "block_size": 20}


@pytest.fixture(scope="module")
def one_variant(tmp_path_factory):
    folder = whistlab.run(ONE, tmp_path_factory.mktemp("one") / "r", n_jobs=1)
    return folder, build_report(folder, folder / "report")


def _text(index) -> str:
    """The page's text as a reader sees it (no style sheet, no tags)."""
    body = re.sub(r"<style>.*?</style>", " ", index.read_text(encoding="utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def test_a_run_of_one_variant_says_what_it_leaves_out(one_variant):
    folder, index = one_variant
    page = _text(index)
    assert "The run has one variant (spades.standard): there is no other variant" in page
    assert "so there is no head-to-head comparison" in page
    assert "The bag rules ranked" not in page and "Variants on the same deals" not in page
    assert not re.search(r": \.", page)  # "...(all line-ups): ."
    assert not re.search(r"(\d+\.\d+) to \1 hands", page)  # "Games last 8.9 to 8.9 hands"
    figures = {p.stem for p in (folder / "report" / "figures").glob("*.png")}
    assert not figures & {"bag_rules", "bags", "outcomes", "paired_variants", "head_to_head"}
    summary = index.read_text(encoding="utf-8").split('id="summary"')[1].split("</section>")[0]
    items = re.findall(r"<li>(.*?)</li>", summary, re.S)
    assert len(items) >= 3 and all(re.search(r"\[[-+]?\d", i) for i in items)  # intervals


def test_every_figure_fits_the_page(one_variant, tmp_path):
    folder, _ = one_variant
    for png in (folder / "report" / "figures").glob("*.png"):
        width, height = Image.open(png).size
        assert width <= MAX_WIDTH * DPI and height >= 180, (png.name, width, height)
    fig, axes = grid(9, 3.6, 3)  # wraps: three a row, never wider than the page
    assert len(axes) == 9 and fig.get_figwidth() <= MAX_WIDTH and fig.get_figheight() == 9


def test_links_and_alignment(one_variant):
    _, index = one_variant
    page = check_links(index)
    assert page.h2[0] == "Summary" and "nav" in page.tags
    body = index.read_text(encoding="utf-8")
    assert '<meta name="viewport"' in body
    assert re.search(r'<th class="r">bids</th>', body)  # a column of numbers, right-aligned
    assert re.search(r"<td class=\"r\">[\d,]+</td>", body)


def test_a_long_table_is_shortened_and_folded():
    frame = pl.DataFrame({"variant": [f"v{i}" for i in range(30)], "lineup": ["seed"] * 30,
                          "diff": [float(i % 7 - 3) for i in range(30)],
                          "diff_lo": [i % 7 - 4.0 for i in range(30)],
                          "diff_hi": [i % 7 - 2.0 for i in range(30)]})
    view = View("s", "t", "A long table", [("variant", text("variant")),
                                           ("line-up", text("lineup")),
                                           ("difference", num("diff", 1, sign=True))],
                top=clearest)
    table = shown(view, {"t": frame}, "s")
    assert len(table.rows) == 30 and len(table.head) == LIMIT
    assert all(abs(float(r[1].split(" ")[0])) == 3 for r in table.head[:4])  # clearest first
    assert table.constant == [("line-up", "seed")] and len(table.columns) == 2
    assert table.columns[1].numeric and not table.columns[0].numeric
    assert table.csv == "tables/t.csv"
    short = shown(View("s", "t", "short", view.columns), {"t": frame.head(5)}, "s")
    assert short.head is None and len(short.rows) == 5
    assert shown(view, {}, "s") is None
