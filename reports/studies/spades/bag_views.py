"""The sandbags section's table views (`reports.bags`, `reports.bag_rules`)."""

from __future__ import annotations

import polars as pl

from ...data import Results
from ...kit.cells import cell, count, num, pct, text
from ...kit.tables import View

__all__ = ["bag_views"]

ALL = "all"


def _ci(name: str, digits: int = 2, sign: bool = False):
    return num(name, digits, sign=sign)


def bag_views(res: Results) -> list[View]:
    """The section's views, in page order: the ranking and the comparisons with the first
    variant only where the run has several variants."""
    base = res.variants[0]
    several = len(res.variants) > 1
    views = []
    ranked = [("rank", count("rank")), ("variant", text("variant")),
              ("bags per side-hand", _ci("bags_per_side_hand", 3)),
              ("bag cost per bag", _ci("bag_cost_per_bag")),
              ("cost per bag (bags + contract)", _ci("cost_per_bag"))]
    if res.twins:
        ranked.append(("sandbagger, points per hand", _ci("sandbagger_advantage", 2, True)))
    if res.games_mode:
        ranked += [("hands per game", _ci("n_hands")),
                   *([(f"vs {base} (paired)", _ci("n_hands_diff", 2, True))] if several else []),
                   ("bags decided (% of games)", pct("winner_changed_rate"))]
    views.append(View(
        "bags", "bag_ranking", "The bag rules ranked: which penalises sandbagging most", ranked,
        note="One row per rule, every line-up pooled, ranked by the cost per bag taken (bag "
             "cost + contract cost, summed over the games, divided by the bags taken; "
             "delta-method interval, the game as cluster). Bag cost per bag: the bag points "
             "alone, −(overtricks + bag_penalty). Sandbagger: the first line-up whose two "
             "teams differ, its side-0 team's points minus its opponents' per hand over both "
             "seatings of the same cards. Hands per game and the paired difference with "
             f"{base}: each game id averaged over the cells, t intervals. Bags decided: share "
             "of games whose winner changes without the bag points (Wilson)."))
    if not several:
        views.pop()
    cost_cols = [("side-hands", count("side_hands")), ("bags taken", count("bags_taken")),
                 ("bags per side-hand", _ci("bags_per_side_hand", 3)),
                 ("bag cost per side-hand", _ci("bag_cost_per_side_hand")),
                 ("contract cost per side-hand", _ci("contract_cost_per_side_hand")),
                 ("cost per bag", _ci("cost_per_bag"))]
    views += [
        View("bags", "bag_cost", "What bags cost, by rule (all line-ups)",
             [("variant", text("variant")), ("games", count("games")), *cost_cols],
             rows=lambda f: f.filter(lineup=ALL, strategy=ALL),
             note="Per side-hand: sums over the games divided by the side-hands; per bag: "
                  "divided by the bags taken. Delta-method intervals with the game id as "
                  "cluster (every cell's hands of one game id: the same deals)."),
    ]
    if len(res.cells) > 1:
        views.append(View(
            "bags", "bag_cost", "What bags cost, by line-up and the side's strategy",
            [("variant", text("variant")), ("line-up", text("lineup")),
             ("strategy", text("strategy")), *cost_cols],
            rows=lambda f: f.filter(pl.col("lineup") != ALL), markdown=False, folded=True))
    if res.twins:
        views.append(View(
            "bags", "sandbagging", "The cost of sandbagging as a strategy",
            [("variant", text("variant")), ("team (side 0)", text("strategy")),
             ("opponent", text("opponent")), ("hands", count("hands")),
             ("points per hand [paired 95%]", _ci("advantage", 2, True)),
             ("unswapped", num("mean_unswapped", 2, sign=True)),
             ("swapped", num("mean_swapped", 2, sign=True)),
             ("team bags per side-hand", num("team_bags_per_side_hand", 2)),
             ("opponent bags per side-hand", num("opponent_bags_per_side_hand", 2))],
            note="Per hand found in both seatings (the same game id and hand number, the same "
                 "cards): the team's side's points minus the other side's, averaged over the "
                 "two seatings; the mean over hands with a delta-method interval, the game id "
                 "as cluster. Unswapped, swapped: each seating alone. Identical play (a rule "
                 "under which the two teams play alike) gives exactly 0."))
    if res.games_mode:
        length_cols = [("hands per game", _ci("n_hands")),
                       (f"{base}", num("n_hands_base", 2)),
                       ("difference [paired 95%]", _ci("diff", 2, True))]
        game_cols = [("games", count("games")), ("bags per game", num("bags_per_game", 2)),
                     ("penalties per game", num("penalties_per_game", 3)),
                     ("penalty points per game", num("penalty_points_per_game", 1)),
                     ("bags decided", count("winner_changed")),
                     ("bags decided (%)", pct("winner_changed_rate")),
                     ("with the contract cost (%)", pct("winner_changed_all_rate"))]
        if several:  # a run of one variant has nothing to compare its length with
            views += [
                View("bags", "bag_game_length", f"Game length, each rule against {base}",
                     [("variant", text("variant")), ("game ids", count("games")), *length_cols],
                     rows=lambda f: f.filter(lineup=ALL),
                     note="Every cell of a game id (the same deals) averaged first, then the t "
                          "interval over game ids; the difference is paired on the game id."),
                View("bags", "bag_game_length", "Game length per cell",
                     [("variant", text("variant")), ("line-up", cell), ("games", count("games")),
                      *length_cols],
                     rows=lambda f: f.filter(pl.col("lineup") != ALL), markdown=False,
                     folded=True),
            ]
        views += [
            View("bags", "bags_per_game", "Bags per game, and the games bags decided",
                 [("variant", text("variant")), *game_cols],
                 rows=lambda f: f.filter(lineup=ALL),
                 note="Bags per game: bags taken, both sides. Penalties per game: hands in "
                      "which a side paid a bag penalty, both sides. Bags decided: the final "
                      "scores without each side's bag points of the game (overtricks + "
                      "bag_penalty) would have made the other side the winner, a "
                      "counterfactual on the same play; with the contract cost: the contract "
                      "cost given back as well (overtricks free). Intervals over the game ids, "
                      "every cell's game of one id (the same deals) one cluster: ratios by the "
                      "delta method, shares Wilson for clustered trials."),
        ]
        if len(res.cells) > 1:
            views.append(View(
                "bags", "bags_per_game", "Per game, by cell",
                [("variant", text("variant")), ("line-up", cell), *game_cols],
                rows=lambda f: f.filter(pl.col("lineup") != ALL), markdown=False,
                folded=True))
    views += [
        View("bags", "bags_per_hand", "Bags taken and bag penalties per side-hand, by variant",
             [("variant", text("variant")), ("side-hands", count("side_hands")),
              ("bags per side-hand", num("bags_per_side_hand", 3)),
              ("penalties per 100 side-hands", num("penalties_per_100", 2)),
              ("penalty points per side-hand", num("penalty_points_per_side_hand", 2))],
             rows=lambda f: f.filter(lineup=ALL, side="both"),
             note="All line-ups pooled. Bags and penalty points per side-hand: ratios of sums "
                  "over game ids (delta method); penalties (side-hands with a penalty): "
                  "Wilson for trials clustered by game id."),
        View("bags", "bags_per_hand", "Per cell and side",
             [("variant", text("variant")), ("line-up", cell), ("side", text("side")),
              ("strategy", text("strategy")), ("side-hands", count("side_hands")),
              ("bags per side-hand", num("bags_per_side_hand", 3)),
              ("penalties per 100", num("penalties_per_100", 2)),
              ("penalty points per side-hand", num("penalty_points_per_side_hand", 2))],
             rows=lambda f: f.filter(pl.col("lineup") != ALL),
             markdown=False, folded=True),
    ]
    return views
