"""Section 1, nil (RULES.md §3): how often nil, blind nil and double nil are bid and made, by
variant, line-up and strategy; by the bidder's hand; and what a nil does to the partner's contract.

Every count comes from the hands table in long form (`data.seat_rows`: one row per seat and
hand), read one block at a time (`data.block_pass`), labelled with the seat's (side's) strategy
and summed per group and game id (``game_id``) by a streaming query, so the seat-hands are never
in memory; the small result is summed per game id to the pooled rows ("all"), then over the
game ids (`frame_stats.cluster_sums`).

* nil, blind nil: per seat-hand; made = the bidder won no trick;
* double nil: per side-hand, both partners bid nil (either kind); made = both won no trick;
* a side's contract (RULES.md §3): made when ``contract_<side> > 0``, set when ``< 0``; a side
  with a double nil has no contract and is left out of those rates.

The rates are shares of seat-hands (side-hands) that are not independent trials: the four
seats of a hand share its cards, the hands of a game its score, and the cells of a pooled row
("all") play the same deals. Each rate is a ratio of sums over game ids, every cell's hands of
one game id together, with the Wilson interval for clustered trials (`stats.share_ci`).
"""

from __future__ import annotations

import polars as pl

from .data import CELL, RANKS, ClusterPass, Results, block_pass, block_scan, collect_each, seat_rows
from .frame_stats import CLUSTER, cluster_sums, with_share

__all__ = ["FEATURES", "NilSums", "nil_section"]

ALL = "all"
FEATURES = {  # column of data.seat_rows -> what the report calls it
    "spade_length": "spade length",
    "top_spade": "highest spade",
    "high_cards": "aces and kings",
    "partner_bid": "partner's bid",
    "position": "bidding position",
}
SEAT_COUNTS = ["n", "nil", "nil_made", "blind", "blind_made"]
SEAT_PAIRS = [("n", "nil"), ("nil", "nil_made"), ("n", "blind"), ("blind", "blind_made")]
SIDE_COUNTS = ["n", "double", "double_made"]
SIDE_PAIRS = [("n", "double"), ("double", "double_made")]


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


def _levels(frame: pl.DataFrame, keys: list[str], pooled: list[list[str]]) -> pl.DataFrame:
    """``frame`` (one row per group of ``keys`` and game id) and, for each set of keys in
    ``pooled``, its rows summed per game id with those keys marked "all" (one row per group and
    game id too): a pooled row's cluster holds every row of its game id."""
    out = [frame]
    for drop in pooled:
        kept = [k for k in keys if k not in drop]
        out.append(frame.group_by(*kept, CLUSTER).agg(pl.exclude(*keys, CLUSTER).sum())
                   .with_columns(pl.lit(ALL, frame.schema[k]).alias(k) for k in drop)
                   .select(frame.columns))
    return pl.concat(out)


def _counts(frame: pl.LazyFrame, keys: list) -> pl.LazyFrame:
    """Nil and blind nil bids and successes per group of seat-hands and game id."""
    return frame.group_by(*keys, CLUSTER).agg(
        n=pl.len(), nil=pl.col("nil").sum(), nil_made=(pl.col("nil") & pl.col("made")).sum(),
        blind=pl.col("blind_nil").sum(),
        blind_made=(pl.col("blind_nil") & pl.col("made")).sum())


class NilSums(ClusterPass):
    """The section's cluster sums, one block at a time: ``part`` names the table
    (``rates_seat``, ``rates_side``, ``by_hand``, ``contract``), ``keys`` its groups."""

    keys = ["part", "feature", "value", "variant", "lineup", "strategy", "partner_nil"]

    def sums(self, hands):
        res = self.res
        # the labels as enums (their codes group and join fast); "all" marks a pooled level
        enums = {"variant": pl.Enum([*res.variants, ALL]), "lineup": pl.Enum([*res.lineups, ALL]),
                 "strategy": pl.Enum([*sorted(set(res.strategies["strategy"])
                                              | set(res.sides["strategy"])), ALL])}

        def coded(frame):
            return frame.with_columns(pl.col(k).cast(e) for k, e in enums.items()
                                      if k in frame.collect_schema().names())
        seats = seat_rows(res, coded(hands))
        strategies = coded(res.strategies.lazy())
        sides = coded(res.sides.lazy())
        double = (pl.col("bid") == 0) & (pl.col("partner_bid") == 0)
        both_made = (pl.col("tricks") == 0) & (pl.col("partner_tricks") == 0)
        nil = pl.col("bid") == 0
        partner_nil = pl.col("partner_bid") == 0
        state = (pl.when(nil & partner_nil).then(pl.lit("double nil"))
                 .when(nil & pl.col("blind")).then(pl.lit("blind nil"))
                 .when(nil).then(pl.lit("nil"))
                 .when(partner_nil & pl.col("partner_blind")).then(pl.lit("blind nil"))
                 .when(partner_nil).then(pl.lit("nil"))
                 .otherwise(pl.lit("none")))
        keys = ["variant", "lineup", "strategy"]
        by_seat = seats.join(strategies, on=[*CELL, "seat"], how="left")
        # one row per side-hand: the side's first seat, labelled with the side's strategy
        by_side = seats.filter(pl.col("seat") < 2).join(sides, on=[*CELL, "side"], how="left")
        queries = [
            _counts(by_seat, keys),
            by_side.group_by(*keys, CLUSTER).agg(
                n=pl.len(), double=double.sum(), double_made=(double & both_made).sum()),
            by_side.filter(pl.col("contract") != 0)
            .group_by("variant", "strategy", state.alias("partner_nil"), CLUSTER)
            .agg(side_hands=pl.len(), made=(pl.col("contract") > 0).sum()),
            *[_counts(by_seat.with_columns(value=pl.col(f).cast(pl.Int16)),
                      ["variant", "strategy", "value"]) for f in FEATURES]]
        # summed to (group, game id) before collecting: a block's seat-hands are never held
        seat, side, contract, *by_feature = collect_each(queries)
        # the pooled levels the tables show: every line-up, or every strategy of a line-up
        pooled = [["lineup", "strategy"], ["lineup"], ["strategy"]]
        parts = [cluster_sums(_levels(seat, keys, pooled), keys, SEAT_COUNTS, pairs=SEAT_PAIRS,
                              summed=True).with_columns(part=pl.lit("rates_seat")),
                 cluster_sums(_levels(side, keys, pooled), keys, SIDE_COUNTS, pairs=SIDE_PAIRS,
                              summed=True).with_columns(part=pl.lit("rates_side"))]
        hand_keys = ["feature", "value", "variant", "strategy"]
        by_hand = pl.concat([frame.select(pl.lit(f).alias("feature"), pl.exclude("feature"))
                             for f, frame in zip(FEATURES, by_feature, strict=True)])
        # every strategy of a variant, and (for the figures) every variant pooled
        by_hand = _levels(by_hand, hand_keys, [["strategy"], ["variant"], ["variant", "strategy"]])
        parts.append(cluster_sums(by_hand, hand_keys, SEAT_COUNTS, pairs=SEAT_PAIRS, summed=True)
                     .with_columns(part=pl.lit("by_hand")))
        contract_keys = ["variant", "strategy", "partner_nil"]
        parts.append(cluster_sums(_levels(contract, contract_keys, [["strategy"]]),
                                  contract_keys, ["side_hands", "made"], summed=True)
                     .with_columns(part=pl.lit("contract")))
        out = pl.concat(parts, how="diagonal_relaxed").with_columns(
            pl.col(k).cast(pl.String) for k in enums)
        return out.select(*self.keys, pl.exclude(self.keys))


def _rates(frame: pl.DataFrame, keys: list[str], kinds) -> pl.DataFrame:
    """Per kind (``kind``, bids, made): n, bids, bid_rate, made, success_rate with their 95%
    intervals (`frame_stats.with_share`: seat-hands clustered by game id)."""
    parts = []
    for kind, bids, made in kinds:
        part = with_share(frame, "bid_rate", "n", bids)
        part = with_share(part, "success_rate", bids, made)
        parts.append(part.select(
            pl.lit(kind).alias("kind"), *keys, pl.col("s_n").cast(pl.Int64).alias("n"),
            pl.col(f"s_{bids}").cast(pl.Int64).alias("bids"), "bid_rate", "bid_rate_lo",
            "bid_rate_hi", pl.col(f"s_{made}").cast(pl.Int64).alias("made"), "success_rate",
            "success_rate_lo", "success_rate_hi"))
    return pl.concat(parts)


def nil_rates(res: Results, total: pl.DataFrame) -> pl.DataFrame:
    """kind (nil, blind nil, double nil), variant, lineup, strategy ("all" = pooled): n
    (seat-hands, or side-hands for double nil), bids, bid_rate, made, success_rate (+ 95%
    intervals), from the cluster sums of `NilSums`."""
    keys = ["variant", "lineup", "strategy"]
    seat = total.filter(part="rates_seat")
    side = total.filter(part="rates_side")
    out = pl.concat([_rates(seat, keys, [("nil", "nil", "nil_made"),
                                         ("blind nil", "blind", "blind_made")]),
                     _rates(side, keys, [("double nil", "double", "double_made")])])
    return pl.concat([_order(res, out.filter(kind=k)) for k in ("nil", "blind nil",
                                                                 "double nil")])


def nil_by_hand(res: Results, total: pl.DataFrame) -> pl.DataFrame:
    """feature, value, label, kind (nil, blind nil), variant, strategy ("all" = pooled; variant
    "all": every variant's cells): the seat-hands with that feature value, bids, bid_rate,
    made, success_rate (+ intervals)."""
    keys = ["feature", "value", "variant", "strategy"]
    rows = total.filter(part="by_hand").with_columns(pl.col("value").cast(pl.Int16))
    out = _rates(rows, keys, [("nil", "nil", "nil_made"), ("blind nil", "blind", "blind_made")])
    label_ = (pl.when(pl.col("feature") == "top_spade")
              .then(pl.col("value").replace_strict({-1: "none"} | dict(enumerate(RANKS)),
                                                   default="?", return_dtype=pl.String))
              .when(pl.col("feature") == "position")
              .then(pl.col("value").replace_strict({0: "1st", 1: "2nd", 2: "3rd", 3: "4th"},
                                                   default="?", return_dtype=pl.String))
              .otherwise(pl.col("value").cast(pl.String)))
    out = out.with_columns(label=label_)
    feature_rank = {f: i for i, f in enumerate(FEATURES)}
    rank_v = {ALL: len(res.variants)} | {v: i for i, v in enumerate(res.variants)}
    return out.sort(pl.col("feature").replace_strict(feature_rank, return_dtype=pl.Int32),
                    pl.col("kind") != "nil",
                    pl.col("variant").replace_strict(rank_v, default=len(rank_v),
                                                     return_dtype=pl.Int32),
                    pl.col("strategy") != ALL, "strategy", "value").select(
        "feature", "value", "label", "kind", "variant", "strategy", pl.exclude(
            "feature", "value", "label", "kind", "variant", "strategy"))


def partner_contract(res: Results, total: pl.DataFrame) -> pl.DataFrame:
    """variant, strategy (the side's; "all" = pooled), partner_nil (none, nil, blind nil: what
    one partner bid): side_hands with a contract, made, made_rate (+ intervals), set_rate."""
    rows = total.filter(part="contract")
    out = with_share(rows, "made_rate", "side_hands", "made").select(
        "variant", "strategy", "partner_nil",
        pl.col("s_side_hands").cast(pl.Int64).alias("side_hands"),
        pl.col("s_made").cast(pl.Int64).alias("made"), "made_rate", "made_rate_lo",
        "made_rate_hi")
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
    sums = NilSums(res)
    block_pass(res, [sums], block_scan)
    total = sums.total()
    rates = nil_rates(res, total)
    by_hand = nil_by_hand(res, total)
    contract = partner_contract(res, total)
    return {"tables": {"nil_rates": rates, "nil_by_hand": by_hand,
                       "nil_partner_contract": contract},
            "findings": _findings(rates, by_hand.filter(pl.col("variant") != ALL), contract)}
