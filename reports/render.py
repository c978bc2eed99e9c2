"""The report's pages: ``index.html`` (self-contained: inline CSS, figures as base64 PNG) and
``summary.md``, both from the same table views (which rows, which columns, how formatted)."""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .data import Results
from .figures import FIGURES

__all__ = ["Layout", "View", "layout", "render_html", "render_markdown"]

ALL = "all"
SECTIONS = {
    "nil": "1. Nil",
    "bags": "2. Sandbags",
    "compare": "3. Variants and strategies",
}
INTROS = {
    "nil": "Nil and blind nil per seat-hand, double nil (both partners nil) per side-hand; "
           "made = the bidder (both bidders) took no trick. By the bidder's hand: spade length, "
           "highest spade, aces and kings, the partner's bid (before or after), bidding position "
           "(1st = left of the dealer). And the partner's contract: the side's made-contract rate "
           "when neither partner bid nil or one did.",
    "bags": "Bags, and what each variant's rules make them cost, on the same deals. Bags taken: the "
            "bags a side takes in a hand as the standard game counts them (tricks over a made "
            "contract, and a nil bidder's tricks), whatever the rules in force make them worth "
            "(bags_taken_<side>). Bag cost: what the bags scored, negated: −(overtricks + "
            "bag_penalty), e.g. about −1 a bag before a penalty in the standard game, +10 a bag under "
            "three_b. Contract cost: what overtricks cost through the contract score where a rule "
            "scores them there (exact: more than the bid is a set; double_over: twice the bid or more "
            "loses twice its value): 10 × bid − contract on a side-hand whose side took more than its "
            "bid, else 0. Cost per bag: (bag cost + contract cost) / bags taken, summed over the "
            "games; the rule with the highest cost per bag penalises sandbagging most. The sandbagger: "
            "a line-up's side-0 team that plays otherwise than its opponents (in experiments/bags.toml "
            "a seed player that never ducks to avoid bags) against them over both seatings of the same "
            "cards; its advantage is its side's points minus the other side's per hand, averaged over "
            "the two seatings (negative: what sandbagging costs as a strategy). Game length: hands per "
            "game, and the paired difference with the first variant on the same deals. Bags decided a "
            "game: the winner changes when each side's bag points of the whole game (overtricks + "
            "bag_penalty) are taken out of its final score (a tie does not count); this is a "
            "counterfactual on the same play: without the bags the players might have played otherwise "
            "and the game might have ended at another hand. Intervals are 95%: ratios of sums by the "
            "delta method with the game as cluster (its hands share the score and the bag count), "
            "shares Wilson, means and paired differences t.",
    "compare": "Points per hand, wins and game length per cell; each variant against the first "
               "on the same deals (paired differences, with the unpaired interval beside it to "
               "show what pairing gains); and the head-to-head advantage of a line-up's side-0 "
               "team over both seatings of the same deals.",
}
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1200px; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #1f77b4; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; }
th { background: #f2f5f9; text-align: left; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; border: 1px solid #eee; margin: .5em 0; }
.findings li { margin: .25em 0; }
.note { color: #555; font-size: 13px; }
.warn { background: #fff4e5; border: 1px solid #f0b35b; padding: .5em 1em; }
details { margin: .5em 0 1em; }
summary { cursor: pointer; color: #1f5f99; }
code { background: #f4f4f4; padding: 0 3px; }
"""


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(name: str, digits: int = 1, sign: bool = False) -> Callable[[dict], str]:
    """A share as a percentage (a difference of shares, ``sign``: in percentage points) with
    its interval; one more digit when the interval is under five units of the last digit."""
    def fmt(r):
        if _nan(r[name]):
            return "–"
        lo, hi = r.get(f"{name}_lo"), r.get(f"{name}_hi")
        narrow = lo is not None and not _nan(lo) and 100 * (hi - lo) < 5 * 10 ** -digits
        f = f"{{:{'+' if sign else ''}.{digits + narrow}f}}"
        out = f.format(100 * r[name]) + (" pp" if sign else "%")
        if lo is None or _nan(lo):
            return out
        return f"{out} [{f.format(100 * lo)}, {f.format(100 * hi)}]"
    return fmt


def by_metric(percent: Callable[[dict], str], number: Callable[[dict], str],
              shares: tuple[str, ...] = ("win", "win_0")) -> Callable[[dict], str]:
    """Shares (win rates) as percentages, other metrics as numbers."""
    return lambda r: percent(r) if r["metric"] in shares else number(r)


def num(name: str, digits: int = 2, lo: str | None = None, hi: str | None = None,
        sign: bool = False) -> Callable[[dict], str]:
    """A number with its interval (columns ``name_lo``/``name_hi`` unless given)."""
    lo, hi = lo or f"{name}_lo", hi or f"{name}_hi"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"

    def fmt(r):
        if _nan(r[name]):
            return "–"
        if lo not in r or _nan(r[lo]):
            return f.format(r[name])
        return f"{f.format(r[name])} [{f.format(r[lo])}, {f.format(r[hi])}]"
    return fmt


def interval(lo: str, hi: str, digits: int = 2, scale: float = 1.0,
             unit: str = "") -> Callable[[dict], str]:
    """An interval alone; signed, or as percentages (``unit="%"``, ``scale=100``)."""
    def fmt(r):
        if _nan(r[lo]):
            return "–"
        f = f"{{:{'' if unit else '+'}.{digits}f}}"
        return f"[{f.format(scale * r[lo])}, {f.format(scale * r[hi])}]{unit}"
    return fmt


def count(name: str) -> Callable[[dict], str]:
    return lambda r: "–" if _nan(r[name]) else f"{int(r[name]):,}"


def text(name: str) -> Callable[[dict], str]:
    return lambda r: "" if r[name] is None else str(r[name])


def cell(r: dict) -> str:
    return r["lineup"] + (" (swapped)" if r.get("swapped") else "")


@dataclass
class View:
    """Some rows and columns of a table, formatted."""

    section: str
    table: str
    title: str
    columns: list[tuple[str, Callable[[dict], str]]]
    rows: Callable[[pl.DataFrame], pl.DataFrame] = lambda f: f
    markdown: bool = True   # also in summary.md
    folded: bool = False    # in a <details> block in the HTML
    note: str = ""


def _bid(rates: pl.DataFrame) -> pl.DataFrame:
    """The nil rates of the kinds (nil, blind nil, double nil) bid at least once in the run."""
    return rates.filter(pl.col("bids").sum().over("kind") > 0)


def _views(res: Results) -> list[View]:
    unit = "game" if res.games_mode else "hand"
    rate = [("bid", pct("bid_rate", 2)), ("made", count("made")),
            ("success", pct("success_rate"))]
    views = [
        View("nil", "nil_rates", "Nil, blind nil and double nil by variant",
             [("kind", text("kind")), ("variant", text("variant")), ("seat-/side-hands",
                                                                    count("n")),
              ("bids", count("bids")), *rate],
             rows=lambda f: _bid(f).filter(lineup=ALL, strategy=ALL),
             note="n: seat-hands for nil and blind nil, side-hands for double nil. "
                  "Intervals: 95% Wilson. A kind never bid in the run is left out."),
        View("nil", "nil_rates", "By strategy (all line-ups)",
             [("kind", text("kind")), ("variant", text("variant")),
              ("strategy", text("strategy")), ("seat-/side-hands", count("n")),
              ("bids", count("bids")), *rate],
             rows=lambda f: _bid(f).filter(pl.col("lineup") == ALL, pl.col("strategy") != ALL)),
        View("nil", "nil_rates", "By line-up (all strategies of the line-up)",
             [("kind", text("kind")), ("variant", text("variant")), ("line-up", text("lineup")),
              ("seat-/side-hands", count("n")), ("bids", count("bids")), *rate],
             rows=lambda f: _bid(f).filter(pl.col("lineup") != ALL, pl.col("strategy") == ALL),
             markdown=False, folded=True),
        View("nil", "nil_partner_contract", "The partner's contract",
             [("variant", text("variant")), ("nil on the side", text("partner_nil")),
              ("side-hands with a contract", count("side_hands")), ("made", count("made")),
              ("contract made", pct("made_rate"))],
             rows=lambda f: f.filter(strategy=ALL),
             note="A side's contract is made when contract_&lt;side&gt; &gt; 0 and set when "
                  "&lt; 0; with one partner nil it is the other partner's bid alone."),
        View("nil", "nil_partner_contract", "The partner's contract, by the side's strategy",
             [("variant", text("variant")), ("strategy", text("strategy")),
              ("nil on the side", text("partner_nil")), ("side-hands", count("side_hands")),
              ("contract made", pct("made_rate"))],
             rows=lambda f: f.filter(pl.col("strategy") != ALL), markdown=False, folded=True),
    ]
    from .bag_render import bag_views  # here: bag_render builds on this module's views

    views += bag_views(res)
    views += [
        View("compare", "points", "Mean points per hand",
             [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
              ("strategy", text("strategy")), ("hands", count("hands")),
              ("points per hand", num("mean_points", 2))],
             note="95% t intervals" + (" (hands of one game are not independent: read "
                                       "them as indicative)" if res.games_mode else "") + "."),
    ]
    if res.games_mode:
        views.append(View(
            "compare", "games", "Wins and game length",
            [("variant", text("variant")), ("line-up", cell), ("side 0", text("strategy_0")),
             ("side 1", text("strategy_1")), ("games", count("games")),
             ("side 0 wins", pct("win_rate_0")), ("hands per game", num("n_hands", 2))]))
    main = "margin" if res.games_mode else "points_0"
    paired_cols = [("variant", text("variant")), ("vs", text("base")), ("line-up", cell),
                   ("metric", text("description")), (f"paired {unit}s", count("n")),
                   ("difference [paired 95%]",
                    by_metric(pct("diff", sign=True), num("diff", 3, sign=True))),
                   ("unpaired 95%", by_metric(interval("unpaired_lo", "unpaired_hi", 2, 100, " pp"),
                                              interval("unpaired_lo", "unpaired_hi", 3))),
                   ("unpaired / paired width", num("width_ratio", 1))]
    views += [
        View("compare", "paired_variants", "Variants on the same deals: "
             + ("final score margin (side 0 − side 1)" if res.games_mode
                else "points of side 0 per hand"),
             paired_cols, rows=lambda f: f.filter(metric=main),
             note=f"Each variant minus {res.variants[0]}, the same line-up and seating, "
                  f"paired on {' and '.join(res.key)}: paired 95% t interval of the mean "
                  "difference; the unpaired (Welch) interval treats the two cells as "
                  "independent samples."),
        View("compare", "paired_variants", "Other metrics on the same deals", paired_cols,
             rows=lambda f: f.filter(pl.col("metric") != main), markdown=False, folded=True),
        View("compare", "head_to_head", "Head to head over both seatings",
             [("line-up", text("lineup")), ("team (side 0)", text("strategy")),
              ("opponent", text("opponent")), ("variant", text("variant")),
              ("metric", text("description")), ("deals", count("n")),
              ("advantage [paired 95%]", by_metric(pct("advantage"),
                                                   num("advantage", 3, sign=True))),
              ("unpaired 95%", by_metric(interval("unpaired_lo", "unpaired_hi", 2, 100, "%"),
                                         interval("unpaired_lo", "unpaired_hi", 3))),
              ("unswapped", by_metric(pct("mean_unswapped"),
                                      num("mean_unswapped", 3, sign=True))),
              ("swapped", by_metric(pct("mean_swapped"), num("mean_swapped", 3, sign=True)))],
             note="Per deal (" + ", ".join(res.key) + ") the team's value averaged over its "
                  "two seatings; 'unswapped' and 'swapped': each seating alone. The unpaired "
                  "interval takes the two seatings as independent samples."),
    ]
    return views


def _rows(view: View, tables: dict) -> list[dict] | None:
    frame = tables.get(view.table)
    if frame is None:
        return None
    rows = view.rows(frame)
    return rows.to_dicts() if rows.height else None


def _html_table(view: View, rows: list[dict]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h, _ in view.columns)
    body = []
    for r in rows:
        cells = []
        for _, fmt in view.columns:
            value = fmt(r)
            numeric = value[:1].isdigit() or value[:1] in "+-–[" or value.endswith("%")
            cells.append(f'<td class="r">{html.escape(value)}</td>' if numeric
                         else f"<td>{html.escape(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>\n" + "\n".join(body) + "</table>"


def _md_table(view: View, rows: list[dict]) -> str:
    head = "| " + " | ".join(h for h, _ in view.columns) + " |"
    rule = "| " + " | ".join("---" for _ in view.columns) + " |"
    body = ["| " + " | ".join(fmt(r).replace("|", "/") for _, fmt in view.columns) + " |"
            for r in rows]
    return "\n".join([head, rule, *body])


def _feature_pivot(res: Results, tables: dict, feature: str) -> tuple[list[str], list[list]]:
    """Nil success by one hand feature: a row per value, a column per variant."""
    rows = tables["nil_by_hand"].filter(feature=feature, kind="nil", strategy=ALL)
    labels = rows.select("value", "label").unique().sort("value")
    header = ["value", *[v for v in res.variants if rows.filter(variant=v).height]]
    body = []
    for value, label in labels.iter_rows():
        line = [label]
        for v in header[1:]:
            r = rows.filter(variant=v, value=value)
            if r.height and r["bids"][0] > 0:
                d = r.row(0, named=True)
                line.append(f"{100 * d['success_rate']:.0f}% ({d['bids']:,})")
            else:
                line.append("–")
        body.append(line)
    return header, body


def _run_info(res: Results, tables: dict) -> list[tuple[str, str]]:
    exp = res.experiment
    points = tables["points"].filter(side=0)
    info = [("experiment", exp["name"]),
            ("mode", "whole games" if res.games_mode else "independent hands"),
            (f"{res.mode} per cell", f"{exp['count']:,}"),
            ("cells", f"{len(res.cells)} ({len(res.variants)} variants × "
                      f"{len(res.lineups)} line-ups, swapped seatings counted)"),
            ("hands read", f"{points['hands'].sum():,}")]
    if "games" in tables:
        info.append(("games read", f"{tables['games']['games'].sum():,}"))
    info += [("seed, block size", f"{exp['seed']}, {exp['block_size']:,}"),
             ("whistlab", str(res.manifest.get("versions", {}).get("whistlab", "?"))),
             ("results", str(res.path))]
    return info


def _variants_info(res: Results) -> list[tuple[str, str]]:
    rules = {}
    for c in res.cells:
        rules.setdefault(c["variant"], c.get("rules", {}))
    base = rules[res.variants[0]]
    out = []
    for v in res.variants:
        diff = [f"{k} = {val}" for k, val in rules[v].items() if base.get(k) != val]
        out.append((v, "base of the comparisons" if v == res.variants[0]
                    else ", ".join(diff) or "same rules as the base"))
    return out


def _lineups_info(res: Results) -> list[tuple[str, str]]:
    out = []
    for lineup in res.lineups:
        seats = res.strategies.filter(lineup=lineup, swapped=False, variant=res.cells[0][
            "variant"])
        if not seats.height:
            seats = res.strategies.filter(lineup=lineup).unique("seat").sort("seat")
        labels = seats.sort("seat")["strategy"].to_list()
        side = (f"side 0: {labels[0]}, side 1: {labels[1]}" if labels[0::2] == [labels[0]] * 2
                and labels[1::2] == [labels[1]] * 2 else "seats: " + ", ".join(labels))
        if len(set(labels)) == 1:
            side = f"{labels[0]} at every seat"
        swap = any(c["lineup"] == lineup and c["swapped"] for c in res.cells)
        out.append((lineup, side + ("; also played with the sides' seats swapped" if swap
                                    else "")))
    return out


def _warning(res: Results) -> str | None:
    notes = [*res.notes, *([res.left_out] if res.left_out else [])]
    if not res.complete:
        done = res.blocks_done
        notes.append(f"The run is not finished: {sum(done.values())} of "
                     f"{res.n_blocks * len(done)} blocks are on disk. Each cell is reported on "
                     "its finished blocks; paired comparisons use the deals found in both cells.")
    return " ".join(notes) or None


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


@dataclass
class Layout:
    """What a game's report shows: its sections (key -> title) and their introductions, the
    table views, the figures (stem -> (section, drawing)) and the notes on the methods."""

    sections: dict[str, str]
    intros: dict[str, str]
    views: list[View]
    figures: dict
    methods: list[str]


def layout(res: Results) -> Layout:
    """The layout of the report of ``res``'s game."""
    if res.game == "portland":
        from .portland_render import portland_layout

        return portland_layout(res)
    if res.game == "norwegian":
        from .norwegian_render import norwegian_layout

        return norwegian_layout(res)
    return Layout(SECTIONS, INTROS, _views(res), FIGURES, _methods(res))


def render_html(res: Results, sections: dict, tables: dict, figures: dict[str, Path]) -> str:
    lay = layout(res)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>whistlab report: {html.escape(res.experiment['name'])}</title>",
           f"<style>{CSS}</style></head><body>",
           f"<h1>whistlab report: {html.escape(res.experiment['name'])}</h1>"]
    warning = _warning(res)
    if warning:
        out.append(f'<p class="warn">{html.escape(warning)}</p>')
    out.append("<table>" + "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td>"
                                   "</tr>" for k, v in _run_info(res, tables)) + "</table>")
    out.append("<h3>Variants</h3><table>" + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
        for k, v in _variants_info(res)) + "</table>")
    out.append("<h3>Line-ups</h3><table>" + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
        for k, v in _lineups_info(res)) + "</table>")
    views = lay.views
    for key, title in lay.sections.items():
        out.append(f'<h2 id="{key}">{html.escape(title)}</h2>')
        out.append(f'<p class="note">{html.escape(lay.intros[key])}</p>')
        findings = sections[key]["findings"]
        if findings:
            out.append('<ul class="findings">' + "".join(
                f"<li>{html.escape(f)}</li>" for f in findings) + "</ul>")
        for stem, (section, _) in lay.figures.items():
            if section == key and stem in figures:
                out.append(_img(figures[stem]))
        for view in views:
            if view.section != key:
                continue
            rows = _rows(view, tables)
            if rows is None:
                continue
            block = (f"<h3>{html.escape(view.title)}</h3>"
                     + (f'<p class="note">{view.note}</p>' if view.note else "")
                     + _html_table(view, rows))
            if view.folded:
                block = (f"<details><summary>{html.escape(view.title)} ({len(rows)} rows)"
                         f"</summary>{block}</details>")
            out.append(block)
        if key == "nil":
            for feature in ("spade_length", "top_spade", "high_cards", "partner_bid",
                            "position"):
                header, body = _feature_pivot(res, tables, feature)
                name = feature.replace("_", " ")
                table = ("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header)
                         + "</tr>" + "".join("<tr>" + "".join(
                             f'<td class="r">{html.escape(c)}</td>' for c in line) + "</tr>"
                             for line in body) + "</table>")
                out.append(f"<details><summary>Nil success by {name}, per variant "
                           f"(made % and number of nil bids)</summary>{table}</details>")
    out.append("<h2>How to read this report</h2>")
    out.append("<ul class=\"note\">" + "".join(f"<li>{html.escape(x)}</li>"
                                               for x in lay.methods) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def _methods(res: Results) -> list[str]:
    return [
        "Built from the Parquet tables and manifest.json of the results folder alone; "
        "nothing was simulated again.",
        "Every interval is 95%. Proportions: Wilson score intervals, "
        "scipy.stats.binomtest(k, n).proportion_ci(0.95, method='wilson'). Means and paired "
        "differences: Student t intervals from the count, mean and variance aggregated in "
        "polars, mean ± scipy.stats.t.ppf(0.975, n - 1) · sd / √n. Unpaired differences: "
        "Welch's interval. Ratios of sums (the sandbags section's per side-hand and per bag "
        "measures, the sandbagger's points per hand): delta-method t intervals over clusters "
        "(games, or game ids pooling the cells that share their deals), R ± t.ppf(0.975, n - 1) "
        "· sd(y − R x) / (√n · mean(x)).",
        "Paired comparisons use the duplicate deals: every cell plays the same cards for the "
        f"same {' and '.join(res.key)}, so a per-deal difference removes the luck of the cards.",
        "Rows pooled over cells (line-up 'all') treat the cells as independent samples, which "
        "they are not (same deals): their intervals are slightly optimistic.",
        "Every table is in tables/*.csv with full precision and the interval bounds in "
        "*_lo / *_hi columns; the figures are in figures/*.png.",
    ]


def render_markdown(res: Results, sections: dict, tables: dict,
                    figures: dict[str, Path]) -> str:
    out = [f"# whistlab report: {res.experiment['name']}", ""]
    warning = _warning(res)
    if warning:
        out += [f"> **{warning}**", ""]
    out += [f"- **{k}**: {v}" for k, v in _run_info(res, tables)] + [""]
    out += ["Variants:", ""] + [f"- **{k}**: {v}" for k, v in _variants_info(res)] + [""]
    out += ["Line-ups:", ""] + [f"- **{k}**: {v}" for k, v in _lineups_info(res)] + [""]
    lay = layout(res)
    views = lay.views
    for key, title in lay.sections.items():
        out += [f"## {title}", "", lay.intros[key], ""]
        findings = sections[key]["findings"]
        if findings:
            out += ["Findings:", ""] + [f"- {f}" for f in findings] + [""]
        for view in views:
            if view.section != key or not view.markdown:
                continue
            rows = _rows(view, tables)
            if rows is None:
                continue
            out += [f"### {view.title}", ""]
            if view.note:
                out += [html.unescape(view.note), ""]
            out += [_md_table(view, rows), ""]
        if key == "nil":
            for feature in ("spade_length", "top_spade"):
                header, body = _feature_pivot(res, tables, feature)
                out += [f"### Nil success by {feature.replace('_', ' ')} (made %, nil bids)",
                        "", "| " + " | ".join(header) + " |",
                        "| " + " | ".join("---" for _ in header) + " |"]
                out += ["| " + " | ".join(line) + " |" for line in body] + [""]
        shown = [stem for stem, (section, _) in lay.figures.items()
                 if section == key and stem in figures]
        if shown:
            out += ["Figures: " + ", ".join(f"[{s}](figures/{s}.png)" for s in shown), ""]
    out += ["## How to read this report", ""] + [f"- {x}" for x in lay.methods] + [""]
    return "\n".join(out)
