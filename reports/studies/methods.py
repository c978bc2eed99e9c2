"""The notes on the methods every study's page ends with (its own come between)."""

from __future__ import annotations

__all__ = ["FILES", "FROM_TABLES", "intervals", "pairing"]

FROM_TABLES = ("Built from the Parquet tables and manifest.json of the results folder (the "
               "hands drawn from its sample of records, replayed); nothing was simulated "
               "again.")
FILES = ("Every table is in tables/*.csv with full precision and the interval bounds in "
         "*_lo / *_hi columns (each table's CSV is linked beside it); the figures are in "
         "figures/*.png.")


def intervals(res) -> list[str]:
    """How each kind of interval is computed, a sentence each (`reports.stats`)."""
    unit = ("the game id" if res.games_mode
            else "the game id, which in this run of independent hands is a hand")
    return [
        f"Every interval is 95%, and the unit drawn independently is {unit}: a game's hands "
        "share its score, a hand's seats and sides its cards, and every cell plays the same "
        "deals for the same game id, so a figure over hands, seats or several cells (a row "
        "'all') sums each game id's rows of every cell it covers into one cluster and never "
        "takes the rows as independent.",
        "Shares of seat-, side- or whole hands (nil made, a contract played, honours held): "
        "successes over trials summed over the game ids, with Wilson's interval on the "
        "effective number of trials p(1 − p) / Var(p) and the t quantile on (game ids − 1) "
        "degrees of freedom, Var(p) by the delta method over game ids (the design effect; "
        "Korn and Graubard 1998); a share of games per cell, one trial per game id, has "
        "Wilson's own interval, scipy.stats.binomtest(k, n).proportion_ci(0.95, "
        "method='wilson').",
        "Means per hand, side-hand or bag (points, bags, what a bag costs, the dealer's "
        "advantage): the ratio R = Σy / Σx of the game ids' totals, R ± scipy.stats.t.ppf("
        "0.975, m − 1) · √(m / (m − 1) · Σ(y − R x)²) / Σx over the m game ids (the delta "
        "method, or linearisation, of a ratio estimator; Cochran 1977 §6.4), which is the t "
        "interval where each game id holds one unit.",
        "Means per game of one cell, and paired differences (a variant minus its base, or a "
        "line-up's two seatings, on the same deals: the same game id, or the same game id and "
        "hand in a run of hands): Student t intervals over the games or the pairs, each one "
        "unit, mean ± t.ppf(0.975, n − 1) · sd / √n; the unpaired interval beside a paired one "
        "is Welch's, which takes the two cells as independent samples to show what the pairing "
        "gains.",
    ]


def pairing(res) -> str:
    return ("Paired comparisons use the duplicate deals: every cell plays the same cards for "
            f"the same {' and '.join(res.key)}, so a per-deal difference removes the luck of "
            "the cards.")
