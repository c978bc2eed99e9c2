"""`build_report`: a results folder's report, read from its Parquet tables and manifest alone.

    report/
      index.html      self-contained: inline CSS, every figure embedded as a base64 PNG
      summary.md      the key tables and findings in Markdown
      figures/*.png   the figures
      tables/*.csv    every table, full precision, intervals in *_lo / *_hi columns

The run's game decides the sections: Spades (nil, sandbags, variants and strategies), Portland
whist (the honours study: `reports.portland`, `portland_figures`, `portland_render`) or Norwegian
whist (declarations, contracts, scoring modes, game length: `reports.norwegian`,
`norwegian_figures`, `norwegian_render`). A run with a double-dummy yardstick (``whistlab
yardstick``) also gets its section (`reports.yardstick`).

Memory stays bounded however many hands the run holds: statistics of one cell come from lazy
polars scans aggregated before collecting (streaming engine), and pairings of cells read one
block of every cell at a time (see `reports.data`).
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import UserError

__all__ = ["TABLES", "build_report"]

TABLES = ("nil_rates", "nil_by_hand", "nil_partner_contract", "bags_per_hand", "bags_per_game",
          "bag_ranking", "bag_cost", "sandbagging", "bag_game_length", "points", "games",
          "paired_variants", "head_to_head", "points_distribution")
PORTLAND_TABLES = ("honours_distribution", "honours_counted", "variance_decomposition",
                   "game_length", "honours_paired", "dealer_advantage", "first_dealer")
NORWEGIAN_TABLES = ("declarations", "contracts", "scoring_modes", "game_length", "game_outcomes",
                    "norwegian_paired", "points")


def _prepare(out: Path, figures) -> None:
    """Create the report folders; remove the files of an earlier report that this one may not
    write again (e.g. games tables after a hands run, or another game's report), and nothing
    else."""
    if out.exists() and not out.is_dir():
        raise UserError("is a file; give a folder for the report", source=str(out))
    for sub, names in (("tables", [f"{t}.csv" for t in (*TABLES, *PORTLAND_TABLES,
                                                             *NORWEGIAN_TABLES)]),
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
    from .bags import bag_consumers, bag_units, bags_section
    from .compare import HeadToHead, PairedVariants, compare_tables
    from .data import block_pass, open_results
    from .figures import FIGURES, make_figures
    from .nil import nil_section
    from .norwegian_figures import NORWEGIAN_FIGURES
    from .portland_figures import PORTLAND_FIGURES
    from .render import render_html, render_markdown

    res = open_results(results)
    game = res.game
    if game not in ("spades", "portland", "norwegian"):
        raise UserError(f"the report for {game} is not implemented yet (its run summary is "
                        "printed by `whistlab run`)", source=str(results))
    out = Path(out)
    _prepare(out, [*FIGURES, *PORTLAND_FIGURES, *NORWEGIAN_FIGURES])
    if game == "portland":
        return _portland(res, out)
    if game == "norwegian":
        return _norwegian(res, out)

    res = _four_in_partnerships(res)
    nil = nil_section(res)
    paired = PairedVariants(res) if len(res.variants) > 1 else None
    h2h = HeadToHead(res) if res.twins else None
    block_pass(res, [c for c in (paired, h2h) if c is not None])
    bag_accs = bag_consumers(res)
    block_pass(res, list(bag_accs.values()), bag_units)  # the bag section's own block reads
    bags = bags_section(res, bag_accs)
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
    _yardstick(res, out)
    return index


def _portland(res, out: Path) -> Path:
    """The Portland whist report (`reports.portland`): the honours study."""
    from .portland import portland_report
    from .portland_figures import PORTLAND_FIGURES

    return _study(res, out, portland_report(res), PORTLAND_FIGURES)


def _norwegian(res, out: Path) -> Path:
    """The Norwegian whist report (`reports.norwegian`): declarations, contracts, scoring
    modes and game length."""
    from .norwegian import norwegian_report
    from .norwegian_figures import NORWEGIAN_FIGURES

    return _study(res, out, norwegian_report(res), NORWEGIAN_FIGURES)


def _study(res, out: Path, report: dict, registry: dict) -> Path:
    """Write a game's study: ``report`` (``{"tables": ..., "findings": {section: [...]}}``),
    its tables, the figures of ``registry`` and the two pages laid out by `render.layout`."""
    from .figures import make_figures
    from .render import render_html, render_markdown

    tables = report["tables"]
    sections = {key: {"findings": found} for key, found in report["findings"].items()}
    sections.setdefault("cells", {"findings": []})
    for name, frame in tables.items():
        frame.write_csv(out / "tables" / f"{name}.csv")
    figures = make_figures(res, tables, out / "figures", registry)
    (out / "summary.md").write_text(render_markdown(res, sections, tables, figures),
                                    encoding="utf-8")
    index = out / "index.html"
    index.write_text(render_html(res, sections, tables, figures), encoding="utf-8")
    _yardstick(res, out)
    return index


def _yardstick(res, out: Path) -> None:
    """The double-dummy section (`reports.yardstick`) after the game's sections, when the run
    has a yardstick (``whistlab yardstick``); none otherwise."""
    from .yardstick import add_yardstick_section

    add_yardstick_section(res, out)


def _four_in_partnerships(res):
    """The Spades report's sections are written for four players in two partnerships: cells of
    other tables (RULES.md §4.7) are left out, and the report says which."""
    def usual(cell):
        rules = cell.get("rules", {})
        return rules.get("players", 4) == 4 and rules.get("partnerships", True)

    keep = [c for c in res.cells if usual(c)]
    if not keep:
        raise UserError("the Spades report covers four players in partnerships; this run has "
                        "none (its summary is printed by `whistlab run`)", source=str(res.path))
    return res.only(keep, "other player counts or cutthroat, which the report's sections do not "
                          "cover yet; `whistlab run` prints their summary")
