"""`build_report`: a results folder's report, read from its Parquet tables and manifest alone.

    report/
      index.html      self-contained: inline CSS, every figure embedded as a base64 PNG
      summary.md      the key tables and findings in Markdown
      figures/*.png   the figures
      tables/*.csv    every table, full precision, intervals in *_lo / *_hi columns

The run's game decides the sections: Spades (nil, sandbags, variants and strategies) or
Portland whist (the honours study: `reports.portland`, `portland_figures`, `portland_render`).

Memory stays bounded however many hands the run holds: statistics of one cell come from lazy
polars scans aggregated before collecting (streaming engine), and pairings of cells read one
block of every cell at a time (see `reports.data`).
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import UserError

__all__ = ["TABLES", "build_report"]

TABLES = ("nil_rates", "nil_by_hand", "nil_partner_contract", "bags_per_hand", "bags_per_game",
          "points", "games", "paired_variants", "head_to_head", "points_distribution")
PORTLAND_TABLES = ("honours_distribution", "honours_counted", "variance_decomposition",
                   "game_length", "honours_paired", "dealer_advantage", "first_dealer")


def _prepare(out: Path, figures) -> None:
    """Create the report folders; remove the files of an earlier report that this one may not
    write again (e.g. games tables after a hands run, or another game's report), and nothing
    else."""
    if out.exists() and not out.is_dir():
        raise UserError("is a file; give a folder for the report", source=str(out))
    for sub, names in (("tables", [f"{t}.csv" for t in (*TABLES, *PORTLAND_TABLES)]),
                       ("figures", [f"{f}.png" for f in figures])):
        folder = out / sub
        if folder.exists() and not folder.is_dir():
            raise UserError("is a file; the report needs this path for a folder",
                            source=str(folder))
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            (folder / name).unlink(missing_ok=True)


def build_report(results: str | Path, out: str | Path) -> Path:
    """Write the report of the results folder ``results`` into ``out``; returns the path of
    ``index.html``. Raises `sim.errors.UserError` when ``results`` is not a results folder."""
    # imported here, not at the top: `import reports` (which `whistlab run` does for its
    # summary) should not pay for scipy and matplotlib
    from .bags import GameBags, bags_section
    from .compare import HeadToHead, PairedVariants, compare_tables
    from .data import block_pass, open_results
    from .figures import FIGURES, make_figures
    from .nil import nil_section
    from .portland_figures import PORTLAND_FIGURES
    from .render import render_html, render_markdown

    res = open_results(results)
    game = res.game
    if game not in ("spades", "portland"):
        raise UserError(f"the report for {game} is not implemented yet (its run summary is "
                        "printed by `whistlab run`)", source=str(results))
    out = Path(out)
    _prepare(out, [*FIGURES, *PORTLAND_FIGURES])
    if game == "portland":
        return _portland(res, out)

    nil = nil_section(res)
    game_bags = GameBags(res) if res.games_mode else None
    paired = PairedVariants(res) if len(res.variants) > 1 else None
    h2h = HeadToHead(res) if res.twins else None
    block_pass(res, [c for c in (game_bags, paired, h2h) if c is not None])
    bags = bags_section(res, game_bags)
    compare = compare_tables(res, paired, h2h)
    sections = {"nil": nil, "bags": bags, "compare": compare}

    tables = {name: frame for s in sections.values() for name, frame in s["tables"].items()}
    for name, frame in tables.items():
        frame.write_csv(out / "tables" / f"{name}.csv")
    figures = make_figures(res, tables, out / "figures")
    (out / "summary.md").write_text(render_markdown(res, sections, tables, figures),
                                    encoding="utf-8")
    index = out / "index.html"
    index.write_text(render_html(res, sections, tables, figures), encoding="utf-8")
    return index


def _portland(res, out: Path) -> Path:
    """The Portland whist report (`reports.portland`): the honours study."""
    from .figures import make_figures
    from .portland import portland_report
    from .portland_figures import PORTLAND_FIGURES
    from .render import render_html, render_markdown

    report = portland_report(res)
    tables = report["tables"]
    sections = {key: {"findings": found} for key, found in report["findings"].items()}
    sections.setdefault("cells", {"findings": []})
    for name, frame in tables.items():
        frame.write_csv(out / "tables" / f"{name}.csv")
    figures = make_figures(res, tables, out / "figures", PORTLAND_FIGURES)
    (out / "summary.md").write_text(render_markdown(res, sections, tables, figures),
                                    encoding="utf-8")
    index = out / "index.html"
    index.write_text(render_html(res, sections, tables, figures), encoding="utf-8")
    return index
