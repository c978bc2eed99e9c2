"""Plain, scalar reference implementation of Portland whist (RULES.md section 1, with section 0).

The test-suite's independent yardstick for ``sim/portland``: it imports nothing from ``sim/`` (nor
numpy) and favours obviousness over speed. One hand at a time, one card at a time, strings
throughout (the model is tests/reference.py, the Spades reference).

Conventions (RULES.md section 0):

* A card is a string rank+suit: ranks ``23456789TJQKA`` (A high), suits ``CDHS``: ``"AS"``,
  ``"TH"``, ``"2C"``.
* Seats ``0..3`` clockwise; "left of X" is ``X + 1 mod 4``. Side 0 = seats 0 and 2, side 1 = seats
  1 and 3 (partners opposite).
* The deal goes one card at a time clockwise from the dealer's left, so the dealer receives the
  52nd card: with ``trump = "turn_up"`` that card is turned up, its suit is trump for the hand, and
  the dealer keeps it (section 1). With ``trump = "none"`` no card is turned and there is no trump.
* Elder hand (left of the dealer) leads trick 1; the winner of a trick leads the next one.
* Must follow the led suit if able, else any card; the highest trump wins the trick, else the highest
  card of the led suit (section 0).

Scoring (section 1):

* trick points: each side scores one point per trick over ``book`` (6): 7 tricks = 1 ... 13 = 7;
  a side at or below the book scores 0, never negative.
* honours (only with ``honours`` and a trump suit): A K Q J of trump held at the deal; a side holding
  all 4 scores 4, exactly 3 scores 2; a 2-2 split nothing. Not for a side whose score before the
  hand is at least ``honours_barred_at`` (if set). ``honours_order = "tricks_first"``: the trick
  points are added first, and if that ends the game (`game_over` on the scores before + trick
  points) no honours are counted; ``"together"``: both are added at once.
* the game ends when a side is at or over ``target_score`` and the scores differ; the higher wins;
  equal scores play another hand.

Rules are a plain dict with the section 1 keys; ``PORTLAND`` and the other module constants are the
presets of the same names. A dict passed to the public functions may give only some keys; the rest
come from ``PORTLAND``.

Public API::

    parse_card("AS") -> (14, "S")
    trump_of(turn_up, rules) -> "S" | ... | None
    trick_winner(trick, leader, trump) -> seat
    legal_plays(hand, trick_so_far) -> [cards]
    honours_held(hands, trump) -> [side 0, side 1]
    score_hand(tricks, honours, scores_before, rules) -> {"trick_points", "honours_points", ...}
    game_over(scores, rules) -> (bool, winner or None)
    replay_hand(hands, dealer, turn_up, plays, scores_before, rules) -> {... every result ...}
"""

from __future__ import annotations

__all__ = [
    "RANKS",
    "SUITS",
    "DECK",
    "HONOURS",
    "PORTLAND",
    "PRESETS",
    "parse_card",
    "side_of",
    "resolve_rules",
    "trump_of",
    "trick_winner",
    "legal_plays",
    "honours_held",
    "honours_value",
    "score_hand",
    "game_over",
    "replay_hand",
]

# --- cards (RULES.md section 0) ----------------------------------------------------------------

RANKS = "23456789TJQKA"  # low to high; parse_card maps "2" -> 2 ... "A" -> 14
SUITS = "CDHS"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)  # the 52 cards
HONOURS = "AKQJ"  # section 1: the honours are A, K, Q and J of trump

N_SEATS = 4
N_TRICKS = 13


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


# --- rules (RULES.md section 1) ----------------------------------------------------------------

# portland: the section 1 table, key by key (dummy and rubber are not modelled here).
PORTLAND: dict = {
    "trump": "turn_up",  # "turn_up": the dealer's last card's suit is trump; "none": no trump
    "book": 6,  # tricks a side takes before it scores one point a trick
    "target_score": 5,  # the first side to reach it (with the scores different) wins
    "honours": False,  # A K Q J of trump: 4 held by a side -> 4 points, 3 -> 2
    "honours_order": "tricks_first",  # "tricks_first" | "together"
    "honours_barred_at": None,  # a side with at least this score before the hand: no honours
}

PRESETS: dict[str, dict] = {
    "portland": PORTLAND,
    "portland.seven": {**PORTLAND, "target_score": 7},
    "portland.honours": {**PORTLAND, "honours": True},
    "portland.long": {**PORTLAND, "target_score": 10, "honours": True},
    "portland.no_trump": {**PORTLAND, "trump": "none"},
}


def resolve_rules(rules: dict | str | None = None) -> dict:
    """A full rules dict: a preset name, or a partial dict over ``PORTLAND``; unknown keys and
    impossible values are rejected."""
    if rules is None:
        return dict(PORTLAND)
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(f"unknown preset {rules!r}; known: {sorted(PRESETS)}")
        return dict(PRESETS[rules])
    unknown = sorted(set(rules) - set(PORTLAND))
    if unknown:
        raise ValueError(f"unknown rule key(s) {unknown}; known keys: {sorted(PORTLAND)}")
    full = {**PORTLAND, **rules}
    if full["trump"] not in ("turn_up", "none"):
        raise ValueError(f"trump must be 'turn_up' or 'none', not {full['trump']!r}")
    if full["honours_order"] not in ("tricks_first", "together"):
        raise ValueError(f"honours_order must be 'tricks_first' or 'together', "
                         f"not {full['honours_order']!r}")
    if full["honours"] and full["trump"] == "none":
        raise ValueError("honours need a trump suit")
    if not 0 <= full["book"] <= N_TRICKS - 1:
        raise ValueError(f"book must be 0..{N_TRICKS - 1}")
    return full


# --- trumps and tricks (RULES.md sections 0 and 1) ---------------------------------------------


def trump_of(turn_up: str | None, rules: dict | str | None) -> str | None:
    """The trump suit of a hand: the turned-up card's suit, or None under ``trump = "none"``
    (no card is turned up then)."""
    r = resolve_rules(rules)
    if r["trump"] == "none":
        if turn_up is not None:
            raise ValueError("no card is turned up under trump = 'none'")
        return None
    if turn_up is None:
        raise ValueError("trump = 'turn_up' needs the turned-up card")
    return _suit(turn_up)


def trick_winner(trick: list[str], leader: int, trump: str | None) -> int:
    """Seat that wins a complete trick, ``trick[i]`` having been played by seat ``leader + i``.

    Section 0: the highest trump wins; with no trump in the trick (or no trump suit at all), the
    highest card of the led suit. A card of any other suit never wins.
    """
    if len(trick) != N_SEATS:
        raise ValueError(f"a trick has {N_SEATS} cards, not {len(trick)}")
    led = _suit(trick[0])
    trumps = [i for i, c in enumerate(trick) if trump is not None and _suit(c) == trump]
    candidates = trumps if trumps else [i for i, c in enumerate(trick) if _suit(c) == led]
    best = max(candidates, key=lambda i: _rank(trick[i]))
    return (leader + best) % N_SEATS


def legal_plays(hand: list[str], trick_so_far: list[str]) -> list[str]:
    """The cards of ``hand`` that may be played now: any card to lead; following, a card of the
    led suit if the hand holds one, else any card (section 0; Portland has no lead restriction)."""
    if not hand:
        raise ValueError("empty hand")
    if not trick_so_far:
        return list(hand)
    led = _suit(trick_so_far[0])
    following = [c for c in hand if _suit(c) == led]
    return following if following else list(hand)


# --- honours and scoring (RULES.md section 1) --------------------------------------------------


def honours_held(hands: list[list[str]], trump: str | None) -> list[int]:
    """How many of A K Q J of trump each side holds at the deal (0 and 0 without a trump)."""
    held = [0, 0]
    if trump is None:
        return held
    for seat, hand in enumerate(hands):
        held[side_of(seat)] += sum(1 for c in hand if c[1] == trump and c[0] in HONOURS)
    return held


def honours_value(n: int) -> int:
    """Section 1: all four honours score 4, exactly three score 2, fewer nothing."""
    return {4: 4, 3: 2}.get(n, 0)


def game_over(scores: list[int], rules: dict | str | None) -> tuple[bool, int | None]:
    """Section 1: the game ends when a side is at or over ``target_score`` and the scores differ;
    the higher score wins. Equal scores (both at or over the target, possible with
    ``honours_order = "together"`` or a book below 6) play another hand.
    Returns ``(True, winning side)`` or ``(False, None)``."""
    r = resolve_rules(rules)
    if max(scores) >= r["target_score"] and scores[0] != scores[1]:
        return True, 0 if scores[0] > scores[1] else 1
    return False, None


def score_hand(tricks: list[int], honours: list[int], scores_before: list[int],
               rules: dict | str | None) -> dict:
    """Score one hand from the tricks per seat and the honours held per side.

    Returns ``{"trick_points": [2], "honours_points": [2], "points": [2], "after": [2],
    "honours_ended": bool}``; ``honours_ended`` is true when under ``"tricks_first"`` the trick
    points alone ended the game, so that no honours were counted.
    """
    r = resolve_rules(rules)
    if len(tricks) != N_SEATS or sum(tricks) != N_TRICKS or min(tricks) < 0:
        raise ValueError(f"tricks must be {N_SEATS} counts summing to {N_TRICKS}: {tricks}")
    side_tricks = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
    trick_points = [max(0, t - r["book"]) for t in side_tricks]

    honours_points = [0, 0]
    if r["honours"]:
        for side in (0, 1):
            barred = (r["honours_barred_at"] is not None
                      and scores_before[side] >= r["honours_barred_at"])
            honours_points[side] = 0 if barred else honours_value(honours[side])
    ended_by_tricks = False
    if r["honours"] and r["honours_order"] == "tricks_first":
        after_tricks = [scores_before[s] + trick_points[s] for s in (0, 1)]
        ended_by_tricks = game_over(after_tricks, r)[0]  # "if that ends the game"
        if ended_by_tricks:
            honours_points = [0, 0]

    points = [trick_points[s] + honours_points[s] for s in (0, 1)]
    return {
        "trick_points": trick_points,
        "honours_points": honours_points,
        "points": points,
        "after": [scores_before[s] + points[s] for s in (0, 1)],
        "honours_ended": ended_by_tricks,
    }


# --- one whole hand ----------------------------------------------------------------------------


def replay_hand(hands: list[list[str]], dealer: int, turn_up: str | None, plays: list[str],
                scores_before: list[int], rules: dict | str | None) -> dict:
    """Check, play out and score one hand.

    ``hands``: the four dealt hands (card names) by seat; ``dealer``: seat; ``turn_up``: the
    dealer's turned-up last card (None under ``trump = "none"``); ``plays``: the 52 cards in order
    of play, from elder hand (left of the dealer) on trick 1, each trick led by the previous winner.

    Malformed input (not a 52-card deal of 13 each, a turn-up the dealer does not hold) raises
    ValueError. A card that breaks the play rules is listed in ``errors`` (a string naming trick,
    seat and card); a card not in the seat's hand stops the replay there, a revoke (not following
    suit) is recorded and the card played. Returns ``{"trump": suit or None, "errors": [...],
    "winners": [13 seats], "tricks": [4], "honours": [2], "trick_points": [2],
    "honours_points": [2], "points": [2], "after": [2], "game_over": bool, "winner": side or
    None}`` (the scoring keys are None when the play is incomplete).
    """
    r = resolve_rules(rules)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < N_SEATS:
        raise ValueError(f"dealer must be a seat 0..{N_SEATS - 1}, got {dealer!r}")
    if len(hands) != N_SEATS or any(len(h) != N_TRICKS for h in hands):
        raise ValueError(f"hands must be {N_SEATS} hands of {N_TRICKS} cards")
    dealt = [c for h in hands for c in h]
    for c in dealt:
        parse_card(c)
    if sorted(dealt) != sorted(DECK):
        dupes = sorted({c for c in dealt if dealt.count(c) > 1})
        raise ValueError(f"the hands are not one 52-card deck (duplicated: {dupes})")
    trump = trump_of(turn_up, r)
    if turn_up is not None and turn_up not in hands[dealer]:
        raise ValueError(f"the turned-up card {turn_up} is not in the dealer's (seat {dealer}) hand")

    held = [list(h) for h in hands]
    errors: list[str] = []
    winners: list[int] = []
    tricks = [0] * N_SEATS
    leader = (dealer + 1) % N_SEATS  # section 1: elder hand leads trick 1
    trick: list[str] = []
    for i, card in enumerate(plays):
        trick_no = i // N_SEATS + 1
        seat = (leader + len(trick)) % N_SEATS
        where = f"trick {trick_no}, seat {seat}, card {card!r}"
        if trick_no > N_TRICKS:
            errors.append(f"{where}: a hand has only {N_TRICKS} tricks")
            break
        if card not in held[seat]:
            errors.append(f"{where}: not in the player's hand")
            break
        if card not in legal_plays(held[seat], trick):
            errors.append(f"{where}: does not follow suit {_suit(trick[0])}")
        held[seat].remove(card)
        trick.append(card)
        if len(trick) == N_SEATS:
            winner = trick_winner(trick, leader, trump)
            winners.append(winner)
            tricks[winner] += 1
            leader = winner
            trick = []

    honours = honours_held(hands, trump)
    out = {"trump": trump, "errors": errors, "winners": winners, "tricks": tricks,
           "honours": honours}
    if len(winners) != N_TRICKS:
        if not errors:
            errors.append(f"incomplete hand: {len(plays)} plays, a hand has "
                          f"{N_SEATS * N_TRICKS}")
        return {**out, "trick_points": None, "honours_points": None, "points": None,
                "after": None, "game_over": None, "winner": None}
    scored = score_hand(tricks, honours, scores_before, r)
    over, winner = game_over(scored["after"], r)
    return {**out, "trick_points": scored["trick_points"],
            "honours_points": scored["honours_points"], "points": scored["points"],
            "after": scored["after"], "game_over": over, "winner": winner}
