"""What RULES.md says of each Spades key, in its own words: the sentences a refusal rests on.

`SpadesRules.check` refuses only the combinations RULES.md makes impossible (issue 19): two keys
whose sentences contradict each other, a key that another leaves without effect, a key worded
for partners or for two sides at a table without them, a key that needs another. Every refusal
names the key and quotes the sentences it rests on (`cite`), and docs/VARIANTS.md shows them per
key (`sim.variants`).
"""

from __future__ import annotations

import re

from ..errors import UserError

__all__ = ["SAYS", "cite"]

# key (or a value of trump_order) -> (RULES.md section, its words)
SAYS: dict[str, tuple[str, str]] = {
    # §3 the standard game
    "nil": ("3", "A bid of 0 is 'nil' ... With nil = false the minimum bid is 1"),
    "blind_nil": ("3", "A player may bid nil before looking at his cards"),
    "spades_broken": ("3", "Spades may not be led until spades are broken"),
    "max_team_bid": ("3", "a partnership's two bids may not total more than this"),
    "bag_limit": ("3", "each time the running count reaches bag_limit, bag_penalty is "
                       "subtracted"),
    "target_score": ("3", "The game ends when a side reaches it"),
    "mercy_score": ("3", "A side at or below it loses at once"),
    "max_hands": ("3", "Optional fixed number of hands"),
    # §4.1 deal and deck
    "redeal_poor_hands": ("4.1", "a player dealt a poor hand may call a misdeal before bidding; "
                                 "the same dealer deals again"),
    "face_up_cards": ("4.1", "the first k cards each player receives are dealt face up"),
    "kitty": ("4.1", "with a deck that does not divide evenly, the leftover cards form a kitty"),
    "kitty_taker": ("4.1", "the holder of 2♣ takes it before bidding ... or after bidding"),
    "kitty_extra_trick": ("4.1", "the kitty also holds one extra trick's worth of cards"),
    # §4.2 card order and trumps
    "jokers": ("4.2", "jokers added to the deck ... with jokers_remove naming the cards taken "
                      "out to keep hands even"),
    "jokers_remove": ("4.2", "jokers_remove naming the cards taken out to keep hands even"),
    "jokers_high": ("4.2", "jokers are spades (needs jokers = 2)"),
    "jokers_first_wins": ("4.2", "both jokers rank above A♠ and equal to each other"),
    "joker_joker_deuce_ace": ("4.2", "BJ > LJ > 2♠ > A♠"),
    "joker_high_alternate": ("4.2", "as jokers_high, and when BJ is led each opponent must play "
                                    "his highest spade"),
    "deuces_high": ("4.2", "The three red/black deuces count as spades in every respect"),
    "bowers": ("4.2", "J♠ (right bower) > J♣ (left bower, a spade in every respect) > A♠"),
    "suit_ladder": ("4.2", "There are no off-suits ... the trick goes to the highest card of "
                           "the highest suit in it"),
    "jokes_win": ("4.2", "a joker played to a trick turns every card played by its side in that "
                         "trick (before or after it) into a 'joke trump'"),
    "jokes_tie": ("4.2", "Ties between joke trumps of both sides: jokes_tie"),
    "seven_trump_reveal": ("4.2", "a player holding 7 or more cards of one non-spade suit may "
                                  "show them and make that suit trump instead of spades"),
    # §4.3 leads and play constraints
    "first_lead": ("4.3", "who leads the first trick (and with two_of_clubs / lowest_club that "
                          "card must be led)"),
    "first_trick_clubs": ("4.3", "the lowest club leads trick 1"),
    "lead_ace_of_spades": ("4.3", "with spades_broken, A♠ may be led before spades are broken"),
    "must_overtrump": ("4.3", "a player void in the led (non-spade) suit who can beat a spade "
                              "already in the trick must do so"),
    "must_trump": ("4.3", "a player void in the led suit must play a spade if he has one, and "
                          "must beat the highest spade in the trick if he can"),
    # §4.4 bids and contracts
    "double_nil": ("4.4", "both partners bid nil"),
    "double_blind_nil": ("4.4", "both partners bid blind nil"),
    "double_blind_nil_reward": ("4.4", "success → double_blind_nil_reward"),
    "team_nil": ("4.4", "a side (not a player) bids to take no trick"),
    "team_blind_nil": ("4.4", "Team blind nil is bid before either partner looks"),
    "nil_in_the_dark": ("4.4", "the nil bidder shuffles his hand face down"),
    "blind_bids": ("4.4", "a player may bid 1..7 before looking"),
    "blind_bid_min_deficit": ("4.4", "only when his side trails by blind_bid_min_deficit"),
    "min_team_bid": ("4.4", "every side bids at least k in total"),
    "partnership_bidding": ("4.4", "each side makes one joint bid (the non-dealing side first), "
                                   "minimum min_team_bid (4), no nil"),
    "no_nine_no_blind": ("4.4", "additionally no blind bids and no joint bid of 9"),
    "auction": ("4.4", "in turn each player bids n >= 1 (promising 6 + n tricks for his side) "
                       "or passes ... Declarer makes 6 + n → +10 × (6 + n); else 0"),
    "no_trump_bids": ("4.4", "he may not play a spade when void in a non-spade led suit"),
    "ten_for_two_hundred": ("4.4", "a side may bid 10-for-200"),
    "mo_a": ("4.4", "a side may declare Big Mo (win 8 tricks in a row at some point in the "
                    "hand; +300) or Little Mo (6 in a row; +150)"),
    "mo_b": ("4.4", "the declaring side leads trick 1"),
    "bemo": ("4.4", "on top of its normal bid, a side may declare Little Bemo ... or Big Bemo"),
    "blind_six": ("4.4", "a side may declare, before either partner looks, to take exactly 6"),
    "moon": ("4.4", "a side bids all 13 tricks: success wins the game at once"),
    "lexington": ("4.4", "as moon with 12 tricks"),
    "half_trick_bids": ("4.4", "the first partner of a side may bid in halves (3.5); the second "
                               "must make the side's total whole"),
    "suicide": ("4.4", "each side must contain a nil bid"),
    "suicide_min_bid": ("4.4", "suicide_min_bid = 4: the non-nil bid must be at least 4"),
    "whiz": ("4.4", "each player bids exactly the number of spades he holds, or nil; no blind "
                    "bids"),
    "mirror": ("4.4", "each player bids exactly the number of spades he holds (nil only with no "
                      "spades)"),
    "fledu": ("4.4", "every bid is at least 4, unless nil, blind nil or a wheel"),
    "hook": ("4.4", "the last bidder may not make the total of all bids equal the number of "
                    "tricks"),
    "bid_raise": ("4.4", "after all bids, each player in bidding order may raise his own bid by "
                         "one"),
    # §4.5 card passing
    "nil_pass": ("4.5", "a side with a nil (or blind nil) bidder exchanges that many cards "
                        "between the partners"),
    "pass_cards": ("4.5", "every player passes count cards to the left, right or partner"),
    "pass_when": ("4.5", "before or after bidding (pass_when)"),
    # §4.6 scoring
    "three_b": ("4.6", "made → 10 × bid - 10 × overtricks; set → -10 × bid"),
    "no_overs": ("4.6", "overtricks score nothing; no bag penalty"),
    "double_over": ("4.6", "a side that takes at least twice its contract loses twice the "
                           "contract value"),
    "exact": ("4.6", "the side (or each player) must take exactly the bid; more is scored as a "
                     "set"),
    "quicksand": ("4.6", "exact → +10 × bid; each overtrick -10 from that; each missing trick "
                         "-10"),
    "set_to_opponents": ("4.6", "a set side scores 0 and the opponents score 10 per trick it "
                                "fell short"),
    "book_made": ("4.6", "if the two sides' bids total exactly 10, each side scores 10 × its bid "
                         "whatever happens"),
    "highlander": ("4.6", "each partner must make his own bid ... +10 × side bid + 5 per "
                          "overtrick ... No bag penalty"),
    "exact_pair_bonus": ("4.6", "if both partners take exactly their own bids"),
    "seven_plus": ("4.6", "a made bid of 7+ earns 10 extra per bid trick above 6 ... or a "
                          "progressive bonus"),
    "bags_in_units_digit": ("4.6", "bags are kept as the units digit of the score and are not "
                                   "points"),
    "bag_cancel_card": ("4.6", "a designated card ... cancels one bag of the side that wins the "
                               "trick containing it"),
    "bags_negative": ("4.6", "each bag scores -1 instead of +1, and there is no bag_penalty"),
    "no_minus": ("4.6", "a set side scores 0 instead of a negative score"),
    "last_trick_ace_nil": ("4.6", "a nil bidder who plays an ace to the last trick: "
                                  "+nil_bonus/5"),
    "dix": ("4.6", "the trick won by 9♠"),
    "last_trick_high_spade": ("4.6", "last trick won with 9♠ or higher"),
    # §4.7 player counts and team shapes, §4.8 game end
    "players": ("4.7", "players = 2: no deal. The stock is face down; players alternately take "
                       "two cards"),
    "draw_mode": ("4.7", "players = 2 ... draw_mode"),
    "remove": ("4.7", "players = 3: 17 each; remove = 2C (default) or the last card undealt. "
                      "With jokers: 18 each"),
    "partnerships": ("4.7", "players = 4, partnerships = false: cutthroat (solo); each player "
                            "is a side"),
    "deck": ("4.7", "players = 6: deck = ..."),
    "teams": ("4.7", "players = 6 ... teams = solo | three_pairs | two_threes"),
    "duplicate_wins": ("4.7", "Identical cards in one trick: duplicate_wins"),
    "cancel_spades": ("4.7", "6 players, three pairs, two decks without the 2♥s ... a game is 6 "
                             "hands"),
    "defeat_score": ("4.8", "a side at or below -target_score loses"),
}

_WORD = re.compile(r"[a-z][a-z0-9_]*")
# keys that are also everyday words of the messages: cited only as the key refused
_WORDS = frozenset("deck players teams remove partnerships kitty jokers exact".split())


def cite(err: UserError) -> UserError:
    """``err`` with the words of RULES.md it rests on: each key (or card order) its message
    names, once, in the order named, unless the message quotes RULES.md already."""
    if '"' in err.message and "RULES.md" in err.message:
        return err
    named = list(dict.fromkeys(w for w in _WORD.findall(err.message)
                               if w in SAYS and w not in _WORDS))
    if err.key in SAYS and err.key not in named:
        named.insert(0, err.key)
    if not named:
        return err
    words = "; ".join(f"§{SAYS[k][0]} {k}: \"{SAYS[k][1]}\"" for k in named[:3])
    err.message = f"{err.message} (RULES.md {words})"
    err.args = (str(err),)
    return err
