"""Section 1, nil (RULES.md §3): how often nil, blind nil and double nil are bid and made, by
variant, line-up and strategy; by the bidder's hand; and what a nil does to the partner's contract.

Every count comes from lazy, streaming passes over the hands table in long form
(`data.seat_rows`: one row per seat and hand), grouped by cell and seat (and feature value), so
the hands are never in memory; the small result gets its strategy labels (`data.label`) and is
summed up to coarser groups (counts add up).

* nil, blind nil: per seat-hand; made = the bidder won no trick;
* double nil: per side-hand, both partners bid nil (either kind); made = both won no trick;
* a side's contract (RULES.md §3): made when ``contract_<side> > 0``, set when ``< 0``; a side
  with a double nil has no contract and is left out of those rates.
"""

from __future__ import annotations

import polars as pl

from .data import CELL, RANKS, Results, collect, collect_each, label, seat_rows
from .frame_stats import with_proportion_ci

__all__ = ["FEATURES", "nil_section"]

ALL = "all"
FEATURES = {  # column of data.seat_rows -> what the report calls it
    "spade_length": "spade length",
    "top_spade": "highest spade",
    "high_cards": "aces and kings",
    "partner_bid": "partner's bid",
    "position": "bidding position",
}


def _order(res: Results, frame: pl.DataFrame) -> pl.DataFrame:
    """Rows in the experiment's order of variants and line-ups ("all" first)."""
    rank_v = {v: i for i, v in enumerate(res.variants)}
    rank_l = {ALL: -1} | {v: i for i, v in enumerate(res.lineups)}
    keys = [pl.col("variant").replace_strict(rank_v, default=len(rank_v), return_dtype=pl.Int32)]
    if "lineup" in frame.columns:
        keys.append(pl.col("lineup").replace_strict(rank_l, default=len(rank_l),
                                                    return_dtype=pl.Int32))
    if "strategy" in frame.columns:
        keys.append(pl.col("strategy") != ALL)
        keys.append(pl.col("strategy"))
    return frame.sort(keys, maintain_order=True)


def _rollups(frame: pl.DataFrame, keys: list[str], pooled: list[list[str]]) -> pl.DataFrame:
    """Sum the count columns of ``frame`` (grouped by ``keys``) over each set of keys in
    ``pooled``, marking a pooled key "all"; returns the union, the finest rows included."""
    counts = [c for c in frame.columns if c not in keys]
    out = [frame]
    for drop in pooled:
        kept = [k for k in keys if k not in drop]
        out.append(frame.group_by(kept).agg(pl.col(counts).sum())
                   .with_columns(pl.lit(ALL).alias(k) for k in drop).select(frame.columns))
    return pl.concat(out)


def _rates(frame: pl.DataFrame, n: str, bids: str, made: str) -> pl.DataFrame:
    frame = with_proportion_ci(frame, bids, n, "bid_rate")
    return with_proportion_ci(frame, made, bids, "success_rate")


def _counts(frame: pl.LazyFrame | pl.DataFrame, keys: list) -> pl.LazyFrame:
    """Nil and blind nil bids and successes per group of seat-hands."""
    return frame.group_by(keys).agg(
        n=pl.len(), nil=pl.col("nil").sum(), nil_made=(pl.col("nil") & pl.col("made")).sum(),
        blind=pl.col("blind_nil").sum(),
        blind_made=(pl.col("blind_nil") & pl.col("made")).sum())


def nil_rates(res: Results, seats: pl.LazyFrame) -> pl.DataFrame:
    """kind (nil, blind nil, double nil), variant, lineup, strategy ("all" = pooled): n
    (seat-hands, or side-hands for double nil), bids, bid_rate, made, success_rate (+ 95%
    Wilson intervals)."""
    double = (pl.col("bid") == 0) & (pl.col("partner_bid") == 0)
    both_made = (pl.col("tricks") == 0) & (pl.col("partner_tricks") == 0)
    by_seat, by_side = collect_each([
        _counts(seats, [*CELL, "seat"]),
        # one row per side-hand: the side's first seat
        seats.filter(pl.col("seat") < 2).group_by(*CELL, "side").agg(
            n=pl.len(), double=double.sum(), double_made=(double & both_made).sum())])
    keys = ["variant", "lineup", "strategy"]
    seat_counts = label(res, by_seat).group_by(keys).agg(pl.exclude(*CELL, "seat").sum())
    side_counts = label(res, by_side, "side").group_by(keys).agg(
        pl.exclude(*CELL, "side").sum())
    pooled = [["lineup", "strategy"], ["lineup"], ["strategy"]]
    seat_counts = _rollups(seat_counts, keys, pooled).filter(
        (pl.col("lineup") == ALL) | (pl.col("strategy") == ALL))
    side_counts = _rollups(side_counts, keys, pooled).filter(
        (pl.col("lineup") == ALL) | (pl.col("strategy") == ALL))
    parts = []
    for kind, frame, bids, made in (("nil", seat_counts, "nil", "nil_made"),
                                    ("blind nil", seat_counts, "blind", "blind_made"),
                                    ("double nil", side_counts, "double", "double_made")):
        part = frame.select(*keys, "n", bids=pl.col(bids), made=pl.col(made))
        parts.append(_rates(part, "n", "bids", "made").with_columns(kind=pl.lit(kind)))
    out = pl.concat(parts).select("kind", pl.exclude("kind"))
    return pl.concat([_order(res, out.filter(kind=k)) for k in ("nil", "blind nil",
                                                                 "double nil")])


def nil_by_hand(res: Results, seats: pl.LazyFrame) -> pl.DataFrame:
    """feature, value, label, kind (nil, blind nil), variant, strategy ("all" = pooled): the
    seat-hands with that feature value, bids, bid_rate, made, success_rate (+ intervals)."""
    queries = [_counts(seats.with_columns(value=pl.col(f).cast(pl.Int16)),
                       [*CELL, "seat", "value"]) for f in FEATURES]
    keys = ["feature", "value", "variant", "strategy"]
    counts = pl.concat([
        label(res, frame).group_by("variant", "strategy", "value")
        .agg(pl.col("n", "nil", "nil_made", "blind", "blind_made").sum())
        .with_columns(feature=pl.lit(f)).select(*keys, pl.exclude(keys))
        for f, frame in zip(FEATURES, collect_each(queries), strict=True)])
    counts = _rollups(counts, keys, [["strategy"]])
    parts = []
    for kind, bids, made in (("nil", "nil", "nil_made"), ("blind nil", "blind", "blind_made")):
        part = counts.select(*keys, "n", bids=pl.col(bids), made=pl.col(made))
        parts.append(_rates(part, "n", "bids", "made").with_columns(kind=pl.lit(kind)))
    out = pl.concat(parts)
    label_ = (pl.when(pl.col("feature") == "top_spade")
              .then(pl.col("value").replace_strict({-1: "none"} | dict(enumerate(RANKS)),
                                                   default="?", return_dtype=pl.String))
              .when(pl.col("feature") == "position")
              .then(pl.col("value").replace_strict({0: "1st", 1: "2nd", 2: "3rd", 3: "4th"},
                                                   default="?", return_dtype=pl.String))
              .otherwise(pl.col("value").cast(pl.String)))
    out = out.with_columns(label=label_)
    feature_rank = {f: i for i, f in enumerate(FEATURES)}
    rank_v = {v: i for i, v in enumerate(res.variants)}
    return out.sort(pl.col("feature").replace_strict(feature_rank, return_dtype=pl.Int32),
                    pl.col("kind") != "nil",
                    pl.col("variant").replace_strict(rank_v, default=len(rank_v),
                                                     return_dtype=pl.Int32),
                    pl.col("strategy") != ALL, "strategy", "value").select(
        "feature", "value", "label", "kind", "variant", "strategy", pl.exclude(
            "feature", "value", "label", "kind", "variant", "strategy"))


def partner_contract(res: Results, seats: pl.LazyFrame) -> pl.DataFrame:
    """variant, strategy (the side's; "all" = pooled), partner_nil (none, nil, blind nil: what
    one partner bid): side_hands with a contract, made, made_rate (+ intervals), set_rate."""
    nil = pl.col("bid") == 0
    partner_nil = pl.col("partner_bid") == 0
    state = (pl.when(nil & partner_nil).then(pl.lit("double nil"))
             .when(nil & pl.col("blind")).then(pl.lit("blind nil"))
             .when(nil).then(pl.lit("nil"))
             .when(partner_nil & pl.col("partner_blind")).then(pl.lit("blind nil"))
             .when(partner_nil).then(pl.lit("nil"))
             .otherwise(pl.lit("none")))
    by_side = collect(seats.filter(pl.col("seat") < 2, pl.col("contract") != 0)
                      .group_by(*CELL, "side", state.alias("partner_nil"))
                      .agg(side_hands=pl.len(), made=(pl.col("contract") > 0).sum()))
    keys = ["variant", "strategy", "partner_nil"]
    counts = label(res, by_side, "side").group_by(keys).agg(pl.col("side_hands", "made").sum())
    counts = _rollups(counts, keys, [["strategy"]])
    out = with_proportion_ci(counts, "made", "side_hands", "made_rate")
    out = out.with_columns(set_rate=1 - pl.col("made_rate"))
    states = {"none": 0, "nil": 1, "blind nil": 2}
    return out.sort(
        pl.col("variant").replace_strict({v: i for i, v in enumerate(res.variants)},
                                         default=99, return_dtype=pl.Int32),
        pl.col("strategy") != ALL, "strategy",
        pl.col("partner_nil").replace_strict(states, default=9, return_dtype=pl.Int32))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _findings(rates: pl.DataFrame, by_hand: pl.DataFrame, contract: pl.DataFrame) -> list[str]:
    out = []
    nil = rates.filter(kind="nil", lineup=ALL, strategy=ALL).filter(pl.col("bids") > 0)
    if nil.height:
        best = nil.sort("success_rate", descending=True).row(0, named=True)
        worst = nil.sort("success_rate").row(0, named=True)
        text = (f"Nil is bid in {_pct(nil['bids'].sum() / nil['n'].sum())} of seat-hands and "
                f"made {_pct(nil['made'].sum() / nil['bids'].sum())} of the time overall")
        if nil.height > 1:
            text += (f"; success ranges from {_pct(worst['success_rate'])} "
                     f"({worst['variant']}) to {_pct(best['success_rate'])} ({best['variant']})")
            disjoint = best["success_rate_lo"] > worst["success_rate_hi"]
            text += ", intervals " + ("apart" if disjoint else "overlapping")
        out.append(text + ".")
    strat = rates.filter(kind="nil", lineup=ALL).filter(pl.col("strategy") != ALL,
                                                        pl.col("bids") > 0)
    if strat["strategy"].n_unique() > 1:
        pooled = strat.group_by("strategy").agg(pl.col("n", "bids", "made").sum())
        parts = [f"{r['strategy']} bids nil in {_pct(r['bids'] / r['n'])} of its seat-hands and "
                 f"makes {_pct(r['made'] / r['bids'])}"
                 for r in pooled.sort("strategy").iter_rows(named=True)]
        out.append("By strategy (all variants): " + "; ".join(parts) + ".")
    for kind in ("blind nil", "double nil"):
        rows = rates.filter(kind=kind, lineup=ALL, strategy=ALL)
        bids = rows["bids"].sum()
        out.append(f"{kind.capitalize()}: {bids:,} bids, made "
                   f"{_pct(rows['made'].sum() / bids)}." if bids else
                   f"{kind.capitalize()}: never bid in this run.")
    length = (by_hand.filter(feature="spade_length", kind="nil", strategy=ALL)
              .group_by("value").agg(pl.col("bids", "made").sum())
              .filter(pl.col("bids") >= 30).sort("value"))
    if length.height > 1:
        a, b = length.row(0, named=True), length.row(-1, named=True)
        out.append(f"Nil success by spade length: {_pct(a['made'] / a['bids'])} "
                   f"holding {a['value']} spades, {_pct(b['made'] / b['bids'])} holding "
                   f"{b['value']} (all variants; lengths with at least 30 nil bids).")
    parts = []
    for variant in contract["variant"].unique(maintain_order=True):
        c = contract.filter(variant=variant, strategy=ALL)
        rate = {r["partner_nil"]: r for r in c.iter_rows(named=True) if r["side_hands"]}
        if "none" in rate and "nil" in rate:
            a, b = rate["none"], rate["nil"]
            sign = ("lower" if b["made_rate_hi"] < a["made_rate_lo"] else "higher"
                    if b["made_rate_lo"] > a["made_rate_hi"] else "no clear change")
            parts.append(f"{variant} {_pct(a['made_rate'])} → {_pct(b['made_rate'])} ({sign})")
    if parts:
        out.append("A side's made-contract rate without a nil → with one partner bidding nil "
                   "(the other partner's contract): " + "; ".join(parts) + ".")
    return out


def nil_section(res: Results) -> dict:
    """The nil tables (name -> DataFrame) and findings (sentences)."""
    seats = seat_rows(res)
    rates = nil_rates(res, seats)
    by_hand = nil_by_hand(res, seats)
    contract = partner_contract(res, seats)
    return {"tables": {"nil_rates": rates, "nil_by_hand": by_hand,
                       "nil_partner_contract": contract},
            "findings": _findings(rates, by_hand, contract)}
