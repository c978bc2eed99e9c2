"""The Spades study: nil, sandbags, and variants and strategies compared on the same deals
(`reports.nil`, `reports.bags`, `reports.bag_rules`, `reports.compare` compute it; `views`,
`bag_views` and `figures` lay it out with the kit)."""

from __future__ import annotations

from sim.errors import UserError

from ...bags import bag_consumers, bag_units, bags_section
from ...compare import HeadToHead, PairedVariants, compare_tables
from ...data import block_pass
from ...kit.study import Computed, Layout, Part, Study
from ...nil import nil_section
from .. import methods
from ..hands_part import hands_part
from .bag_views import bag_views
from .figures import FIGURES
from .hands import hands_section
from .summary import summary
from .views import compare_views, feature_tables, nil_views

__all__ = ["STUDY"]

TABLES = ("nil_rates", "nil_by_hand", "nil_partner_contract", "bags_per_hand", "bags_per_game",
          "bag_ranking", "bag_cost", "sandbagging", "bag_game_length", "points", "games",
          "paired_variants", "head_to_head", "points_distribution")
NIL_INTRO = ("Nil and blind nil per seat-hand, double nil (both partners nil) per side-hand; "
             "made = the bidder (both bidders) took no trick. By the bidder's hand: spade "
             "length, highest spade, aces and kings, the partner's bid (before or after), "
             "bidding position (1st = left of the dealer). And the partner's contract: the "
             "side's made-contract rate when neither partner bid nil or one did.")
BAGS_INTRO = "Bags, and what each variant's rules make them cost, on the same deals."
BAGS_NOTES = [
    "Bags taken: the bags a side takes in a hand as the standard game counts them (tricks "
    "over a made contract, and a nil bidder's tricks), whatever the rules in force make them "
    "worth (bags_taken_<side>).",
    "Bag cost: what the bags scored, negated: −(overtricks + bag_penalty), e.g. about −1 a "
    "bag before a penalty in the standard game, +10 a bag under three_b.",
    "Contract cost: what overtricks cost through the contract score where a rule scores them "
    "there (exact: more than the bid is a set; double_over: twice the bid or more loses twice "
    "its value): 10 × bid − contract on a side-hand whose side took more than its bid, else 0.",
    "Cost per bag: (bag cost + contract cost) / bags taken, summed over the games; the rule "
    "with the highest cost per bag penalises sandbagging most.",
    "The sandbagger: a line-up's side-0 team that plays otherwise than its opponents (in "
    "experiments/bags.toml a seed player that never ducks to avoid bags) against them over "
    "both seatings of the same cards; its advantage is its side's points minus the other "
    "side's per hand, averaged over the two seatings (negative: what sandbagging costs as a "
    "strategy).",
    "Game length: hands per game, and the paired difference with the first variant on the "
    "same deals.",
    "Bags decided a game: the winner changes when each side's bag points of the whole game "
    "(overtricks + bag_penalty) are taken out of its final score (a tie does not count); "
    "this is a counterfactual on the same play: without the bags the players might have "
    "played otherwise and the game might have ended at another hand.",
    "Intervals are 95%, over game ids (a game's hands share the score and the bag count; "
    "every cell's games of one game id the deals): ratios of sums by the delta method, shares "
    "by Wilson's interval for clustered trials, paired differences t over the deals.",
]
COMPARE_INTRO = ("Points per hand, wins and game length per cell; each variant against the "
                 "first on the same deals (paired differences, with the unpaired interval "
                 "beside it to show what pairing gains); and the head-to-head advantage of a "
                 "line-up's side-0 team over both seatings of the same deals.")


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


def compute(res) -> Computed:
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
    return Computed(res, tables, {k: s["findings"] for k, s in sections.items()},
                    hands=hands_section(res))


def _left_out(res) -> dict[str, list[str]]:
    """One sentence for each part of a section the run gives nothing to show."""
    out: dict[str, list[str]] = {"nil": [], "bags": [], "compare": []}
    if len(res.variants) == 1:
        out["bags"].append(f"The run has one variant ({res.variants[0]}), so the bag rules "
                           "are not ranked or compared: its bags and what they cost follow.")
        out["compare"].append(f"The run has one variant ({res.variants[0]}): there is no "
                              "other variant to compare with on the same deals.")
    if not res.twins:
        out["compare"].append("No line-up was played with its sides' seats swapped "
                              "(swap = true), so there is no head-to-head comparison over "
                              "both seatings.")
    if len(res.cells) == 1:
        out["compare"].append("The run has one cell: its points, wins and game length are in "
                              "the tables below (a figure of one cell would show one point).")
    return out


def _methods(res) -> list[str]:
    return [
        methods.FROM_TABLES,
        *methods.intervals(res),
        methods.pairing(res),
        methods.FILES,
    ]


def layout(computed: Computed) -> Layout:
    res, tables = computed.res, computed.tables
    notes = [n for n in BAGS_NOTES if (res.twins or not n.startswith("The sandbagger"))
             and (len(res.variants) > 1 or not n.startswith("Game length"))]
    parts = [Part("nil", "Nil", NIL_INTRO), Part("bags", "Sandbags", BAGS_INTRO, notes),
             Part("compare", "Variants and strategies", COMPARE_INTRO)]
    left_out = _left_out(res)
    parts.append(hands_part(res, computed.hands, left_out))
    return Layout(parts, [*nil_views(res), *bag_views(res), *compare_views(res)], FIGURES,
                  _methods(res), summary=summary(res, tables), left_out=left_out,
                  tables={"nil": feature_tables(res, tables)},
                  hands={"hands": computed.hands.diagrams})


STUDY = Study("spades", compute, layout, TABLES, tuple(FIGURES))
