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

The report reads the folder under its shared lock (`sim.folder`: refused while ``whistlab run``
writes it) after verifying every block file against the folder's journal, and is built in a
temporary folder beside ``out`` (``.report.tmp<pid>``, removed on failure and, after a kill, by
the next report). Its files are then renamed into ``out`` one by one, ``index.html`` (which is
self-contained) last: a reader sees each file whole, the old one or the new one. Files of an
earlier report that this one does not write again are removed; any other file in ``out`` is
left alone.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sim.errors import UserError
from sim.files import WriteError, os_reason, remove_stale, temporary, writing
from sim.folder import lock_folder

from .bags import bag_consumers, bag_units, bags_section
from .compare import HeadToHead, PairedVariants, compare_tables
from .data import block_pass, check_blocks, open_results
from .figures import FIGURES, make_figures
from .nil import nil_section
from .norwegian import norwegian_report
from .norwegian_figures import NORWEGIAN_FIGURES
from .portland import portland_report
from .portland_figures import PORTLAND_FIGURES
from .render import render_html, render_markdown
from .yardstick import TABLES as YARDSTICK_TABLES
from .yardstick import add_yardstick_section

__all__ = ["TABLES", "build_report"]

TABLES = ("nil_rates", "nil_by_hand", "nil_partner_contract", "bags_per_hand", "bags_per_game",
          "bag_ranking", "bag_cost", "sandbagging", "bag_game_length", "points", "games",
          "paired_variants", "head_to_head", "points_distribution")
PORTLAND_TABLES = ("honours_distribution", "honours_counted", "variance_decomposition",
                   "game_length", "honours_paired", "dealer_advantage", "first_dealer")
NORWEGIAN_TABLES = ("declarations", "contracts", "scoring_modes", "game_length", "game_outcomes",
                    "norwegian_paired", "points")


def _known(figures) -> set[Path]:
    """Every file a report may write, relative to its folder (of any game, with a yardstick)."""

    tables = (*TABLES, *PORTLAND_TABLES, *NORWEGIAN_TABLES, *YARDSTICK_TABLES)
    return ({Path("index.html"), Path("summary.md")}
            | {Path("tables") / f"{t}.csv" for t in tables}
            | {Path("figures") / f"{f}.png" for f in figures})


def _check_out(out: Path) -> None:
    """Refuse, before any work, a report folder that is a file or holds a file where the
    report needs a folder."""
    if out.exists() and not out.is_dir():
        raise UserError("is a file; give a folder for the report", source=str(out))
    for sub in ("tables", "figures"):
        if (out / sub).exists() and not (out / sub).is_dir():
            raise UserError("is a file; the report needs this path for a folder",
                            source=str(out / sub))


def _publish(tmp: Path, out: Path, known: set[Path]) -> None:
    """Rename the files of the report built in ``tmp`` into ``out`` one by one (tables and
    figures, then summary.md, then index.html), then remove the files of an earlier report
    that this one did not write again (e.g. games tables after a hands run, or another game's
    report), and nothing else."""
    new = sorted((p.relative_to(tmp) for p in tmp.rglob("*") if p.is_file()),
                 key=lambda r: (r.name == "index.html", r.name == "summary.md", str(r)))
    for sub in ("tables", "figures"):
        with writing(out / sub):
            (out / sub).mkdir(parents=True, exist_ok=True)
    for rel in new:
        with writing(out / rel):
            os.replace(tmp / rel, out / rel)
    for rel in known - set(new):
        with writing(out / rel):
            (out / rel).unlink(missing_ok=True)
    shutil.rmtree(tmp, ignore_errors=True)


def build_report(results: str | Path, out: str | Path) -> Path:
    """Write the report of the results folder ``results`` into ``out``; returns the path of
    ``index.html``. Raises `sim.errors.UserError` when ``results`` is not a results folder, is
    being written, or holds a block file that is damaged or foreign (see the module's
    docstring); warns (`sim.folder.FolderWarning`) about blocks of mixed code."""


    res = open_results(results)
    if res.game not in ("spades", "portland", "norwegian"):
        raise UserError(f"the report for {res.game} is not implemented yet (its run summary is "
                        "printed by `whistlab run`)", source=str(results))
    out = Path(out)
    _check_out(out)
    with lock_folder(res.path, "report", shared=True):
        res = check_blocks(res)
        tmp = temporary(out)
        try:
            with writing(out):
                out.parent.mkdir(parents=True, exist_ok=True)
                remove_stale(out.parent.glob(f".{out.name}.tmp*"))  # of killed reports
                (tmp / "tables").mkdir(parents=True)
                (tmp / "figures").mkdir()
            _build(res, tmp)
            _publish(tmp, out, _known([*FIGURES, *PORTLAND_FIGURES, *NORWEGIAN_FIGURES]))
        except BaseException as err:
            shutil.rmtree(tmp, ignore_errors=True)
            if isinstance(err, WriteError) and tmp in err.path.parents:  # name it in ``out``
                raise WriteError(out / err.path.relative_to(tmp), err.reason) from None
            if isinstance(err, OSError):
                raise WriteError(out, os_reason(err)) from None
            raise
    return out / "index.html"


def _build(res, out: Path) -> Path:
    """Write the report of ``res`` into the (new, empty) folder ``out``."""
    if res.game == "portland":
        return _portland(res, out)
    if res.game == "norwegian":
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
    _write_tables(tables, out)
    figures = make_figures(res, tables, out / "figures")
    _write_pages(res, sections, tables, figures, out)
    _yardstick(res, out)
    return out / "index.html"


def _write_tables(tables: dict, out: Path) -> None:
    for name, frame in tables.items():
        path = out / "tables" / f"{name}.csv"
        with writing(path):
            frame.write_csv(path)


def _write_pages(res, sections: dict, tables: dict, figures: dict, out: Path) -> None:
    """summary.md and index.html."""

    for name, render in (("summary.md", render_markdown), ("index.html", render_html)):
        with writing(out / name):
            (out / name).write_text(render(res, sections, tables, figures), encoding="utf-8")


def _portland(res, out: Path) -> Path:
    """The Portland whist report (`reports.portland`): the honours study."""

    return _study(res, out, portland_report(res), PORTLAND_FIGURES)


def _norwegian(res, out: Path) -> Path:
    """The Norwegian whist report (`reports.norwegian`): declarations, contracts, scoring
    modes and game length."""

    return _study(res, out, norwegian_report(res), NORWEGIAN_FIGURES)


def _study(res, out: Path, report: dict, registry: dict) -> Path:
    """Write a game's study: ``report`` (``{"tables": ..., "findings": {section: [...]}}``),
    its tables, the figures of ``registry`` and the two pages laid out by `render.layout`."""

    tables = report["tables"]
    sections = {key: {"findings": found} for key, found in report["findings"].items()}
    sections.setdefault("cells", {"findings": []})
    _write_tables(tables, out)
    figures = make_figures(res, tables, out / "figures", registry)
    _write_pages(res, sections, tables, figures, out)
    _yardstick(res, out)
    return out / "index.html"


def _yardstick(res, out: Path) -> None:
    """The double-dummy section (`reports.yardstick`) after the game's sections, when the run
    has a yardstick (``whistlab yardstick``); none otherwise."""

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
