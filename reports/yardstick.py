"""The report's double-dummy section, from ``RESULTS/yardstick/`` (`whistlab.yardstick`,
``whistlab yardstick``): how many tricks each strategy's side takes against perfect play, and
how bids compare with the double-dummy tricks.

Tables (``tables/*.csv``; "all" in ``lineup`` means pooled over the line-ups, seatings and sides
where the strategy sits):

- ``yardstick_tricks``: variant, lineup, swapped, side, strategy, side_hands, tricks (simulated,
  mean), dd_tricks (mean), diff (simulated − double dummy) and abs_diff (its absolute value),
  each with a 95% interval over game ids (the delta method).
- ``yardstick_bids``: variant, lineup, swapped, side, strategy, contract (what the side
  promised: its bid, or a Norwegian grand's 7 tricks), contracts (side-hands with one),
  bid (mean), dd_tricks (mean), bid_minus_dd, dd_made (the share of contracts the
  double-dummy tricks reach) and made (the share the play made), each with a 95% interval over
  game ids (the delta method; Wilson's interval for clustered trials for the shares).

A run without a yardstick has no section (`yardstick_section` returns None).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .data import CELL, Results, collect
from .frame_stats import CLUSTER, cluster_sums, with_cluster_means, with_share
from .kit.cells import cell, count, num, pct, text
from .kit.page import Section
from .kit.tables import View, shown

__all__ = ["TABLES", "YardstickPage", "read_yardstick", "yardstick_page", "yardstick_section"]

TABLES = ("yardstick_tricks", "yardstick_bids")
ALL = "all"
TITLE = "Double-dummy yardstick"
SPADES_NOTE = ("Spades is approximated without the spades-broken rule: the double-dummy play "
               "may lead spades at any time (the other play constraints a variant uses are "
               "listed below).")


def _long(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per sampled hand and side: tricks (simulated) and dd (double dummy)."""
    parts = [rows.select(*CELL, "game_id", "hand_no", "declarer",
                         side=pl.lit(s, pl.Int8), tricks=pl.col(f"tricks_{s}").cast(pl.Int16),
                         dd=pl.col(f"dd_tricks_{s}").cast(pl.Int16)) for s in (0, 1)]
    return pl.concat(parts).with_columns(diff=pl.col("tricks") - pl.col("dd"))


def _moments(frame: pl.DataFrame, keys: list[str], names: dict[str, pl.Expr],
             n: str = "n") -> pl.DataFrame:
    """Per group of ``keys``: ``n`` (rows) and the mean of each of ``names`` with its 95%
    interval over game ids (the sampled hands of a game share its score, a hand's two sides and
    every cell's rows of a deal its cards: one cluster; `frame_stats.with_ratio`)."""
    rows = frame.select(*keys, CLUSTER, pl.lit(1).alias(n),
                        **{name: e.cast(pl.Float64) for name, e in names.items()})
    out = cluster_sums(rows, keys, [n, *names], pairs=[(n, name) for name in names])
    out = with_cluster_means(out, list(names), n)
    return out.with_columns(pl.col(f"s_{n}").cast(pl.Int64).alias(n))


def _tricks_table(long: pl.DataFrame) -> pl.DataFrame:
    names = {"tricks": pl.col("tricks"), "dd_tricks": pl.col("dd"), "diff": pl.col("diff"),
             "abs_diff": pl.col("diff").abs()}
    columns = ["side_hands", *[f"{m}{e}" for m in names for e in ("", "_lo", "_hi")]]
    by_cell = _moments(long, [*CELL, "side", "strategy"], names, "side_hands")
    pooled = _moments(long, ["variant", "strategy"], names, "side_hands").with_columns(
        lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean), side=pl.lit(None, pl.Int8))
    keys = [*CELL, "side", "strategy"]
    return pl.concat([by_cell.select(*keys, *columns), pooled.select(*keys, *columns)])


def _contracts(res: Results, rows: pl.DataFrame, long: pl.DataFrame) -> pl.DataFrame | None:
    """Side-hands with a contract: ``bid`` (what the side promised) beside its tricks and dd.
    Spades: the side's bids (a nil is no part of it; a half bid adds .5; under the auction the
    declarer's 6 + n), side contracts and two nils left out. Norwegian: the grand side's 7."""
    if res.game == "norwegian":
        grand = long.filter(pl.col("side") == pl.col("declarer") % 2)
        return grand.with_columns(bid=pl.lit(7.0), contract=pl.lit("grand (7 tricks)"))
    if res.game != "spades":
        return None
    seats = range(4)
    hands = res.scan("hands")
    schema = hands.collect_schema()
    want = [c for c in [*CELL, "game_id", "hand_no", *[f"bid_{s}" for s in seats],
                        *[f"half_{s}" for s in seats], "side_contract_0", "side_contract_1",
                        "auction_bid", "auction_declarer"] if c in schema.names()]
    keys = rows.select(*CELL, "game_id", pl.col("hand_no").cast(schema["hand_no"]))
    bids = collect(hands.select(want).join(keys.lazy(), on=[*CELL, "game_id", "hand_no"],
                                           how="semi"))

    def column(name, default):
        return pl.col(name) if name in want else pl.lit(default)

    parts = []
    for side in (0, 1):
        total, ordinary = pl.lit(0.0), column(f"side_contract_{side}", 0) == 0
        for seat in (side, side + 2):
            bid = pl.col(f"bid_{seat}").cast(pl.Float64)
            half = column(f"half_{seat}", False).cast(pl.Float64) * 0.5
            total = total + pl.when(bid > 0).then(bid + half).otherwise(0.0)
            ordinary = ordinary & (bid >= 0)
        auction = column("auction_bid", 0) > 0
        declarer = column("auction_declarer", -1) % 2 == side
        bid = (pl.when(auction & declarer).then(6.0 + column("auction_bid", 0).cast(pl.Float64))
               .when(~auction & ordinary & (total > 0)).then(total)
               .otherwise(None))
        parts.append(bids.select(*CELL, "game_id", "hand_no", side=pl.lit(side, pl.Int8),
                                 bid=bid))
    sides = pl.concat(parts).drop_nulls("bid")
    return long.join(sides, on=[*CELL, "game_id", "hand_no", "side"], how="inner").with_columns(
        contract=pl.lit("side bid"))


def _bids_table(frame: pl.DataFrame) -> pl.DataFrame:
    frame = frame.with_columns(dd_made=(pl.col("dd") >= pl.col("bid")).cast(pl.Int64),
                               made=(pl.col("tricks") >= pl.col("bid")).cast(pl.Int64))
    names = {"bid": pl.col("bid"), "dd_tricks": pl.col("dd"),
             "bid_minus_dd": pl.col("bid") - pl.col("dd"), "dd_made": pl.col("dd_made"),
             "made": pl.col("made")}

    def agg(keys):
        out = _moments(frame, keys, names, "contracts")
        for share in ("dd_made", "made"):  # shares of contracts: Wilson, clustered
            out = with_share(out, share, "contracts", share)
        return out.select(*keys, "contracts", *[f"{m}{e}" for m in names
                                                for e in ("", "_lo", "_hi")])

    keys = [*CELL, "side", "strategy", "contract"]
    by_cell = agg(keys)
    pooled = agg(["variant", "strategy", "contract"]).with_columns(
        lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean), side=pl.lit(None, pl.Int8))
    return pl.concat([by_cell, pooled.select(by_cell.columns)])


def read_yardstick(results: str | Path) -> tuple[dict, pl.LazyFrame] | None:
    """The yardstick of a run (its manifest and its rows, lazily), None if it has none."""
    folder = Path(results) / "yardstick"
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        return None
    info = json.loads(manifest.read_text(encoding="utf-8"))
    files = sorted(folder.glob("part-*.parquet"))
    if not files:
        return info, pl.LazyFrame()
    return info, pl.scan_parquet(files)


def yardstick_section(res: Results) -> dict | None:
    """The section's tables, findings and notes; None when the run has no yardstick (or none
    of the report's cells is in it)."""
    got = read_yardstick(res.path)
    if got is None:
        return None
    info, scan = got
    if not scan.collect_schema().names():
        return None
    cells = pl.DataFrame([{k: c[k] for k in CELL} for c in res.cells],
                         schema={"variant": pl.String, "lineup": pl.String,
                                 "swapped": pl.Boolean})
    rows = collect(scan.with_columns(pl.col("variant", "lineup").cast(pl.String))
                   .join(cells.lazy(), on=CELL, how="semi"))
    if not rows.height:
        return None
    long = _long(rows).join(res.sides, on=[*CELL, "side"], how="left")
    order = {"variant": res.variants, "lineup": res.lineups}
    long = long.sort(*[pl.col(k).replace_strict(v, list(range(len(v))), default=len(v))
                       for k, v in order.items()], "swapped", "side", "game_id", "hand_no")
    tables = {"yardstick_tricks": _tricks_table(long)}
    contracts = _contracts(res, rows, long)
    if contracts is not None and contracts.height:
        tables["yardstick_bids"] = _bids_table(contracts.sort(
            *[pl.col(k).replace_strict(v, list(range(len(v))), default=len(v))
              for k, v in order.items()], "swapped", "side", "game_id", "hand_no"))
    return {"tables": tables, "findings": _findings(tables), "notes": _notes(res, info),
            "info": info}


def _findings(tables: dict) -> list[str]:
    out = []
    pooled = tables["yardstick_tricks"].filter(lineup=ALL)
    for r in pooled.iter_rows(named=True):
        out.append(f"{r['variant']}, {r['strategy']}: simulated − double dummy {r['diff']:+.2f} "
                   f"[{r['diff_lo']:+.2f}, {r['diff_hi']:+.2f}] tricks per side-hand (below 0: "
                   f"tricks given away against perfect play), |simulated − double dummy| "
                   f"{r['abs_diff']:.2f} ({r['side_hands']:,} side-hands)")
    bids = tables.get("yardstick_bids")
    if bids is not None:
        for r in bids.filter(lineup=ALL).iter_rows(named=True):
            out.append(f"{r['variant']}, {r['strategy']} ({r['contract']}): bid − double dummy "
                       f"{r['bid_minus_dd']:+.2f} [{r['bid_minus_dd_lo']:+.2f}, "
                       f"{r['bid_minus_dd_hi']:+.2f}] tricks; double-dummy play would make "
                       f"{100 * r['dd_made']:.0f}% [{100 * r['dd_made_lo']:.0f}, "
                       f"{100 * r['dd_made_hi']:.0f}] of {r['contracts']:,} contracts, the play "
                       f"made {100 * r['made']:.0f}%")
    return out


def _notes(res: Results, info: dict) -> list[str]:
    variants = info.get("variants", {})
    notes = [f"A sample of {info['deals']:,} deals (seed {info['seed']}, `whistlab yardstick "
             f"--sample {info['sample']} --seed {info['seed']}`) solved by Bo Haglund's DDS "
             f"(endplay {info.get('endplay', '?')}) under each hand's trump and first leader; "
             "every cell on the same deals."]
    if any(v.get("game") == "spades" and v.get("solved") for v in variants.values()):
        notes.append(SPADES_NOTE)
    for name in res.variants:
        v = variants.get(name)
        if v is None:
            notes.append(f"{name}: not in the yardstick (run `whistlab yardstick` again).")
        elif not v["solved"]:
            notes.append(f"{name}: skipped, {v['skip']}.")
        else:
            if v["approximations"]:
                notes.append(f"{name}: approximated without " + "; ".join(v["approximations"])
                             + ".")
            if v.get("left_out"):
                notes.append(f"{name}: left out: {v['left_out']}.")
    notes.append("Both sides maximise their own tricks double dummy whatever they bid: a nil "
                 "bidder's side is measured against the most tricks it could take. Spades "
                 "contracts: the side's bids (nil bids add nothing, a half bid .5, the auction's "
                 "declarer 6 + n), compared with the side's double-dummy tricks, a nil "
                 "bidder's included; side contracts and two nils are left out.")
    notes.append("Intervals: 95%, over game ids (a sampled hand's two sides, a game's sampled "
                 "hands and every cell's rows of a deal are one cluster): the delta method for "
                 "the means, Wilson's interval for clustered trials for the shares. The two "
                 "sides of a hand mirror each other: a line-up of one strategy pooled over both "
                 "sides has a difference of 0 by construction, read its absolute difference.")
    return notes


def _views() -> list[View]:
    side = [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
            ("strategy", text("strategy"))]
    return [
        View("yardstick", "yardstick_tricks", "Tricks against double-dummy play, by side",
             [*side, ("side-hands", count("side_hands")), ("tricks", num("tricks", 2)),
              ("double dummy", num("dd_tricks", 2)),
              ("simulated − DD", num("diff", 2, sign=True)),
              ("|simulated − DD|", num("abs_diff", 2))],
             rows=lambda f: f.filter(pl.col("lineup") != ALL)),
        View("yardstick", "yardstick_tricks", "Tricks against double-dummy play, by strategy",
             [("variant", text("variant")), ("strategy", text("strategy")),
              ("side-hands", count("side_hands")), ("simulated − DD", num("diff", 2, sign=True)),
              ("|simulated − DD|", num("abs_diff", 2))],
             rows=lambda f: f.filter(lineup=ALL)),
        View("yardstick", "yardstick_bids", "Contracts against double-dummy tricks",
             [*side, ("contract", text("contract")), ("contracts", count("contracts")),
              ("mean bid", num("bid", 2)), ("double dummy", num("dd_tricks", 2)),
              ("bid − DD", num("bid_minus_dd", 2, sign=True)),
              ("DD would make", pct("dd_made")), ("made in play", pct("made"))],
             rows=lambda f: f.filter(pl.col("lineup") != ALL)),
        View("yardstick", "yardstick_bids", "Contracts against double-dummy tricks, by strategy",
             [("variant", text("variant")), ("strategy", text("strategy")),
              ("contract", text("contract")), ("contracts", count("contracts")),
              ("bid − DD", num("bid_minus_dd", 2, sign=True)),
              ("DD would make", pct("dd_made")), ("made in play", pct("made"))],
             rows=lambda f: f.filter(lineup=ALL)),
    ]


INTRO = ("How many tricks each side takes against perfect play: each sampled deal solved double "
         "dummy (every card seen) under its trump and first leader, beside the simulated tricks "
         "of the same hand. Simulated − DD below 0: the side took fewer tricks than its best "
         "double-dummy play would have given it against the opponents' best.")


@dataclass
class YardstickPage:
    """The section as the report adds it to any study's page, and its tables."""

    section: Section
    tables: dict[str, pl.DataFrame]


def yardstick_page(res: Results) -> YardstickPage | None:
    """The section of the report of ``res``; None when the run has no yardstick."""
    section = yardstick_section(res)
    if section is None:
        return None
    tables = [shown(view, section["tables"], "yardstick") for view in _views()]
    return YardstickPage(Section("yardstick", TITLE, INTRO, findings=section["findings"],
                                 tables=[t for t in tables if t is not None],
                                 notes=section["notes"]), section["tables"])
