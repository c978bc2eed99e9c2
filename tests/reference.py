"""Plain, scalar reference implementation of Spades (RULES.md section 3, and the section 4 keys
listed under STANDARD): three to eight players.

This module is the test-suite's independent yardstick for the vectorised engine in ``sim/``: it
imports nothing from ``sim/`` (nor numpy) and favours obviousness over speed. One hand at a time,
one card at a time, strings throughout.

Conventions (RULES.md section 0):

* A card is a string rank+suit: ranks ``23456789TJQKA`` (A high), suits ``SHDC``: ``"AS"``,
  ``"TH"``, ``"2C"``. Spades are always trump (section 3).
* Seats ``0..P-1`` clockwise; "left of X" is ``X + 1 mod P``. Four players: side 0 = seats 0 and
  2, side 1 = seats 1 and 3 (partners opposite); other tables see "Player counts" below.
* The bidding and the first lead start left of the dealer (section 3: "(bidding)", "(first lead)").
* The winner of a trick leads the next one.

Rules are a plain dict with the section 3 keys and the section 4.4 keys ``min_team_bid``, ``hook``,
``suicide``, ``suicide_min_bid``, ``whiz``, ``mirror``, ``fledu``, ``double_nil``, ``moon``,
``lexington``, ``lexington_points``, ``double_blind_nil`` and ``double_blind_nil_reward``, and the
section 4.4 side contracts ``team_nil``, ``team_blind_nil``, ``ten_for_two_hundred`` (with
``ten_for_200_fail``, ``ten_for_200_exact``, ``tens_are_wheels``), ``mo_a``, ``mo_b``, ``bemo``,
``blind_six`` (with ``blind_six_at_least``) and ``blind_moon``, and the section 4.6 scoring keys
and section 4.8 ``defeat_score`` (issue 7; see ``score_hand`` and ``_check_section_4_6``) (all
off by default); ``STANDARD``,
``SHORT`` and ``OPENSPIEL`` are the presets ``spades.standard``, ``spades.short`` and
``spades.openspiel``. A dict passed to the public functions may give only some keys; the rest come
from ``STANDARD``. Combinations that cannot be played are rejected by ``resolve_rules`` with a
ValueError naming the key at the start of its message (see ``_check_section_4_4`` and the other
``_check_*``). The engine's card-passing keys (section 4.5), which this reference does not
implement, are known and accepted only switched off (the test harness leaves out the engine's
other keys it does not know, which must be off).

Not implemented here: two players (``players = 2``, refused; tests/test_two_players.py derives
their draw), card passing (section 4.5), and the engine keys this module does not know
(``seven_trump_reveal``, ``face_up_cards``, ``redeal_poor_hands``, the later section 4.4 bid
keys such as the auction): ``resolve_rules`` refuses them as unknown.

Card orders and play constraints (sections 4.2 and 4.3, see ``CARD_ORDERS``, ``legal_plays`` and
``_check_sections_4_2_4_3``): ``trump_order`` (every order; ``jokes_win`` below), ``jokers`` (0,
2: ``"BJ"`` and ``"LJ"``, 3 and 4 at five and six players) with ``jokers_remove`` (default
``["2C", "2D"]``), ``first_lead``,
``first_trick_clubs``, ``first_trick_lowest_club``, ``no_spade_lead_first_trick``,
``lead_ace_of_spades``, ``must_overtrump`` and ``must_trump``. A card keeps its name whatever the
order; "spades" are the cards the order makes spades (the jokers, the high deuces, the left bower),
in following suit, trumping, breaking spades and counting spades (whiz, mirror) alike.

Player counts (section 4.7, see ``table_of``): ``players`` 3 (17 each without the 2C, or with
``remove = "last"`` all 52 and the last card undealt; with ``jokers = 2`` 18 each), 4 (with
``partnerships = False``: cutthroat), 5 (10 each without 2D and 2H; with ``jokers = 3`` 11
each, ``"XJ"`` ranking below ``"LJ"``) or 6 (issue 8 spec): ``deck`` ``"double_minus_2c"``
(default; two decks without both 2C, 17 each), ``"double_jokers"`` (two decks and ``jokers =
4``: two BJ, two LJ; 18 each), ``"double_kitty"`` (two full decks, 17 each and a kitty of 2),
``"no_twos"`` (one deck without the 2s, 8 each), ``"single_jokers"`` (one deck and ``jokers =
2``, 9 each); ``teams`` ``"three_pairs"`` (default; partners opposite 0-3, 1-4, 2-5),
``"two_threes"`` (0-2-4 against 1-3-5) or ``"solo"``. Seat s plays for side s mod S (S sides);
without partners each player is a side, numbered by seat; bids are 0..the tricks of the hand;
records carry one entry per seat in ``bids``/``blind``/``tricks``/``hands`` and one per side in
``before`` and the results. A key written for a side applies to every side, one player
without partners (section 4); those written for two partners are refused at a table without
pairs (``PARTNER_KEYS``; two threes have sides of three), those for partners at one without
(``PARTY_KEYS``), those written for two sides at a table of more (``TWO_SIDE_KEYS``; two
threes are two sides). The keys of a side's total follow the side: ``min_team_bid`` without
partners is each player's nil or at least k; a side contract or bemo is declared by the
side's first bidder or asked of its last (``legal_side_contracts``, ``legal_bemo``).

Two decks (``double_minus_2c``, ``double_jokers``, ``double_kitty``; cancel_spades): a card
name is there twice, in ``deck_of`` and in records (a hand may hold "AS" twice; plays name the
copy by its name); the hands must hold no card more often than the deck. When both copies of
the winning card are in a trick the first played wins, or the last under ``duplicate_wins =
"last"`` (refused in a one-deck game). The two-deck games play ``trump_order = "standard"`` and
refuse ``TWO_DECK_REFUSED`` (ValueError "<key>: not played with two decks"); ``no_twos`` and
``single_jokers`` are ordinary one-deck games.

Cancel spades (section 4.7, the issue 8 spec; presets ``spades.cancel``, ``spades.cancel8``):
``cancel_spades = True`` with six players (three pairs, two decks without both 2H: 102 cards,
17 each) or eight (four pairs, partners s and s + 4; two full decks: 104 cards, 13 each). The
spades rank 2D > 2C > AS > ... > 2S, both 2D and 2C spades in every respect (the 2H of eight
players stay hearts). Identical cards in a trick cancel and cannot win; the highest live spade
wins, else the highest live card of the led suit (the led card's suit even if cancelled), else
the trick is dead: ``trick_winner`` returns None, nobody counts it, and its leader leads again.
Scoring (``score_hand``): a side's bid is its non-nil bids, counted are their tricks; made:
+10 x bid + 1 per overtrick, short: -10 per missing trick; a nil 0 tricks +50 (eight: +30), k
tricks -10 x k; both partners nil and clean 200 (eight: 100); no bags, no penalty, no blind nil.
``game_over``: after ``players`` hands the highest score wins, a shared one is a draw (True,
None). Readings: any key but ``CANCEL_KEYS`` off its standard value is refused; bags_taken
reports the overtricks (they score 1 each, no count); a score sheet's tricks may sum to less
than the hand's (the dead tricks); replay adds ``"dead_tricks"``.

The kitty (section 4.1, the issue 8 spec): ``kitty = True`` takes no card out to even the hands
(``jokers_remove`` and ``remove = "last"`` are refused with it); the leftover cards (deck size
mod players) form the kitty, and ``kitty_extra_trick`` adds one card per player, each holding
one card fewer (a kitty of 0 is refused). Tables: three players (17 each + 1; with the extra
trick 16 + 4; with two jokers only with it, 17 + 3), four (the extra trick: 12 + 4; with two
jokers 13 + 2, or 12 + 6), five (10 + 2 or 9 + 7; three jokers only with the extra trick, 10 +
5), six with ``deck = "double_kitty"`` (17 + 2 or 16 + 8); two and eight players have none.
``kitty_taker``: ``"two_of_clubs"`` the seat dealt the lowest club dealt to a hand (the 2C
unless it is in the kitty; the card order's clubs; two decks: the first holder from the
dealer's left), ``"high_bidder"`` the highest ordinary bid (nil 0), ties to the earliest bidder
from the dealer's left. A record carries ``"kitty": {"taker", "cards", "discards"}``; its
``hands`` are at the start of play (the taker's after his discard): hands + discards must be
the deck exactly, the discards as many as the kitty's cards and distinct, the kitty's cards
among the taker's hand and discards; the taker's hand as dealt (record hand + discards -
kitty) gives the two_of_clubs taker and, under ``high_bidder`` (the kitty is taken after the
bidding), the spades counted by ``whiz`` / ``mirror``; the taker is checked. The hand is
scored over the tricks played plus, under ``kitty_extra_trick``, the discard: one trick won by
the taker (in ``"tricks"``; not in ``"winners"``, which are the played tricks, nor a "last
trick"); bids run 0..those tricks. Readings: a discarded card is out of play, like a card left
undealt: ``first_lead = "two_of_clubs"`` (or the lowest club) then falls to the lowest club
held, and a discarded ``bag_cancel_card`` cancels nothing; a score sheet may leave out the
``"kitty"`` (its tricks count the discard trick; a given kitty's taker is checked under
``high_bidder`` only).

Jokes win (section 4.2, the issue 8 spec; ``_Order._jokes_strengths``): ``trump_order =
"jokes_win"`` needs ``jokers = 2`` and four players in partnerships. The jokers are spades for
following, leading and breaking spades, but have no rank and never win; every other card a
side plays to a trick in which it played a joker (before or after) is a joke trump of its rank,
a natural spade staying natural: natural AS > joke A > natural KS > ... > natural 2S > joke 2.
Two joke trumps of one rank: ``jokes_tie`` ``"higher_joker"`` (default; the BJ's side),
``"first_joker"`` (the side whose joker came first) or ``"suit"`` (D > C > H). With no trump,
the highest card of the led suit; a led joker leads spades. Readings: ``must_trump`` and
``must_overtrump`` are refused with it (a card becomes a trump only when its partner's joker
comes); a joke card is no spade for breaking spades nor for the trick bonuses (it keeps its
name); a led joker that nothing can beat (its partner played the other joker, the opponents no
spade) holds the trick for its player.

Readings at tables of more than two pairs or of other hand lengths (the spec is silent): the
section 4.4 numbers that mean "all the tricks" follow the hand (``hook``: the bids may not total
the tricks of the hand; ``moon`` and ``blind_moon``: all of them; ``lexington``: all but one),
the others stay as written (Mo 6/8 and 7/10, bemo 6/9, the wheel's 10, blind six, 240 for 12
tricks under ``lexington_points``); "the opponents" of a three-pair table are every other side
(a moon is barred after any other side's double nil; Mo under ``mo_b`` and blind moon stand
against any other side's).

Side contracts (section 4.4; see ``legal_side_contracts``): a side may declare one contract
instead of its partners' two bids: ``"team_nil"``, ``"team_blind_nil"``, ``"wheel"``,
``"little_mo"``, ``"big_mo"``, ``"blind_six"``, ``"blind_moon"``. In a record, ``"bids"`` holds
``None`` (JSON null) for the partners of such a side and ``"side_contracts": [code or None, code or
None]`` gives the declarations by side. ``bemo`` comes on top of a side's ordinary bids:
``"bemo": ["little_bemo" | "big_bemo" | None, ...]`` by side.

Public API::

    parse_card("AS") -> (14, "S")
    trick_winner(trick, leader, rules=None) -> seat (None: a dead trick of cancel_spades)
    table_of(rules) -> {"players", "sides", "cards_each", "tricks", "deck", "kitty", "copies"}
    deck_of(rules) -> [cards];  card_suit(card, rules) -> "S" for a spade of the order, else its suit
    legal_bids(seat, bids_so_far, scores_before, rules, hand=None, *, blind_so_far=None,
               side_contracts=None) -> {"bids": [...], "blind_nil": bool}
    legal_side_contracts(seat, bids_so_far, rules, *, blind_so_far=None, side_contracts=None)
        -> {"blind": [codes], "sighted": [codes]}
    legal_bemo(seat, bids_so_far, rules, *, side_contracts=None) -> [names]
    first_leader(dealer, side_contracts, rules, hands=None) -> seat
    legal_plays(hand, trick_so_far, spades_broken, rules, *, trick_no=None) -> [cards]
    replay_hand(record, rules) -> {"tricks", "winners", "points", "components", "after"}
        (+ "wins_game" when a rule can win the game at once: moon, lexington, ...;
         + "dead_tricks" under cancel_spades, whose dead tricks are None in "winners")
    score_hand(bids, blind, tricks, before_scores, before_bags, rules, *, side_contracts=None,
               bemo=None, winners=None, played=None, before_progressive=None,
               cancel_card=None) -> {"points", "components", "after", ...}
    wins_game(bids, tricks, rules, blind=None, *, side_contracts=None)
        -> side winning the game at once, or None
    bags_taken(bids, tricks, rules, *, side_contracts=None, winners=None) -> [one int per side]
    game_over(scores, hand_no, rules, wins_game=None) -> (bool, winner or None)
"""

from __future__ import annotations

from collections import Counter

__all__ = [
    "RANKS",
    "SUITS",
    "DECK",
    "STANDARD",
    "SHORT",
    "OPENSPIEL",
    "CANCEL",
    "CANCEL8",
    "PRESETS",
    "IllegalBid",
    "IllegalPlay",
    "parse_card",
    "side_of",
    "partner_of",
    "resolve_rules",
    "table_of",
    "PARTNER_KEYS",
    "TWO_SIDE_KEYS",
    "trick_winner",
    "CARD_ORDERS",
    "JOKERS",
    "deck_of",
    "card_suit",
    "SIDE_CONTRACTS",
    "BEMOS",
    "legal_bids",
    "legal_side_contracts",
    "legal_bemo",
    "first_leader",
    "legal_plays",
    "PARTS",
    "TRICK_BONUSES",
    "score_hand",
    "bags_taken",
    "replay_hand",
    "wins_game",
    "game_over",
]

# --- cards (RULES.md section 0) ----------------------------------------------------------------

RANKS = "23456789TJQKA"  # low to high; parse_card maps "2" -> 2 ... "A" -> 14
SUITS = "SHDC"
TRUMP = "S"  # section 3: spades are always trump
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # the 52 cards

N_SEATS = 4
N_TRICKS = 13
MAX_BID = 13


class IllegalBid(ValueError):
    """A bid the rules do not allow (section 3 bidding keys)."""


class IllegalPlay(ValueError):
    """A card that may not be played: not in the player's hand, or against a play rule."""


def parse_card(card: str) -> tuple[int, str]:
    """``"AS"`` -> ``(14, "S")``; ``"2C"`` -> ``(2, "C")``. Raises ValueError on anything else."""
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card: {card!r} (rank from {RANKS!r} then suit from {SUITS!r})")
    return RANKS.index(card[0]) + 2, card[1]


_PARSED = {card: (RANKS.index(card[0]) + 2, card[1]) for card in DECK}


def _rank(card: str) -> int:
    return _PARSED[card][0] if card in _PARSED else parse_card(card)[0]


def side_of(seat: int) -> int:
    """Section 0: side 0 = seats 0 and 2, side 1 = seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """Section 0: partners sit opposite."""
    return (seat + 2) % N_SEATS


# --- the table (RULES.md section 4.7) ----------------------------------------------------------
# Seats 0..P-1 clockwise; seat s plays for side s mod S (S sides). Four players in partnerships
# make two sides (seats 0 and 2, 1 and 3); six players make three pairs (0-3, 1-4, 2-5: S = 3),
# two threes (0-2-4, 1-3-5: S = 2) or six solo sides; cancel_spades three pairs (six players) or
# four (eight players: s and s + 4); every other table has no partners: each player is a side,
# numbered by seat (section 5: "in games without partners each player is a side, numbered by
# seat").

SIX_DECKS = ("double_minus_2c", "double_jokers", "double_kitty", "no_twos", "single_jokers")
TWO_DECKS = ("double_minus_2c", "double_jokers", "double_kitty")  # the rest are one deck
TEAMS = {"three_pairs": 3, "two_threes": 2, "solo": 6}  # six players: team shape -> sides


def _players(r: dict) -> int:
    return r["players"]


def _sides(r: dict) -> int:
    if r["cancel_spades"]:
        return r["players"] // 2
    if r["players"] == 6:
        return TEAMS[r["teams"] or "three_pairs"]
    return 2 if r["players"] == 4 and r["partnerships"] else r["players"]


def _pairs(r: dict) -> bool:
    """Every side is two partners (sitting opposite): the partnership keys' tables."""
    return 2 * _sides(r) == _players(r)


def _side(seat: int, r: dict) -> int:
    return seat % _sides(r)


def _seats_of(side: int, r: dict) -> list[int]:
    """The seats of a side, in seat order."""
    return list(range(side, _players(r), _sides(r)))


def _partner(seat: int, r: dict) -> int | None:
    """The partner's seat (opposite), None at a table without pairs of partners."""
    return (seat + _sides(r)) % _players(r) if _pairs(r) else None


def _six_deck(r: dict) -> str | None:
    """The six-player deck in force (None at other tables and under cancel_spades)."""
    if r["players"] != 6 or r["cancel_spades"]:
        return None
    return r["deck"] or "double_minus_2c"


def _copies(r: dict) -> int:
    """2 when every card is there twice (two decks), else 1."""
    return 2 if r["cancel_spades"] or _six_deck(r) in TWO_DECKS else 1


def _kitty_size(r: dict) -> int:
    """Section 4.1: the leftover cards (deck size mod players), plus one trick's worth (one card
    per player) under ``kitty_extra_trick``; 0 without a kitty."""
    if not r["kitty"]:
        return 0
    return len(_order_of(r).deck) % _players(r) + _players(r) * bool(r["kitty_extra_trick"])


def _cards_each(r: dict) -> int:
    """Cards dealt to each player, hence tricks played in a hand: the deck less the kitty shared
    out evenly, what is left over undealt (section 4.7: three players with ``remove = "last"``,
    one card)."""
    return (len(_order_of(r).deck) - _kitty_size(r)) // _players(r)


def _n_tricks(r: dict) -> int:
    """Tricks a hand is scored over: the tricks played, and the kitty's discard under
    ``kitty_extra_trick`` (section 4.1: it "counts as one trick won by him")."""
    return _cards_each(r) + bool(r["kitty"] and r["kitty_extra_trick"])


def table_of(rules: dict | str | None = None) -> dict:
    """``{"players", "sides", "cards_each", "tricks", "deck", "kitty", "copies"}`` of the rules'
    table (section 4.7): ``deck`` is the number of cards (both copies with two decks),
    ``kitty`` the kitty's size (section 4.1), ``tricks`` the tricks a hand is scored over."""
    r = resolve_rules(rules)
    return {"players": _players(r), "sides": _sides(r), "cards_each": _cards_each(r),
            "tricks": _n_tricks(r), "deck": len(_order_of(r).deck), "kitty": _kitty_size(r),
            "copies": _copies(r)}


# --- rules (RULES.md section 3) ----------------------------------------------------------------

# spades.standard: the section 3 table, key by key.
STANDARD: dict = {
    # --- section 4.7, player counts and team shapes ---
    "players": 4,  # 3 | 4 | 5 | 6 | 8 seats (two players are not implemented here)
    "partnerships": True,  # four players: partners opposite; False: cutthroat, each his own side
    "remove": "2C",  # three players without jokers: take out the 2C, or "last": one card undealt
    "deck": None,  # six players (None = "double_minus_2c"), see SIX_DECKS
    "teams": None,  # six players (None = "three_pairs"), see TEAMS
    "duplicate_wins": "first",  # two decks: of two identical cards in a trick the first | "last"
    "cancel_spades": False,  # six or eight players, two decks: cancel spades (section 4.7)
    # --- section 4.1, the kitty ---
    "kitty": False,  # the leftover cards (no card taken out) form a kitty
    "kitty_taker": "two_of_clubs",  # | "high_bidder": who adds the kitty to his hand
    "kitty_extra_trick": False,  # the kitty holds one trick more; the discard is a trick won
    "nil": True,  # a bid of 0 is "nil"; False -> the minimum bid is 1
    "nil_bonus": 100,  # +/- for a nil made / failed, scored apart from the partner's contract
    "nil_tricks": "bags_only",  # "bags_only" | "count" | "ignored": what a nil bidder's tricks do
    "blind_nil": True,  # nil bid before looking at the cards
    "blind_nil_bonus": 200,  # +/- for a blind nil (instead of nil_bonus)
    "blind_nil_min_deficit": 100,  # side must trail by at least this much (0 = always allowed)
    "spades_broken": True,  # True | False | "never" (see legal_plays)
    "max_team_bid": None,  # if set, the two partners' bids may not total more than this
    "bag_limit": 10,  # every bag_limit accumulated bags cost bag_penalty
    "bag_penalty": 100,
    "target_score": 500,  # game ends when a side reaches it; higher score wins, ties play on
    "mercy_score": -200,  # a side at or below it loses at once; None = off
    "max_hands": None,  # optional fixed number of hands; higher score wins, ties play on
    # --- section 4.4, bids and contracts (all off) ---
    "min_team_bid": None,  # k: a side's two bids total at least k, unless both partners bid nil
    "hook": False,  # the fourth bidder may not make the four bids total 13
    "suicide": False,  # each side contains a nil: the second partner bids nil if the first did not
    "suicide_min_bid": None,  # with suicide: a non-nil bid is at least this
    "whiz": False,  # each player bids his number of spades, or nil; no blind bids
    "mirror": False,  # each player bids his number of spades (nil exactly when he holds none)
    "fledu": False,  # every bid is at least 4 unless it is nil (or blind nil)
    "double_nil": False,  # both partners nil: 2x each bonus if neither takes a trick, else 0
    "double_blind_nil": False,  # both partners blind nil: made -> the reward below; failed -> 0
    "double_blind_nil_reward": "double",  # "double" (2x each bonus) | "win" (wins the game)
    "moon": False,  # a side bidding 13 (no nil) that takes all 13 tricks wins the game at once
    "lexington": False,  # a side bidding 12 (no nil) that takes 12 or more wins the game at once
    "lexington_points": False,  # a side taking 12+ tricks scores 240 as contract, no bags
    # --- section 4.4, side contracts (all off): a side declares one instead of its two bids ---
    "team_nil": False,  # "team_nil": the side takes no trick: +100, else -100; no bags
    "team_blind_nil": False,  # "team_blind_nil": the same before either partner looks: +/-150
    "ten_for_two_hundred": False,  # "wheel": 10+ tricks -> +200, else -ten_for_200_fail; no bags
    "ten_for_200_fail": 200,  # what a failed wheel costs
    "ten_for_200_exact": False,  # a wheel's tricks above 10 are bags (1 point each)
    "tens_are_wheels": False,  # a side whose two bids (no nil) total exactly 10 plays a wheel
    "mo_a": False,  # "little_mo" 6 tricks in a row (+/-150), "big_mo" 8 (+/-300); no bags
    "mo_b": False,  # "little_mo" the first 7 tricks (+/-150), "big_mo" the first 10 (+/-250)
    "bemo": False,  # on top of the bids: "little_bemo" first 6 tricks +/-60, "big_bemo" 9 +/-90
    "blind_six": False,  # "blind_six" before looking: exactly 6 tricks +120, else -120; no bags
    "blind_six_at_least": False,  # blind six is 6 or more: +120 (no overtricks), else -60
    "blind_moon": False,  # "blind_moon" before looking: 13 tricks win the game (+130), else -130
    # --- section 4.6 scoring, section 4.8 game end (all off; readings: /tmp/w/readings.md as
    # summarised in score_hand) ---
    "three_b": False,  # made: 10 x bid, -10 per overtrick; set -10 x bid; failed nil -10/trick
    "no_overs": False,  # overtricks score nothing, no bags, no bag penalty
    "double_over": False,  # a side taking at least twice its bid scores -20 x bid
    "exact": None,  # "side" | "player": more than the bid is scored as a set
    "quicksand": False,  # exact +10 x bid; -10 per trick over; short: -10 per missing trick
    "set_to_opponents": False,  # a set side scores 0, the opponents 10 per trick it fell short
    "book_made": False,  # the four bids total 10: each side 10 x its bid, no bags
    "highlander": False,  # each partner makes his own bid; 5 per overtrick; progressive 7+ bonus
    "exact_pair_bonus": False,  # both partners exactly their bids: half the contract, in tens
    "seven_plus": None,  # "per_trick" | "progressive": a made bid of 7+ earns a bonus
    "bags_in_units_digit": False,  # bags are counted, not scored (54 = 50 points + 4 bags)
    "bag_cancel_card": None,  # a card ("7H") or "cut" (the record's "cancel_card"): -1 bag
    "bags_negative": False,  # each bag -1, no bag count, no bag penalty
    "no_minus": False,  # a set side's contract scores 0 (nil failures still cost)
    "last_trick_bonus": False,  # +10 to the winner of trick 13
    "end_streak": False,  # one player wins tricks 11, 12 and 13: +30
    "dix": False,  # the trick won by 9S: +10 spades led, +5 another spade in it, else +1
    "last_trick_ace": False,  # trick 13 won by an ace: +10, by AS +20
    "last_trick_ace_nil": False,  # a nil bidder playing an ace to trick 13: +nil_bonus // 5
    "last_trick_deuce": False,  # trick 13 won by a non-spade 2: +30
    "last_trick_high_spade": False,  # trick 13 won by 9S+ by a player who took exactly his bid
    "defeat_score": False,  # a side at or below -target_score loses
    # --- section 4.2 card order and trumps; section 4.3 leads and play constraints ---
    "trump_order": "standard",  # how the spades rank, see CARD_ORDERS
    "jokers": 0,  # 0 | 2 | 3 | 4: "BJ", "LJ" (five players "XJ"; four: BJ, LJ twice) join
    "jokers_remove": None,  # the cards the jokers replace (None: ["2C", "2D"]); needs jokers
    "jokes_tie": "higher_joker",  # jokes_win: | "first_joker" | "suit" (see _jokes_strengths)
    "first_lead": "left_of_dealer",  # | "two_of_clubs" | "lowest_club": the holder leads it
    "first_trick_clubs": False,  # the lowest club leads trick 1; no spade on it unless only spades
    "first_trick_lowest_club": False,  # on trick 1 each plays his lowest club (void: a non-spade)
    "no_spade_lead_first_trick": False,  # no spade led to trick 1 (unless only spades)
    "lead_ace_of_spades": False,  # with spades_broken = True the AS may be led before broken
    "must_overtrump": "off",  # | "opponents" | "always": void in a led non-spade, beat the spade
    "must_trump": False,  # void in the led suit: a spade if held, beating the trick's if able
    # --- section 4.5, card passing: known, not implemented here (accepted only switched off) ---
    "nil_pass": None,
    "pass_cards": None,
    "pass_when": "after_bid",
}

# spades.short: target 250, bags 5 -> -50 (section 3 presets; seed 003).
SHORT: dict = {**STANDARD, "target_score": 250, "bag_limit": 5, "bag_penalty": 50}

# spades.openspiel: OpenSpiel's `spades` game (section 3 presets). OpenSpiel plays a single hand
# from 0-0 (seat 0 bids first and leads, i.e. dealer 3 in a record); the game-end keys do not
# matter there, so target_score is left at the default and only the mercy rule is switched off.
OPENSPIEL: dict = {
    **STANDARD,
    "nil_tricks": "count",
    "blind_nil": False,
    "max_team_bid": 13,
    "spades_broken": "never",
    "mercy_score": None,
}

# spades.cancel / spades.cancel8: cancel spades (section 4.7, the issue 8 spec): six (eight)
# players, no blind bids, a game of one deal per player, no target and no mercy rule.
CANCEL: dict = {**STANDARD, "players": 6, "cancel_spades": True, "blind_nil": False,
                "target_score": None, "mercy_score": None, "max_hands": 6}
CANCEL8: dict = {**CANCEL, "players": 8, "max_hands": 8}

PRESETS: dict[str, dict] = {
    "spades.standard": STANDARD,
    "spades.short": SHORT,
    "spades.openspiel": OPENSPIEL,
    "spades.cancel": CANCEL,
    "spades.cancel8": CANCEL8,
}

_NIL_TRICKS = ("bags_only", "count", "ignored")


def resolve_rules(rules: dict | str | None = None) -> dict:
    """A full rules dict: a preset name, or a partial dict over ``STANDARD``; unknown keys and
    unknown values are rejected."""
    if rules is None:
        return dict(STANDARD)
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(f"unknown preset {rules!r}; known: {sorted(PRESETS)}")
        return dict(PRESETS[rules])
    unknown = sorted(set(rules) - set(STANDARD))
    if unknown:
        raise ValueError(f"unknown rule key(s) {unknown}; known keys: {sorted(STANDARD)}")
    full = {**STANDARD, **rules}
    if full["nil_tricks"] not in _NIL_TRICKS:
        raise ValueError(f"nil_tricks must be one of {_NIL_TRICKS}, not {full['nil_tricks']!r}")
    broken = full["spades_broken"]  # exact values: `in` would also accept 1 and 0
    if not (broken is True or broken is False or broken == "never"):
        raise ValueError(f"spades_broken must be True, False or 'never', not {broken!r}")
    if full["bag_limit"] is not None and full["bag_limit"] <= 0:
        raise ValueError("bag_limit must be positive (or None for no bag penalty)")
    if full["players"] not in (3, 4, 5, 6, 8) or isinstance(full["players"], bool):
        raise ValueError(f"players must be 3, 4, 5, 6 or 8 (two players are not implemented by "
                         f"the reference), not {full['players']!r}")
    for key in ("partnerships", "cancel_spades", "kitty", "kitty_extra_trick"):
        if full[key] is not True and full[key] is not False:
            raise ValueError(f"{key} must be True or False, not {full[key]!r}")
    for key, values in (("remove", ("2C", "last")), ("deck", (None, *SIX_DECKS)),
                        ("teams", (None, *TEAMS)), ("duplicate_wins", ("first", "last")),
                        ("kitty_taker", KITTY_TAKERS), ("jokes_tie", JOKES_TIES)):
        if full[key] not in values:
            raise ValueError(f"{key} must be one of {values}, not {full[key]!r}")
    _check_big_tables(full)
    _check_section_4_4(full)
    _check_section_4_6(full)
    _check_sections_4_2_4_3(full)
    _check_kitty(full)
    _check_section_4_7(full)
    return full


KITTY_TAKERS = ("two_of_clubs", "high_bidder")
JOKES_TIES = ("higher_joker", "first_joker", "suit")
SIX_DECK_JOKERS = {"double_jokers": 4, "single_jokers": 2}  # the jokers a six-player deck needs


def _check_big_tables(r: dict) -> None:
    """Section 4.7 six and eight players (the issue 8 spec), each a ValueError naming the key:
    eight players only under cancel_spades; ``deck`` and ``teams`` only at six players and not
    under cancel_spades; each six-player deck with its jokers (double_jokers 4, single_jokers 2,
    the others none) and double_kitty with the kitty (and the kitty at six players only with
    it); four jokers only with double_jokers; ``duplicate_wins = "last"`` only in a two-deck
    game other than cancel_spades; cancel_spades see ``_check_cancel_spades``. (Issue 19: the
    other keys play with two decks too, a card being there twice: see ``first_leader``,
    ``_stages``, ``_bag_cancel_sides``.)"""
    players = r["players"]
    if players == 8 and not r["cancel_spades"]:
        raise ValueError("players: eight players play cancel_spades only (set cancel_spades = "
                         "True)")
    for key in ("deck", "teams"):
        if r[key] is not None and (players != 6 or r["cancel_spades"]):
            raise ValueError(f"{key}: for six players only (cancel_spades has its own deck and "
                             "pairs)")
    if _six_deck(r) is not None:
        need = SIX_DECK_JOKERS.get(_six_deck(r), 0)
        if r["jokers"] != need:
            raise ValueError(f"jokers: deck {_six_deck(r)!r} plays with {need} jokers, not "
                             f"{r['jokers']!r}")
        if (_six_deck(r) == "double_kitty") != bool(r["kitty"]):
            raise ValueError("kitty: at six players the kitty goes with deck 'double_kitty' "
                             "(two leftover cards), and that deck with kitty = True")
    elif r["jokers"] == 4:
        raise ValueError("jokers: four jokers are for six players with deck 'double_jokers'")
    if r["duplicate_wins"] != "first" and (_copies(r) == 1 or r["cancel_spades"]):
        raise ValueError("duplicate_wins: rules identical cards in a trick, which only two "
                         "decks have (and cancel_spades cancels them)")
    if r["cancel_spades"]:
        _check_cancel_spades(r)


# Cancel spades is a game of its own (reading, as the engine reads it): only these keys may
# differ from the standard game's values, blind nil must be off and the game end is fixed.
CANCEL_KEYS = ("players", "cancel_spades", "blind_nil", "target_score", "mercy_score",
               "max_hands", "spades_broken", "lead_ace_of_spades")


def _check_cancel_spades(r: dict) -> None:
    """Section 4.7 ``cancel_spades`` (the issue 8 spec): six or eight players; its own deck,
    card order and scoring, so any key but ``CANCEL_KEYS`` at another value than the standard
    game's is refused (reading); ``blind_nil`` must be False; the game is ``players`` hands
    (``max_hands = players``, no ``target_score``, no ``mercy_score``; the first of the three
    that is not so is named)."""
    if r["players"] not in (6, 8):
        raise ValueError("cancel_spades: six or eight players, not "
                         f"{r['players']!r}")
    clash = [k for k in STANDARD if k not in CANCEL_KEYS and r[k] != STANDARD[k]]
    if clash:
        raise ValueError(f"{clash[0]}: does not apply under cancel_spades (a game with its own "
                         "deck, card order and scoring)")
    if r["blind_nil"]:
        raise ValueError("blind_nil: cancel_spades has no blind bids (set blind_nil = False)")
    for key, value in (("max_hands", r["players"]), ("target_score", None),
                       ("mercy_score", None)):
        if r[key] != value:
            raise ValueError(f"{key}: a game of cancel_spades is {r['players']} hands, one deal "
                             f"per player (max_hands = {r['players']}, no target_score, no "
                             "mercy_score: the preset spades.cancel"
                             f"{'8' if r['players'] == 8 else ''})")


def _check_kitty(r: dict) -> None:
    """Section 4.1 ``kitty`` (the issue 8 spec), each a ValueError naming the key:
    ``kitty_taker`` and ``kitty_extra_trick`` need the kitty; no card is taken out to even the
    hands, so ``jokers_remove`` and ``remove = "last"`` are refused with it (three players' 2C
    and five players' 2D 2H simply stay in); a kitty of 0 cards (the deck divides evenly and
    no extra trick) is refused; at six players the kitty goes with ``deck = "double_kitty"``
    (``_check_big_tables``); cancel_spades has none (``_check_cancel_spades``)."""
    for key in ("kitty_taker", "kitty_extra_trick"):
        if r[key] != STANDARD[key] and not r["kitty"]:
            raise ValueError(f"{key}: needs kitty = True")
    if not r["kitty"]:
        return
    for key, off in (("jokers_remove", None), ("remove", "2C")):
        if r[key] != off:
            raise ValueError(f"{key}: takes cards out to even the hands, which the kitty does "
                             "instead")
    if _kitty_size(r) == 0:
        raise ValueError(f"kitty: {len(_order_of(r).deck)} cards divide evenly among "
                         f"{r['players']} players; a kitty needs kitty_extra_trick = True")


def _check_jokes(r: dict) -> None:
    """Section 4.2 ``jokes_win`` (the issue 8 spec), each a ValueError naming the key: four
    players in partnerships (a joker turns its partner's card into a joke trump); not with
    ``must_trump`` or ``must_overtrump`` (reading, as the engine: a card becomes a trump only
    when its partner's joker comes, so "beat the highest spade" has no answer while the trick is
    played); ``jokes_tie`` only with it. (Its ``jokers = 2`` is checked with the other orders
    that rank two jokers.)"""
    if r["trump_order"] != "jokes_win":
        if r["jokes_tie"] != STANDARD["jokes_tie"]:
            raise ValueError("jokes_tie: needs trump_order = 'jokes_win'")
        return
    if r["players"] != 4 or not r["partnerships"]:
        raise ValueError("trump_order: jokes_win turns a partner's card into a joke trump: four "
                         "players in partnerships")
    if r["must_trump"] or r["must_overtrump"] != "off":
        raise ValueError("trump_order: under jokes_win a card becomes a trump only when its "
                         "partner's joker comes: must_trump and must_overtrump do not apply")


# Section 4 reads '"Side" = partnership, or a single player in games without partners': a key
# written for a side (the side contracts, moon, lexington, bemo, hook, ...) is played at every
# table of section 4.7 (issue 19). These are written for more (a key counts as used when it is
# not at its default): PARTNER_KEYS for two partners ("both partners", "the first partner ...
# the second", "a partnership's two bids", "between the partners"), played by pairs (four
# players, six in three pairs); min_team_bid also without partners ("each player bids nil or at
# least k"); PARTY_KEYS for partners ("a side (not a player)", "one joint bid", "each
# partner"), played by sides of two or three; TWO_SIDE_KEYS for two sides.
PARTNER_KEYS = ("double_nil", "double_blind_nil", "suicide", "max_team_bid", "nil_pass",
                "exact_pair_bonus", "min_team_bid")
PARTY_KEYS = ("team_nil", "team_blind_nil", "highlander")
TWO_SIDE_KEYS = ("set_to_opponents", "book_made")


def _check_section_4_7(r: dict) -> None:
    """The keys of two partners at a table without pairs (cutthroat, three, five, six players
    solo or in two threes; ``min_team_bid`` is allowed without partners), of partners at one
    without partners and of two sides at a table of more (section 4.7), each a ValueError
    naming the key. (``remove`` and ``partnerships`` themselves are checked with the deck,
    ``_check_sections_4_2_4_3``.)"""
    used = [k for k in (*PARTNER_KEYS, *PARTY_KEYS, *TWO_SIDE_KEYS) if r[k] != STANDARD[k]]
    solo = _sides(r) == _players(r)
    if not _pairs(r):
        clash = [k for k in used if k in PARTNER_KEYS and not (k == "min_team_bid" and solo)]
        if clash:
            raise ValueError(f"{clash[0]}: written for two partners; {r['players']} players "
                             f"have {'no partners' if solo else 'sides of three'}")
    if solo:
        clash = [k for k in used if k in PARTY_KEYS]
        if clash:
            raise ValueError(f"{clash[0]}: written for partners; {r['players']} players have "
                             "none")
    if _sides(r) != 2:
        clash = [k for k in used if k in TWO_SIDE_KEYS]
        if clash:
            raise ValueError(f"{clash[0]}: written for two sides; this table has {_sides(r)}")


_BOOL_KEYS_4_4 = ("hook", "suicide", "whiz", "mirror", "fledu", "double_nil", "double_blind_nil",
                  "moon", "lexington", "lexington_points", "team_nil", "team_blind_nil",
                  "ten_for_two_hundred", "ten_for_200_exact", "tens_are_wheels", "mo_a", "mo_b",
                  "bemo", "blind_six", "blind_six_at_least", "blind_moon")

# The keys that let a side declare a side contract instead of its bids (section 4.4), and bemo.
_SIDE_CONTRACT_KEYS = ("team_nil", "team_blind_nil", "ten_for_two_hundred", "mo_a", "mo_b",
                       "blind_six", "blind_moon", "bemo")


def _check_int(r: dict, key: str, lo: int, hi: int) -> None:
    value = r[key]
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{key} must be None or a whole number {lo}..{hi}, not {value!r}")


# Keys of the engine that this reference does not implement: accepted only at these values.
_NOT_IMPLEMENTED = {"nil_pass": None, "pass_cards": None, "pass_when": "after_bid"}


def _check_section_4_4(r: dict) -> None:
    """Values of the section 4.4 keys, then the combinations that cannot be played, each a
    ValueError naming the key.

    From RULES.md / the brief: ``min_team_bid`` above ``max_team_bid``; ``hook`` with ``mirror``
    (the bid is forced by the spades held, so the hook would give way every time: no effect;
    with ``whiz`` it forbids the count or the nil, issue 19); ``whiz`` or ``mirror`` with
    ``blind_nil`` (no blind bids); ``mirror`` with ``whiz``; ``suicide_min_bid`` without
    ``suicide``.

    Readings added here (a seat could be left with no legal bid otherwise):

    * ``suicide``, ``whiz``, ``mirror`` need ``nil`` (a side must contain a nil; a player without
      spades bids nil).
    * ``whiz`` with ``min_team_bid``: the seed says whiz has no team minimum (a player holding
      fewer spades than the side still needs could bid nothing).
    * ``mirror`` with ``min_team_bid``, ``suicide`` or ``fledu``: the bid is forced by the spades
      held, so no other minimum or forced nil can be imposed on it.
    * ``suicide`` with ``min_team_bid``, unless ``suicide_min_bid`` >= ``min_team_bid``: a first
      partner bidding below k forces his partner to a nil that min_team_bid forbids.
    * ``mirror`` with ``max_team_bid`` below 13: a player may hold more spades than it allows.

    (``hook``, ``moon`` and ``lexington`` forbid one bid and give way where that would leave no
    bid, see ``_why_not``, so they need no rejection.)

    Side contracts (the brief of these keys): ``mo_a`` with ``mo_b`` (two versions of Mo);
    ``ten_for_200_fail`` (other than 200), ``ten_for_200_exact`` and ``tens_are_wheels`` without
    ``ten_for_two_hundred``; ``blind_six_at_least`` without ``blind_six``;
    ``double_blind_nil_reward`` (other than "double") without ``double_blind_nil``; any side contract key
    with ``suicide``, ``whiz`` or ``mirror``, under which every side bids (``min_team_bid`` binds
    the sides that bid, issue 19); ``bemo`` with ``suicide`` (bemo comes on top of two non-nil
    bids, which suicide never leaves).
    """
    for key, off in _NOT_IMPLEMENTED.items():
        if r[key] != off:
            raise ValueError(f"{key} = {r[key]!r}: not implemented by the reference (only {off!r})")
    for key in _BOOL_KEYS_4_4:
        if r[key] is not True and r[key] is not False:
            raise ValueError(f"{key} must be True or False, not {r[key]!r}")
    if r["double_blind_nil_reward"] not in ("double", "win"):
        raise ValueError("double_blind_nil_reward must be 'double' or 'win', not "
                         f"{r['double_blind_nil_reward']!r}")
    _check_int(r, "min_team_bid", 1, 2 * MAX_BID)
    _check_int(r, "suicide_min_bid", 1, MAX_BID)
    fail = r["ten_for_200_fail"]
    if isinstance(fail, bool) or not isinstance(fail, int) or fail < 0:
        raise ValueError(f"ten_for_200_fail must be a whole number >= 0, not {fail!r}")
    for key, needs in (("ten_for_200_fail", "ten_for_two_hundred"),
                       ("ten_for_200_exact", "ten_for_two_hundred"),
                       ("tens_are_wheels", "ten_for_two_hundred"),
                       ("blind_six_at_least", "blind_six"),
                       ("double_blind_nil_reward", "double_blind_nil")):  # issue 17
        if r[key] != STANDARD[key] and not r[needs]:
            raise ValueError(f"{key}: needs {needs} = True")
    if r["mo_a"] and r["mo_b"]:
        raise ValueError("mo_a and mo_b: two versions of Mo, choose one (mo_b)")
    declared = [k for k in _SIDE_CONTRACT_KEYS if r[k] and k != "bemo"]
    if declared:  # (min_team_bid binds the sides that bid: issue 19)
        for key in ("suicide", "whiz", "mirror"):
            if r[key] not in (None, False):
                raise ValueError(f"{key}: every side bids under it; the side contracts "
                                 f"{declared} replace a side's bids: choose one")
    if r["bemo"] and r["suicide"]:  # bemo needs two non-nil bids, suicide a nil in each side
        raise ValueError("bemo: on top of two ordinary bids, which suicide never leaves")
    checks = [
        ("min_team_bid", r["min_team_bid"] is not None and r["max_team_bid"] is not None
         and r["min_team_bid"] > r["max_team_bid"],
         f"min_team_bid = {r['min_team_bid']} is above max_team_bid = {r['max_team_bid']}"),
        ("hook", r["hook"] and r["mirror"],
         "hook with mirror: the bid is forced by the spades held"),
        ("whiz", r["whiz"] and r["blind_nil"], "whiz allows no blind bid: set blind_nil = False"),
        ("mirror", r["mirror"] and r["blind_nil"],
         "mirror allows no blind bid: set blind_nil = False"),
        ("mirror", r["mirror"] and r["whiz"], "mirror and whiz are two different forced bids"),
        ("double_blind_nil", r["double_blind_nil"] and not r["blind_nil"],
         "double_blind_nil needs blind_nil = True"),
        ("suicide_min_bid", r["suicide_min_bid"] is not None and not r["suicide"],
         "suicide_min_bid needs suicide = True"),
        ("suicide", r["suicide"] and not r["nil"], "suicide needs nil = True (each side bids a nil)"),
        ("whiz", r["whiz"] and not r["nil"], "whiz needs nil = True (a player without spades bids nil)"),
        ("mirror", r["mirror"] and not r["nil"],
         "mirror needs nil = True (a player without spades bids nil)"),
        ("whiz", r["whiz"] and r["min_team_bid"] is not None,
         "whiz has no team minimum: min_team_bid must be off"),
        ("mirror", r["mirror"] and r["min_team_bid"] is not None,
         "mirror forces every bid: min_team_bid must be off"),
        ("mirror", r["mirror"] and r["suicide"], "mirror forces every bid: suicide must be off"),
        ("mirror", r["mirror"] and r["fledu"], "mirror forces every bid: fledu must be off"),
        ("suicide", r["suicide"] and r["min_team_bid"] is not None
         and (r["suicide_min_bid"] or 1) < r["min_team_bid"],
         "suicide with min_team_bid: a first bid below min_team_bid would force a nil that "
         "min_team_bid forbids (set suicide_min_bid to at least min_team_bid)"),
        ("mirror", r["mirror"] and r["max_team_bid"] is not None and r["max_team_bid"] < MAX_BID,
         "mirror forces every bid: max_team_bid below 13 could forbid the spades held"),
    ]
    for key, bad, why in checks:
        if bad:
            raise ValueError(f"{key}: {why}")


TRICK_BONUSES = ("last_trick_bonus", "end_streak", "dix", "last_trick_ace", "last_trick_ace_nil",
                 "last_trick_deuce", "last_trick_high_spade")
_BOOL_KEYS_4_6 = ("three_b", "no_overs", "double_over", "quicksand", "set_to_opponents",
                  "book_made", "highlander", "exact_pair_bonus", "bags_in_units_digit",
                  "bags_negative", "no_minus", "defeat_score", *TRICK_BONUSES)
# The keys under which no bag exists (section 4.6; readings): what prices or cancels bags is
# refused with them. three_b and quicksand price each overtrick at -10 instead of counting it,
# unless bags_in_units_digit asks for the count (issue 19, a reading): see _bagless.
_BAGLESS = ("three_b", "quicksand", "no_overs", "highlander")


def _bagless(r: dict) -> list[str]:
    """The keys in force under which no bag is counted."""
    priced = ("three_b", "quicksand") if r["bags_in_units_digit"] else ()
    return [k for k in _BAGLESS if r[k] and k not in priced]


def _on(r: dict, key: str) -> bool:
    return r[key] not in (None, False)


def _check_section_4_6(r: dict) -> None:
    """Values of the section 4.6 / 4.8 keys, then the combinations that cannot be played (the
    readings of issue 7), each a ValueError naming the key.

    * one way of scoring the contract: at most one of ``three_b``, ``quicksand``, ``exact``;
    * ``bags_negative`` prices bags: not with ``three_b``, ``quicksand``, ``no_overs``;
    * ``highlander`` (its own contract, overtricks and bonus): not with ``three_b``,
      ``quicksand``, ``exact``, ``no_overs``, ``set_to_opponents``, ``bags_negative``,
      ``seven_plus``, ``bags_in_units_digit``, ``bag_cancel_card`` (with ``double_over`` and
      ``no_minus`` see ``_ordinary``: a side set under highlander is floored, one whose bidders
      took twice the side bid loses 20 x it);
    * ``bags_in_units_digit``: a bag count of one digit needs ``bag_limit`` 1..10; not with
      ``no_overs``, ``highlander``, ``bags_negative`` (no bags kept); with ``three_b`` or
      ``quicksand`` the overtricks they price at -10 are also counted as bags (issue 19);
    * ``bag_cancel_card``: not where no bag exists (``no_overs``, ``highlander``, ``three_b``
      and ``quicksand`` without ``bags_in_units_digit``);
    * ``defeat_score`` is ``-target_score``: needs ``target_score``;
    * two rules that contradict each other (issue 17): ``no_overs`` with ``three_b`` or
      ``quicksand`` (each prices an overtrick at -10); ``no_minus`` with ``set_to_opponents``
      agree (a set side scores 0 under either) and are allowed.
    """
    for key in _BOOL_KEYS_4_6:
        if r[key] is not True and r[key] is not False:
            raise ValueError(f"{key} must be True or False, not {r[key]!r}")
    for key, values in (("exact", ("side", "player")), ("seven_plus", ("per_trick", "progressive"))):
        if r[key] is not None and r[key] not in values:
            raise ValueError(f"{key} must be None or one of {values}, not {r[key]!r}")
    card = r["bag_cancel_card"]
    if card is not None and card != "cut":
        try:
            parse_card(card)
        except ValueError:
            raise ValueError(f"bag_cancel_card must be None, 'cut' or a card such as '7H', not "
                             f"{card!r}") from None
    ways = [k for k in ("three_b", "quicksand", "exact") if _on(r, k)]
    if len(ways) > 1:
        raise ValueError(f"{ways[1]}: {ways[0]} and {ways[1]} each score the contract their own "
                         "way: choose one")
    refusals = {
        "bags_negative": ("three_b", "quicksand", "no_overs"),
        "highlander": ("three_b", "quicksand", "exact", "no_overs", "set_to_opponents",
                       "bags_negative", "seven_plus", "bags_in_units_digit",
                       "bag_cancel_card"),
        "bags_in_units_digit": ("no_overs", "highlander", "bags_negative"),
        "bag_cancel_card": _bagless(r),
        "no_overs": ("three_b", "quicksand"),
    }
    for key, others in refusals.items():
        clash = [k for k in others if _on(r, key) and _on(r, k)]
        if clash:
            raise ValueError(f"{key}: does not combine with {clash[0]}")
    if r["bags_in_units_digit"] and (r["bag_limit"] is None or r["bag_limit"] > 10):
        raise ValueError("bags_in_units_digit: the bag count is the score's units digit, so "
                         f"bag_limit must be 1..10, not {r['bag_limit']!r}")
    if r["defeat_score"] and r["target_score"] is None:
        raise ValueError("defeat_score: it is -target_score, so target_score must be set")


# --- card orders (RULES.md section 4.2) --------------------------------------------------------

# section 0: big and little joker; with jokers = 2 the deck holds both; five players' third
# joker XJ ranks below LJ (section 4.2; jokers = 3 holds all three)
JOKERS = ("BJ", "LJ", "XJ")
_SPADES = ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S")

# Section 4.2, each order's spades written out strongest first. A tuple is a tier of cards that
# rank equal (the first of them played wins). The jokers stand where they rank and are simply
# absent from a deck without them. Every other card keeps its suit and ranks A high in it.
CARD_ORDERS: dict[str, list] = {
    # A high ... 2; with jokers "BJ > LJ > AS"
    "standard": ["BJ", "LJ", "XJ", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S",
                 "3S", "2S"],
    # "BJ > LJ > AS > ...; jokers are spades (needs jokers = 2)"
    "jokers_high": ["BJ", "LJ", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S",
                    "3S", "2S"],
    # "both jokers rank above AS and equal to each other; the first played wins"
    "jokers_first_wins": [("BJ", "LJ"), "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S",
                          "5S", "4S", "3S", "2S"],
    # "as jokers_high, and when BJ is led each opponent must play his highest spade"
    "joker_high_alternate": ["BJ", "LJ", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S",
                             "5S", "4S", "3S", "2S"],
    # "BJ > LJ > 2S > AS > KS > ... > 3S"
    "joker_joker_deuce_ace": ["BJ", "LJ", "2S", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S",
                              "6S", "5S", "4S", "3S"],
    # "2S > 2D > 2C > 2H > AS > KS > ... > 3S", the deuces spades in every respect; with jokers
    # "BJ > LJ > 2S > 2D > 2C > 2H > AS ..."
    "deuces_high": ["BJ", "LJ", "XJ", "2S", "2D", "2C", "2H", "AS", "KS", "QS", "JS", "TS", "9S", "8S",
                    "7S", "6S", "5S", "4S", "3S"],
    # "JS (right bower) > JC (left bower, a spade in every respect) > AS > KS > QS > 10S > ..."
    "bowers": ["JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S",
               "2S"],
    # "S > C > D > H", no trump suit: the spades are only the top suit of the ladder (they still
    # are "spades" for spades_broken, lead_ace_of_spades and the trick bonuses)
    "suit_ladder": list(_SPADES),
}
# cancel_spades (section 4.7): "2D > 2C > AS > KS > ... > 3S > 2S", both 2D and both 2C
# spades in every respect; identical cards in a trick cancel (see _Order.winning_index)
CANCEL_ORDER = ["2D", "2C", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S",
                "3S", "2S"]
# jokes_win (section 4.2): the jokers are spades above the AS for following, leading and
# breaking, but never win; the trick is resolved with the sides (see _Order.winning_index)
_ORDER_LISTS = {**CARD_ORDERS, "cancel_spades": CANCEL_ORDER,
                "jokes_win": ["BJ", "LJ", *_SPADES]}
JOKE_SUITS = {"D": 3, "C": 2, "H": 1}  # jokes_tie = "suit": diamonds, then clubs, then hearts
LADDER = "SCDH"  # suit_ladder: the suits strongest first
_JOKER_ORDERS = ("jokers_high", "jokers_first_wins", "joker_high_alternate",
                 "joker_joker_deuce_ace", "jokes_win")  # they rank two jokers: jokers = 2
_NO_JOKERS = ("bowers", "suit_ladder")  # no place for a joker (reading, as the engine)
FIRST_LEADS = ("left_of_dealer", "two_of_clubs", "lowest_club")
OVERTRUMPS = ("off", "opponents", "always")
_DEFAULT_REMOVED = ("2C", "2D")  # section 4.2: four players with two jokers remove 2C and 2D


class _Order:
    """One card order: the deck, each card's suit in play ("S" for every spade of the order) and
    its power (higher beats lower; equal cards have equal power), and how a trick is won.

    Spades: 100 + place counted from the weakest of the order's list; any other card: its rank
    (2..14), compared within its suit only (suit_ladder compares suits first, see ``strength``).
    ``copies`` = 2: every card (and joker) is in the deck twice (two decks, section 4.7);
    ``last_of_equals``: of equal cards the last played wins (``duplicate_wins = "last"``).
    """

    def __init__(self, order: str, jokers: int, removed: tuple[str, ...], copies: int = 1,
                 last_of_equals: bool = False, jokes_tie: str = "higher_joker"):
        tiers = [t if isinstance(t, tuple) else (t,) for t in _ORDER_LISTS[order]]
        joker_types = JOKERS[:jokers // copies]  # four jokers in two decks: BJ, LJ twice each
        tiers = [tuple(c for c in t if c not in JOKERS or c in joker_types) for t in tiers]
        tiers = [t for t in tiers if t]
        self.order = order
        self.ladder = order == "suit_ladder"
        self.cancel = order == "cancel_spades"
        self.jokes = order == "jokes_win"
        self.jokes_tie = jokes_tie
        self.last_of_equals = last_of_equals
        self.spades = {c: 100 + len(tiers) - k for k, tier in enumerate(tiers) for c in tier}
        natural = [c for c in DECK if c not in removed]
        self.deck = tuple((natural + list(joker_types)) * copies)
        self.suit = {c: "S" if c in self.spades else c[1] for c in self.deck}
        self.power = {c: _rank(c) for c in DECK}
        self.power.update(self.spades)  # removed spades too: "9S or higher" needs 9S's place

    def strength(self, card: str, led: str) -> tuple[int, int]:
        """How strongly ``card`` bids for a trick whose led suit is ``led``: the highest wins, the
        first played of equals (section 0: trumps, then the led suit; the ladder: suit, rank)."""
        if self.ladder:
            return len(LADDER) - LADDER.index(card[1]), _rank(card)
        if self.suit[card] == "S":
            return 2, self.power[card]
        if self.suit[card] == led:
            return 1, self.power[card]
        return 0, 0

    def winning_index(self, cards: list[str], sides: list[int] | None = None) -> int | None:
        """The index in ``cards`` (a trick, whole or in part, in order of play) of the card that
        wins it so far: the strongest, the first played of equal ones (the last under
        ``duplicate_wins = "last"``). ``sides``: the side of each card's player (needed by
        the orders that read them).

        Cancel spades: the cards whose two copies are both in the trick cancel and cannot win;
        the highest spade left wins, else the highest card left of the led suit (the led card's
        suit, even if it is cancelled); None when no card is left to win: a dead trick.

        Jokes win: see ``_jokes_strengths``."""
        led = self.suit[cards[0]]
        if self.jokes:
            if sides is None:
                raise ValueError("jokes_win: the trick's winner depends on the players' sides")
            strengths = self._jokes_strengths(cards, sides)
            best = strengths.index(max(strengths))
            # a led joker that nothing can beat (its side's other card the other joker, the
            # opponents void in spades): the led card holds the trick (reading)
            return best if strengths[best][0] >= 1 else 0
        if self.cancel:
            counts = Counter(cards)
            live = [k for k, c in enumerate(cards) if counts[c] == 1]
            pool = ([k for k in live if self.suit[cards[k]] == "S"]
                    or [k for k in live if self.suit[cards[k]] == led])
            return max(pool, key=lambda k: self.power[cards[k]]) if pool else None
        strengths = [self.strength(c, led) for c in cards]
        best = max(strengths)
        # of identical cards the last played under duplicate_wins = "last"; of two jokers under
        # jokers_first_wins the first played, identical or not (its own words, section 4.2)
        first_joker = self.order == "jokers_first_wins" and cards[strengths.index(best)] in JOKERS
        if self.last_of_equals and not first_joker:
            return len(strengths) - 1 - strengths[::-1].index(best)
        return strengths.index(best)

    def _jokes_strengths(self, cards: list[str], sides: list[int]) -> list[tuple]:
        """Section 4.2 ``jokes_win`` (the issue 8 spec): how strongly each card bids for the
        trick. A joker has no rank and never wins. Every other card of a side that played a
        joker to the trick (before or after it) is a joke trump of its rank, but a natural spade
        stays a natural spade: natural AS > joke A > natural KS > joke K > ... > natural 2S >
        joke 2. Two joke trumps of one rank (one per side): ``jokes_tie`` ``"higher_joker"`` the
        one whose side played the BJ, ``"first_joker"`` the one whose side's joker came first,
        ``"suit"`` by the joke card's suit, D > C > H. With no trump the highest card of the led
        suit wins; a led joker leads spades."""
        joker_sides = [side for card, side in zip(cards, sides, strict=True) if card in JOKERS]
        big = [side for card, side in zip(cards, sides, strict=True) if card == "BJ"]
        led = self.suit[cards[0]]
        out = []
        for card, side in zip(cards, sides, strict=True):
            if card in JOKERS:
                out.append((-1, 0, 0))
            elif self.suit[card] == "S":
                out.append((2, 2 * _rank(card) + 1, 0))
            elif side in joker_sides:
                tie = {"higher_joker": int(side in big),
                       "first_joker": int(side == joker_sides[0]),
                       "suit": JOKE_SUITS[card[1]]}[self.jokes_tie]
                out.append((2, 2 * _rank(card), tie))
            elif self.suit[card] == led:
                out.append((1, _rank(card), 0))
            else:
                out.append((0, 0, 0))
        return out

    def lowest_club(self) -> str:
        """The lowest club of the deck (the order's clubs: not a deuce or bower made a spade)."""
        return min((c for c in self.deck if self.suit[c] == "C"), key=_rank)


_ORDERS: dict[tuple, _Order] = {}


def _removed(r: dict) -> tuple[str, ...]:
    """The cards taken out of the deck (both copies with two decks). Four players: the cards the
    jokers replace (section 4.2 ``jokers_remove``), none without jokers. Section 4.7: three
    players "17 each; remove = "2C" (default) or the last card undealt. With jokers: 18 each"
    (54 cards, none out); five players "remove 2D and 2H, 10 each; or add three jokers, 11
    each" (55 cards, none out); six players: the 2C of ``double_minus_2c``, the four 2s of
    ``no_twos``."""
    r = _known(r)
    if r["cancel_spades"]:  # six players: two decks without the 2H; eight: two full decks
        return ("2H",) if r["players"] == 6 else ()
    six = _six_deck(r)
    if six is not None:
        return {"double_minus_2c": ("2C",), "no_twos": ("2S", "2H", "2D", "2C")}.get(six, ())
    if r["kitty"]:  # section 4.1: the leftover cards form the kitty, none is taken out
        return ()
    if r["players"] == 3:
        return ("2C",) if not r["jokers"] and r["remove"] == "2C" else ()
    if r["players"] == 5:
        return () if r["jokers"] else ("2D", "2H")
    if not r["jokers"]:
        return ()
    return tuple(r["jokers_remove"]) if r["jokers_remove"] is not None else _DEFAULT_REMOVED


def _known(r: dict) -> dict:
    """``r`` with every key of STANDARD: the conformance tests hand a few private helpers
    (``_order_of``, ``_removed``, ``_stages``) the engine's rules as a dict of the keys both
    know, unresolved; a key the engine does not have yet is then at its standard value."""
    return r if len(r) >= len(STANDARD) else {**STANDARD, **r}


def _order_of(r: dict) -> _Order:
    r = _known(r)
    order = "cancel_spades" if r["cancel_spades"] else r["trump_order"]
    key = (order, r["jokers"], _removed(r), _copies(r), r["duplicate_wins"] == "last",
           r["jokes_tie"])
    if key not in _ORDERS:
        _ORDERS[key] = _Order(*key)
    return _ORDERS[key]


def deck_of(rules: dict | str | None = None) -> list[str]:
    """The cards of the rules' deck: the 52 less ``jokers_remove``, plus "BJ" and "LJ" with
    ``jokers = 2`` (section 4.2); the decks of section 4.7 (a card twice with two decks)."""
    return list(_order_of(resolve_rules(rules)).deck)


def card_suit(card: str, rules: dict | str | None = None) -> str:
    """The suit ``card`` belongs to in play under the rules' card order: "S" for every spade of
    the order (jokers, high deuces, the left bower), else its printed suit."""
    o = _order_of(resolve_rules(rules))
    if card not in o.suit:
        raise ValueError(f"{card!r} is not a card of this deck ({len(o.deck)} cards)")
    return o.suit[card]


def _check_sections_4_2_4_3(r: dict) -> None:
    """Values of the section 4.2 / 4.3 keys, then the combinations that cannot be played, each a
    ValueError naming the key (the engine's refusals, each read from RULES.md):

    * ``jokers_high``, ``jokers_first_wins``, ``joker_high_alternate``,
      ``joker_joker_deuce_ace`` rank two jokers: they need ``jokers = 2``; ``bowers`` and
      ``suit_ladder`` say nothing of jokers: no jokers with them (reading);
    * ``jokers`` is 0 or 2 (3 and 4 are for five and six players, section 4.7);
      ``jokers_remove`` needs jokers and names one distinct card per joker (hands stay even);
    * ``bag_cancel_card`` may not be a removed card; ``first_lead = "two_of_clubs"`` needs the
      2C in the deck, and a club (not under ``deuces_high``, where it is a spade); the AS
      (``lead_ace_of_spades``) and the 9S (``dix``, ``last_trick_high_spade``) may not be
      removed;
    * ``first_trick_clubs`` and ``first_lead`` name the first leader (the holder of the 2C or
      of the lowest club): not with ``mo_b`` (whose side leads trick 1); with each other and
      with ``first_trick_lowest_club`` (everyone plays his lowest club) they agree;
    * ``lead_ace_of_spades`` needs ``spades_broken = True``;
    * ``must_trump`` already beats the highest spade: not with ``must_overtrump = "always"``
      (no effect); with ``"opponents"`` it beats only an opponent's (``_stages``);
    * ``suit_ladder`` has no trump: not with ``must_trump`` or ``must_overtrump``.
    * ``jokes_win`` (see ``_check_jokes``).
    """
    order = r["trump_order"]
    if order not in CARD_ORDERS and order != "jokes_win":
        raise ValueError(f"trump_order must be one of {sorted([*CARD_ORDERS, 'jokes_win'])}, "
                         f"not {order!r}")
    if r["jokers"] not in (0, 2, 3, 4) or isinstance(r["jokers"], bool):
        raise ValueError(f"jokers: 0, 2, 3 or 4, not {r['jokers']!r}")
    removed = r["jokers_remove"]
    if removed is not None and (not isinstance(removed, list | tuple) or any(
            c not in DECK for c in removed) or len(set(removed)) != len(removed)):
        raise ValueError(f"jokers_remove: a list of distinct cards such as ['2C', '2D'], not "
                         f"{removed!r}")
    for key, values in (("first_lead", FIRST_LEADS), ("must_overtrump", OVERTRUMPS)):
        if r[key] not in values:
            raise ValueError(f"{key} must be one of {values}, not {r[key]!r}")
    for key in ("first_trick_clubs", "first_trick_lowest_club", "no_spade_lead_first_trick",
                "lead_ace_of_spades", "must_trump"):
        if r[key] is not True and r[key] is not False:
            raise ValueError(f"{key} must be True or False, not {r[key]!r}")
    if order in _JOKER_ORDERS and r["jokers"] != 2 * _copies(r):  # two decks: BJ, LJ twice
        raise ValueError(f"trump_order: {order} ranks the two jokers, set jokers = 2")
    _check_jokes(r)
    if r["jokers"] and order in _NO_JOKERS:
        raise ValueError(f"jokers: trump_order {order} has no rank for a joker")
    # section 4.7: five players add three jokers; six players' decks hold 2 or 4 (checked with
    # the deck, _check_big_tables); eight players (cancel_spades) none
    allowed = {3: (2,), 4: (2,), 5: (3,), 6: (2, 4), 8: ()}[r["players"]]
    if r["jokers"] and r["jokers"] not in allowed:
        raise ValueError(f"jokers: {r['players']} players play with {allowed or 'no'} jokers or "
                         "none")
    if removed is not None and not r["jokers"]:
        raise ValueError("jokers_remove: there are no jokers to make room for")
    if removed is not None and r["players"] != 4:
        raise ValueError("jokers_remove: only four players take cards out for the jokers")
    if r["players"] == 4 and not r["kitty"] and len(_removed(r)) != r["jokers"]:
        raise ValueError(f"jokers_remove: one card per joker ({r['jokers']}) keeps the hands even")
    # section 4.7: remove = "last" is three players' option without jokers; no partners is the
    # four players' cutthroat (three and five never have partners)
    if r["remove"] != "2C" and (r["players"] != 3 or r["jokers"]):
        raise ValueError("remove: only three players without jokers leave a card out")
    if not r["partnerships"] and r["players"] != 4:
        raise ValueError("partnerships: False (cutthroat) is for four players; three and five "
                         "players never have partners, six choose their teams")
    if r["bag_cancel_card"] in _removed(r):
        raise ValueError(f"bag_cancel_card: {r['bag_cancel_card']} is out of the deck "
                         "(jokers_remove, or a six-player deck)")
    if r["first_lead"] == "two_of_clubs" and order == "deuces_high":
        raise ValueError("first_lead: two_of_clubs, but under deuces_high the 2C is a spade")
    for card, keys in (("AS", ("lead_ace_of_spades",)), ("9S", ("dix", "last_trick_high_spade"))):
        on = [k for k in keys if r[k]]
        if on and card in _removed(r):
            raise ValueError(f"jokers_remove: {on[0]} names the {card}, taken out")
    if r["first_lead"] == "two_of_clubs" and "2C" in _removed(r):
        raise ValueError("first_lead: two_of_clubs, but the deck has no 2C (jokers_remove, or "
                         "a six-player deck)")
    # the rules of trick 1 agree: the first leader leads the lowest club (the 2C is the lowest
    # club where it is dealt), and first_trick_lowest_club has every player play his lowest
    # club; only the leader named by mo_b ("the declaring side leads trick 1") is another
    trick_one = ["first_trick_clubs"] if r["first_trick_clubs"] else []
    trick_one += ["first_lead"] if r["first_lead"] != "left_of_dealer" else []
    if trick_one and r["mo_b"]:
        raise ValueError(f"{trick_one[0]}: mo_b's side leads trick 1")
    if r["lead_ace_of_spades"] and r["spades_broken"] is not True:
        raise ValueError("lead_ace_of_spades: needs spades_broken = True")
    if r["must_trump"] and r["must_overtrump"] == "always":
        raise ValueError("must_overtrump: must_trump already makes a player beat the spades")
    if order == "suit_ladder" and (r["must_trump"] or r["must_overtrump"] != "off"):
        raise ValueError("trump_order: suit_ladder has no trump for must_trump / must_overtrump")


# --- tricks (RULES.md section 0, section 3) ----------------------------------------------------


def trick_winner(trick: list[str], leader: int, rules: dict | str | None = None) -> int | None:
    """Seat that wins a complete trick, ``trick[i]`` having been played by seat ``leader + i``.

    Section 0: the highest trump (spade) wins; with no spade, the highest card of the led suit.
    A trick has one card per player (section 4.7: three to eight).
    A card of another suit never wins. Section 4.2: "spade" and "highest" as the rules' card
    order says (``CARD_ORDERS``); of two equal jokers (``jokers_first_wins``) the first played
    wins; under ``suit_ladder`` the highest card of the highest suit on the ladder S > C > D > H
    wins, whatever was led. Two decks (section 4.7): of the two copies of the highest card the
    first played wins, or the last under ``duplicate_wins = "last"``.
    """
    r = resolve_rules(rules)
    if len(trick) != _players(r):
        raise ValueError(f"a trick has {_players(r)} cards, not {len(trick)}")
    o = _order_of(r)
    for card in trick:
        if card not in o.suit:
            raise ValueError(f"{card!r} is not a card of this deck")
    extra = Counter(trick) - Counter(o.deck)
    if extra:
        raise ValueError(f"the deck has fewer copies of {sorted(extra)}")
    return _winner(list(trick), leader, r)


def _trick_index(cards: list[str], leader: int, r: dict) -> int | None:
    """The index in ``cards`` (a trick or its start, in order of play, led by ``leader``) of
    the card that holds it (see ``_Order.winning_index``)."""
    players = _players(r)
    sides = [_side((leader + k) % players, r) for k in range(len(cards))]
    return _order_of(r).winning_index(cards, sides)


def _winner(trick: list[str], leader: int, r: dict) -> int | None:
    """trick_winner for checked cards and resolved rules."""
    k = _trick_index(trick, leader, r)
    return None if k is None else (leader + k) % _players(r)


# --- bidding (RULES.md section 3: bidding, nil, blind_nil, max_team_bid; section 4.4 keys) -----


class _Turn:
    """What a bidder knows at his turn: his seat, the bids made before him (``{seat: bid}``, nil =
    0), his partner's bid (None if the partner bids later, or at a table without partners), the
    number of spades he holds (None = not known: a score sheet has no hands), and the table."""

    def __init__(self, seat: int, made: dict[int, int], n_spades: int | None, r: dict):
        self.seat = seat
        self.made = dict(made)
        partner = _partner(seat, r)
        self.partner = None if partner is None else self.made.get(partner)
        self.n_spades = n_spades
        self.players = _players(r)
        self.partner_seat = partner
        self.tricks = _n_tricks(r)  # bids are 0..the tricks of the hand
        side = _side(seat, r)
        self.opponent_sides = [_seats_of(k, r) for k in range(_sides(r)) if k != side]

    @property
    def is_fourth(self) -> bool:
        """The last bidder: the others have all bid (section 4.4 ``hook``)."""
        return len(self.made) == self.players - 1 and self.seat not in self.made

    @property
    def opponents_double_nil(self) -> bool:
        """Both partners of an other side have already bid nil (blind or not)."""
        return any(all(self.made.get(s) == 0 for s in seats) for seats in self.opponent_sides)


def _nil_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 3 `nil`: without it the minimum bid is 1
    if bid == 0 and not r["nil"]:
        return "nil is not allowed (nil = false: the minimum bid is 1)"
    return None


def _least_bid(r: dict) -> int:
    """The smallest bid a player can always make: nil, else 1 (4 under ``fledu``)."""
    return 0 if r["nil"] else 4 if r["fledu"] else 1


def _max_team_bid_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 3 `max_team_bid`: this bid + the partner's (nil 0) at most the limit; a partner still
    # to bid is counted at the least bid he can always make (reading, shared with the engine: so
    # that he keeps a legal bid; it matters only without nil)
    if r["max_team_bid"] is None:
        return None
    if t.partner is None:
        least = _least_bid(r)
        if bid + least > r["max_team_bid"]:
            return (f"the partner still to bid needs at least {least}: the side would bid more "
                    f"than max_team_bid = {r['max_team_bid']}")
    elif bid + t.partner > r["max_team_bid"]:
        return (f"with partner seat {t.partner_seat}'s bid of {t.partner} the side would bid "
                f"more than max_team_bid = {r['max_team_bid']}")
    return None


def _min_team_bid_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `min_team_bid = k`: the second partner bids nil or at least k after a nil; after
    # a non-nil p, at least k - p (and at least 1), or nil only if p >= k. The first is free.
    k = r["min_team_bid"]
    if k is not None and t.partner_seat is None and bid != 0 and bid < k:
        return f"min_team_bid = {k}: without partners each player bids nil or at least {k}"
    if k is None or t.partner is None:
        return None
    p = t.partner
    if p == 0:
        if bid != 0 and bid < k:
            return f"min_team_bid = {k}: the partner bid nil, so bid nil or at least {k}"
    elif bid == 0:
        if p < k:
            return f"min_team_bid = {k}: a nil would leave the side's bid at {p}"
    elif bid + p < k:
        return f"min_team_bid = {k}: with the partner's {p} bid at least {k - p}"
    return None


def _hook_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `hook`: the fourth bidder may not make the four bids total 13 (nil counts 0);
    # after a side contract only two seats bid, so nobody is fourth (reading, the engine's too)
    if r["hook"] and t.is_fourth and bid == t.tricks - sum(t.made.values()):
        return f"hook: the others bid {sum(t.made.values())}, the bids may not total {t.tricks}"
    return None


def _suicide_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `suicide`: each side contains a nil; `suicide_min_bid`: a non-nil bid's minimum
    if not r["suicide"]:
        return None
    if t.partner is not None and t.partner != 0 and bid != 0:
        return "suicide: the partner did not bid nil, so this bid must be nil"
    m = r["suicide_min_bid"]
    if m is not None and bid != 0 and bid < m:
        return f"suicide_min_bid = {m}: a bid other than nil is at least {m}"
    return None


def _whiz_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `whiz`: the number of spades held, or nil
    if r["whiz"] and t.n_spades is not None and bid not in (0, t.n_spades):
        return f"whiz: bid the {t.n_spades} spades held, or nil"
    return None


def _mirror_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `mirror`: exactly the number of spades held (nil exactly when none)
    if r["mirror"] and t.n_spades is not None and bid != t.n_spades:
        return f"mirror: bid exactly the {t.n_spades} spades held"
    return None


def _fledu_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `fledu`: at least 4 unless nil
    if r["fledu"] and bid != 0 and bid < 4:
        return "fledu: a bid other than nil is at least 4"
    return None


def _moon_rule(bid: int, t: _Turn, r: dict) -> str | None:
    # section 4.4 `moon` (13) and, read "as moon", `lexington` (12): not allowed once the other
    # side has bid double nil, so the second partner may not make his side's total that number
    if t.partner is None or t.partner == 0 or bid == 0 or not t.opponents_double_nil:
        return None
    for key, total in (("moon", t.tricks), ("lexington", t.tricks - 1)):
        if r[key] and t.partner + bid == total:
            return f"{key}: the other side bid double nil, so the side may not bid {total}"
    return None


# Every bid rule, each a pure function (bid, turn, rules) -> reason it is illegal, or None.
# Requirements say what a bid must be; prohibitions forbid one particular bid (section 4.4 hook,
# moon, lexington) and apply only where they leave the seat some bid (reading, shared with the
# engine: e.g. a fourth bidder forced to nil by suicide may bid it even if the others bid 13).
_REQUIREMENTS = (_nil_rule, _max_team_bid_rule, _min_team_bid_rule, _suicide_rule, _whiz_rule,
                 _mirror_rule, _fledu_rule)
_PROHIBITIONS = (_hook_rule, _moon_rule)


def _first_reason(rules_: tuple, bid: int, t: _Turn, r: dict) -> str | None:
    for rule in rules_:
        why = rule(bid, t, r)
        if why is not None:
            return why
    return None


def _legal(t: _Turn, r: dict) -> list[int]:
    """The legal bids at this turn, ascending: 0..the cards each player holds (13 at four
    players; section 4.7: 17 or 18 at three, 10 or 11 at five)."""
    required = [b for b in range(t.tricks + 1) if _first_reason(_REQUIREMENTS, b, t, r) is None]
    kept = [b for b in required if _first_reason(_PROHIBITIONS, b, t, r) is None]
    return kept if kept else required  # prohibitions that would leave no bid do not apply


def _why_not(bid: int, t: _Turn, r: dict) -> str | None:
    """Why ``bid`` is not legal at this turn, or None if it is."""
    why = _first_reason(_REQUIREMENTS, bid, t, r)
    if why is not None or bid in _legal(t, r):
        return why
    return _first_reason(_PROHIBITIONS, bid, t, r)


def _n_spades(hand: list[str] | None, r: dict) -> int | None:
    """The spades held, as the card order counts them (section 4.2: a joker, a high deuce or
    the left bower is a spade "in every respect")."""
    if hand is None:
        return None
    suit = _order_of(r).suit
    return sum(1 for card in hand if suit.get(card) == TRUMP)


def _blind_deficit_ok(seat: int, scores_before: list[int], r: dict) -> bool:
    """Section 3 ``blind_nil_min_deficit``: the seat's side trails by at least it. With more
    than two sides (section 4.7; reading, the engine's): trails the best other side by it."""
    own = scores_before[_side(seat, r)]
    other = max(s for k, s in enumerate(scores_before) if k != _side(seat, r))
    return r["blind_nil_min_deficit"] == 0 or other - own >= r["blind_nil_min_deficit"]


def legal_bids(
    seat: int,
    bids_so_far: dict[int, int],
    scores_before: list[int],
    rules: dict | str | None,
    hand: list[str] | None = None,
    *,
    blind_so_far: dict[int, bool] | None = None,
    side_contracts: list[str | None] | None = None,
) -> dict:
    """What ``seat`` may bid, given the bids already made (``{seat: bid}``, nil = 0), the sides'
    scores before the hand and (for ``whiz`` and ``mirror``) the seat's cards.

    Returns ``{"bids": [sorted bids allowed after looking at the cards], "blind_nil": bool}``.

    * Bids are 0..13 (0..the tricks of the hand at other tables, ``table_of``: 8 or 9 for six
      players with one deck, whatever the team shape, 17 or 18 with two); 0 is nil and exists
      only with ``nil``; otherwise the minimum bid is 1. The tests compare these lists with
      every bid mask the engine offers, bit for bit (``tests.harness.check_offered_bids``).
    * ``max_team_bid``: this bid plus the partner's bid (nil counts 0) may not exceed it; a
      partner still to bid counts as the least bid he can always make (0 with nil, else 1, or 4
      under ``fledu``). A nil always fits.
    * Section 4.4, each a further filter (the partner's bid is known only to the second partner
      of a side; the fourth bidder is the one after three bids):
      ``min_team_bid = k``: the second partner bids nil or at least k after a nil partner; after
      a non-nil p, at least max(k - p, 1), or nil if p >= k. ``hook``: the last bidder (the
      fourth; the sixth at six players in two threes) may not bid the tricks of the hand minus
      the others' total. ``suicide``: after a non-nil partner only nil;
      ``suicide_min_bid = m``: every non-nil bid at least m. ``whiz``: the spades held or nil.
      ``mirror``: the spades held. ``fledu``: nil or at least 4. ``moon`` / ``lexington``: when
      both opponents have bid nil, the second partner may not make the side's total 13 / 12
      (without a nil). With ``hand = None`` whiz and mirror are not applied (hand unknown).
    * Blind nil (a bid of 0 made before looking) needs ``blind_nil`` and ``nil`` (it is a nil bid),
      the seat's side must trail the other side by at least ``blind_nil_min_deficit`` points
      (0 = always, even when leading), and nil must be legal at this turn (section 4.4: e.g. not
      after a partner's bid below ``min_team_bid``, not when ``hook`` forbids 0). No other blind
      bids exist here.
    * Side contracts (section 4.4): ``side_contracts`` = the declarations so far by side
      (default none). A seat whose side declared one does not bid: ``{"bids": [], "blind_nil":
      False}``. The partners of a side contract are not in ``bids_so_far`` (so after one there is
      no fourth bidder for ``hook``, and an opponents' side contract is no double nil).
      ``blind_moon``, "the first of blind moon / double blind nil to be bid stands": after the
      opponents' blind moon a seat whose partner bid blind nil (``blind_so_far``: ``{seat:
      True}`` for the blind nils made) may not bid blind nil (a sighted nil stays legal).
    """
    r = resolve_rules(rules)
    declared = _declared(side_contracts, r)
    if declared[_side(seat, r)] is not None:
        return {"bids": [], "blind_nil": False}
    t = _Turn(seat, bids_so_far, _n_spades(hand, r), r)
    allowed = _legal(t, r)
    nil_now = 0 in _legal(_Turn(seat, bids_so_far, None, r), r)
    blind_nil = bool(r["nil"] and r["blind_nil"] and _blind_deficit_ok(seat, scores_before, r)
                     and nil_now and _blind_moon_stands(seat, bids_so_far, blind_so_far,
                                                        declared, r) is None)
    return {"bids": allowed, "blind_nil": blind_nil}


# --- side contracts (RULES.md section 4.4): what a side may declare -----------------------------

# code -> (the key that allows it, or None for Mo: mo_a or mo_b; declared before looking?)
SIDE_CONTRACTS: dict[str, tuple[str | None, bool]] = {
    "team_blind_nil": ("team_blind_nil", True),
    "blind_six": ("blind_six", True),
    "blind_moon": ("blind_moon", True),
    "team_nil": ("team_nil", False),
    "wheel": ("ten_for_two_hundred", False),
    "little_mo": (None, False),
    "big_mo": (None, False),
}
MO = ("little_mo", "big_mo")
# bemo name -> (the first k tricks the side must win, points made / lost)
BEMOS: dict[str, tuple[int, int]] = {"little_bemo": (6, 60), "big_bemo": (9, 90)}


def _declared(side_contracts, r: dict | None = None) -> list[str | None]:
    """Per side: a declaration, or None (``r`` gives the number of sides; default two)."""
    sides = 2 if r is None else _sides(r)
    return [None] * sides if side_contracts is None else list(side_contracts)


def _contract_on(code: str, r: dict) -> bool:
    key = SIDE_CONTRACTS[code][0]
    return bool(r["mo_a"] or r["mo_b"]) if key is None else bool(r[key])


def _blind_moon_stands(seat: int, bids_so_far: dict, blind_so_far: dict | None,
                       declared: list, r: dict) -> str | None:
    """Why a blind nil by ``seat`` would complete a double blind nil after the opponents' blind
    moon (section 4.4 ``blind_moon``: the first of the two to be bid stands), or None."""
    partner = _partner(seat, r)
    others = [k for k in range(_sides(r)) if k != _side(seat, r)]
    if (any(declared[k] == "blind_moon" for k in others) and bids_so_far.get(partner) == 0
            and (blind_so_far or {}).get(partner)):
        return ("blind_moon: the opponents declared blind moon first, so no double blind nil "
                f"(partner seat {partner} bid blind nil)")
    return None


def legal_side_contracts(
    seat: int,
    bids_so_far: dict[int, int],
    rules: dict | str | None,
    *,
    blind_so_far: dict[int, bool] | None = None,
    side_contracts: list[str | None] | None = None,
) -> dict:
    """The side contracts ``seat`` may declare for his side (section 4.4), as ``{"blind": [codes
    declared before looking], "sighted": [codes declared after looking]}``.

    Only the side's first bidder is asked (his partner has not bid and the side has declared
    nothing), at his turn: first, before looking, the blind ones whose key is on
    (``team_blind_nil``, ``blind_six``, ``blind_moon``), then, unless he bid blind nil, after
    looking ``team_nil``, ``wheel`` (``ten_for_two_hundred``) and ``little_mo`` / ``big_mo``
    (``mo_a`` or ``mo_b``). Any other seat gets empty lists. ``side_contracts``: the
    declarations so far by side; a declaration is public at once.

    * ``blind_moon`` is not open once both opponents bid blind nil (the first of blind moon and
      double blind nil stands; the timing never allows it, as a side's first bidder bids before
      the opponents' second).
    * ``mo_b`` (reading, the engine's): the declaring side leads trick 1, which only one side
      can do, so Mo is not open after the opponents declared Mo.
    """
    r = resolve_rules(rules)
    declared = _declared(side_contracts, r)
    side = _side(seat, r)
    if declared[side] is not None or any(s in bids_so_far for s in _seats_of(side, r)):
        return {"blind": [], "sighted": []}
    blind_so_far = blind_so_far or {}
    double_blind = _pairs(r) and any(  # double blind nil: both partners of another side
        all(bids_so_far.get(s) == 0 and blind_so_far.get(s) for s in _seats_of(k, r))
        for k in range(_sides(r)) if k != side)
    out: dict[str, list[str]] = {"blind": [], "sighted": []}
    for code, (_, blind) in SIDE_CONTRACTS.items():
        if not _contract_on(code, r):
            continue
        if code == "blind_moon" and double_blind:
            continue
        if code in MO and r["mo_b"] and any(declared[k] in MO for k in range(len(declared))
                                            if k != side):
            continue
        out["blind" if blind else "sighted"].append(code)
    return out


def legal_bemo(
    seat: int,
    bids_so_far: dict[int, int],
    rules: dict | str | None,
    *,
    side_contracts: list[str | None] | None = None,
) -> list[str]:
    """The bemos ``seat`` may add right after his bid (section 4.4 ``bemo``): only the side's
    second bidder (``bids_so_far`` holds his bid and his partner's), only when the side declared
    no side contract and neither bid is nil (a blind nil is a nil). A side whose bids of 10 are a
    wheel under ``tens_are_wheels`` may add one too (reading, the engine's)."""
    r = resolve_rules(rules)
    if not r["bemo"] or _declared(side_contracts, r)[_side(seat, r)] is not None:
        return []
    # the side's last bidder: all its players have bid, none nil (one player: his own bid)
    made = [bids_so_far.get(s) for s in _seats_of(_side(seat, r), r)]
    if seat not in bids_so_far or any(b is None or b == 0 for b in made):
        return []
    return list(BEMOS)


def first_leader(dealer: int, side_contracts: list[str | None] | None, rules: dict | str | None,
                 hands: list[list[str]] | None = None) -> int:
    """Who leads trick 1: left of the dealer (section 3); under ``mo_b`` a side that declared Mo
    leads, by its player first in the rotation from the dealer's left (the dealer's left if he
    is on that side, else the next seat). Section 4.3: under ``first_lead = "two_of_clubs"`` the
    holder of the 2C, under ``"lowest_club"`` or ``first_trick_clubs`` the holder of the lowest
    club of the deck (3C when jokers take the 2C out or the 2C is a high deuce): ``hands`` (the
    hands at the start of play) are needed then."""
    r = resolve_rules(rules)
    left = (dealer + 1) % _players(r)
    card = _first_lead_card(r)
    if card is not None:
        if hands is None or any(not isinstance(h, list) for h in hands):
            raise ValueError(f"the holder of {card} leads trick 1: give the hands")
        card = _dealt_lead_card(card, hands, r)
        holders = [seat for seat, hand in enumerate(hands) if card in hand]
        if not holders or len(holders) > _copies(r):
            raise ValueError(f"{card} leads trick 1, but {len(holders)} hands hold it")
        # two decks (section 4.7): both copies may be dealt; the first holder from the
        # dealer's left leads (reading)
        return min(holders, key=lambda seat: (seat - left) % _players(r))
    if r["mo_b"]:
        for side, code in enumerate(_declared(side_contracts)):
            if code in MO:
                return next(s % _players(r) for s in range(left, left + _players(r))
                            if _side(s % _players(r), r) == side)
    return left


def _dealt_lead_card(card: str, hands: list[list[str]], r: dict) -> str:
    """The card that leads trick 1 when ``card`` may be undealt (section 4.7: three players
    with ``remove = "last"``; reading, the engine's): the lowest club dealt."""
    dealt = {c for hand in hands for c in hand}
    if card in dealt or _undealt(r) == 0:
        return card
    suit = _order_of(r).suit
    return min((c for c in dealt if suit[c] == "C"), key=_rank)


def _undealt(r: dict) -> int:
    """How many cards of the deck stay undealt (section 4.7: one with ``remove = "last"``)."""
    return len(_order_of(r).deck) - _players(r) * _cards_each(r)


def _first_lead_card(r: dict) -> str | None:
    """The card that must lead trick 1 (section 4.3), or None: the 2C under ``first_lead =
    "two_of_clubs"`` (a reading under ``deuces_high``, where the 2C is a spade: still the 2C, as
    the rule names it); the deck's lowest club under ``"lowest_club"`` and ``first_trick_clubs``."""
    if r["first_lead"] == "two_of_clubs":
        return "2C"
    if r["first_lead"] == "lowest_club" or r["first_trick_clubs"]:
        return _order_of(r).lowest_club()
    return None


def _record_hands(record: dict, r: dict) -> list[list[str] | None]:
    """The record's dealt hands for whiz and mirror, or None per seat in score-sheet mode
    (reading: a score sheet has no cards, so the spade count of a bid cannot be checked)."""
    hands = record.get("hands")
    if (isinstance(hands, list) and len(hands) == _players(r)
            and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)):
        return [list(h) for h in hands]
    return [None] * _players(r)


def _by_side(record: dict, key: str, names, r: dict) -> list[str | None]:
    """A record's per-side list of names (``side_contracts``, ``bemo``): absent = none."""
    value = record.get(key)
    sides = _sides(r)
    if value is None:
        return [None] * sides
    if (not isinstance(value, list) or len(value) != sides
            or any(v is not None and v not in names for v in value)):
        raise ValueError(f"{key!r} must be a list of {sides} (one per side) of null or one of "
                         f"{sorted(names)}, got {value!r}")
    return list(value)


def _check_bids(record: dict, r: dict, scores_before: list[int],
                hands: list | None = None) -> tuple:
    """Validate the record's bids and declarations in bidding order (left of the dealer first);
    IllegalBid on the first the rules forbid. Returns (bids, blind, side_contracts, bemo).

    At each seat's turn: a side contract of its side (if the seat is its side's first bidder),
    then its bid (None for the partners of a side contract), then a bemo of its side (if it is
    its side's second bidder)."""
    players = _players(r)
    bids = record.get("bids")
    if not isinstance(bids, list) or len(bids) != players:
        raise ValueError(f"'bids' must be a list of {players} ints (or nulls), got {bids!r}")
    blind = record.get("blind") or [False] * players
    if len(blind) != players:
        raise ValueError(f"'blind' must be a list of {players} booleans, got {blind!r}")
    contracts = _by_side(record, "side_contracts", SIDE_CONTRACTS, r)
    bemo = _by_side(record, "bemo", BEMOS, r)
    dealer = record["dealer"]
    hands = _record_hands(record, r) if hands is None else hands
    made: dict[int, int] = {}
    made_blind: dict[int, bool] = {}
    declared: list[str | None] = [None] * _sides(r)
    for k in range(players):
        seat = (dealer + 1 + k) % players  # section 3: bidding starts left of the dealer
        side = _side(seat, r)
        bid = bids[seat]
        partner = _partner(seat, r)
        if partner not in made and declared[side] is None:  # the side's first bidder
            code = contracts[side]
            if code is not None:
                open_ = legal_side_contracts(seat, made, r, blind_so_far=made_blind,
                                             side_contracts=declared)
                if code not in open_["blind"] + open_["sighted"]:
                    raise IllegalBid(f"seat {seat}: side contract {code!r} not allowed: "
                                     f"{_why_no_contract(code, side, declared, r)}")
                declared[side] = code
        if declared[side] is not None:
            if bid is not None or blind[seat]:
                raise IllegalBid(f"seat {seat}: side {side} declared {declared[side]!r}, so its "
                                 f"partners do not bid (bid null, not blind); got bid {bid!r}"
                                 f"{' blind' if blind[seat] else ''}")
            if bemo[side] is not None:
                raise IllegalBid(f"seat {seat}: bemo {bemo[side]!r} not allowed: side {side} "
                                 f"declared {declared[side]!r} (bemo is on top of ordinary bids)")
            continue
        if bid is None:
            raise IllegalBid(f"seat {seat}: no bid (null), but side {side} declared no side "
                             "contract")
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise IllegalBid(f"seat {seat}: bid {bid!r} is not a whole number of tricks")
        allowed = legal_bids(seat, made, scores_before, r, hands[seat], blind_so_far=made_blind,
                             side_contracts=declared)
        if blind[seat]:
            if bid != 0:
                raise IllegalBid(
                    f"seat {seat}: blind bid of {bid}; the only blind bid in standard Spades "
                    "is blind nil (0)"
                )
            if not allowed["blind_nil"]:
                why = _why_not(0, _Turn(seat, made, None, r), r)
                if why is None:
                    why = _blind_moon_stands(seat, made, made_blind, declared, r)
                if why is None or not (r["blind_nil"] and _blind_deficit_ok(seat, scores_before, r)):
                    why = (f"blind_nil={r['blind_nil']}, nil={r['nil']}, side {side} "
                           f"must trail by at least {r['blind_nil_min_deficit']}; scores before "
                           f"{scores_before}")
                raise IllegalBid(f"seat {seat}: blind nil not allowed ({why})")
        elif bid not in allowed["bids"]:
            if not 0 <= bid <= _n_tricks(r):
                why = f"bids are 0..{_n_tricks(r)}"
            else:
                why = _why_not(bid, _Turn(seat, made, _n_spades(hands[seat], r), r), r)
            raise IllegalBid(f"seat {seat}: bid {bid} not allowed: {why}")
        made[seat] = bid
        made_blind[seat] = bool(blind[seat])
        if partner in made and bemo[side] is not None:  # the side's second bidder
            if bemo[side] not in legal_bemo(seat, made, r, side_contracts=declared):
                why = ("bemo is off" if not r["bemo"] else
                       f"a side with a nil may not (bids {made[partner]} and {bid})")
                raise IllegalBid(f"seat {seat}: bemo {bemo[side]!r} not allowed: {why}")
    return list(bids), [bool(b) for b in blind], declared, bemo


def _why_no_contract(code: str, side: int, declared: list, r: dict) -> str:
    if not _contract_on(code, r):
        key = SIDE_CONTRACTS[code][0] or "mo_a or mo_b"
        return f"{key} is off"
    theirs = [c for k, c in enumerate(declared) if k != side and c in MO]
    if code in MO and r["mo_b"] and theirs:
        return (f"mo_b: the opponents declared {theirs[0]!r} and lead trick 1; only one "
                "side may declare Mo")
    return "the opponents both bid blind nil first (the first of blind moon / double blind nil " \
        "stands)"


# --- play (RULES.md section 0 must-follow; section 3 spades_broken; section 4.3) ---------------


def legal_plays(
    hand: list[str], trick_so_far: list[str], spades_broken: bool, rules: dict | str | None,
    *, trick_no: int | None = None,
) -> list[str]:
    """The cards of ``hand`` that may be played now, in hand order.

    ``spades_broken``: whether a spade was played to an EARLIER trick of this hand (section 3:
    by trumping, or led by a player who held only spades). ``trick_no``: 1..13, needed only
    under a rule of trick 1 (``first_lead``, ``first_trick_clubs``, ``first_trick_lowest_club``,
    ``no_spade_lead_first_trick``). "Spade" and "suit" are the card order's (``card_suit``).

    * Following (``trick_so_far`` not empty): must follow the led suit if able, else any card
      (section 0).
    * Leading, by ``rules["spades_broken"]`` (section 3):
      ``True``: no spade lead until spades are broken, unless the leader holds only spades
      (``lead_ace_of_spades``: the AS may be led all the same); ``False``: any card;
      ``"never"``: a spade may be led only by a leader holding only spades, all hand long.

    Section 4.3, each a further rule on the cards the ones before leave; a rule that would
    leave no card gives way (e.g. first_trick_clubs to a hand of spades only), as RULES.md's
    "unless he holds only spades" and "if he can" say:

    1. Trick 1: the first leader leads the 2C (``first_lead = "two_of_clubs"``) or the deck's
       lowest club (``"lowest_club"``, ``first_trick_clubs``), whatever else allows.
       ``first_trick_lowest_club``: each player, the leader too, plays his lowest club; void
       in clubs any non-spade; reading (the engine's): this replaces following the led suit on
       trick 1. ``first_trick_clubs``: no spade on trick 1 unless the player has no other card.
       (Section 4.7, three players with ``remove = "last"``: a leading card left undealt is
       replaced by the leader's lowest club, see ``first_leader``.)
       ``no_spade_lead_first_trick``: no spade led to trick 1 unless the leader holds only
       spades.
    2. ``joker_high_alternate``: when the BJ is led, each opponent of the leader (the second
       and fourth to play) plays his highest spade.
    3. ``must_trump``: void in the led suit, a spade if he has one; then, void in the led suit
       or following a spade lead (reading, the engine's: "also when spades were led"), one that
       beats the highest spade in the trick if he can (an equal joker does not beat); with
       ``must_overtrump = "opponents"`` only when an opponent holds the trick.
    4. ``must_overtrump``: void in a led non-spade suit with a spade in the trick: a spade that
       beats the highest one if he can; ``"opponents"``: only when the trick is held by an
       opponent (partners are the players two apart; at a table without partners every
       other player is an opponent, section 4.7).
    """
    r = resolve_rules(rules)
    o = _order_of(r)
    for card in [*hand, *trick_so_far]:
        if card not in o.suit:
            raise ValueError(f"{card!r} is not a card of this deck ({len(o.deck)} cards)")
    if trick_no is None and _has_trick_one_rule(r):
        raise ValueError("a rule of trick 1 is in force: give trick_no")
    return _legal_plays(hand, trick_so_far, spades_broken, r, trick_no)


def _has_trick_one_rule(r: dict) -> bool:
    return bool(_first_lead_card(r) or r["first_trick_lowest_club"]
                or r["no_spade_lead_first_trick"])


def _legal_plays(hand: list[str], trick_so_far: list[str], spades_broken: bool, r: dict,
                 trick_no: int | None = None) -> list[str]:
    """legal_plays for checked cards and resolved rules (the replay's inner loop)."""
    return _stages(hand, trick_so_far, spades_broken, r, trick_no)[-1][1]


def _narrow(cards: list[str], keep) -> list[str]:
    """The cards in ``keep``, or all of ``cards`` if none is (the rule gives way)."""
    kept = [c for c in cards if c in keep]
    return kept if kept else cards


def _stages(hand: list[str], trick: list[str], broken: bool, r: dict, trick_no: int | None
            ) -> list[tuple[str, list[str]]]:
    """The legal cards rule by rule (see legal_plays): ``[(rule, the cards it leaves)]`` from
    ``("hand", hand)`` to the legal cards; a card is illegal by the first rule that drops it."""
    if not hand:
        raise ValueError("empty hand")
    r = _known(r)
    o = _order_of(r)
    spades = [c for c in hand if o.suit[c] == TRUMP]
    others = [c for c in hand if o.suit[c] != TRUMP]
    first = trick_no == 1
    stages = [("hand", list(hand))]

    def rule(name: str, cards: list[str]) -> None:
        stages.append((name, cards))

    def lowest_club_or_non_spade() -> list[str]:  # first_trick_lowest_club
        clubs = [c for c in hand if o.suit[c] == "C"]
        return [min(clubs, key=_rank)] if clubs else (others or list(hand))

    if not trick:  # leading
        card = _first_lead_card(r) if first else None
        if card is not None and card not in hand and _undealt(r) and o.suit.get(card) == "C":
            # the card may be undealt (section 4.7, remove = "last"): the first leader holds the
            # lowest club dealt (see first_leader) and leads it (reading, the engine's)
            clubs = [c for c in hand if o.suit[c] == "C"]
            card = min(clubs, key=_rank) if clubs else card
        if card is not None:
            if card not in hand:
                raise ValueError(f"{card} leads trick 1: this hand does not hold it")
            rule("first_lead" if r["first_lead"] != "left_of_dealer" else "first_trick_clubs",
                 [card])
            return stages
        setting = r["spades_broken"]
        if setting is False or not others or (setting is True and broken):
            rule("spades_broken", list(hand))
        else:
            ace = setting is True and r["lead_ace_of_spades"]  # section 4.3 lead_ace_of_spades
            rule("spades_broken", [c for c in hand if o.suit[c] != TRUMP or (ace and c == "AS")])
        if first and r["first_trick_lowest_club"]:
            rule("first_trick_lowest_club", lowest_club_or_non_spade())
        if first and r["no_spade_lead_first_trick"]:
            rule("no_spade_lead_first_trick", _narrow(stages[-1][1], others))
        return stages

    led = o.suit[trick[0]]
    own = [c for c in hand if o.suit[c] == led]
    rule("follow", own or list(hand))
    position = len(trick)  # 1..P-1: seat leader + position; a side's seats are S apart
    sides = _sides(r)
    if first and r["first_trick_lowest_club"]:
        rule("first_trick_lowest_club", lowest_club_or_non_spade())
    if first and r["first_trick_clubs"]:
        rule("first_trick_clubs", _narrow(stages[-1][1], others))
    if r["trump_order"] == "joker_high_alternate" and trick[0] == "BJ" and position % sides:
        if spades:
            top = max(spades, key=lambda c: o.power[c])
            rule("joker_high_alternate", _narrow(stages[-1][1], [top]))
    in_trick = [o.power[c] for c in trick if o.suit[c] == TRUMP]
    # a spade that would win over the highest one: with two decks under duplicate_wins =
    # "last" its other copy too (section 4.7), not a joker equal to it (section 4.2)
    top = [c for c in trick if o.suit[c] == TRUMP and o.power[c] == max(in_trick)][:1]
    beating = [c for c in spades if not in_trick or o.power[c] > max(in_trick)
               or (o.last_of_equals and c in top
                   and not (o.order == "jokers_first_wins" and c in JOKERS))]
    void = not own
    if r["must_trump"]:
        if void:
            rule("must_trump", _narrow(stages[-1][1], spades))
        # with must_overtrump = "opponents" ("only when an opponent's spade holds the trick")
        # the duty to beat is owed to the opponents only (reading; the spade is still due)
        held_by_partner = (r["must_overtrump"] == "opponents"
                           and not (position - o.winning_index(trick)) % sides)
        if (void or led == TRUMP) and not held_by_partner:
            rule("must_trump", _narrow(stages[-1][1], beating))
    if r["must_overtrump"] != "off" and void and led != TRUMP and in_trick:
        holder = o.winning_index(trick)  # a spade, since one is in the trick
        if r["must_overtrump"] == "always" or (position - holder) % sides:
            rule("must_overtrump", _narrow(stages[-1][1], beating))
    return stages


def _why_illegal(card: str, stages: list[tuple[str, list[str]]], trick_so_far: list[str],
                 r: dict) -> str:
    """Human reason for a card held in hand but not among the legal cards: the first rule that
    dropped it."""
    name = next(name for name, cards in stages if card not in cards)
    legal = stages[-1][1]
    if name == "follow":
        led = _order_of(r).suit[trick_so_far[0]]
        return f"must follow suit {led} (holds {legal})"
    if name == "spades_broken" and r["spades_broken"] == "never":
        return "may not lead a spade while holding another suit (spades_broken = 'never')"
    if name == "spades_broken":
        return "may not lead a spade: spades not broken and the leader holds another suit"
    return f"breaks {name} (legal: {legal})"


def _play_out(record: dict, r: dict, leader: int) -> tuple[list[int], list, list]:
    """Replay the record's cards, ``leader`` leading trick 1; return (tricks per seat, winner of
    each trick (None for a dead trick under cancel_spades), the tricks as lists of (seat, card)
    in the order played)."""
    hands_in = record.get("hands")
    plays = record.get("plays")
    players, n_tricks = _players(r), _cards_each(r)
    if not isinstance(hands_in, list) or len(hands_in) != players:
        raise ValueError(f"'hands' must be {players} lists of cards")
    if not isinstance(plays, list):
        raise ValueError("'plays' must be a list of cards")
    order = _order_of(r)
    for seat, hand in enumerate(hands_in):
        if len(hand) != n_tricks:
            raise ValueError(f"seat {seat} holds {len(hand)} cards, not {n_tricks}")
        for card in hand:
            if card not in order.suit:
                raise ValueError(f"seat {seat}: {card!r} is not a card of this deck (section 4.2: "
                                 f"jokers {r['jokers']}, removed {list(_removed(r))})")
    dealt = Counter(c for hand in hands_in for c in hand)
    extra = dealt - Counter(order.deck)  # every card held is of the deck (checked above)
    if extra:  # a card more often than the deck has it (once, or twice with two decks)
        raise ValueError(f"the hands are not one {len(order.deck)}-card deck (duplicated: "
                         f"{sorted(extra)})")
    # the deck less _undealt(r) cards (section 4.7: remove = "last" leaves one out)

    hands = [list(h) for h in hands_in]  # cards still held, in the record's order
    tricks = [0] * players
    winners: list[int] = []
    played: list[list[tuple[int, str]]] = []
    broken = False  # a spade played to an earlier trick
    trick: list[str] = []
    for i, card in enumerate(plays):
        trick_no = i // players + 1
        seat = (leader + len(trick)) % players
        where = f"trick {trick_no}, seat {seat}, card {card!r}"
        if trick_no > n_tricks:
            raise IllegalPlay(f"{where}: a hand has only {n_tricks} tricks")
        if card not in order.suit:
            raise IllegalPlay(f"{where}: not a card of this deck")
        hand = hands[seat]
        if card not in hand:
            if card in hands_in[seat]:
                raise IllegalPlay(f"{where}: not in hand (already played)")
            raise IllegalPlay(f"{where}: not in hand (dealt to another seat)")
        stages = _stages(hand, trick, broken, r, trick_no)
        if card not in stages[-1][1]:
            raise IllegalPlay(f"{where}: {_why_illegal(card, stages, trick, r)}")
        hand.remove(card)
        trick.append(card)
        if len(trick) == players:
            winner = _winner(trick, leader, r)
            winners.append(winner)
            played.append([((leader + k) % players, c) for k, c in enumerate(trick)])
            broken = broken or any(order.suit[c] == TRUMP for c in trick)
            if winner is not None:  # a dead trick (cancel_spades): its leader leads again
                tricks[winner] += 1
                leader = winner
            trick = []
    if len(plays) != players * n_tricks:
        raise ValueError(f"incomplete hand: {len(plays)} plays, a hand has {players * n_tricks}")
    return tricks, winners, played


# --- scoring (RULES.md section 3: contract score, nil, nil_tricks, bags; section 4.4) ---------

LEXINGTON_POINTS = 240  # section 4.4 `lexington_points`: a side taking 12+ tricks scores this
LEXINGTON_TRICKS = 12
WHEEL_TRICKS = 10  # section 4.4 `ten_for_two_hundred`
WHEEL_POINTS = 200
BOOK = 10  # section 4.6 `book_made`: the four bids total this


def _longest_run(won: list[bool]) -> int:
    best = run = 0
    for w in won:
        run = run + 1 if w else 0
        best = max(best, run)
    return best


def _needs_play(what: str, won: list[bool] | None) -> list[bool]:
    if won is None:
        raise ValueError(f"{what} is scored from the order in which the tricks were won: a score "
                         "sheet ('tricks' alone) cannot score it; give 'hands' and 'plays'")
    return won


def _side_contract_points(code: str, taken: int, won: list[bool] | None, r: dict
                          ) -> tuple[int, int]:
    """(points, bags) of a side contract (section 4.4) for a side that took ``taken`` tricks;
    ``won``: per trick in order, whether the side won it (None on a score sheet)."""
    if code == "team_nil":
        return (100 if taken == 0 else -100), 0
    if code == "team_blind_nil":
        return (150 if taken == 0 else -150), 0
    if code == "wheel":
        if taken < WHEEL_TRICKS:
            return -r["ten_for_200_fail"], 0
        return WHEEL_POINTS, (taken - WHEEL_TRICKS if r["ten_for_200_exact"] else 0)
    if code in MO:
        big = code == "big_mo"
        won = _needs_play(f"{code} ({'mo_a' if r['mo_a'] else 'mo_b'})", won)
        if r["mo_a"]:  # a run of 6 (8) at some point; an opponents' trick resets it
            value, made = (300, _longest_run(won) >= 8) if big else (150, _longest_run(won) >= 6)
        else:  # mo_b: the first 7 (10) tricks
            value, made = (250, all(won[:10])) if big else (150, all(won[:7]))
        return (value if made else -value), 0
    if code == "blind_six":
        if r["blind_six_at_least"]:
            return (120 if taken >= 6 else -60), 0
        return (120 if taken == 6 else -120), 0
    if code == "blind_moon":
        return (130 if taken == _n_tricks(r) else -130), 0
    raise ValueError(f"unknown side contract {code!r}")


def _wheel_by_tens(bids: list, seats: tuple[int, int], r: dict) -> bool:
    """``tens_are_wheels``: the side's two ordinary bids total exactly 10 with no nil."""
    b = [bids[s] for s in seats]
    return bool(r["ten_for_two_hundred"] and r["tens_are_wheels"]
                and all(isinstance(x, int) and x > 0 for x in b) and sum(b) == WHEEL_TRICKS)


PARTS = ("contract", "overtricks", "bag_penalty", "nil", "bemo", "bonus", "trick_bonus")
PROGRESSIVE_STEP = 10  # section 4.6: a progressive bonus is 10 the first time, 20 the second ...


def _has_progressive(r: dict) -> bool:
    """A rule whose bonus grows through the game (seven_plus "progressive", highlander's 7+)."""
    return bool(r["highlander"] or r["seven_plus"] == "progressive")


def _counts_bags(r: dict) -> bool:
    """Bags go into the running count (and its penalty) unless a section 4.6 key does away with
    them or prices them without a count (``bags_negative``)."""
    return not (_bagless(r) or r["bags_negative"])


def score_hand(
    bids: list[int | None],
    blind: list[bool],
    tricks: list[int],
    before_scores: list[int],
    before_bags: list[int],
    rules: dict | str | None,
    *,
    side_contracts: list[str | None] | None = None,
    bemo: list[str | None] | None = None,
    winners: list[int] | None = None,
    played: list[list[tuple[int, str]]] | None = None,
    before_progressive: list[int] | None = None,
    cancel_card: str | None = None,
) -> dict:
    """Score one hand from bids and tricks (no legality checks; see replay_hand).

    Per side, seven components (their sum is the side's points this hand), ``PARTS``:

    * ``contract``: contract = the partners' non-nil bids. Counted tricks = the non-nil partners'
      tricks, plus the nil bidders' tricks only with ``nil_tricks = "count"``. Made (counted >=
      contract > 0): ``+10 * contract``; set: ``-10 * contract``. Both partners nil: no contract, 0.
      ``lexington_points`` (section 4.4): a side whose partners took 12 or more tricks together
      (reading: every trick of the side, a nil bidder's included, whatever ``nil_tricks`` says)
      scores 240 here whatever it bid, and has no overtricks (no bags) this hand.
    * ``overtricks``: the price of the side's bags (1 point each), see section 4.6 below.
      The bags: made contract -> counted - contract (none when set); with ``"bags_only"`` each
      nil-bidder trick is one more bag, made or set; both partners nil -> with ``"count"`` every
      trick the side took is a bag, with ``"bags_only"`` likewise (they are all nil tricks),
      with ``"ignored"`` nothing.
    * ``bag_penalty``: bags_after = bags_before + this hand's bags; ``bag_penalty`` for every
      ``bag_limit`` (penalties = bags_after // bag_limit), and the count drops by as many limits.
    * ``nil``: each nil bidder: 0 tricks -> +bonus, else -bonus; bonus = ``blind_nil_bonus`` for a
      blind nil, else ``nil_bonus``. ``double_nil`` (section 4.4), when both partners bid nil (blind
      or not): neither takes a trick -> each scores twice his own bonus; else the nils score 0.
    * ``bemo``, ``bonus``, ``trick_bonus``: below.

    ``double_blind_nil`` (both partners blind nil; it takes precedence over ``double_nil``): made
    -> each scores twice his bonus (``double_blind_nil_reward = "double"``) or once (``"win"``,
    and the side wins the game); either takes a trick -> the nils score 0.

    Side contracts (section 4.4; ``side_contracts`` by side, the partners' bids None): the side's
    ``contract`` is the side contract's points alone and its ``nil`` is 0; its bags are 0 (a
    wheel under ``ten_for_200_exact``: each trick above 10, when made), priced and counted as
    any bags. ``lexington_points`` does not apply to it.
    team_nil: no trick +100, else -100; team_blind_nil +-150; wheel: 10+ tricks +200, else
    -``ten_for_200_fail``; little_mo / big_mo under ``mo_a``: a longest run of tricks won in a row
    of 6 / 8 -> +150 / +300, else the negative; under ``mo_b``: the first 7 / 10 tricks -> +150 /
    +250, else the negative; blind_six: exactly 6 -> +120, else -120 (``blind_six_at_least``: 6+
    -> +120, else -60); blind_moon: 13 -> +130 (and the game, see wins_game), else -130.
    ``tens_are_wheels``: a side without a declaration whose two bids (no nil) total exactly 10
    is scored as a wheel (reading: as a declared one in every respect, lexington_points not
    applying either).

    ``bemo`` (by side, ``"little_bemo"`` / ``"big_bemo"``): the side won the first 6 / 9 tricks ->
    +60 / +90, else -60 / -90, in the ``bemo`` component (0 otherwise), on top of the rest.

    Section 4.6 (readings of issue 7; every key off by default). A side's contract is "set" when
    it is not made as the rules in force say (below); a side of two nils has no contract and is
    never set; a side contract is set when its points are negative.

    * ``exact = "side"``: made only when counted == contract; ``"player"``: counted >= contract
      and every non-nil bidder took exactly his own bid. Not made: -10 * contract, no bags from
      the contract (taking more is scored as a set). Two nils under ``nil_tricks = "count"``
      (reading, as the engine did before issue 7's second part): under ``"side"`` the tricks over
      their contract of 0 are no bags (nor set: it has no contract); under ``"player"`` (no
      non-nil bidder to miss his bid) they are bags as usual.
    * ``three_b``: made -> contract 10 * bid, overtricks -10 per trick over the bid; set ->
      -10 * bid; a nil bidder's tricks cost 10 each more (in ``nil``); no bags at all.
    * ``quicksand``: counted >= bid -> contract 10 * bid, overtricks -10 per trick over; short ->
      contract -10 per missing trick (bid 7: 7 -> 70, 5 -> -20, 9 -> 50); short is set; no bags.
    * ``double_over``: a side with a contract whose counted tricks are at least twice it ->
      contract -20 * bid, no bags and no overtrick points from the contract (nil bags stay).
    * ``set_to_opponents``: a set ordinary contract scores 0 and the opponents get 10 per trick
      it fell short (counted below the bid), in their ``contract``.
    * ``no_minus`` (section 4.6: "a set side scores 0 instead of a negative score"): the
      contract score of a side that is set, as defined above (section 3: fewer tricks than its
      contract; under ``exact`` also more; under ``quicksand`` short), becomes 0 if negative
      (before the opponents' gift). A side that is not set keeps a negative contract score:
      ``double_over``'s -20 * bid when it took at least its bid (bid 4, took 8: -80), unless
      ``exact`` makes taking more a set. Nil failures, the other components, side contracts
      (scored by their own values) and a side of two nils (no contract) are not touched.
    * ``no_overs``: no bags at all (overtricks 0, no count, no penalty).
    * ``bags_negative``: each bag scores -1; no bag count, no penalty.
    * ``bags_in_units_digit``: bags are counted (limit and penalty) but score 0; under
      ``three_b`` and ``quicksand`` too (issue 19, a reading: there they are the overtricks
      those price at -10 each, and the nil bidders' tricks, as in section 3).
    * ``book_made``: when the four ordinary bids total exactly 10 (nil 0; no side contract in
      the hand): each side's contract is 10 * its bid whatever happened, made for every later
      part; no bags at all that hand (nil tricks included); nils as usual; exact, three_b,
      quicksand, double_over, set_to_opponents and no_minus do not touch it.
    * ``highlander``: per non-nil bidder made = his tricks >= his bid (a nil bidder's tricks count
      for nobody). All made: contract +10 * side bid, overtricks 5 per trick over each one's
      bid; else -10 * side bid and 5 per trick over of those who made theirs. No bags. All made
      with 7+ tricks by the non-nil bidders: a progressive bonus. Two nils: no contract.
    * ``exact_pair_bonus``: an ordinary contract (bid > 0) whose every partner took exactly his
      own bid (a nil bidder none): ``bonus`` += half of 10 * bid rounded down to a multiple of 10.
    * ``seven_plus``: a made ordinary contract of 7+: ``"per_trick"`` ``bonus`` += 10 * (bid -
      6); ``"progressive"`` a progressive bonus, and the side's overtricks score nothing and
      are no bags this hand (its nil bidders' neither).
    * A progressive bonus: 10 * (k + 1) for a side that had earned k of them before this hand
      (``before_progressive``); the result's ``"after"`` then has ``"progressive"`` (k + 1).
    * ``bag_cancel_card``: the side winning the trick that holds the card (``cancel_card`` for
      ``"cut"``) has one of this hand's bags cancelled, if it has one and is not set, before
      the bags are priced and counted. Needs ``played``.
    * Trick bonuses (``trick_bonus``, to the side of the player earning them; need ``played``,
      the 13 tricks as lists of (seat, card) in the order played): ``last_trick_bonus`` +10 to
      the winner of trick 13; ``end_streak`` +30 when one player wins tricks 11-13; ``dix``
      each trick won by 9S: +10 spades led, else +5 another spade in it, else +1;
      ``last_trick_ace`` trick 13 won by an ace +10, AS +20; ``last_trick_ace_nil`` each nil
      bidder (blind or not) playing an ace to trick 13: +nil_bonus // 5; ``last_trick_deuce``
      trick 13 won by a non-spade 2: +30; ``last_trick_high_spade`` trick 13 won by a spade of
      9 or higher by a player who took exactly his own bid: +10.

    Mo, bemo, ``bag_cancel_card`` and the trick bonuses need the play: without ``winners`` /
    ``played`` (a score sheet) a ValueError says so.

    With ``moon``, ``lexington``, ``blind_moon`` or a ``"win"`` double blind nil on, the result
    also has ``"wins_game"`` (see ``wins_game``); the hand itself is scored as usual (a moon made
    is +130, failed -130).
    """
    r = resolve_rules(rules)
    if r["cancel_spades"]:
        return _cancel_score(bids, tricks, before_scores, before_bags, r)
    n_sides = _sides(r)
    declared = _declared(side_contracts, r)
    bemo = _declared(bemo, r)
    progressive = list(before_progressive or [0] * n_sides)
    book = _book_made(bids, declared, r)
    sides = []
    for side in range(n_sides):
        declaration = _declared_points(side, bids, tricks, declared, winners, r)
        if declaration is not None:
            pts, bags = declaration
            sides.append(_Side(contract=pts, bags=bags, set_=pts < 0))
        else:
            sides.append(_ordinary(side, bids, blind, tricks, r, book, progressive[side]))
        if bemo[side] is not None:
            first, value = BEMOS[bemo[side]]
            won = _needs_play(bemo[side], None if winners is None else
                              [_side(w, r) == side for w in winners])
            sides[side].bemo = value if all(won[:first]) else -value
        if _bagless(r):  # no bag exists under these, whatever the contract
            sides[side].bags = 0
    gifts = [s.gift for s in sides]
    for side in range(n_sides):  # set_to_opponents: what a set side fell short goes to the other
        sides[side].contract += sum(gifts) - gifts[side]
    if r["bag_cancel_card"] is not None:
        card = cancel_card if r["bag_cancel_card"] == "cut" else r["bag_cancel_card"]
        for taker in _bag_cancel_sides(card, _needs_play("bag_cancel_card", played), r):
            if sides[taker].bags > 0 and not sides[taker].set_:
                sides[taker].bags -= 1
    if any(r[k] for k in TRICK_BONUSES):
        for side, pts in enumerate(_trick_bonuses(
                _needs_play("the trick bonuses", played), bids, tricks, r)):
            sides[side].trick_bonus = pts

    comp: dict[str, list[int]] = {k: [0] * n_sides for k in PARTS}
    after = {"scores": [0] * n_sides, "bags": [0] * n_sides}
    points = [0] * n_sides
    for side, s in enumerate(sides):
        if s.over_points is not None:
            overtricks = s.over_points
        elif r["no_overs"] or r["bags_in_units_digit"]:
            overtricks = 0
        else:
            overtricks = -s.bags if r["bags_negative"] else s.bags
        total_bags = before_bags[side] + (s.bags if _counts_bags(r) else 0)
        penalties = 0 if r["bag_limit"] is None else total_bags // r["bag_limit"]
        if penalties:
            total_bags -= penalties * r["bag_limit"]
        for key, value in (("contract", s.contract), ("overtricks", overtricks),
                           ("bag_penalty", -penalties * r["bag_penalty"]), ("nil", s.nil),
                           ("bemo", s.bemo), ("bonus", s.bonus),
                           ("trick_bonus", s.trick_bonus)):
            comp[key][side] = value
        points[side] = sum(comp[k][side] for k in PARTS)
        after["scores"][side] = before_scores[side] + points[side]
        after["bags"][side] = total_bags
    if _has_progressive(r):
        after["progressive"] = [progressive[side] + sides[side].progressive_up
                                for side in range(n_sides)]
    out = {"points": points, "components": comp, "after": after}
    if _can_win_at_once(r):
        out["wins_game"] = wins_game(bids, tricks, r, blind, side_contracts=declared)
    return out


CANCEL_NIL = {6: (50, 200), 8: (30, 100)}  # cancel_spades: a nil made, both partners' nils made


def _cancel_counts(side: int, bids: list, tricks: list, r: dict) -> tuple[int, int]:
    """Cancel spades: (the side's bid, its counted tricks): the non-nil bids and their tricks."""
    bidders = [s for s in _seats_of(side, r) if bids[s] != 0]
    return sum(bids[s] for s in bidders), sum(tricks[s] for s in bidders)


def _cancel_score(bids: list, tricks: list, before_scores: list, before_bags: list,
                  r: dict) -> dict:
    """Cancel spades scoring (section 4.7, the issue 8 spec), per side (pair):

    * ``contract``: the side's bid = its non-nil bids, its counted tricks = theirs (a nil
      bidder's tricks never count). Counted >= bid: +10 x bid, and ``overtricks`` +1 per trick
      over; else -10 per missing trick (bid 5, counted 3 -> -20). Two nils: no contract.
    * ``nil``: each nil bidder 0 tricks -> +50 (eight players +30), k > 0 tricks -> -10 x k;
      both partners nil and both clean: 200 (eight players 100) instead of 50 + 50.
    * No bags, no bag penalty, no blind bonus: ``bag_penalty`` 0, the bag counts unchanged.
    """
    made_one, made_two = CANCEL_NIL[_players(r)]
    n_sides = _sides(r)
    comp: dict[str, list[int]] = {k: [0] * n_sides for k in PARTS}
    for side in range(n_sides):
        bid, counted = _cancel_counts(side, bids, tricks, r)
        if bid > 0:
            if counted >= bid:
                comp["contract"][side] = 10 * bid
                comp["overtricks"][side] = counted - bid
            else:
                comp["contract"][side] = -10 * (bid - counted)
        nils = [s for s in _seats_of(side, r) if bids[s] == 0]
        if len(nils) == 2 and all(tricks[s] == 0 for s in nils):
            comp["nil"][side] = made_two
        else:
            comp["nil"][side] = sum(made_one if tricks[s] == 0 else -10 * tricks[s]
                                    for s in nils)
    points = [sum(comp[k][side] for k in PARTS) for side in range(n_sides)]
    after = {"scores": [before_scores[k] + points[k] for k in range(n_sides)],
             "bags": list(before_bags)}
    return {"points": points, "components": comp, "after": after}


def _declared_points(side: int, bids: list, tricks: list, declared: list,
                     winners: list[int] | None, r: dict) -> tuple[int, int] | None:
    """(points, bags) of the side's side contract (a wheel by ``tens_are_wheels`` included), or
    None for a side playing its ordinary bids."""
    seats = _seats_of(side, r)
    code = declared[side]
    if code is None and _wheel_by_tens(bids, seats, r):
        code = "wheel"
    if code is None:
        return None
    won = None if winners is None else [_side(w, r) == side for w in winners]
    return _side_contract_points(code, sum(tricks[s] for s in seats), won, r)


def bags_taken(bids: list[int | None], tricks: list[int], rules: dict | str | None, *,
               side_contracts: list[str | None] | None = None,
               winners: list[int] | None = None) -> list[int]:
    """The bags each side took in the hand as the standard game counts them, whatever the
    section 4.6 keys make them worth (before any ``bag_cancel_card``): a made ordinary contract
    (counted tricks >= bid, counted as ``nil_tricks`` says) its counted tricks over the bid, a set
    one none, two nils under ``"count"`` every trick; plus the nil bidders' tricks under
    ``"bags_only"``; a side contract the bags it gives (a wheel under ``ten_for_200_exact``)."""
    r = resolve_rules(rules)
    if r["cancel_spades"]:  # no bags: the overtricks of a made contract, 1 point each
        return [max(counted - bid, 0) if bid > 0 else 0
                for bid, counted in (_cancel_counts(side, bids, tricks, r)
                                     for side in range(_sides(r)))]
    declared = _declared(side_contracts, r)
    out = []
    for side in range(_sides(r)):
        declaration = _declared_points(side, bids, tricks, declared, winners, r)
        if declaration is not None:
            out.append(declaration[1])
            continue
        seats = _seats_of(side, r)
        bid = sum(bids[s] for s in seats if bids[s] != 0)
        nil_tricks = sum(tricks[s] for s in seats if bids[s] == 0)
        counted = sum(tricks[s] for s in seats if bids[s] != 0 or r["nil_tricks"] == "count")
        over = counted - bid if counted >= bid else 0
        out.append(over + (nil_tricks if r["nil_tricks"] == "bags_only" else 0))
    return out


class _Side:
    """A side's score in the making: its contract points, its bags this hand (before they are
    priced, cancelled or counted), ``over_points`` (the overtricks' points when a rule fixes them
    otherwise than by pricing the bags: three_b, quicksand, highlander; None = price the bags),
    whether its contract was set, what it gives the opponents (``set_to_opponents``), and its
    nil, bemo, bonus and trick bonus points."""

    def __init__(self, contract: int = 0, bags: int = 0, set_: bool = False):
        self.contract = contract
        self.bags = bags
        self.over_points: int | None = None
        self.set_ = set_
        self.gift = 0
        self.nil = 0
        self.bemo = 0
        self.bonus = 0
        self.trick_bonus = 0
        self.progressive_up = 0


def _book_made(bids: list, declared: list, r: dict) -> bool:
    """``book_made``: the four ordinary bids total exactly 10 (no side contract, a wheel by
    ``tens_are_wheels`` being one)."""
    if not r["book_made"] or any(c is not None for c in declared) or None in bids:
        return False
    if any(_wheel_by_tens(bids, _seats_of(side, r), r) for side in range(_sides(r))):
        return False
    return sum(bids) == BOOK


def _nil_points(nil_seats: list[int], blind: list, tricks: list, r: dict) -> int:
    """Section 3 nil and blind nil, section 4.4 double nil / double blind nil, section 4.6
    ``three_b`` (a failed nil's tricks cost 10 each more)."""
    def bonus(s: int) -> int:
        return r["blind_nil_bonus"] if blind[s] else r["nil_bonus"]

    nil_tricks = sum(tricks[s] for s in nil_seats)
    both_nil = len(nil_seats) == 2
    if r["double_blind_nil"] and both_nil and all(blind[s] for s in nil_seats):
        # section 4.4 double_blind_nil: made -> twice ("double") or once and the game ("win")
        times = 2 if r["double_blind_nil_reward"] == "double" else 1
        points = times * sum(bonus(s) for s in nil_seats) if nil_tricks == 0 else 0
    elif r["double_nil"] and both_nil:  # section 4.4 double_nil
        points = 2 * sum(bonus(s) for s in nil_seats) if nil_tricks == 0 else 0
    else:
        points = sum(bonus(s) if tricks[s] == 0 else -bonus(s) for s in nil_seats)
    if r["three_b"]:
        points -= 10 * nil_tricks
    return points


def _ordinary(side: int, bids: list, blind: list, tricks: list, r: dict, book: bool,
              progressive: int) -> _Side:
    """A side's ordinary bids: contract, bags, nil and bonuses (see score_hand). At a table
    without partners (section 4.7) the side is one player: his own bid is its contract."""
    seats = _seats_of(side, r)
    nil_seats = [s for s in seats if bids[s] == 0]
    bidders = [s for s in seats if bids[s] != 0]
    bid = sum(bids[s] for s in bidders)
    bidder_tricks = sum(tricks[s] for s in bidders)
    nil_tricks = sum(tricks[s] for s in nil_seats)
    counted = bidder_tricks + (nil_tricks if r["nil_tricks"] == "count" else 0)
    nil_bags = nil_tricks if r["nil_tricks"] == "bags_only" else 0
    out = _Side()
    out.nil = _nil_points(nil_seats, blind, tricks, r)

    if bid == 0:  # both partners nil: no contract, never set; under "count" every trick is over
        over = counted
        if r["exact"] == "side":  # its tricks are more than its 0: no bags (the engine's reading)
            over = 0
        out.bags = over + nil_bags
        if r["three_b"] or r["quicksand"]:
            out.over_points = -10 * over
        elif r["highlander"]:
            out.over_points = 0
    elif r["highlander"]:  # each partner his own bid; a nil bidder's tricks count for nobody
        counted = bidder_tricks
        made = all(tricks[s] >= bids[s] for s in bidders)
        out.contract = 10 * bid if made else -10 * bid
        out.over_points = 5 * sum(tricks[s] - bids[s] for s in bidders if tricks[s] >= bids[s])
        out.set_ = not made
        if made and bidder_tricks >= 7:
            out.bonus += PROGRESSIVE_STEP * (progressive + 1)
            out.progressive_up = 1
    else:
        over = counted - bid
        if r["exact"] == "side":
            made = over == 0
        elif r["exact"] == "player":
            made = over >= 0 and all(tricks[s] == bids[s] for s in bidders)
        else:
            made = over >= 0
        out.set_ = not made
        if r["quicksand"]:
            out.contract = 10 * bid if made else -10 * (bid - counted)
            out.over_points = -10 * over if made else 0
            out.bags = (over if made else 0) + nil_bags  # counted under bags_in_units_digit
        elif made:
            out.contract = 10 * bid
            out.bags = over + nil_bags
            if r["three_b"]:
                out.over_points = -10 * over
        else:
            out.contract = -10 * bid
            out.bags = nil_bags
    if bid > 0 and r["double_over"] and counted >= 2 * bid:
        out.contract = -20 * bid
        out.bags = nil_bags
        if out.over_points is not None:
            out.over_points = 0
    if bid > 0 and out.set_ and r["set_to_opponents"]:
        out.gift = 10 * max(bid - counted, 0)
        out.contract = 0
    if bid > 0 and out.set_ and r["no_minus"]:  # section 4.6: a set side, not any minus
        out.contract = max(out.contract, 0)
    if book:  # section 4.6 book_made: 10 x bid whatever happens, no bags at all
        out.contract, out.bags, out.set_, out.gift = 10 * bid, 0, False, 0
        out.over_points = 0
    if r["lexington_points"] and bidder_tricks + nil_tricks >= LEXINGTON_TRICKS:
        out.contract, out.bags = LEXINGTON_POINTS, 0
        if out.over_points is not None:
            out.over_points = 0

    if bid > 0 and r["exact_pair_bonus"] and all(tricks[s] == bids[s] for s in seats):
        out.bonus += (10 * bid // 2) // 10 * 10
    if bid >= 7 and not out.set_ and r["seven_plus"] == "per_trick":
        out.bonus += 10 * (bid - 6)
    if bid >= 7 and not out.set_ and r["seven_plus"] == "progressive":
        out.bonus += PROGRESSIVE_STEP * (progressive + 1)
        out.progressive_up = 1
        out.bags, out.over_points = 0, 0
    return out


def _trick_winning_card(trick: list[tuple[int, str]], r: dict) -> tuple[int, str]:
    """(seat, card) that wins a trick given as (seat, card) in the order played."""
    seat = _winner([c for _, c in trick], trick[0][0], r)
    return seat, dict(trick)[seat]


def _bag_cancel_sides(card: str, played: list, r: dict) -> list[int]:
    """The side that won the trick holding ``card`` (section 4.6 ``bag_cancel_card``), once
    per copy played (two decks, section 4.7: each copy is the designated card, reading); none
    for a copy left undealt (section 4.7, ``remove = "last"``) or in the kitty (section 4.1):
    it cancels nothing."""
    if card not in _order_of(r).suit:
        raise ValueError(f"bag_cancel_card {card!r} is not a card of this deck")
    sides = [_side(_trick_winning_card(trick, r)[0], r)
             for trick in played for _, c in trick if c == card]
    if len(sides) < _copies(r) and not (_undealt(r) and len(played) == _cards_each(r)):
        raise ValueError(f"bag_cancel_card {card!r} was not played")
    return sides


def _trick_bonuses(played: list, bids: list, tricks: list, r: dict) -> list[int]:
    """Section 4.6 trick bonuses by side (see score_hand). Under a section 4.2 card order a card
    keeps its printed rank (a joker has none: it is no ace, no deuce) and is a spade as the
    order says (reading, the engine's): a high deuce is no "non-spade 2"; "9S or higher" is any
    spade of the order ranking at or above the 9S (the jokers, the left bower, a high deuce)."""
    o = _order_of(r)
    out = [0] * _sides(r)
    wins = [_trick_winning_card(t, r) for t in played]
    last_seat, last_card = wins[-1]
    last_rank = _rank(last_card) if last_card in _PARSED else None
    last_suit = o.suit[last_card]
    if r["last_trick_bonus"]:
        out[_side(last_seat, r)] += 10
    if r["end_streak"] and wins[-3][0] == wins[-2][0] == last_seat:
        out[_side(last_seat, r)] += 30
    if r["dix"]:
        for trick, (seat, card) in zip(played, wins, strict=True):
            if card == "9S":
                cards = [c for _, c in trick]
                if o.suit[cards[0]] == TRUMP:
                    out[_side(seat, r)] += 10
                elif sum(o.suit[c] == TRUMP for c in cards) > 1:
                    out[_side(seat, r)] += 5
                else:
                    out[_side(seat, r)] += 1
    if r["last_trick_ace"] and last_rank == 14:
        out[_side(last_seat, r)] += 20 if last_suit == TRUMP else 10
    if r["last_trick_ace_nil"]:
        for seat, card in played[-1]:
            if bids[seat] == 0 and card in _PARSED and _rank(card) == 14:
                out[_side(seat, r)] += r["nil_bonus"] // 5
    if r["last_trick_deuce"] and last_rank == 2 and last_suit != TRUMP:
        out[_side(last_seat, r)] += 30
    if (r["last_trick_high_spade"] and last_suit == TRUMP and o.power[last_card] >= o.power["9S"]
            and bids[last_seat] is not None and tricks[last_seat] == bids[last_seat]):
        out[_side(last_seat, r)] += 10
    return out


def _can_win_at_once(r: dict) -> bool:
    return bool(r["moon"] or r["lexington"] or r["blind_moon"]
                or (r["double_blind_nil"] and r["double_blind_nil_reward"] == "win"))


def wins_game(
    bids: list[int | None], tricks: list[int], rules: dict | str | None,
    blind: list[bool] | None = None, *, side_contracts: list[str | None] | None = None,
) -> int | None:
    """The side that wins the game at once after this hand (section 4.4), or None.

    ``moon``: a side whose two bids total exactly 13, neither nil, and that takes all 13 tricks
    (at other tables: all the tricks of the hand, and lexington all but one; reading).
    ``lexington``: a side whose two bids total exactly 12, neither nil, and that takes 12 or more.
    (With both keys on, 13 is a moon and 12 a lexington.) At most one side can take 12 tricks.
    ``double_blind_nil`` with ``double_blind_nil_reward = "win"``: a side whose partners both bid
    blind nil and took no trick (its nils are also scored once, reading).
    ``blind_moon``: a side that declared blind moon (``side_contracts``) and took all 13 tricks.
    """
    r = resolve_rules(rules)
    blind = blind or [False] * _players(r)
    declared = _declared(side_contracts, r)
    n_tricks = _n_tricks(r)  # 13 at four players; "all the tricks" at other tables (reading)
    for side in range(_sides(r)):
        seats = _seats_of(side, r)
        taken = sum(tricks[s] for s in seats)
        if declared[side] is not None:
            if declared[side] == "blind_moon" and taken == n_tricks:
                return side
            continue
        if (r["double_blind_nil"] and r["double_blind_nil_reward"] == "win"
                and all(bids[s] == 0 and blind[s] and tricks[s] == 0 for s in seats)):
            return side
        if any(bids[s] == 0 for s in seats):
            continue
        total = sum(bids[s] for s in seats)
        if r["moon"] and total == n_tricks and taken == n_tricks:
            return side
        if r["lexington"] and total == n_tricks - 1 and taken >= n_tricks - 1:
            return side
    return None


def _kitty_of(record: dict, r: dict) -> dict | None:
    """The record's ``"kitty"`` (section 5 as the issue 8 spec extends it: ``{"taker": seat,
    "cards": [the kitty as dealt], "discards": [the taker's discards]}``), checked, with
    ``"dealt"``: the hands as dealt (the taker's rebuilt as his record hand + his discards - the
    kitty), or None in score-sheet mode. None when the rules have no kitty, or for a score
    sheet that gives none.

    Checked: ``kitty_size`` cards and as many discards, each a card of the deck, the discards
    distinct ("a set of distinct cards"); the record's hands (at the start of play, the taker's
    after his discard) and the discards are exactly the deck; the kitty's cards are among the
    taker's hand and discards."""
    value = record.get("kitty")
    if not r["kitty"]:
        if value is not None:
            raise ValueError("the record has a 'kitty', but the rules have none (kitty = False)")
        return None
    with_cards = "hands" in record or "plays" in record
    if value is None:
        if with_cards:
            raise ValueError("kitty = True: the record needs 'kitty': {'taker': seat, "
                             "'cards': [...], 'discards': [...]}")
        return None
    players, k, o = _players(r), _kitty_size(r), _order_of(r)
    if not isinstance(value, dict) or set(value) != {"taker", "cards", "discards"}:
        raise ValueError(f"'kitty' must be {{'taker', 'cards', 'discards'}}, got {value!r}")
    taker = value["taker"]
    if isinstance(taker, bool) or not isinstance(taker, int) or not 0 <= taker < players:
        raise ValueError(f"kitty 'taker' must be a seat 0..{players - 1}, got {taker!r}")
    for key in ("cards", "discards"):
        cards = value[key]
        if (not isinstance(cards, list) or len(cards) != k
                or any(not isinstance(c, str) or c not in o.suit for c in cards)):
            raise ValueError(f"kitty {key!r} must be {k} cards of the deck, got {cards!r}")
    if len(set(value["discards"])) != k:
        raise ValueError(f"kitty 'discards' must be distinct cards, got {value['discards']}")
    kitty, discards = Counter(value["cards"]), Counter(value["discards"])
    if kitty - Counter(o.deck):
        raise ValueError(f"kitty 'cards' {value['cards']}: more copies than the deck has")
    dealt = None
    if with_cards:
        hands = _record_hands(record, r)
        if any(h is None for h in hands):
            raise ValueError(f"'hands' must be {players} lists of cards")
        held = Counter(c for h in hands for c in h)
        deck = Counter(o.deck)
        if held + discards != deck:
            raise ValueError(f"the hands and the kitty's discards are not the deck (missing "
                             f"{sorted(deck - held - discards)}, too many "
                             f"{sorted(held + discards - deck)})")
        before = Counter(hands[taker]) + discards  # the taker's hand with the kitty taken
        if kitty - before:
            raise ValueError(f"kitty 'cards' {sorted(kitty - before)} are neither in the taker "
                             f"(seat {taker})'s hand nor among his discards")
        dealt = [list(h) for h in hands]
        dealt[taker] = sorted((before - kitty).elements())
    return {"taker": taker, "cards": list(value["cards"]),
            "discards": list(value["discards"]), "dealt": dealt}


def _check_kitty_taker(kitty: dict, bids: list, dealer: int, r: dict) -> None:
    """The record's kitty taker is the rules' (section 4.1, the issue 8 spec):
    ``"two_of_clubs"`` the seat dealt the lowest club dealt to a hand (the 2C unless it is in
    the kitty; "clubs" as the card order says; with two decks the first holder from the
    dealer's left) -- not checked on a score sheet, which has no hands; ``"high_bidder"`` the
    highest ordinary bid (nil 0; a side contract's partners bid none), ties to the earliest
    bidder from the dealer's left."""
    players = _players(r)
    rotation = [(dealer + 1 + k) % players for k in range(players)]
    if r["kitty_taker"] == "high_bidder":
        def value(bid) -> int:
            return bid if isinstance(bid, int) and not isinstance(bid, bool) else -1
        best = max(value(bids[s]) for s in rotation)
        taker = next(s for s in rotation if value(bids[s]) == best)
        why = f"the highest bid, {best}"
    else:
        if kitty["dealt"] is None:
            return
        suit = _order_of(r).suit
        clubs = [c for hand in kitty["dealt"] for c in hand if suit[c] == "C"]
        if not clubs:
            raise ValueError("kitty_taker two_of_clubs: no club was dealt to a hand")
        low = min(clubs, key=_rank)
        taker = next(s for s in rotation if low in kitty["dealt"][s])
        why = f"dealt the lowest club, {low}"
    if kitty["taker"] != taker:
        raise ValueError(f"kitty 'taker' is seat {kitty['taker']}, but seat {taker} takes the "
                         f"kitty (kitty_taker {r['kitty_taker']}: {why})")


def replay_hand(record: dict, rules: dict | str | None = None) -> dict:
    """Check and score one hand record (RULES.md section 5).

    ``record``: ``dealer``, ``bids`` (nil = 0; null for the partners of a side contract),
    ``kitty`` when the rules have one (see the module docstring),
    optional ``blind``, optional ``side_contracts`` and ``bemo`` (per side, section 4.4),
    optional ``before`` (``{"scores": [s0, s1], "bags": [b0, b1]}``, default zeros), and either
    ``hands`` + ``plays`` (every card in order, starting with the first leader: left of the
    dealer, or under ``mo_b`` the Mo side's first player, see ``first_leader``) or, in
    score-sheet mode, ``tricks`` per seat. ``rules``: a dict (over ``STANDARD``) or a preset
    name; ``None`` = the record's own ``"rules"`` entry if it names a preset or is a dict, else
    ``STANDARD``.

    Section 4.6: ``before`` may also hold ``"progressive": [k0, k1]`` (the progressive bonuses
    each side earned before, default zeros); under ``bag_cancel_card = "cut"`` the record gives
    the cut card as ``"cancel_card"`` (with a named card, a ``"cancel_card"`` must be that card).

    Raises ``IllegalBid`` / ``IllegalPlay`` (both ValueError) naming the seat, and for plays the
    trick (1-based) and the reason; ValueError for a malformed record, and for a score sheet
    declaring Mo or bemo or scored under ``bag_cancel_card`` or a trick bonus (they need the
    play).

    Returns ``{"tricks": [per seat], "winners": [the winner of each played trick] (None in
    score-sheet mode), "points": [per side], "components": {part: [per side] for part in PARTS},
    "after": {"scores": [per side], "bags": [per side]}}`` (``"after"`` also with
    ``"progressive": [per side]`` when ``highlander`` or ``seven_plus = "progressive"`` is on),
    and with ``moon``, ``lexington``, ``blind_moon`` or ``double_blind_nil_reward = "win"`` on
    also ``"wins_game"``: the side that wins the game at once, or None. Under cancel_spades
    ``"dead_tricks"`` (their ``"winners"`` are None); under ``kitty_extra_trick`` the taker's
    ``"tricks"`` count his discard.

    Under ``whiz`` and ``mirror`` the bids are checked against the spades of ``hands``; a score
    sheet has no hands, so there only the other bid rules are checked (reading).
    """
    if rules is None:
        own = record.get("rules")
        rules = own if isinstance(own, dict) or own in PRESETS else None
    r = resolve_rules(rules)

    players, n_sides, n_tricks = _players(r), _sides(r), _n_tricks(r)
    dealer = record.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise ValueError(f"'dealer' must be a seat 0..{players - 1}, got {dealer!r}")
    before = record.get("before") or {}
    before_scores = list(before.get("scores", [0] * n_sides))
    before_bags = list(before.get("bags", [0] * n_sides))
    if len(before_scores) != n_sides or len(before_bags) != n_sides or min(before_bags) < 0:
        raise ValueError(f"'before' must hold {n_sides} scores and {n_sides} non-negative bag "
                         f"counts: {before!r}")
    before_progressive = list(before.get("progressive", [0] * n_sides))
    if len(before_progressive) != n_sides or any(
            isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in before_progressive):
        raise ValueError(f"'before' 'progressive' must be {n_sides} counts >= 0: {before!r}")
    cancel_card = None
    if r["bag_cancel_card"] == "cut":
        cancel_card = record.get("cancel_card")
        if cancel_card not in _order_of(r).deck:
            raise ValueError("bag_cancel_card = 'cut': the record needs the cut card, "
                             f"'cancel_card', a card such as '7H' (got {cancel_card!r})")
    elif (r["bag_cancel_card"] is not None
          and record.get("cancel_card", r["bag_cancel_card"]) != r["bag_cancel_card"]):
        raise ValueError(f"the record's cancel_card {record['cancel_card']!r} is not the rules' "
                         f"bag_cancel_card {r['bag_cancel_card']!r}")

    kitty = _kitty_of(record, r)
    bid_hands = None  # the hands as the bidders hold them (whiz, mirror): the record's
    if kitty is not None and kitty["dealt"] is not None and r["kitty_taker"] == "high_bidder":
        bid_hands = kitty["dealt"]  # the kitty is taken after the bidding
    bids, blind, declared, bemo = _check_bids(record, r, before_scores, bid_hands)
    if kitty is not None:
        _check_kitty_taker(kitty, bids, record["dealer"], r)

    if "plays" in record or "hands" in record:
        tricks, winners, played = _play_out(
            record, r, first_leader(dealer, declared, r, _record_hands(record, r)))
        if kitty is not None and r["kitty_extra_trick"]:  # the discard: a trick of the taker's
            tricks[kitty["taker"]] += 1
        if "tricks" in record and list(record["tricks"]) != tricks:
            raise ValueError(f"record says tricks {record['tricks']}, the play gives {tricks}")
    elif "tricks" in record:  # score-sheet mode
        tricks, winners, played = list(record["tricks"]), None, None
        if (
            len(tricks) != players
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks)
            or sum(tricks) > n_tricks or (sum(tricks) < n_tricks and not r["cancel_spades"])
        ):
            raise ValueError(f"'tricks' must be {players} ints >= 0 summing to {n_tricks}"
                             f"{' (less the dead tricks)' if r['cancel_spades'] else ''}, got "
                             f"{tricks}")
    else:
        raise ValueError("a record needs 'hands' and 'plays', or 'tricks' (score-sheet mode)")

    scored = score_hand(bids, blind, tricks, before_scores, before_bags, r,
                        side_contracts=declared, bemo=bemo, winners=winners, played=played,
                        before_progressive=before_progressive, cancel_card=cancel_card)
    out = {"tricks": tricks, "winners": winners, **scored}
    if r["cancel_spades"]:  # the tricks nobody won
        out["dead_tricks"] = n_tricks - sum(tricks)
    return out


# --- game end (RULES.md section 3 target/mercy/max_hands, section 4.8) -------------------------


def _higher(scores: list[int]) -> int | None:
    """The side with the highest score, None when two or more share it (section 4.7: with more
    than two sides "the higher score wins" reads as the highest, unshared)."""
    top = max(scores)
    if scores.count(top) > 1:
        return None
    return scores.index(top)


def game_over(
    scores: list[int], hand_no: int, rules: dict | str | None, wins_game: int | None = None
) -> tuple[bool, int | None]:
    """Whether the game ends after ``hand_no`` hands (1-based count of hands played) with the
    sides' running ``scores``; returns ``(True, winning side)`` or ``(False, None)``.

    Checked in this order (section 3, section 4.4, section 4.8):

    0. ``wins_game`` (the hand's ``"wins_game"``: a moon, lexington or blind moon made, a double
       blind nil under "win"): that side wins at once, whatever the scores.

    1. ``mercy_score`` (unless None): a side at or below it loses at once. If both sides are at or
       below it, the higher score wins (reading); equal scores play on. With more than two
       sides (section 4.7; reading, the engine's) the game ends and the highest score wins,
       unshared; a shared highest score plays on.
    2. ``target_score``: once a side has reached it, the higher score wins; equal scores play
       another hand. ``defeat_score`` (section 4.8): likewise once a side is at or below
       ``-target_score`` (it loses: the other side's score is higher).
    3. ``max_hands`` (unless None): after that many hands (or more, after ties) the higher score
       wins; equal scores play another hand.

    Cancel spades (section 4.7, the issue 8 spec): the game ends after ``players`` hands (its
    ``max_hands``), won by the highest score; a shared highest score is a draw: ``(True,
    None)``.
    """
    r = resolve_rules(rules)
    if wins_game is not None:
        return True, wins_game
    s = list(scores)
    if r["cancel_spades"]:  # players hands; the highest score wins, a shared one is a draw
        return (True, _higher(s)) if hand_no >= r["max_hands"] else (False, None)
    if r["mercy_score"] is not None:
        down = [side for side in range(len(s)) if s[side] <= r["mercy_score"]]
        if len(s) == 2 and len(down) == 1:
            return True, 1 - down[0]
        if down:  # both of two sides down, or more sides (section 4.7): the highest wins
            winner = _higher(s)
            return (winner is not None), winner
    if r["target_score"] is not None and max(s) >= r["target_score"]:
        winner = _higher(s)
        return (winner is not None), winner
    if r["defeat_score"] and min(s) <= -r["target_score"]:
        winner = _higher(s)
        return (winner is not None), winner
    if r["max_hands"] is not None and hand_no >= r["max_hands"]:
        winner = _higher(s)
        return (winner is not None), winner
    return False, None
