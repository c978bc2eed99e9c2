"""Plain, scalar reference implementation of standard partnership Spades (RULES.md section 3).

This module is the test-suite's independent yardstick for the vectorised engine in ``sim/``: it
imports nothing from ``sim/`` (nor numpy) and favours obviousness over speed. One hand at a time,
one card at a time, strings throughout.

Conventions (RULES.md section 0):

* A card is a string rank+suit: ranks ``23456789TJQKA`` (A high), suits ``SHDC``: ``"AS"``,
  ``"TH"``, ``"2C"``. Spades are always trump (section 3).
* Seats ``0..3`` clockwise; "left of X" is ``X + 1 mod 4``. Side 0 = seats 0 and 2, side 1 = seats
  1 and 3 (partners opposite).
* The bidding and the first lead start left of the dealer (section 3: "(bidding)", "(first lead)").
* The winner of a trick leads the next one.

Rules are a plain dict with the section 3 keys; ``STANDARD``, ``SHORT`` and ``OPENSPIEL`` are the
presets ``spades.standard``, ``spades.short`` and ``spades.openspiel``. A dict passed to the public
functions may give only some keys; the rest come from ``STANDARD``.

Public API::

    parse_card("AS") -> (14, "S")
    trick_winner(trick, leader) -> seat
    legal_bids(seat, bids_so_far, scores_before, rules) -> {"bids": [...], "blind_nil": bool}
    legal_plays(hand, trick_so_far, spades_broken, rules) -> [cards]
    replay_hand(record, rules) -> {"tricks", "winners", "points", "components", "after"}
    score_hand(bids, blind, tricks, before_scores, before_bags, rules) -> {"points", ...}
    game_over(scores, hand_no, rules) -> (bool, winner or None)
"""

from __future__ import annotations

__all__ = [
    "RANKS",
    "SUITS",
    "DECK",
    "STANDARD",
    "SHORT",
    "OPENSPIEL",
    "PRESETS",
    "IllegalBid",
    "IllegalPlay",
    "parse_card",
    "side_of",
    "partner_of",
    "resolve_rules",
    "trick_winner",
    "legal_bids",
    "legal_plays",
    "score_hand",
    "replay_hand",
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


def _suit(card: str) -> str:
    return parse_card(card)[1]


def _rank(card: str) -> int:
    return parse_card(card)[0]


def side_of(seat: int) -> int:
    """Section 0: side 0 = seats 0 and 2, side 1 = seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """Section 0: partners sit opposite."""
    return (seat + 2) % N_SEATS


# --- rules (RULES.md section 3) ----------------------------------------------------------------

# spades.standard: the section 3 table, key by key.
STANDARD: dict = {
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

PRESETS: dict[str, dict] = {
    "spades.standard": STANDARD,
    "spades.short": SHORT,
    "spades.openspiel": OPENSPIEL,
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
    return full


# --- tricks (RULES.md section 0, section 3) ----------------------------------------------------


def trick_winner(trick: list[str], leader: int) -> int:
    """Seat that wins a complete trick, ``trick[i]`` having been played by seat ``leader + i``.

    Section 0: the highest trump (spade) wins; with no spade, the highest card of the led suit.
    A card of another suit never wins.
    """
    if len(trick) != N_SEATS:
        raise ValueError(f"a trick has {N_SEATS} cards, not {len(trick)}")
    led = _suit(trick[0])
    spades = [i for i, c in enumerate(trick) if _suit(c) == TRUMP]
    candidates = spades if spades else [i for i, c in enumerate(trick) if _suit(c) == led]
    best = max(candidates, key=lambda i: _rank(trick[i]))
    return (leader + best) % N_SEATS


# --- bidding (RULES.md section 3: bidding, nil, blind_nil, max_team_bid) -----------------------


def legal_bids(
    seat: int, bids_so_far: dict[int, int], scores_before: list[int], rules: dict | str | None
) -> dict:
    """What ``seat`` may bid, given the bids already made (``{seat: bid}``, nil = 0) and the sides'
    scores before the hand.

    Returns ``{"bids": [sorted bids allowed after looking at the cards], "blind_nil": bool}``.

    * Bids are 0..13; 0 is nil and exists only with ``nil``; otherwise the minimum bid is 1.
    * Blind nil (a bid of 0 made before looking) needs ``blind_nil`` and ``nil`` (it is a nil bid),
      and the seat's side must trail the other side by at least ``blind_nil_min_deficit`` points
      (0 = always, even when leading). Section 3 has no other blind bids.
    * ``max_team_bid``: this bid plus the partner's bid (if already made; nil counts 0) may not
      exceed it. A nil always fits.
    """
    r = resolve_rules(rules)
    lowest = 0 if r["nil"] else 1
    allowed = list(range(lowest, MAX_BID + 1))
    if r["max_team_bid"] is not None:
        partner_bid = bids_so_far.get(partner_of(seat), 0)
        allowed = [b for b in allowed if b + partner_bid <= r["max_team_bid"]]

    own = scores_before[side_of(seat)]
    other = scores_before[1 - side_of(seat)]
    deficit_ok = r["blind_nil_min_deficit"] == 0 or other - own >= r["blind_nil_min_deficit"]
    blind_nil = bool(r["nil"] and r["blind_nil"] and deficit_ok)
    return {"bids": allowed, "blind_nil": blind_nil}


def _check_bids(record: dict, r: dict, scores_before: list[int]) -> tuple[list[int], list[bool]]:
    """Validate the record's bids in bidding order (left of the dealer first); IllegalBid on the
    first bid the rules forbid."""
    bids = record.get("bids")
    if not isinstance(bids, list) or len(bids) != N_SEATS:
        raise ValueError(f"'bids' must be a list of {N_SEATS} ints, got {bids!r}")
    blind = record.get("blind") or [False] * N_SEATS
    if len(blind) != N_SEATS:
        raise ValueError(f"'blind' must be a list of {N_SEATS} booleans, got {blind!r}")
    dealer = record["dealer"]
    made: dict[int, int] = {}
    for k in range(N_SEATS):
        seat = (dealer + 1 + k) % N_SEATS  # section 3: bidding starts left of the dealer
        bid = bids[seat]
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise IllegalBid(f"seat {seat}: bid {bid!r} is not a whole number of tricks")
        allowed = legal_bids(seat, made, scores_before, r)
        if blind[seat]:
            if bid != 0:
                raise IllegalBid(
                    f"seat {seat}: blind bid of {bid}; the only blind bid in standard Spades "
                    "is blind nil (0)"
                )
            if not allowed["blind_nil"]:
                raise IllegalBid(
                    f"seat {seat}: blind nil not allowed (blind_nil={r['blind_nil']}, "
                    f"nil={r['nil']}, side {side_of(seat)} must trail by at least "
                    f"{r['blind_nil_min_deficit']}; scores before {scores_before})"
                )
        elif bid not in allowed["bids"]:
            if bid == 0 and not r["nil"]:
                why = "nil is not allowed (nil = false: the minimum bid is 1)"
            elif not 0 <= bid <= MAX_BID:
                why = f"bids are 0..{MAX_BID}"
            else:
                partner = partner_of(seat)
                why = (
                    f"with partner seat {partner}'s bid of {made.get(partner, 0)} the side "
                    f"would bid more than max_team_bid = {r['max_team_bid']}"
                )
            raise IllegalBid(f"seat {seat}: bid {bid} not allowed: {why}")
        made[seat] = bid
    return list(bids), [bool(b) for b in blind]


# --- play (RULES.md section 0 must-follow; section 3 spades_broken) ----------------------------


def legal_plays(
    hand: list[str], trick_so_far: list[str], spades_broken: bool, rules: dict | str | None
) -> list[str]:
    """The cards of ``hand`` that may be played now, in hand order.

    ``spades_broken``: whether a spade was played to an EARLIER trick of this hand (section 3:
    by trumping, or led by a player who held only spades).

    * Following (``trick_so_far`` not empty): must follow the led suit if able, else any card
      (section 0).
    * Leading, by ``rules["spades_broken"]`` (section 3):
      ``True``: no spade lead until spades are broken, unless the leader holds only spades;
      ``False``: any card; ``"never"``: a spade may be led only by a leader holding only spades,
      all hand long.
    """
    r = resolve_rules(rules)
    for card in hand:
        parse_card(card)
    if not hand:
        raise ValueError("empty hand")
    if trick_so_far:
        led = _suit(trick_so_far[0])
        following = [c for c in hand if _suit(c) == led]
        return following if following else list(hand)

    only_spades = all(_suit(c) == TRUMP for c in hand)
    setting = r["spades_broken"]
    if setting is False or only_spades:
        return list(hand)
    if setting is True and spades_broken:
        return list(hand)
    # setting "never", or True with spades not yet broken: non-spades only
    return [c for c in hand if _suit(c) != TRUMP]


def _why_illegal(hand: list[str], trick_so_far: list[str], r: dict) -> str:
    """Human reason for a card held in hand but not among legal_plays."""
    if trick_so_far:
        led = _suit(trick_so_far[0])
        return f"must follow suit {led} (holds {[c for c in hand if _suit(c) == led]})"
    if r["spades_broken"] == "never":
        return "may not lead a spade while holding another suit (spades_broken = 'never')"
    return "may not lead a spade: spades not broken and the leader holds another suit"


def _play_out(record: dict, r: dict) -> tuple[list[int], list[int]]:
    """Replay the record's cards; return (tricks per seat, winner of each trick)."""
    hands_in = record.get("hands")
    plays = record.get("plays")
    if not isinstance(hands_in, list) or len(hands_in) != N_SEATS:
        raise ValueError(f"'hands' must be {N_SEATS} lists of cards")
    if not isinstance(plays, list):
        raise ValueError("'plays' must be a list of cards")
    for seat, hand in enumerate(hands_in):
        if len(hand) != N_TRICKS:
            raise ValueError(f"seat {seat} holds {len(hand)} cards, not {N_TRICKS}")
        for card in hand:
            parse_card(card)
    dealt = [c for hand in hands_in for c in hand]
    if sorted(dealt) != sorted(DECK):
        dupes = sorted({c for c in dealt if dealt.count(c) > 1})
        raise ValueError(f"the hands are not one 52-card deck (duplicated: {dupes})")

    hands = [list(h) for h in hands_in]  # cards still held, in the record's order
    tricks = [0] * N_SEATS
    winners: list[int] = []
    leader = (record["dealer"] + 1) % N_SEATS  # section 3: left of the dealer leads trick 1
    broken = False  # a spade played to an earlier trick
    trick: list[str] = []
    for i, card in enumerate(plays):
        trick_no = i // N_SEATS + 1
        seat = (leader + len(trick)) % N_SEATS
        where = f"trick {trick_no}, seat {seat}, card {card!r}"
        if trick_no > N_TRICKS:
            raise IllegalPlay(f"{where}: a hand has only {N_TRICKS} tricks")
        try:
            parse_card(card)
        except ValueError as exc:
            raise IllegalPlay(f"{where}: {exc}") from None
        hand = hands[seat]
        if card not in hand:
            if card in hands_in[seat]:
                raise IllegalPlay(f"{where}: not in hand (already played)")
            raise IllegalPlay(f"{where}: not in hand (dealt to another seat)")
        if card not in legal_plays(hand, trick, broken, r):
            raise IllegalPlay(f"{where}: {_why_illegal(hand, trick, r)}")
        hand.remove(card)
        trick.append(card)
        if len(trick) == N_SEATS:
            winner = trick_winner(trick, leader)
            winners.append(winner)
            tricks[winner] += 1
            broken = broken or any(_suit(c) == TRUMP for c in trick)
            leader = winner
            trick = []
    if len(plays) != N_SEATS * N_TRICKS:
        raise ValueError(f"incomplete hand: {len(plays)} plays, a hand has {N_SEATS * N_TRICKS}")
    return tricks, winners


# --- scoring (RULES.md section 3: contract score, nil, nil_tricks, bags) -----------------------


def score_hand(
    bids: list[int],
    blind: list[bool],
    tricks: list[int],
    before_scores: list[int],
    before_bags: list[int],
    rules: dict | str | None,
) -> dict:
    """Score one hand from bids and tricks (no legality checks; see replay_hand).

    Per side, four components (their sum is the side's points this hand):

    * ``contract``: contract = the partners' non-nil bids. Counted tricks = the non-nil partners'
      tricks, plus the nil bidders' tricks only with ``nil_tricks = "count"``. Made (counted >=
      contract > 0): ``+10 * contract``; set: ``-10 * contract``. Both partners nil: no contract, 0.
    * ``overtricks`` (bags, 1 point each): made contract -> counted - contract (none when set);
      with ``"bags_only"`` each nil-bidder trick is one more bag, made or set; both partners nil ->
      with ``"count"`` every trick the side took is a bag, with ``"bags_only"`` likewise (they are
      all nil tricks), with ``"ignored"`` nothing.
    * ``nil``: each nil bidder: 0 tricks -> +bonus, else -bonus; bonus = ``blind_nil_bonus`` for a
      blind nil, else ``nil_bonus``.
    * ``bag_penalty``: bags_after = bags_before + this hand's bags; ``bag_penalty`` for every
      ``bag_limit`` (penalties = bags_after // bag_limit), and the count drops by as many limits.
    """
    r = resolve_rules(rules)
    parts = ("contract", "overtricks", "bag_penalty", "nil")
    comp: dict[str, list[int]] = {k: [0, 0] for k in parts}
    after_scores = [0, 0]
    after_bags = [0, 0]
    points = [0, 0]
    for side in (0, 1):
        seats = (side, side + 2)
        nil_seats = [s for s in seats if bids[s] == 0]
        bidders = [s for s in seats if bids[s] != 0]
        contract = sum(bids[s] for s in bidders)
        bidder_tricks = sum(tricks[s] for s in bidders)
        nil_tricks = sum(tricks[s] for s in nil_seats)

        for s in nil_seats:
            bonus = r["blind_nil_bonus"] if blind[s] else r["nil_bonus"]
            comp["nil"][side] += bonus if tricks[s] == 0 else -bonus

        if r["nil_tricks"] == "count":
            counted, nil_bags = bidder_tricks + nil_tricks, 0
        elif r["nil_tricks"] == "bags_only":
            counted, nil_bags = bidder_tricks, nil_tricks
        else:  # "ignored"
            counted, nil_bags = bidder_tricks, 0

        if contract > 0:
            if counted >= contract:
                comp["contract"][side] = 10 * contract
                over = counted - contract
            else:
                comp["contract"][side] = -10 * contract
                over = 0
        else:  # both partners bid nil: no contract; under "count" every trick is over it
            over = counted if r["nil_tricks"] == "count" else 0
        bags = over + nil_bags
        comp["overtricks"][side] = bags

        total_bags = before_bags[side] + bags
        if r["bag_limit"] is None:
            penalties = 0
        else:
            penalties = total_bags // r["bag_limit"]
            total_bags -= penalties * r["bag_limit"]
        comp["bag_penalty"][side] = -penalties * r["bag_penalty"]

        points[side] = sum(comp[k][side] for k in comp)
        after_scores[side] = before_scores[side] + points[side]
        after_bags[side] = total_bags
    return {
        "points": points,
        "components": comp,
        "after": {"scores": after_scores, "bags": after_bags},
    }


def replay_hand(record: dict, rules: dict | str | None = None) -> dict:
    """Check and score one hand record (RULES.md section 5).

    ``record``: ``dealer``, ``bids`` (nil = 0), optional ``blind``, optional ``before``
    (``{"scores": [s0, s1], "bags": [b0, b1]}``, default zeros), and either ``hands`` + ``plays``
    (every card in order, starting with the first leader, left of the dealer) or, in score-sheet
    mode, ``tricks`` per seat. ``rules``: a dict (over ``STANDARD``) or a preset name; ``None`` =
    the record's own ``"rules"`` entry if it names a preset or is a dict, else ``STANDARD``.

    Raises ``IllegalBid`` / ``IllegalPlay`` (both ValueError) naming the seat, and for plays the
    trick (1-based) and the reason; ValueError for a malformed record.

    Returns ``{"tricks": [4 ints], "winners": [13 seats] (None in score-sheet mode), "points":
    [side0, side1], "components": {"contract", "overtricks", "bag_penalty", "nil": [2 ints]},
    "after": {"scores": [2], "bags": [2]}}``.
    """
    if rules is None:
        own = record.get("rules")
        rules = own if isinstance(own, dict) or own in PRESETS else None
    r = resolve_rules(rules)

    dealer = record.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < N_SEATS:
        raise ValueError(f"'dealer' must be a seat 0..{N_SEATS - 1}, got {dealer!r}")
    before = record.get("before") or {}
    before_scores = list(before.get("scores", [0, 0]))
    before_bags = list(before.get("bags", [0, 0]))
    if len(before_scores) != 2 or len(before_bags) != 2 or min(before_bags) < 0:
        raise ValueError(f"'before' must hold 2 scores and 2 non-negative bag counts: {before!r}")

    bids, blind = _check_bids(record, r, before_scores)

    if "plays" in record or "hands" in record:
        tricks, winners = _play_out(record, r)
        if "tricks" in record and list(record["tricks"]) != tricks:
            raise ValueError(f"record says tricks {record['tricks']}, the play gives {tricks}")
    elif "tricks" in record:  # score-sheet mode
        tricks, winners = list(record["tricks"]), None
        if (
            len(tricks) != N_SEATS
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks)
            or sum(tricks) != N_TRICKS
        ):
            raise ValueError(f"'tricks' must be {N_SEATS} ints >= 0 summing to 13, got {tricks}")
    else:
        raise ValueError("a record needs 'hands' and 'plays', or 'tricks' (score-sheet mode)")

    scored = score_hand(bids, blind, tricks, before_scores, before_bags, r)
    return {"tricks": tricks, "winners": winners, **scored}


# --- game end (RULES.md section 3 target/mercy/max_hands, section 4.8) -------------------------


def _higher(scores: list[int]) -> int | None:
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def game_over(scores: list[int], hand_no: int, rules: dict | str | None) -> tuple[bool, int | None]:
    """Whether the game ends after ``hand_no`` hands (1-based count of hands played) with the
    sides' running ``scores``; returns ``(True, winning side)`` or ``(False, None)``.

    Checked in this order (section 3, section 4.8):

    1. ``mercy_score`` (unless None): a side at or below it loses at once. If both sides are at or
       below it, the higher score wins (reading); equal scores play on.
    2. ``target_score``: once a side has reached it, the higher score wins; equal scores play
       another hand.
    3. ``max_hands`` (unless None): after that many hands (or more, after ties) the higher score
       wins; equal scores play another hand.
    """
    r = resolve_rules(rules)
    s = list(scores)
    if r["mercy_score"] is not None:
        down = [side for side in (0, 1) if s[side] <= r["mercy_score"]]
        if len(down) == 1:
            return True, 1 - down[0]
        if len(down) == 2:
            winner = _higher(s)
            return (winner is not None), winner
    if r["target_score"] is not None and max(s) >= r["target_score"]:
        winner = _higher(s)
        return (winner is not None), winner
    if r["max_hands"] is not None and hand_no >= r["max_hands"]:
        winner = _higher(s)
        return (winner is not None), winner
    return False, None
