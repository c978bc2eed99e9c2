"""`build_report`: a results folder's report, read from its Parquet tables and manifest (and, for
the hands it draws, the run's sample of hand records: `reports.hands`).

    report/
      index.html      self-contained: inline CSS, every figure embedded as a base64 PNG
      summary.md      the key tables and findings in Markdown
      figures/*.png   the figures
      tables/*.csv    every table, full precision, intervals in *_lo / *_hi columns

The run's game decides the study (`reports.studies`): Spades (nil, sandbags, variants and
strategies; every table of RULES.md §4.7 by seat and side), Portland whist (the honours study)
or Norwegian whist (declarations, contracts, scoring modes, game length). Each computes its
tables and findings and lays them out with the report kit (`reports.kit`: the page's Jinja2
templates, figure and table helpers). A run with a
double-dummy yardstick (``whistlab yardstick``) also gets its section (`reports.yardstick`).

Memory stays bounded however many hands the run holds: statistics of one cell come from lazy
polars scans aggregated before collecting (streaming engine), and pairings of cells read one
block of every cell at a time (see `reports.data`).

The report reads the folder under its shared lock (`sim.folder`: refused while ``whistlab run``
writes it) after verifying every block file against the folder's journal, and is built in a
temporary folder beside ``out`` (``.report.tmp<pid>``, removed on failure and, after a kill, by
the next report; a refused or failed report leaves no folder behind, not even the folders it
made for ``out``'s parent). Its files are then renamed into ``out`` one by one, ``index.html`` (which is
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

from .data import check_blocks, open_results
from .kit.figures import make_figures
from .kit.page import render_html, render_markdown
from .kit.study import page
from .studies import STUDIES
from .yardstick import TABLES as YARDSTICK_TABLES
from .yardstick import yardstick_page

__all__ = ["build_report"]

OLD_FIGURES = ("nil_spades", "nil_features")  # figures of earlier versions of the report


def _known() -> set[Path]:
    """Every file a report may write, relative to its folder (of any game, with a yardstick)."""
    tables = {t for s in STUDIES.values() for t in s.tables} | set(YARDSTICK_TABLES)
    figures = {f for s in STUDIES.values() for f in s.figures} | set(OLD_FIGURES)
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


def _missing(folder: Path) -> list[Path]:
    """The folders of ``folder``'s path that do not exist yet, deepest first."""
    out = []
    for p in (folder, *folder.parents):
        if p.exists():
            break
        out.append(p)
    return out


def _remove_empty(folders: list[Path]) -> None:
    """Remove ``folders`` (deepest first) that are still empty: a refused report leaves no
    folder behind."""
    for p in folders:
        try:
            p.rmdir()
        except OSError:  # not empty (something else wrote there), or already gone
            return


def build_report(results: str | Path, out: str | Path) -> Path:
    """Write the report of the results folder ``results`` into ``out``; returns the path of
    ``index.html``. Raises `sim.errors.UserError` when ``results`` is not a results folder, is
    being written, or holds a block file that is damaged or foreign (see the module's
    docstring); warns (`sim.folder.FolderWarning`) about blocks of mixed code."""


    res = open_results(results)
    if res.game not in STUDIES:
        raise UserError(f"the report for {res.game} is not implemented yet (its run summary is "
                        "printed by `whistlab run`)", source=str(results))
    out = Path(out)
    _check_out(out)
    with lock_folder(res.path, "report", shared=True):
        res = check_blocks(res)
        tmp = temporary(out)
        made = _missing(out.parent)  # folders this report makes, removed again if it fails
        try:
            with writing(out):
                out.parent.mkdir(parents=True, exist_ok=True)
                remove_stale(out.parent.glob(f".{out.name}.tmp*"))  # of killed reports
                (tmp / "tables").mkdir(parents=True)
                (tmp / "figures").mkdir()
            _build(res, tmp)
            _publish(tmp, out, _known())
        except BaseException as err:
            shutil.rmtree(tmp, ignore_errors=True)
            _remove_empty(made)
            if isinstance(err, WriteError) and tmp in err.path.parents:  # name it in ``out``
                raise WriteError(out / err.path.relative_to(tmp), err.reason) from None
            if isinstance(err, OSError):
                raise WriteError(out, os_reason(err)) from None
            raise
    return out / "index.html"


def _build(res, out: Path) -> Path:
    """Write the report of ``res`` into the (new, empty) folder ``out``: its study's tables,
    figures and pages, with the double-dummy yardstick's section where the run has one."""
    study = STUDIES[res.game]
    computed = study.compute(res)
    lay = study.layout(computed)
    more = yardstick_page(computed.res)
    tables = {**computed.tables, **(more.tables if more else {})}
    for name, frame in tables.items():
        path = out / "tables" / f"{name}.csv"
        with writing(path):
            frame.write_csv(path)
    figures = make_figures(computed.res, computed.tables, out / "figures", lay.figures)
    sheet = page(computed, lay, figures, [more.section] if more else [])
    for name, render in (("summary.md", render_markdown), ("index.html", render_html)):
        with writing(out / name):
            (out / name).write_text(render(sheet), encoding="utf-8")
    return out / "index.html"
