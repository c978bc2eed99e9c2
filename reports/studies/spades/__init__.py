"""The Spades study: nil, sandbags, and variants and strategies compared on the same deals
(`reports.nil`, `reports.bags`, `reports.bag_rules`, `reports.compare` compute it; `views`,
`bag_views` and `figures` lay it out with the kit) for the run's variants of four players in two
partnerships; and, where the run plays other tables (RULES.md §4.7), sections on every table:
nil by seat and side, bags by side, wins and points by side, the tables compared
(`reports.table_sections`; `table_layout`, `table_views`, `table_figures`). A run of other tables
alone has those sections only, and says why the others are left out."""

from __future__ import annotations

from ...bags import bag_consumers, bag_units, bags_section
from ...compare import HeadToHead, PairedVariants, compare_tables
from ...data import Results, block_pass
from ...kit.study import Computed, Layout, Part, Study
from ...nil import nil_section
from ...table_sections import shapes, table_section
from .. import methods
from ..hands_part import hands_part
from .bag_views import bag_views
from .figures import FIGURES
from .hands import hands_section
from .summary import summary
from .table_figures import FIGURES as TABLE_FIGURES
from .table_layout import TABLE_TABLES, table_left_out, table_parts, table_summary
from .table_views import compared_tables, table_views
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


def _usual(cell: dict) -> bool:
    rules = cell.get("rules", {})
    return rules.get("players", 4) == 4 and rules.get("partnerships", True)


def _four(res):
    """The run's cells of four players in two partnerships, which sections 1-3 are written for
    (None when it has none); the other tables (RULES.md §4.7) are in the sections on every
    table (`reports.table_sections`), which cover every variant."""
    keep = [c for c in res.cells if _usual(c)]
    if not keep:
        return None
    if len(keep) == len(res.cells):
        return res
    return Results(res.path, {**res.manifest, "experiment": {**res.experiment, "cells": keep}},
                   res.left_out, res.notes)


def _others(res) -> list[str]:
    """The variants played at another table than four players in two partnerships."""
    return list(dict.fromkeys(c["variant"] for c in res.cells if not _usual(c)))


def _on_four(draw):
    """A figure of sections 1-3, drawn from the run's four-player cells."""
    return lambda res, t: None if _four(res) is None else draw(_four(res), t)


def _four_sections(res) -> dict:
    nil = nil_section(res)
    paired = PairedVariants(res) if len(res.variants) > 1 else None
    h2h = HeadToHead(res) if res.twins else None
    block_pass(res, [c for c in (paired, h2h) if c is not None])
    bag_accs = bag_consumers(res)
    block_pass(res, list(bag_accs.values()), bag_units)  # the bag section's own block reads
    bags = bags_section(res, bag_accs)
    compare = compare_tables(res, paired, h2h)
    return {"nil": nil, "bags": bags, "compare": compare}


def compute(res) -> Computed:
    four = _four(res)
    sections = _four_sections(four) if four is not None else {}
    findings = {k: s["findings"] for k, s in sections.items()}
    if _others(res):
        table = table_section(res, shapes(res))
        sections["tables"] = table
        findings |= table["findings"]
    tables = {name: frame for s in sections.values() for name, frame in s["tables"].items()}
    return Computed(res, tables, findings, hands=hands_section(res))


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


def _methods(res, paired: bool = True) -> list[str]:
    return [
        methods.FROM_TABLES,
        *methods.intervals(res),
        *([methods.pairing(res)] if paired else []),
        methods.FILES,
    ]


def _names(variants: list[str]) -> str:
    return ", ".join(variants)


def layout(computed: Computed) -> Layout:
    full, tables = computed.res, computed.tables
    res = _four(full)
    parts, views, figures, summary_, left, laid = [], [], {}, [], {}, {}
    if res is not None:
        notes = [n for n in BAGS_NOTES if (res.twins or not n.startswith("The sandbagger"))
                 and (len(res.variants) > 1 or not n.startswith("Game length"))]
        parts += [Part("nil", "Nil", NIL_INTRO), Part("bags", "Sandbags", BAGS_INTRO, notes),
                  Part("compare", "Variants and strategies", COMPARE_INTRO)]
        views += [*nil_views(res), *bag_views(res), *compare_views(res)]
        figures |= {stem: (key, _on_four(draw)) for stem, (key, draw) in FIGURES.items()}
        summary_ += summary(res, tables)
        left |= _left_out(res)
        laid["nil"] = feature_tables(res, tables)
    others = _others(full)
    if others:
        parts += table_parts(full, tables)
        views += table_views(full, tables)
        laid["tables"] = compared_tables(full, tables)
        figures |= TABLE_FIGURES
        summary_ += table_summary(computed.findings)
        for key, why in table_left_out(full, tables).items():
            left.setdefault(key, []).extend(why)
        if res is not None:
            left.setdefault("summary", []).append(
                f"Sections 1–3 cover the variants of four players in two partnerships "
                f"({_names(res.variants)}); {_names(others)} "
                f"{'plays' if len(others) == 1 else 'play'} at other tables (RULES.md §4.7), "
                "which the sections on every table that follow cover with the others.")
        else:
            left.setdefault("summary", []).append(
                "The sections on nil by the bidder's hand and the partner's contract, on the "
                "bag rules, and on variants and line-ups compared on the same deals are written "
                "for four players in two partnerships, and this run plays none: its tables "
                "(RULES.md §4.7) are reported by seat and side below.")
    parts.append(hands_part(full, computed.hands, left))
    return Layout(parts, views, figures, _methods(full, res is not None), summary=summary_,
                  left_out=left, tables=laid, hands={"hands": computed.hands.diagrams})


STUDY = Study("spades", compute, layout, TABLES + TABLE_TABLES,
              tuple(FIGURES) + tuple(TABLE_FIGURES))
