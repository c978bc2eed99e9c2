"""The Norwegian whist report (RULES.md §2, docs/SCHEMA.md): declarations, contracts, scoring
modes and game length.

Tables (every estimate ``x`` with ``x_lo`` / ``x_hi``, 95%):

* ``declarations``: per cell, what the players who chose declared, overall (``feature = all``)
  and by a feature of the chooser's dealt hand: ``aces_kings`` (aces and kings held, 0..8) and
  ``longest_suit`` (8 = eight cards or more); ``decisions`` are the declarations made by choice
  (2 players: the non-dealer's, the dealer's being the automatic opposite; 3 players: each
  ``grand`` or ``pass`` said until the first grand; classic: each pass and the first bid),
  ``rate`` the share of them with this ``option``, ``success`` the share of the contracts so
  declared that were made (none for ``pass``);
* ``contracts``: per cell and contract played (chosen, or forced when all passed), how often it
  was played, how often it was made, and the declarer's points per hand. *Made* is the
  declarer's own table value being positive: grand, more tricks than the book ``b`` (6, or 8
  with 3 players; classic: the bidding side more than six); misère, at most ``b`` tricks;
  nullo, the bidder's side at most six. In the 2-player game this is exactly "the choice was
  right on the same tricks": with the same ``k`` tricks the other declaration's table gives the
  negative (misère(k) = -grand(k) for every k, doubled alike), so a made contract beat the
  other choice and a failed one lost to it. The tricks themselves would not have been the same
  (both players play to the contracts): a proxy, not a replay;
* ``scoring_modes``: per cell, the share of hands in which every side scored the same points
  (``equal``: always so under ``scoring = "both"`` in the seed game, where grand(k) equals
  misère(T - k) for every k), the sides' total points per hand (0 under ``zero_sum`` with two
  players, minus the declarer's value with three) and the share of doubled hands;
* ``game_length`` (games runs): hands per game per cell, over every game (unfinished ones count
  ``max_hands``) and over the finished ones (t intervals over the games), with the seat that
  dealt first;
* ``game_outcomes`` (games runs): per cell the share of games each side won, drawn (a shared
  top score), and stopped unfinished at ``max_hands`` (Wilson, over the games);
* ``norwegian_paired``: each variant minus the experiment's first variant with the same number
  of players, the same line-up and seating, on the same deals (paired on ``game_id`` in games
  runs: the same sequence of deals; on ``game_id, hand_no`` in hands runs), with the paired t
  interval and the unpaired (Welch) one (`compare.paired_variants`);
* ``points``: per cell and side (a player; a partnership in the classic game), points per hand.

The hand-level figures (declarations, contracts, scoring modes, points) are ratios of sums over
game ids (a hand in a run of hands): a game's hands share its score, a hand's decisions its
cards (with three or four players several are taken in one hand). Shares get Wilson's interval
for clustered trials, means the delta method (`frame_stats.with_share`, `with_ratio`).

The variants of one run may have different numbers of players, whose tables have different
columns: each table is read per player count, over the files of those cells only. Memory
stays bounded: the hand-level sums read one block of every cell at a time (`NorwegianSums`),
the games' statistics are lazy polars scans grouped before collecting (streaming), and the
pairings read one block of every cell at a time (`data.block_pass`).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.norwegian.auction import GRAND, MISERE, NULLO, PASS

from .compare import PairedVariants, PointsSums, paired_variants, points_means
from .data import ACES_KINGS, CELL, ClusterPass, Results, block_pass, collect_each, label
from .frame_stats import (
    CLUSTER,
    cluster_sums,
    sums,
    with_means,
    with_proportion_ci,
    with_ratio,
    with_share,
)
from .portland import _ci, _order, _rank, _rules, _where

__all__ = ["FEATURES", "PAIRED_GAME_METRICS", "PAIRED_HAND_METRICS", "TABLES", "groups",
           "norwegian_report", "paired_bases"]

TABLES = ("declarations", "contracts", "scoring_modes", "game_length", "game_outcomes",
          "norwegian_paired", "points")
CONTRACT_NAMES = {GRAND: "grand", MISERE: "misère", NULLO: "nullo", PASS: "pass"}
OPTIONS = {2: (GRAND, MISERE), 3: (GRAND, PASS), 4: (GRAND, NULLO, PASS)}
CHOOSERS = {2: "the non-dealer (the dealer's declaration is the opposite)",
            3: "each player asked in turn, until one says grand",
            4: "each player asked in turn, until the first bid"}
FEATURES = {"all": "every decision", "aces_kings": "aces and kings held",
            "longest_suit": "longest suit (8: eight or more)"}
LONGEST_CAP = 8
SUITS = [((1 << 13) - 1) << (13 * suit) for suit in range(4)]  # bit 13 * suit + rank
PAIRED_GAME_METRICS = {
    "n_hands": "hands per game",
    "unfinished": "share of games stopped unfinished at max_hands",
    "draw": "share of games drawn",
    "win_0": "share of games side 0 wins",
    "win_1": "share of games side 1 wins",
}
PAIRED_HAND_METRICS = {"points_0": "points of side 0 per hand",
                       "declarer_points": "the declarer's points per hand",
                       "made": "share of hands whose contract is made"}
SHARES = ("unfinished", "draw", "win_0", "win_1", "made")


# --- the run's variants by player count --------------------------------------------------------

def players_of(res: Results) -> dict[str, int]:
    """Variant -> its number of players."""
    return {v: int(r.get("players", 2)) for v, r in _rules(res).items()}


def groups(res: Results) -> dict[int, list[str]]:
    """Player count -> its variants, in the experiment's order (one table schema each)."""
    out: dict[int, list[str]] = {}
    for v, p in players_of(res).items():
        out.setdefault(p, []).append(v)
    return out


def paired_bases(res: Results) -> dict[str, str]:
    """Each variant -> the experiment's first variant with the same number of players (whose
    cells play the same deals)."""
    return {v: vs[0] for vs in groups(res).values() for v in vs[1:]}


def _files(res: Results, table: str, variants: list[str], block: int | None = None) -> list[Path]:
    blocks = range(res.n_blocks) if block is None else (block,)
    paths = (res.path / table / f"part-{res.cell_key(c)}-{b:05d}.parquet"
             for c in res.cells if c["variant"] in variants for b in blocks)
    return [p for p in paths if p.exists()]


def _scan(res: Results, table: str, variants: list[str],
          block: int | None = None) -> pl.LazyFrame | None:
    """The files of a table for these variants (one player count: one schema), lazily."""
    files = _files(res, table, variants, block)
    if not files:
        return None
    return pl.scan_parquet(files).with_columns(pl.col("variant", "lineup").cast(pl.String))


# --- per-hand expressions ----------------------------------------------------------------------

def _at(name: str, index: pl.Expr, count: int) -> pl.Expr:
    """Column ``<name>_<i>`` with the seat or side ``i`` given per row by ``index`` (null when
    ``index`` is none of 0..count-1, e.g. -1)."""
    out = pl.when(index == 0).then(pl.col(f"{name}_0"))
    for i in range(1, count):
        out = out.when(index == i).then(pl.col(f"{name}_{i}"))
    return out


def book(players: int) -> int:
    """b = floor(T / 2): 6 with 13 tricks a hand, 8 with 17 (3 players)."""
    return (17 if players == 3 else 13) // 2


def hand_exprs(players: int) -> dict[str, pl.Expr]:
    """``made`` (the declarer's contract: its own table value positive; null when nobody
    declared) and ``declarer_points`` (the declarer's, or its side's, points for the hand)."""
    b, d = book(players), pl.col("declarer").cast(pl.Int16)
    if players < 4:  # the declarer's own tricks (3 players: always grand)
        k = _at("tricks", d, players).cast(pl.Int16)
        made = pl.when(pl.col("contract") == MISERE).then(k <= b).otherwise(k > b)
        points = _at("points", d, players)
    else:  # classic: the bidder's side's tricks
        k = (_at("tricks", d, 4).cast(pl.Int16) + _at("tricks", (d + 2) % 4, 4))
        made = pl.when(pl.col("contract") == NULLO).then(k <= b).otherwise(k > b)
        points = _at("points", d % 2, 2)
    return {"made": pl.when(d >= 0).then(made),
            "declarer_points": pl.when(d >= 0).then(points).cast(pl.Int32)}


def _features(hand: pl.Expr) -> dict[str, pl.Expr]:
    longest = pl.max_horizontal([(hand & pl.lit(m, pl.UInt64)).bitwise_count_ones()
                                 for m in SUITS])
    return {"aces_kings": (hand & pl.lit(ACES_KINGS, pl.UInt64)).bitwise_count_ones()
            .cast(pl.Int8),
            "longest_suit": pl.min_horizontal(longest, pl.lit(LONGEST_CAP)).cast(pl.Int8)}


# --- block by block, per player count ----------------------------------------------------------

CODES = tuple(CONTRACT_NAMES)  # every declaration and contract code
COMBOS = [(c, f) for c in CODES for f in (False, True)]  # a contract, and whether it was forced


def _combo(code: int, forced: bool) -> str:
    return f"{code}{'f' if forced else 'c'}"


def _cluster_queries(res: Results, players: int, hands: pl.LazyFrame) -> dict[str, pl.LazyFrame]:
    """The `cluster_sums` (per game id: a game's hands share its score, and every cell's hands
    of a game id their deals) of one block's hands of one player count, by table:

    * ``decisions``: per cell, feature and value, ``d`` (decisions by choice), and per
      declaration code ``o``: ``k<o>`` (declared), ``m<o>`` (declared and made); the feature
      ``ak4`` (value 1: four or more aces and kings) for the findings;
    * ``contracts``: per cell, ``n`` (hands) and per contract and whether it was forced
      (`_combo`): ``x<combo>`` (hands), ``d<combo>`` (decided), ``m<combo>`` (made),
      ``p<combo>`` (the declarer's points); ``dall``, ``mall``: over every contract;
    * ``modes``: per cell, ``n`` (hands), ``equal``, ``doubled``, ``total`` (the sides'
      points);
    * ``points``: per cell and side, as `compare.PointsSums`."""
    sides = 2 if players == 4 else players
    ex = hand_exprs(players)
    seats = pl.concat([hands.select(
        *CELL, CLUSTER, "declarer", seat=pl.lit(s, pl.Int8), decision=pl.col(f"declaration_{s}"),
        made=ex["made"], hand=pl.col(f"hand_{s}")) for s in range(players)])
    chosen = (seats.filter(pl.col("seat") == pl.col("declarer")) if players == 2
              else seats.filter(pl.col("decision") >= 0))
    feats = _features(pl.col("hand"))
    # a contract declared by choice is the declarer's: only its row is not a pass
    dec = chosen.with_columns(d=pl.lit(1), **{
        f"k{o}": pl.col("decision") == o for o in CODES}, **{
        f"m{o}": (pl.col("decision") == o) & pl.col("made").fill_null(False) & (o != PASS)
        for o in CODES})
    counts = ["d", *[f"{k}{o}" for o in CODES for k in "km"]]
    pairs = [p for o in CODES for p in (("d", f"k{o}"), (f"k{o}", f"m{o}"))]
    decisions = pl.concat([
        dec.with_columns(feature=pl.lit(f), value=(pl.lit(0, pl.Int8) if f == "all"
                                                   else feats[f] if f in feats
                                                   else (feats["aces_kings"] >= 4)
                                                   .cast(pl.Int8)))
        for f in [*FEATURES, "ak4"]])
    decisions = cluster_sums(decisions, [*CELL, "feature", "value"], counts, pairs=pairs)
    contract = hands.with_columns(**ex)
    decided = pl.col("declarer_points").is_not_null()
    per = {"n": pl.lit(1), "dall": decided, "mall": pl.col("made").fill_null(False),
           "pall": pl.col("declarer_points").fill_null(0)}
    for code, forced in COMBOS:
        mine = (pl.col("contract") == code) & (pl.col("forced") == forced)
        c = _combo(code, forced)
        per |= {f"x{c}": mine, f"d{c}": mine & decided,
                f"m{c}": mine & pl.col("made").fill_null(False),
                f"p{c}": pl.when(mine).then(pl.col("declarer_points")).otherwise(0)
                .fill_null(0)}
    contracts = cluster_sums(
        contract.select(*CELL, CLUSTER, **per), CELL, list(per),
        pairs=[("dall", "mall"), *[p for code, forced in COMBOS for c in [_combo(code, forced)]
                                   for p in (("n", f"x{c}"), (f"d{c}", f"m{c}"),
                                             (f"d{c}", f"p{c}"))]])
    pts = [pl.col(f"points_{s}") for s in range(sides)]
    modes = cluster_sums(hands.select(
        *CELL, CLUSTER, n=pl.lit(1), equal=pl.all_horizontal([p == pts[0] for p in pts[1:]]),
        doubled=pl.col("doubled"), total=pl.sum_horizontal(pts)), CELL,
        ["n", "equal", "doubled", "total"],
        pairs=[("n", "equal"), ("n", "doubled"), ("n", "total")])
    points = PointsSums(res, sides).sums(hands)
    return {"decisions": decisions, "contracts": contracts, "modes": modes, "points": points}


class NorwegianSums(ClusterPass):
    """`_cluster_queries` of every player count, one block at a time (``units``: the block
    number), keyed by ``part`` (the table) and ``players``."""

    keys = ["part", "players", *CELL, "feature", "value", "side"]

    def sums(self, block):
        parts = []
        for players, variants in groups(self.res).items():
            hands = _scan(self.res, "hands", variants, block)
            if hands is None:
                continue
            queries = _cluster_queries(self.res, players, hands)
            frames = collect_each(list(queries.values()))
            parts += [f.with_columns(part=pl.lit(name), players=pl.lit(players, pl.Int8))
                      for name, f in zip(queries, frames, strict=True)]
        return pl.concat(parts, how="diagonal_relaxed") if parts else None


def _game_queries(res: Results, players: int, variants: list[str]) -> dict[str, pl.LazyFrame]:
    """Per cell over its games (independent units): games, finished, draws, wins per side and
    the moments of the game length; the first hand's dealer."""
    hands = _scan(res, "hands", variants)
    games = _scan(res, "games", variants) if res.games_mode else None
    if games is None or hands is None:
        return {}
    sides = 2 if players == 4 else players
    n_hands = pl.col("n_hands").cast(pl.Float64)
    return {
        "games": games.group_by(CELL).agg(
            pl.len().alias("games"), pl.col("finished").sum().cast(pl.Int64),
            pl.col("draw").sum().cast(pl.Int64).alias("draws"),
            *[(pl.col("winner") == s).sum().cast(pl.Int64).alias(f"wins_{s}")
              for s in range(sides)],
            *sums("n_hands", n_hands),
            *sums("n_hands_finished", n_hands.filter(pl.col("finished")))),
        "first": hands.filter(pl.col("hand_no") == 1).group_by(CELL).agg(
            first_dealer=pl.col("dealer").min(), first_dealer_max=pl.col("dealer").max())}


# --- tables ------------------------------------------------------------------------------------

def _value_label(feature: str, value: int) -> str:
    if feature == "all":
        return "all"
    return f"{value}+" if feature == "longest_suit" and value >= LONGEST_CAP else str(value)


def declarations_table(res: Results, sums_: pl.DataFrame | None) -> pl.DataFrame | None:
    """``declarations`` from the decisions part of `NorwegianSums`: per cell, feature, value and
    option the decisions, those that chose the option (``rate``) and, of those, the contracts
    made (``success``), with their intervals over game ids."""
    if sums_ is None or not sums_.height:
        return None
    rows = []
    sums_ = sums_.filter(pl.col("feature") != "ak4")
    for players in sums_["players"].unique(maintain_order=True):
        mine = sums_.filter(players=players)
        for o in OPTIONS[players]:
            part = with_share(mine, "rate", "d", f"k{o}")
            part = with_share(part, "success", f"k{o}", f"m{o}")
            rows.append(part.select(
                *CELL, "players", pl.lit(CHOOSERS[players]).alias("chooser"), "feature",
                pl.col("value").cast(pl.Int8), pl.col("s_d").cast(pl.Int64).alias("decisions"),
                pl.lit(o, pl.Int8).alias("decision"),
                pl.col(f"s_k{o}").cast(pl.Int64).alias("chosen"), "rate", "rate_lo",
                "rate_hi", pl.col(f"s_m{o}").cast(pl.Int64).alias("made"),
                *[pl.col(f"success{e}") for e in ("", "_lo", "_hi")]))
    out = pl.concat(rows).with_columns(
        option=pl.col("decision").replace_strict(CONTRACT_NAMES, return_dtype=pl.String),
        label=pl.struct("feature", "value").map_elements(
            lambda r: _value_label(r["feature"], r["value"]), return_dtype=pl.String))
    passed = pl.col("decision") == PASS
    out = out.with_columns(made=pl.when(passed).then(None).otherwise(pl.col("made")),
                           **{f"success{e}": pl.when(passed).then(None).otherwise(
                               pl.col(f"success{e}")) for e in ("", "_lo", "_hi")})
    out = out.select(*CELL, "players", "chooser", "feature", "value", "label", "decisions",
                     "option", "chosen", "rate", "rate_lo", "rate_hi", "made", "success",
                     "success_lo", "success_hi")
    return _order(res, out, _rank(list(FEATURES), "feature"), "value",
                  _rank(list(CONTRACT_NAMES.values()), "option"))


def _chooser(players: int, forced: bool) -> str:
    if not forced:
        return {2: "the non-dealer", 3: "the grand bidder", 4: "the first bidder"}[players]
    return "the dealer (all passed)" if players == 3 else "nobody (all passed)"


def contracts_table(res: Results, sums_: pl.DataFrame | None) -> pl.DataFrame | None:
    """``contracts`` from the contracts part of `NorwegianSums`: per cell and contract played
    (chosen or forced), its share of the cell's hands, its success (made of decided) and the
    declarer's points per decided hand, with their intervals over game ids."""
    if sums_ is None or not sums_.height:
        return None
    rows = []
    for code, forced in COMBOS:
        c = _combo(code, forced)
        part = with_share(sums_, "share", "n", f"x{c}")
        part = with_share(part, "success", f"d{c}", f"m{c}")
        part = with_ratio(part, "declarer_points", f"d{c}", f"p{c}")
        rows.append(part.filter(pl.col(f"s_x{c}") > 0).select(
            *CELL, "players", pl.lit(CONTRACT_NAMES[code]).alias("contract"),
            pl.lit(forced).alias("forced"),
            pl.col("players").map_elements(lambda p, f=forced: _chooser(p, f),
                                           return_dtype=pl.String).alias("chosen_by"),
            pl.col(f"s_x{c}").cast(pl.Int64).alias("hands"),
            pl.col("s_n").cast(pl.Int64).alias("cell_hands"), "share", "share_lo", "share_hi",
            pl.col(f"s_d{c}").cast(pl.Int64).alias("decided"),
            pl.col(f"s_m{c}").cast(pl.Int64).alias("made"), "success", "success_lo",
            "success_hi", "declarer_points", "declarer_points_lo", "declarer_points_hi"))
    out = pl.concat(rows)
    return _order(res, out, "forced", _rank(list(CONTRACT_NAMES.values()), "contract"))


def modes_table(res: Results, sums_: pl.DataFrame | None) -> pl.DataFrame | None:
    if sums_ is None or not sums_.height:
        return None
    rules = _rules(res)
    out = with_share(sums_, "equal_rate", "n", "equal")
    out = with_share(out, "doubled_rate", "n", "doubled")
    out = with_ratio(out, "total_points", "n", "total")
    rule = {v: ("classic" if r.get("players") == 4 else r.get("scoring", "both"),
                bool(r.get("double_points", False))) for v, r in rules.items()}
    out = out.with_columns(
        scoring=pl.col("variant").replace_strict({v: s for v, (s, _) in rule.items()},
                                                 return_dtype=pl.String),
        double_points=pl.col("variant").replace_strict({v: d for v, (_, d) in rule.items()},
                                                       return_dtype=pl.Boolean),
        hands=pl.col("s_n").cast(pl.Int64), equal=pl.col("s_equal").cast(pl.Int64),
        doubled=pl.col("s_doubled").cast(pl.Int64))
    out = out.select(*CELL, "players", "scoring", "double_points", "hands", "equal",
                     "equal_rate", "equal_rate_lo", "equal_rate_hi", "total_points",
                     "total_points_lo", "total_points_hi", "doubled", "doubled_rate",
                     "doubled_rate_lo", "doubled_rate_hi")
    return _order(res, out)


def game_tables(res: Results, parts: dict[int, pl.DataFrame],
                first: dict[int, pl.DataFrame]) -> tuple[pl.DataFrame | None,
                                                          pl.DataFrame | None]:
    if not parts:
        return None, None
    length = pl.concat([g.select(*CELL, "games", "finished", "n_hands_s1", "n_hands_s2",
                                 "n_hands_finished_s1", "n_hands_finished_s2")
                        .with_columns(players=pl.lit(p, pl.Int8)) for p, g in parts.items()])
    length = with_means(length, ["n_hands"], n="games")
    length = with_means(length, ["n_hands_finished"], n="finished")
    dealers = pl.concat(first.values()).select(*CELL, first_dealer=pl.when(
        pl.col("first_dealer") == pl.col("first_dealer_max")).then(pl.col("first_dealer"))
        .otherwise(-1).cast(pl.Int8))
    length = length.join(dealers, on=CELL, how="left").select(
        *CELL, "players", "first_dealer", "games", "n_hands", "n_hands_lo", "n_hands_hi",
        "finished", "n_hands_finished", "n_hands_finished_lo", "n_hands_finished_hi")
    outcomes = []
    for p, g in parts.items():
        sides = 2 if p == 4 else p
        name = "side" if p == 4 else "player"
        kinds = [(f"{name} {s} wins", f"wins_{s}") for s in range(sides)]
        kinds += [("draw", "draws"), ("unfinished", None)]
        for k, (outcome, col) in enumerate(kinds):
            count = (pl.col(col) if col else pl.col("games") - pl.col("finished"))
            outcomes.append(g.select(*CELL, players=pl.lit(p, pl.Int8), order=pl.lit(k),
                                     outcome=pl.lit(outcome), games=pl.col("games"),
                                     count=count.cast(pl.Int64)))
    out = with_proportion_ci(pl.concat(outcomes), "count", "games", "share")
    return _order(res, length), _order(res, out, "order").drop("order")


def points_table(res: Results, sums_: pl.DataFrame | None) -> pl.DataFrame | None:
    """Per cell and side (a player; a partnership in the classic game): hands, mean points
    per hand (interval over game ids) and the side's strategy."""
    if sums_ is None or not sums_.height:
        return None
    rows = []
    for players in sums_["players"].unique(maintain_order=True):
        mine = points_means(sums_.filter(players=players).with_columns(
            pl.col("side").cast(pl.Int8)))
        if players == 4:
            mine = label(res, mine, by="side")
        else:  # a side is a seat
            mine = label(res, mine.rename({"side": "seat"})).rename({"seat": "side"})
        rows.append(mine.with_columns(players=pl.lit(players, pl.Int8)))
    out = pl.concat(rows)
    return _order(res, out.select(*CELL, "players", "side", "strategy",
                                  pl.exclude(*CELL, "players", "side", "strategy")), "side")


# --- pairs across variants: block by block -----------------------------------------------------

def norwegian_units(res: Results, block: int) -> pl.DataFrame:
    """One block of every cell as the units that pair across cells (`data.block_pass`): games
    (games runs: n_hands, winner, finished, draw) or hands (points_0, declarer_points, made),
    with the columns every player count shares."""
    parts = []
    for players, variants in groups(res).items():
        if res.games_mode:
            scan = _scan(res, "games", variants, block)
            if scan is not None:
                parts.append(scan.select(*CELL, "game_id", "n_hands", "winner", "finished",
                                         "draw"))
        else:
            scan = _scan(res, "hands", variants, block)
            if scan is not None:
                parts.append(scan.select(*CELL, "game_id", "hand_no", **{
                    k: e.cast(pl.Float64) for k, e in {
                        "points_0": pl.col("points_0"), **hand_exprs(players)}.items()}))
    return pl.concat(parts).collect()


def _paired(res: Results) -> PairedVariants | None:
    bases = paired_bases(res)
    if not bases:
        return None
    if res.games_mode:
        metrics = {"n_hands": pl.col("n_hands").cast(pl.Float64),
                   "unfinished": (~pl.col("finished")).cast(pl.Float64),
                   "draw": pl.col("draw").cast(pl.Float64),
                   "win_0": (pl.col("winner") == 0).cast(pl.Float64),
                   "win_1": (pl.col("winner") == 1).cast(pl.Float64)}
    else:
        metrics = {m: pl.col(m) for m in PAIRED_HAND_METRICS}
    return PairedVariants(res, bases=bases, metrics=metrics)


# --- findings ----------------------------------------------------------------------------------

def _split(extra: pl.DataFrame | None, cell: dict, value: int) -> str:
    """The grand rate of a cell's choosers with (``value`` 1) or without four aces and kings,
    from the decisions part's feature ``ak4``."""
    if extra is None:
        return "– (none)"
    rows = extra.filter(feature="ak4", value=value, variant=cell["variant"],
                        lineup=cell["lineup"], swapped=cell["swapped"])
    if not rows.height or not rows["s_d"][0]:
        return "– (none)"
    r = with_share(rows, "rate", "d", f"k{GRAND}").row(0, named=True)
    return _ci(r, "rate", 1, 100, unit="%")


def _declaration_findings(res: Results, t: dict, extra: pl.DataFrame | None) -> list[str]:
    dec = t.get("declarations")
    if dec is None:
        return []
    out = []
    for players, variants in groups(res).items():
        v = variants[0]
        for lineup in res.lineups:
            rows = dec.filter(variant=v, lineup=lineup, swapped=False)
            if not rows.height:
                continue
            where = _where(res, {"variant": v, "lineup": lineup, "swapped": False})
            grand = rows.filter(feature="all", option="grand").row(0, named=True)
            cell = {"variant": v, "lineup": lineup, "swapped": False}
            who = "the non-dealer" if players == 2 else "a player asked in turn"
            text = (f"{where} ({players} players): {who} declared grand in "
                    f"{_ci(grand, 'rate', 1, 100, unit='%')} of {grand['decisions']:,} "
                    "decisions; with 4 or more aces and kings "
                    f"{_split(extra, cell, 1)}, with fewer {_split(extra, cell, 0)}.")
            made = [f"{r['option']} made {_ci(r, 'success', 1, 100, unit='%')}"
                    for r in rows.filter(feature="all").iter_rows(named=True)
                    if r["option"] != "pass" and r["chosen"]]
            if made:
                text += " Declared by choice: " + ", ".join(made) + "."
            out.append(text)
    return out


def _choice_findings(res: Results, t: dict, extra: pl.DataFrame | None) -> list[str]:
    con = t.get("contracts")
    if con is None:
        return []
    out = []
    two = con.filter(players=2)
    if two.height:
        out.append(
            "What is measured: a declaration counts as right when the declarer's own table "
            "value for the hand is positive (made). In the 2-player game that is exact on the "
            "same tricks: with the tricks the declarer took, the other declaration's table "
            "gives the negative value (misère(k) = −grand(k) for every k), so a made contract "
            "scored more than the other choice would have and a failed one less. The play "
            "itself would differ under the other contract: a proxy, not a replay.")
        right = with_share(extra, "right", "dall", "mall") if extra is not None else None
        for (v, lineup, swapped), rows in two.group_by(CELL, maintain_order=True):
            n = int(rows["decided"].sum())
            mine = (right.filter(variant=v, lineup=lineup, swapped=swapped)
                    if right is not None else None)
            share = (_ci(mine.row(0, named=True), "right", 1, 100, unit="%")
                     if mine is not None and mine.height and n else "– (none)")
            parts = ", ".join(f"{r['contract']} {_ci(r, 'success', 1, 100, unit='%')} of "
                              f"{r['hands']:,}" for r in rows.iter_rows(named=True))
            out.append(f"{_where(res, {'variant': v, 'lineup': lineup, 'swapped': swapped})}: "
                       f"the non-dealer's choice was right in {share} of {n:,} hands "
                       f"({parts}).")
    for r in con.filter(pl.col("players") > 2).iter_rows(named=True):
        if not r["decided"]:
            continue
        out.append(f"{_where(res, r)}: {r['contract']} played by {r['chosen_by']} in "
                   f"{_ci(r, 'share', 1, 100, unit='%')} of hands, made in "
                   f"{_ci(r, 'success', 1, 100, unit='%')}; the declarer's points per hand "
                   f"{_ci(r, 'declarer_points', 2, sign=True)}.")
    return out


def _scoring_findings(res: Results, t: dict) -> list[str]:
    modes, outcomes = t.get("scoring_modes"), t.get("game_outcomes")
    if modes is None:
        return []
    out = []
    both = modes.filter(scoring="both")
    if both.height:
        k, n = int(both["equal"].sum()), int(both["hands"].sum())
        verdict = ("as it must: grand(k) = misère(T − k) for every trick count k, so the "
                   "player who declares, the one who does not and (3 players) both misère "
                   "players always score the same" if k == n else
                   "VIOLATED: scoring \"both\" should give every player the same points")
        text = (f"Scoring \"both\": every player scored the same points in {100 * k / n:.1f}% "
                f"of {n:,} hands ({', '.join(both['variant'].unique(maintain_order=True))}); "
                f"{verdict}.")
        if outcomes is not None:
            rows = outcomes.filter(pl.col("variant").is_in(both["variant"].implode()))
            games = int(rows.filter(outcome="draw")["games"].sum())
            won = int(rows.filter(pl.col("outcome").str.ends_with("wins"))["count"].sum())
            draw = int(rows.filter(outcome="draw")["count"].sum())
            unf = int(rows.filter(outcome="unfinished")["count"].sum())
            text += (f" Hence no game can have a winner: of {games:,} games {won:,} were won, "
                     f"{draw:,} drawn ({100 * draw / games:.1f}%: everyone reached the target "
                     f"together) and {unf:,} stopped unfinished at max_hands "
                     f"({100 * unf / games:.1f}%).")
        out.append(text)
    for r in modes.filter(pl.col("scoring") != "both").iter_rows(named=True):
        out.append(f"{_where(res, r)} ({r['scoring']}, {r['players']} players"
                   + (", double points" if r["double_points"] else "") + "): the sides scored "
                   f"the same in {_ci(r, 'equal_rate', 1, 100, unit='%')} of hands; total "
                   f"points per hand {_ci(r, 'total_points', 2, sign=True)}.")
    for r in modes.filter("double_points").iter_rows(named=True):
        out.append(f"{_where(res, r)}: double points applied in "
                   f"{_ci(r, 'doubled_rate', 2, 100, unit='%')} of hands (the grand player "
                   "took every trick or none).")
    return out


def _length_findings(res: Results, t: dict) -> list[str]:
    length, paired = t.get("game_length"), t.get("norwegian_paired")
    outcomes = t.get("game_outcomes")
    out = []
    if length is not None and outcomes is not None:
        for r in length.iter_rows(named=True):
            rows = outcomes.filter(pl.col("count") > 0, variant=r["variant"],
                                   lineup=r["lineup"], swapped=r["swapped"])
            out.append(f"{_where(res, r)}: {_ci(r, 'n_hands', 1)} hands per game; "
                       + ", ".join(f"{o['outcome']} {_ci(o, 'share', 1, 100, unit='%')}"
                                   for o in rows.iter_rows(named=True)) + ".")
    if paired is not None and res.games_mode:
        for r in paired.filter(metric="n_hands").iter_rows(named=True):
            unf = paired.filter(metric="unfinished", variant=r["variant"], lineup=r["lineup"],
                                swapped=r["swapped"]).row(0, named=True)
            out.append(f"{_where(res, r)} minus {r['base']} on the same deals: "
                       f"{_ci(r, 'diff', 2, sign=True)} hands per game; unfinished "
                       f"{_ci(unf, 'diff', 1, 100, sign=True, unit=' pp')}.")
    return out


# --- the report --------------------------------------------------------------------------------

def norwegian_report(res: Results) -> dict:
    """Every table of the Norwegian report and the findings of each section:
    ``{"tables": {...}, "findings": {section: [...]}}``."""
    queries = {p: _game_queries(res, p, vs) for p, vs in groups(res).items()}
    names = [(p, name) for p, q in queries.items() for name in q]
    frames = dict(zip(names, collect_each([queries[p][n] for p, n in names]), strict=True))

    def part(name: str) -> dict[int, pl.DataFrame]:
        return {p: f for (p, n), f in frames.items() if n == name}

    sums_ = NorwegianSums(res)
    block_pass(res, [sums_], lambda _, block: block)
    paired = _paired(res)
    block_pass(res, [paired] if paired else [], norwegian_units)
    total = sums_.total()

    def cluster(name: str) -> pl.DataFrame | None:
        return None if total is None else total.filter(part=name)

    tables = {"declarations": declarations_table(res, cluster("decisions")),
              "contracts": contracts_table(res, cluster("contracts")),
              "scoring_modes": modes_table(res, cluster("modes"))}
    tables["game_length"], tables["game_outcomes"] = game_tables(res, part("games"),
                                                                 part("first"))
    if paired is not None:
        tables["norwegian_paired"] = paired_variants(
            res, paired, PAIRED_GAME_METRICS if res.games_mode else PAIRED_HAND_METRICS)
    tables["points"] = points_table(res, cluster("points"))
    tables = {k: v for k, v in tables.items() if v is not None}
    decisions, contracts = cluster("decisions"), cluster("contracts")
    findings = {"declarations": _declaration_findings(res, tables, decisions),
                "choice": _choice_findings(res, tables, contracts),
                "scoring": _scoring_findings(res, tables),
                "length": _length_findings(res, tables),
                "cells": []}
    return {"tables": tables, "findings": findings}

