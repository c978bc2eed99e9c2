"""Section 2, sandbags (RULES.md §3 bags, §4.6 the bag rules): bags taken per side per hand
and per game, bag penalties, what the bags cost under each rule, and how often they decided a
game. The rules study proper (the cost ranking, the sandbagger head to head, game length) is
`reports.bag_rules`; this module reads the blocks for both (`bag_units`).

Per side-hand (one side in one hand):

* bags taken: ``bags_taken_<side>``, the bags as the standard game counts them (tricks over a
  made contract, a nil bidder's tricks under ``nil_tricks = "bags_only"``) whatever the rules
  in force make them worth. Not ``overtricks_<side>``, which is their price (+1 each in the
  standard game, -1 under ``bags_negative``, -10 under ``three_b``, 0 under ``no_overs``);
* bag points: ``overtricks_<side> + bag_penalty_<side>``, what the bags scored; the bag cost is
  their negative;
* contract cost: what overtricks cost through the contract score where a rule scores them
  there (``exact``: more than the bid is a set; ``double_over``: twice the bid or more loses
  twice its value): ``10 x bid - contract_<side>`` on a side-hand whose side took more tricks
  than its ordinary, whole bid, never below 0 (0 under every other rule of RULES.md §3, §4.6);
* per side-hand (block by block, summed per cell and game): bags taken; a penalty = a
  side-hand with ``bag_penalty_<side> < 0``; each a ratio of sums over games (the hands of a
  game share its score and bag count, the two sides of a hand its cards), and the variant's
  row over every cell ("all") a ratio over game ids, every cell's games of one game id (the
  same deals) one cluster (`frame_stats.with_ratio`, `with_share`);
* per game (games runs, block by block): the game's bags taken (both sides), its penalty hands
  (the games table's ``bag_penalties_<side>``) and penalty points; per cell the unit is the
  game, over every cell the game id;
* "bags decided the game": the final scores with each side's bag points of the whole game
  taken out (``winner_changed``; ``winner_changed_all`` takes the contract cost out as well,
  i.e. scores the overtricks as free) would have given the other side the win (a tie does not
  count). A counterfactual on the same play: without the bags the players might have played
  otherwise and the game might have ended at another hand.
"""

from __future__ import annotations

import polars as pl

from .bag_rules import BagCost, GameLength, Sandbagging, rules_tables
from .data import CELL, SIDES, BlockSums, Results, collect, scan_blocks
from .frame_stats import CLUSTER, cluster_sums, with_ratio, with_share

__all__ = ["GameBags", "HandBags", "bag_consumers", "bag_units", "bags_per_game",
           "bags_per_hand", "bags_section", "contract_cost", "winner_changed"]

ALL = "all"


def contract_cost(side: int, counts_nil: pl.Expr) -> pl.Expr:
    """Per hand, what the side's overtricks cost through its contract score: ``10 x bid -
    contract_<side>`` (at least 0) when the side took more tricks than its bid, for an ordinary
    contract of whole bids (no side contract, auction or half bid). The tricks counted toward
    the bid are its non-nil bidders' (every seat's when ``counts_nil``: ``nil_tricks =
    "count"``)."""
    seats = (side, side + 2)
    bid = sum(pl.col(f"bid_{p}").cast(pl.Int32).clip(lower_bound=0) for p in seats)
    taken = sum(pl.when((pl.col(f"bid_{p}") > 0) | counts_nil).then(
        pl.col(f"tricks_{p}").cast(pl.Int32)).otherwise(0) for p in seats)
    ordinary = ((pl.col(f"side_contract_{side}") == 0) & (pl.col("auction_bid") == 0)
                & ~pl.col(f"half_{side}") & ~pl.col(f"half_{side + 2}"))
    over = ordinary & (bid > 0) & (taken > bid)
    return pl.when(over).then((10 * bid - pl.col(f"contract_{side}").cast(pl.Int32))
                              .clip(lower_bound=0)).otherwise(0)


SUMMED = ("taken", "bag", "ccost", "penalty", "pens")


def _per_side_exprs(counts_nil: pl.Expr) -> dict[str, pl.Expr]:
    out = {}
    for s in SIDES:
        out |= {f"taken_{s}": pl.col(f"bags_taken_{s}").cast(pl.Int32),
                f"bag_{s}": pl.col(f"overtricks_{s}").cast(pl.Int32) + pl.col(f"bag_penalty_{s}"),
                f"ccost_{s}": contract_cost(s, counts_nil),
                f"penalty_{s}": pl.col(f"bag_penalty_{s}").cast(pl.Int32),
                f"pens_{s}": (pl.col(f"bag_penalty_{s}") < 0).cast(pl.Int32)}
    return out


def bag_units(res: Results, block: int) -> dict[str, pl.DataFrame | None]:
    """One block of every cell, for `data.block_pass`, summed as early as the measures allow:

    * ``sums``: one row per cell and game (``game_id``; a hand in hands runs): ``hands`` and the
      sums over its hands of, per side, ``taken_<s>`` (bags taken), ``bag_<s>`` (bag points),
      ``ccost_<s>`` (contract cost), ``penalty_<s>`` (bag-penalty points) and ``pens_<s>``
      (hands with a bag penalty);
    * ``margins``: one row per hand of the cells of line-ups played both ways round (`twins`):
      ``game_id``, ``hand_no``, ``margin`` (points of side 0 minus side 1);
    * ``games`` (games runs): ``sums`` joined to the games table's ``n_hands``, ``winner``,
      ``score_<s>`` and ``bag_penalties`` (hands with a penalty, both sides)."""
    files = res.block_files("hands", block)
    nil_count = {c["variant"]: c.get("rules", {}).get("nil_tricks") == "count" for c in res.cells}
    counts = pl.DataFrame({"variant": list(nil_count), "counts_nil": list(nil_count.values())},
                          schema={"variant": pl.String, "counts_nil": pl.Boolean})
    scan = scan_blocks(files, res.game).join(counts.lazy(), on="variant", how="left")
    summed = [f"{k}_{s}" for k in SUMMED for s in SIDES]
    per_game = collect(scan.select(*CELL, "game_id", **_per_side_exprs(
        pl.col("counts_nil").fill_null(False))).group_by([*CELL, "game_id"]).agg(
        pl.len().alias("hands"), pl.col(summed).sum()))
    twins = [t["lineup"] for t in res.twins]
    margins = collect(scan.filter(pl.col("lineup").is_in(twins)).select(
        *CELL, "game_id", "hand_no",
        margin=pl.col("points_0").cast(pl.Int32) - pl.col("points_1")))
    if not res.games_mode:
        return {"sums": per_game, "margins": margins, "games": None}
    games_files = [f for f in res.block_files("games", block)
                   if f.name in {h.name for h in files}]
    games = pl.scan_parquet(games_files).select(
        pl.col("variant", "lineup").cast(pl.String), "swapped", "game_id", "n_hands", "winner",
        "score_0", "score_1",
        bag_penalties=pl.col("bag_penalties_0") + pl.col("bag_penalties_1")).collect()
    return {"sums": per_game, "margins": margins,
            "games": games.join(per_game, on=[*CELL, "game_id"], how="inner")}


def winner_changed(contract: bool = False) -> pl.Expr:
    """Over the games units of `bag_units`: the final scores without each side's bag points of
    the game (and, ``contract``, with its contract cost given back) would have made the other
    side the winner (strictly: a tie is not a change)."""
    cf = [pl.col(f"score_{s}") - pl.col(f"bag_{s}") + (pl.col(f"ccost_{s}") if contract else 0)
          for s in SIDES]
    return (((pl.col("winner") == 0) & (cf[1] > cf[0]))
            | ((pl.col("winner") == 1) & (cf[0] > cf[1])))


class GameBags(BlockSums):
    """Per cell (games runs; the game as cluster, one per row) and per variant over its cells
    (lineup "all": the game id as cluster, every cell's game of that id): the `cluster_sums` of
    g (games), bags taken, penalty hands and penalty points per game, and the games whose
    winner the bags decided (`winner_changed`: changed, changed_all)."""

    keys = CELL
    NAMES = ["g", "bags", "penalties", "penalty_points", "changed", "changed_all"]

    def block(self, units):
        games = units["games"]
        if games is None:
            return None
        per = games.select(
            *CELL, CLUSTER, g=pl.lit(1, pl.Int32), bags=pl.col("taken_0") + pl.col("taken_1"),
            penalties=pl.col("bag_penalties"),
            penalty_points=pl.col("penalty_0") + pl.col("penalty_1"),
            changed=winner_changed().cast(pl.Int32),
            changed_all=winner_changed(contract=True).cast(pl.Int32))
        pooled = per.with_columns(lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean))
        return cluster_sums(pl.concat([per, pooled]), CELL, self.NAMES,
                            pairs=[("g", n) for n in self.NAMES])


class HandBags(BlockSums):
    """Per cell and side (``0``, ``1``; ``both``: a side-hand of either side) and per variant
    over its cells (lineup "all", side "both"): the `cluster_sums` over games (game ids) of
    n (hands), h (side-hands), t (bags taken), p (side-hands with a bag penalty) and q
    (bag-penalty points)."""

    keys = [*CELL, "side"]

    def block(self, units):
        sums_ = units["sums"]
        parts = []
        for side in ("0", "1", "both"):
            sides = SIDES if side == "both" else (int(side),)
            parts.append(sums_.select(
                *CELL, CLUSTER, side=pl.lit(side), n=pl.col("hands"),
                h=pl.col("hands") * len(sides),
                t=pl.sum_horizontal(pl.col(f"taken_{s}") for s in sides),
                p=pl.sum_horizontal(pl.col(f"pens_{s}") for s in sides),
                q=pl.sum_horizontal(pl.col(f"penalty_{s}") for s in sides)))
        pooled = parts[-1].with_columns(lineup=pl.lit(ALL), swapped=pl.lit(None, pl.Boolean))
        return cluster_sums(pl.concat([*parts, pooled]), self.keys, ["n", "h", "t", "p", "q"],
                            pairs=[("h", "t"), ("h", "p"), ("h", "q")])


def _rank(names: list[str], col: str) -> pl.Expr:
    return pl.col(col).replace_strict({v: i for i, v in enumerate(names)}, default=len(names),
                                      return_dtype=pl.Int32)


def bags_per_hand(res: Results, acc: HandBags) -> pl.DataFrame | None:
    """variant, lineup ("all" = the variant's cells pooled), swapped, side ("both" = a
    side-hand of either side), strategy: hands, side_hands, bags_per_side_hand (bags taken),
    penalties (side-hands with a penalty), penalties_per_100 (per 100 side-hands),
    penalty_points_per_side_hand, each with its 95% interval over games (game ids)."""
    frame = acc.total()
    if frame is None:
        return None
    frame = with_ratio(frame, "bags_per_side_hand", "h", "t")
    frame = with_share(frame, "penalties_per_100", "h", "p", scale=100)
    frame = with_ratio(frame, "penalty_points_per_side_hand", "h", "q")
    labels = res.sides.with_columns(pl.col("side").cast(pl.String))
    frame = frame.join(labels, on=[*CELL, "side"], how="left", nulls_equal=True)
    frame = frame.select(
        *CELL, "side", pl.col("strategy").fill_null(""),
        pl.col("s_n").cast(pl.Int64).alias("hands"),
        pl.col("s_h").cast(pl.Int64).alias("side_hands"),
        "bags_per_side_hand", "bags_per_side_hand_lo", "bags_per_side_hand_hi",
        pl.col("s_p").cast(pl.Int64).alias("penalties"),
        "penalties_per_100", "penalties_per_100_lo", "penalties_per_100_hi",
        "penalty_points_per_side_hand", "penalty_points_per_side_hand_lo",
        "penalty_points_per_side_hand_hi")
    return frame.sort(_rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"),
                      "swapped", pl.col("side") != "both", "side", nulls_last=False)


def bags_per_game(res: Results, acc: GameBags) -> pl.DataFrame | None:
    """variant, lineup ("all" = pooled), swapped: games, bags_per_game (bags taken, both sides),
    penalties_per_game (penalty hands, both sides), penalty_points_per_game, winner_changed
    (games whose winner the bag points decided) and winner_changed_rate, winner_changed_all and
    winner_changed_all_rate (the contract cost given back as well). Intervals: per cell over
    its games (t, Wilson), over every cell ("all") over the game ids (`with_ratio`,
    `with_share`)."""
    total = acc.total() if res.games_mode else None
    if total is None:
        return None
    frame = total
    for name in ("bags", "penalties", "penalty_points"):
        frame = with_ratio(frame, f"{name}_per_game", "g", name)
    frame = with_share(frame, "winner_changed_rate", "g", "changed")
    frame = with_share(frame, "winner_changed_all_rate", "g", "changed_all")
    frame = frame.with_columns(pl.col("s_g", "s_changed", "s_changed_all").cast(pl.Int64))
    frame = frame.rename({"s_g": "games", "s_changed": "winner_changed",
                          "s_changed_all": "winner_changed_all"})
    return frame.select(
        *CELL, "games", "bags_per_game", "bags_per_game_lo", "bags_per_game_hi",
        "penalties_per_game", "penalties_per_game_lo", "penalties_per_game_hi",
        "penalty_points_per_game", "penalty_points_per_game_lo", "penalty_points_per_game_hi",
        "winner_changed", "winner_changed_rate", "winner_changed_rate_lo",
        "winner_changed_rate_hi", "winner_changed_all", "winner_changed_all_rate",
        "winner_changed_all_rate_lo", "winner_changed_all_rate_hi").sort(
        _rank(res.variants, "variant"), _rank([ALL, *res.lineups], "lineup"), "swapped",
        nulls_last=False)


def _findings(res: Results, hands: pl.DataFrame) -> list[str]:
    out = []
    sides = hands.filter(pl.col("side") != "both", pl.col("lineup") != ALL)
    if sides["strategy"].n_unique() > 1:
        by = sides.group_by("strategy").agg(
            bags=(pl.col("bags_per_side_hand") * pl.col("side_hands")).sum()
            / pl.col("side_hands").sum()).sort("bags", descending=True)
        out.append("Bags taken per side-hand by strategy (all cells): " + "; ".join(
            f"{r['strategy']} {r['bags']:.2f}" for r in by.iter_rows(named=True)) + ".")
    return out


def bag_consumers(res: Results) -> dict[str, BlockSums]:
    """The block-by-block sums of the section, fed by `bag_units` (`data.block_pass`)."""

    accs: dict[str, BlockSums] = {"cost": BagCost(res), "hands": HandBags(res)}
    if res.games_mode:
        accs |= {"games": GameBags(res), "length": GameLength(res)}
    if any(t["strategy"] != t["opponent"] for t in res.twins):
        accs["sandbagging"] = Sandbagging(res)
    return accs


def bags_section(res: Results, accs: dict[str, BlockSums]) -> dict:
    """The section's tables and findings from the consumers of `bag_consumers`, once
    `data.block_pass` has fed them."""

    hands = bags_per_hand(res, accs["hands"])
    games = bags_per_game(res, accs["games"]) if "games" in accs else None
    tables = {"bags_per_hand": hands}
    if games is not None:
        tables["bags_per_game"] = games
    rules, found = rules_tables(res, accs, games)
    tables |= rules
    return {"tables": tables, "findings": found + _findings(res, hands)}
