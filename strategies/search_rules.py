"""Which Spades rules the ``search`` player plays (issue 21 item 1, `strategies.search`), and the
one-line refusal of the others.

It plays the keys of RULES.md §3 (any values) at four players in partnerships and at the tables
of §4.7 (`TABLE_KEYS`, `TABLES`, `SIX_DECKS`), at four players the jokers and trump orders of
§4.2 whose cards rank as they lie (`CARD_ORDER_KEYS`, `ranks_by_bits`), and at all of them the
house rules of §4 whose plug-in parts it need not know to play (`PLAYED_PARTS`,
`played_house_rules`) or that it plays by name (face-up cards, one exchange of cards, §4.4's own
bidding decisions, misdeals); the rules that change how its deals are drawn are named here too
(`bids_unweighed`, `play_constrained`).
"""

from __future__ import annotations

import dataclasses
import functools

from sim.spades import house
from sim.spades.constraints import constraint_for
from sim.spades.hand import deck_for
from sim.spades.plugin import HouseRule
from sim.spades.rules import SpadesRules

__all__ = ["CARD_ORDER_KEYS", "CONTRACT_PARTS", "MISDEALS", "OWN_BIDDING", "PLAYED_PARTS",
           "PLAY_PARTS", "SECOND_KEYS", "SIX_DECKS", "STANDARD_KEYS", "TABLES", "TABLE_KEYS",
           "bids_unweighed", "play_constrained", "played_house_rules", "ranks_by_bits",
           "refusal"]

# the keys of RULES.md §3, the standard game: the search plays any value of these, and every
# other key at its default
STANDARD_KEYS = frozenset({"nil", "nil_bonus", "nil_tricks", "blind_nil", "blind_nil_bonus",
                           "blind_nil_min_deficit", "spades_broken", "max_team_bid",
                           "bag_limit", "bag_penalty", "target_score", "mercy_score",
                           "max_hands"})
# RULES.md §4.7: the tables it plays besides four in partnerships: each player his own side
# (``players`` 3 or 5, or 4 with ``partnerships = false``), six players with the decks of
# `SIX_DECKS` in any ``teams`` shape, either ``duplicate_wins``, eight (``cancel_spades``), and
# two players in any ``draw_mode`` (who draw their hands: the opponent's hand is dealt as his
# draw makes it likely, `strategies.draw_deals`); the other keys of §4.7 at their defaults (no
# jokers, the 2C out at three players, 2D and 2H at five)
TABLE_KEYS = frozenset({"players", "partnerships", "deck", "teams", "duplicate_wins",
                        "draw_mode"})
TABLES = (2, 3, 4, 5, 6, 8)
# RULES.md §4.2: the jokers and trump orders it plays at four players, where the deck's cards
# rank as their bits lie (`ranks_by_bits`: the equal cards of `candidates` are then a run of one
# suit, and the sampler's suits are the rules' suits, a left bower or a joker a spade)
CARD_ORDER_KEYS = frozenset({"jokers", "trump_order", "jokers_remove"})
# the six players' decks it plays (RULES.md §4.7): one deck without the 2s, two without the 2Cs,
# two with four jokers (the sampler deals two decks' copies, `strategies.sampling`;
# ``cancel_spades`` at six and eight players plays two decks too)
SIX_DECKS = ("no_twos", "double_minus_2c", "double_jokers")
# RULES.md §4: the parts of a house rule (`sim.spades.plugin.HouseRule`) the search plays without
# knowing the rule: the score's (the rollouts are scored by the engine's own phases: the score,
# the trick bonuses, how bags are counted, the game's end, a table column), the open bids' (bid
# rules and bans, §4.4 partnership_bidding's joint bid: it bids among the bids the engine opens,
# a joint bidder's partner asked nothing), the play's constraints, first
# leader and reading of the voids (its deals fit to them: `PLAY_PARTS`) and the side contracts'
# (`CONTRACT_PARTS`); a rule with any other part is refused, but those `played_house_rules` names
PLAYED_PARTS = frozenset({"score", "trick_bonus", "bags", "ends_game", "bids", "bans", "joint_bid",
                          "looks",
                          "constraint", "leads", "first_leader", "void_rule", "refuse",
                          "refuse_among", "check_contracts", "no_blind_nil",
                          *("contracts", "contract", "contract_ban", "bid_contract", "columns"),
                          "own_scoring"})
# RULES.md §4.4's side contracts (team nil, Mo, bemo, ten for 200 ...): the parts by which a
# rule offers one; the search then plays the cards and its bids, its declarations the rollout
# strategy's (`ForcedBid`), and the bids do not weigh its deals (`bids_unweighed`)
CONTRACT_PARTS = ("contracts", "bid_contract")
# RULES.md §4.4's bidding decisions whose outcome the views hold (the bids as they stand, which
# were bid blind, the no-trump bids, the halves): blind bids, raising a bid, no trump, a half;
# played as the side contracts are
OWN_BIDDING = ("blind_bids", "bid_raise", "no_trump_bids", "half_trick_bids")
# RULES.md §4.1's misdeals: the deals the search draws are those no seat would have called
# (`SearchStrategy._misdeals`), the call itself the rollout strategy's
MISDEALS = ("redeal_poor_hands",)
# the parts of RULES.md §4.3 that constrain the play beyond following suit: the deals are then
# kept only where the cards played could have come from them (`SearchStrategy._fit`)
PLAY_PARTS = ("constraint", "leads", "first_leader", "play")
# the second keys of house rules (a `SpadesRules` field of the rule's plug-in), by the rule
SECOND_KEYS = {"suicide": ("suicide_min_bid",), "pass_cards": ("pass_when",),
               "blind_bids": ("blind_bid_min_deficit",),
               "ten_for_two_hundred": ("ten_for_200_fail", "ten_for_200_exact"),
               "blind_six": ("blind_six_at_least",)}
_DEFAULT = SpadesRules()
_NO_RULE = HouseRule(key="", section="", in_force=bool)


def played_house_rules(rules) -> frozenset[str]:
    """The keys of the house rules in force (`sim.spades.house.in_force`) that the search plays
    (module docstring): those whose parts are all `PLAYED_PARTS` (a progressive bonus among
    them: the views show its count, `progressive_of`; a game won at once valued by
    `won_at_once`); ``bag_cancel_card``, named or cut per deal (the views show it; given to
    the rollouts' hands by `_hand_state`)."""
    out = set()
    for rule in house.in_force(rules):
        parts = {f.name for f in dataclasses.fields(HouseRule)
                 if f.name not in ("key", "section", "in_force")
                 and getattr(rule, f.name) != getattr(_NO_RULE, f.name)}
        if rule.key == "bag_cancel_card":  # (named or cut per deal: the views show it, and the
            played = True  # rollouts' hands hold it, `cancel_card`)
        elif rule.key == "face_up_cards":  # (the cards each seat holds face up: `face_up_held`;
            played = rules.copies == 1 or not (rules.pass_cards or rules.nil_pass)  # after an
            #    exchange, one deck: its holder or his receiver, drawn, `face_up_holders`)
        elif rule.key in ("pass_cards", "nil_pass"):  # (the cards it passed: `passed_held`;
            played = not (rules.pass_cards and rules.nil_pass)  # two players: `draw_deals`)
        elif rule.key == "jokes_tie":  # (§4.2 jokes_win's tricks: the engine resolves them in
            played = True  # the rollouts, every legal card a candidate, `none_equal`)
        elif rule.key in OWN_BIDDING + MISDEALS:  # (its bidding the rollout strategy's,
            played = True  # `bids_unweighed`; misdeals: `SearchStrategy._misdeals`)
        else:
            played = parts <= PLAYED_PARTS
        if played:
            out.update((rule.key, *SECOND_KEYS.get(rule.key, ())))
    return frozenset(out)


@functools.cache  # (asked at every decision, of one rules value)
def bids_unweighed(rules) -> bool:
    """Whether the bids do not weigh the search's deals (`bid_misfit`): where a rule in force
    offers side contracts or bemos (RULES.md §4.4, `CONTRACT_PARTS`: the bids were made beside
    declarations that `bid_misfit`'s bidding does not hold) or bidding decisions of its own
    (`OWN_BIDDING`: a blind bid is not the bid the hand would make, a bid the play's views
    show may be a raised one or a half)."""
    return any(getattr(rule, part) for rule in house.in_force(rules) for part in CONTRACT_PARTS) \
        or any(getattr(rules, key) for key in OWN_BIDDING)


@functools.cache  # (asked at every decision, of one rules value)
def play_constrained(rules) -> bool:
    """Whether a rule in force constrains the play beyond following suit or names the first
    leader: a house rule's `PLAY_PARTS` (RULES.md §4.3), or any constraint of the play
    (`sim.spades.constraints.constraint_for`: §4.2 ``joker_high_alternate`` too, an opponent
    playing his highest spade to the big joker led)."""
    return (constraint_for(rules, deck_for(rules)) is not None
            or any(getattr(rule, part) for rule in house.in_force(rules) for part in PLAY_PARTS))


def ranks_by_bits(rules) -> bool:
    """Whether the rules' deck (`sim.spades.hand.deck_for`) ranks every card as its bit lies
    within its suit: one copy of each card, no suit ladder (two decks and cancelling are
    RULES.md §4.7's); cards of equal rank (§4.2 ``jokers_first_wins``: the two jokers, adjacent
    at the top of the spades, the first played winning) are searched as one class of their own
    (`strategies.card_search.candidates`)."""
    deck = deck_for(rules)
    return deck.copies == 1 and not deck.ladder


def refusal(rules) -> str | None:
    """None where the search plays ``rules`` (a `SpadesRules`); else one line naming the keys it
    does not play (at most four, and how many more) and what it does play: the keys of RULES.md
    §3 (any values) at four players in partnerships and at the tables of §4.7 (two players in
    any ``draw_mode``, three players, cutthroat, five players, six with the decks of
    `SIX_DECKS` in any team shape, ``cancel_spades`` at six or eight: `TABLE_KEYS`), at four
    players with §4.2's jokers and trump orders where the cards rank as they lie
    (`CARD_ORDER_KEYS`, `ranks_by_bits`; ``jokes_win`` and its ``jokes_tie`` too), and at all
    of them the house rules of `played_house_rules`; any other table (six with one deck and
    jokers or a kitty) and any other key of §4 switched on (jokers at other tables, the kitty,
    the other house rules) is refused."""
    allowed = STANDARD_KEYS | TABLE_KEYS | played_house_rules(rules)
    if rules.players == 4 and ranks_by_bits(rules):
        allowed = allowed | CARD_ORDER_KEYS
    if rules.six_deck in SIX_DECKS:  # (two decks and four jokers: the deck's own)
        allowed = allowed | {"jokers"}
    changed = [f.name for f in dataclasses.fields(SpadesRules)
               if f.name not in allowed and getattr(rules, f.name)
               != getattr(_DEFAULT, f.name)]
    value = {k: getattr(rules, k) for k in changed}
    if rules.players not in TABLES:
        changed.insert(0, "players")
        value["players"] = rules.players
    elif rules.players == 6 and rules.six_deck not in (None, *SIX_DECKS):
        changed.insert(0, "deck")
        value["deck"] = rules.six_deck
    if not changed:
        return None
    shown = ", ".join(f"{k} = {value[k]!r}" for k in changed[:4])
    more = f" and {len(changed) - 4} more" if len(changed) > 4 else ""
    return ("it plays the keys of RULES.md §3 at four players in partnerships (with the "
            "jokers and trump orders of §4.2 whose cards rank as they lie or by jokes, at "
            "four players) "
            "and at the other tables of §4.7 (two players, three players, cutthroat, "
            "five players, six with deck = 'no_twos', 'double_minus_2c' or "
            "'double_jokers', cancel_spades at six or eight), with the house rules of "
            "§4 that only score, narrow the bids or make them one per side, narrow "
            "the legal cards, name "
            "the first leader, offer side contracts, blind bids, raises, no-trump or "
            "half bids, "
            "redeal poor hands, deal cards face up or "
            "exchange them once (both with one deck), and no other rule of §4 so far; "
            "these rules "
            "set "
            f"{shown}{more}")
