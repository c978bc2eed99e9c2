"""Plain, scalar reference implementation of Norwegian whist (RULES.md section 2, with sections 0, 5).

The test-suite's independent yardstick for a Norwegian whist engine: it imports nothing from
``sim/`` (nor numpy) and favours obviousness over speed. One hand at a time, one card at a time,
strings throughout (the models are tests/reference.py and tests/reference_portland.py).

Conventions (RULES.md section 0):

* A card is a string rank+suit: ranks ``23456789TJQKA`` (A high), suits ``CDHS``.
* Seats ``0..P-1`` clockwise; "left of X" is ``X + 1 mod P``.
* No trumps: the highest card of the led suit wins the trick; a card of another suit never wins.
  Must follow the led suit if able, else any card. The winner of a trick leads the next one.

The seed game (``players`` 2 or 3, section 2):

* 2 players: 13 cards each (26 set aside), ``T = 13`` tricks. The non-dealer declares ``grand`` or
  ``misere``; the dealer has the opposite declaration.
* 3 players: 17 each (one card set aside), ``T = 17``. From the dealer's left each says ``grand`` or
  ``pass``; the first grand plays alone against the other two (a misère team counting combined
  tricks); if all pass the dealer must play grand.
* The grand declarer leads trick 1.
* Book ``b = T // 2``. Grand, ``k`` tricks: ``k > b`` -> ``+2(k-b)``, else ``-2(b+1-k)``.
  Misère, ``t`` tricks: ``t <= b`` -> ``+2(b+1-t)``, else ``-2(t-b)``.
* ``double_points``: the grand player taking all ``T`` tricks or none doubles every score of the hand.
* ``scoring``: ``"both"`` each side scores its own table (each misère-team member the team's value);
  ``"declarer"`` only the player who chose (2 players: the non-dealer; 3: the grand player) scores
  its table, the others 0; ``"zero_sum"`` the declarer's table value ``v`` is added to the declarer
  and ``v`` is subtracted from each opponent (with 3 players the hand's total is then ``-v``: the
  literal reading of "subtracted from each opponent").

The classic game (``players`` 4, preset ``norwegian.classic``, section 2 "Beyond the seed"):
partnerships as in section 0 (side 0 = seats 0 and 2); from the dealer's left each seat may bid
``grand`` or ``nullo`` or ``pass``; the first bid decides (later entries are ignored), nullo if all
four pass. Grand: the player left of the bidder leads; the bidding side scores ``grand_value`` (4)
per trick above six, or if it takes six or fewer the opponents score ``grand_fail_value`` (8) per trick
they took above six. Nullo: the player right of the bidder (of the dealer if all passed) leads; each
side scores ``nullo_value`` (2) per trick above six taken by the opponents. ``double_points`` and
``scoring`` are seed-game keys and must keep their defaults here.

The game ends when a player (side, in the classic game) is at or over ``target_score``; the unique
highest score wins; a shared highest score (always the case under ``"both"`` with 2 players, whose
scores are always equal) ends the game drawn: winner ``None``.

Points are per seat with 2 or 3 players, per side (2 entries) in the classic game.

Public API::

    parse_card("AS") -> (14, "S")
    resolve_rules(name | partial dict | None) -> full rules dict
    n_tricks(rules) -> 13 | 17;  book(rules) -> 6 | 8
    grand_value(k, rules), misere_value(t, rules) -> the section 2 tables
    auction(declarations, dealer, rules) -> {"kind", "declarer", "grand_player", "leader"}
    trick_winner(trick, leader) -> seat
    legal_plays(hand, trick_so_far) -> [cards]
    score_hand(declarations, tricks, rules, dealer=...) -> [points per seat or side]
    game_over(scores, rules) -> (bool, winner or None)
    replay_hand(record, rules) -> {... every result ...}   (section 5 record, with "declarations")
"""

from __future__ import annotations

__all__ = [
    "RANKS",
    "SUITS",
    "DECK",
    "NORWEGIAN",
    "PRESETS",
    "IllegalDeclaration",
    "IllegalPlay",
    "parse_card",
    "resolve_rules",
    "n_tricks",
    "book",
    "grand_value",
    "misere_value",
    "auction",
    "trick_winner",
    "legal_plays",
    "score_hand",
    "game_over",
    "replay_hand",
]

# --- cards (RULES.md section 0) ----------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


class IllegalDeclaration(ValueError):
    """A declaration or auction entry that the rules do not allow."""


class IllegalPlay(ValueError):
    """A card that cannot be played (not in hand, does not follow suit, too many cards)."""


def parse_card(card: str) -> tuple[int, str]:
    """``"AS"`` -> ``(14, "S")``; ``"2C"`` -> ``(2, "C")``. Raises ValueError on anything else."""
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card: {card!r} (rank from {RANKS!r} then suit from {SUITS!r})")
    return RANKS.index(card[0]) + 2, card[1]


def _suit(card: str) -> str:
    return parse_card(card)[1]


def _rank(card: str) -> int:
    return parse_card(card)[0]


# --- rules (RULES.md section 2) ----------------------------------------------------------------

NORWEGIAN: dict = {
    "players": 2,  # 2 or 3: the seed game; 4: the classic partnership game
    "target_score": 20,
    "double_points": False,  # grand player takes all tricks or none -> every score doubled
    "scoring": "both",  # "both" | "declarer" | "zero_sum"
    # classic game only (players = 4):
    "grand_value": 4,  # per trick above six to a successful grand side
    "grand_fail_value": 8,  # per trick above six to the opponents of a failed grand
    "nullo_value": 2,  # per trick above six taken by the opponents, under nullo
}

PRESETS: dict[str, dict] = {
    "norwegian": NORWEGIAN,
    "norwegian.declarer": {**NORWEGIAN, "scoring": "declarer"},
    "norwegian.zero_sum": {**NORWEGIAN, "scoring": "zero_sum"},
    "norwegian.three": {**NORWEGIAN, "players": 3},
    "norwegian.double": {**NORWEGIAN, "double_points": True},
    "norwegian.classic": {**NORWEGIAN, "players": 4, "target_score": 50},
}

SCORINGS = ("both", "declarer", "zero_sum")


def resolve_rules(rules: dict | str | None = None) -> dict:
    """A full rules dict: a preset name, or a partial dict over ``NORWEGIAN``."""
    if rules is None:
        return dict(NORWEGIAN)
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(f"unknown preset {rules!r}; known: {sorted(PRESETS)}")
        return dict(PRESETS[rules])
    unknown = sorted(set(rules) - set(NORWEGIAN))
    if unknown:
        raise ValueError(f"unknown rule key(s) {unknown}; known keys: {sorted(NORWEGIAN)}")
    full = {**NORWEGIAN, **rules}
    if full["players"] not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4 (classic), not {full['players']!r}")
    if full["scoring"] not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, not {full['scoring']!r}")
    if full["players"] == 4 and (full["double_points"] or full["scoring"] != "both"):
        raise ValueError("the classic game (players = 4) has its own scoring: "
                         "double_points and scoring do not apply")
    if full["target_score"] <= 0:
        raise ValueError("target_score must be positive")
    return full


def n_tricks(rules: dict | str | None) -> int:
    """Tricks per hand: 13 (2 players, 13 cards each; classic, 13 each), 17 (3 players)."""
    return 17 if resolve_rules(rules)["players"] == 3 else 13


def _cards_each(r: dict) -> int:
    return 17 if r["players"] == 3 else 13


def book(rules: dict | str | None) -> int:
    """``b = floor(T / 2)``: 6 for 13 tricks, 8 for 17."""
    return n_tricks(rules) // 2


def grand_value(k: int, rules: dict | str | None) -> int:
    """Section 2: grand with ``k`` tricks: ``k > b`` -> ``2(k-b)``, else ``-2(b+1-k)``."""
    T, b = n_tricks(rules), book(rules)
    if not 0 <= k <= T:
        raise ValueError(f"tricks must be 0..{T}, got {k}")
    return 2 * (k - b) if k > b else -2 * (b + 1 - k)


def misere_value(t: int, rules: dict | str | None) -> int:
    """Section 2: misère with ``t`` tricks: ``t <= b`` -> ``2(b+1-t)``, else ``-2(t-b)``."""
    T, b = n_tricks(rules), book(rules)
    if not 0 <= t <= T:
        raise ValueError(f"tricks must be 0..{T}, got {t}")
    return 2 * (b + 1 - t) if t <= b else -2 * (t - b)


# --- declarations and the auction (RULES.md section 2) ------------------------------------------


def auction(declarations: list[str], dealer: int, rules: dict | str | None) -> dict:
    """Who plays what, from the declarations by seat.

    Returns ``{"kind": "grand" | "misere" | "nullo", "declarer": seat or None, "grand_player":
    seat or None, "leader": seat}``. ``kind`` is the declarer's own declaration ("misere" only in
    the 2-player game, when the non-dealer declared misère). ``declarer`` is the player who chose:
    the non-dealer (2 players); the grand player (3 players; the dealer when all passed); the first
    bidder (classic; None when all four passed).

    * 2 players: the non-dealer's entry is ``grand`` or ``misere`` and the dealer's the opposite.
    * 3 players: entries ``grand`` or ``pass``; seats speak from the dealer's left; the first grand
      wins the auction (a later grand is ignored); all pass -> the dealer plays grand.
    * classic: entries ``grand``, ``nullo`` or ``pass``; the first bid from the dealer's left decides
      (later entries ignored); all pass -> nullo with no bidder.
    """
    r = resolve_rules(rules)
    P = r["players"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < P:
        raise IllegalDeclaration(f"dealer must be a seat 0..{P - 1}, got {dealer!r}")
    if len(declarations) != P:
        raise IllegalDeclaration(f"declarations must have one entry per seat ({P}): {declarations}")
    order = [(dealer + i) % P for i in range(1, P + 1)]  # dealer's left first, dealer last

    if P == 2:
        declarer = (dealer + 1) % 2
        mine, theirs = declarations[declarer], declarations[dealer]
        opposite = {"grand": "misere", "misere": "grand"}
        if mine not in opposite:
            raise IllegalDeclaration(f"seat {declarer} (non-dealer) must declare 'grand' or "
                                     f"'misere', not {mine!r}")
        if theirs != opposite[mine]:
            raise IllegalDeclaration(f"seat {dealer} (dealer) has the opposite declaration "
                                     f"{opposite[mine]!r}, not {theirs!r}")
        grand = declarer if mine == "grand" else dealer
        return {"kind": mine, "declarer": declarer, "grand_player": grand, "leader": grand}

    if P == 3:
        for seat, d in enumerate(declarations):
            if d not in ("grand", "pass"):
                raise IllegalDeclaration(f"seat {seat}: a 3-player auction entry is 'grand' or "
                                         f"'pass', not {d!r}")
        grand = next((s for s in order if declarations[s] == "grand"), dealer)
        return {"kind": "grand", "declarer": grand, "grand_player": grand, "leader": grand}

    for seat, d in enumerate(declarations):
        if d not in ("grand", "nullo", "pass"):
            raise IllegalDeclaration(f"seat {seat}: a classic bid is 'grand', 'nullo' or 'pass', "
                                     f"not {d!r}")
    bidder = next((s for s in order if declarations[s] != "pass"), None)
    if bidder is None:
        return {"kind": "nullo", "declarer": None, "grand_player": None, "leader": (dealer - 1) % 4}
    if declarations[bidder] == "grand":
        return {"kind": "grand", "declarer": bidder, "grand_player": bidder,
                "leader": (bidder + 1) % 4}
    return {"kind": "nullo", "declarer": bidder, "grand_player": None, "leader": (bidder - 1) % 4}


# --- tricks (RULES.md section 0, no trumps) ------------------------------------------------------


def trick_winner(trick: list[str], leader: int) -> int:
    """Seat winning a complete trick, ``trick[i]`` played by seat ``(leader + i) % len(trick)``:
    the highest card of the led suit (there are no trumps)."""
    if len(trick) not in (2, 3, 4):
        raise ValueError(f"a trick has 2, 3 or 4 cards, not {len(trick)}")
    led = _suit(trick[0])
    best = max((i for i, c in enumerate(trick) if _suit(c) == led), key=lambda i: _rank(trick[i]))
    return (leader + best) % len(trick)


def legal_plays(hand: list[str], trick_so_far: list[str]) -> list[str]:
    """Any card to lead; following, a card of the led suit if the hand holds one, else any card."""
    if not hand:
        raise ValueError("empty hand")
    if not trick_so_far:
        return list(hand)
    led = _suit(trick_so_far[0])
    following = [c for c in hand if _suit(c) == led]
    return following if following else list(hand)


# --- scoring -----------------------------------------------------------------------------------


def _check_tricks(tricks: list[int], r: dict) -> None:
    P, T = r["players"], (17 if r["players"] == 3 else 13)
    if len(tricks) != P or sum(tricks) != T or min(tricks) < 0:
        raise ValueError(f"tricks must be {P} counts summing to {T}: {tricks}")


def _score_classic(a: dict, tricks: list[int], r: dict) -> list[int]:
    side = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
    points = [0, 0]
    if a["kind"] == "grand":
        us = a["declarer"] % 2
        them = 1 - us
        if side[us] > 6:
            points[us] = r["grand_value"] * (side[us] - 6)
        else:
            points[them] = r["grand_fail_value"] * (side[them] - 6)
    else:
        for s in (0, 1):
            points[s] = r["nullo_value"] * max(0, side[1 - s] - 6)
    return points


def score_hand(declarations: list[str], tricks: list[int], rules: dict | str | None, *,
               dealer: int) -> list[int]:
    """This hand's points: per seat (2 or 3 players), per side (classic, side 0 = seats 0 and 2)."""
    r = resolve_rules(rules)
    a = auction(declarations, dealer, r)
    _check_tricks(tricks, r)
    if r["players"] == 4:
        return _score_classic(a, tricks, r)
    P, T = r["players"], n_tricks(r)
    g = a["grand_player"]
    k = tricks[g]
    v_grand = grand_value(k, r)
    v_misere = misere_value(T - k, r)  # the misère side's (combined) tricks
    factor = 2 if r["double_points"] and k in (0, T) else 1
    own = [(v_grand if s == g else v_misere) * factor for s in range(P)]  # each side's own table
    if r["scoring"] == "both":
        return own
    d = a["declarer"]
    if r["scoring"] == "declarer":
        return [own[d] if s == d else 0 for s in range(P)]
    return [own[d] if s == d else -own[d] for s in range(P)]  # zero_sum


def game_over(scores: list[int], rules: dict | str | None) -> tuple[bool, int | None]:
    """Over when a score is at or over ``target_score``; the unique highest wins, a shared highest
    is a draw (``(True, None)``). Not over: ``(False, None)``."""
    r = resolve_rules(rules)
    top = max(scores)
    if top < r["target_score"]:
        return False, None
    leaders = [i for i, s in enumerate(scores) if s == top]
    return True, leaders[0] if len(leaders) == 1 else None


# --- one whole hand (RULES.md section 5) ---------------------------------------------------------


def _play_out(hands: list[list[str]], leader: int, plays: list[str], r: dict) -> tuple[list, list]:
    P, T = r["players"], _cards_each(r)
    held = [list(h) for h in hands]
    winners: list[int] = []
    tricks = [0] * P
    trick: list[str] = []
    for i, card in enumerate(plays):
        trick_no = i // P + 1
        seat = (leader + len(trick)) % P
        where = f"trick {trick_no}, seat {seat}, card {card!r}"
        if trick_no > T:
            raise IllegalPlay(f"{where}: a hand has only {T} tricks")
        try:
            parse_card(card)
        except ValueError as exc:
            raise IllegalPlay(f"{where}: {exc}") from None
        if card not in held[seat]:
            raise IllegalPlay(f"{where}: not in the player's hand")
        if card not in legal_plays(held[seat], trick):
            raise IllegalPlay(f"{where}: does not follow suit {_suit(trick[0])}")
        held[seat].remove(card)
        trick.append(card)
        if len(trick) == P:
            winner = trick_winner(trick, leader)
            winners.append(winner)
            tricks[winner] += 1
            leader = winner
            trick = []
    if len(winners) != T:
        raise IllegalPlay(f"incomplete hand: {len(plays)} plays, a hand has {P * T}")
    return winners, tricks


def replay_hand(record: dict, rules: dict | str | None = None) -> dict:
    """Check, play out (or take the score-sheet tricks of) and score one section 5 record.

    ``record``: ``dealer``, ``declarations`` (by seat), then either ``hands`` + ``plays`` (the
    first card led by the auction's leader) or ``tricks`` per seat; optional ``before``
    ``{"scores": [...]}`` per seat (per side in the classic game). Raises IllegalDeclaration /
    IllegalPlay (both ValueError) naming the trick, seat and reason, ValueError on a malformed deal.

    Returns ``{"kind", "declarer", "grand_player", "leader", "winners": [T seats] or None,
    "tricks": [per seat], "points", "after", "game_over", "winner"}``.
    """
    r = resolve_rules(rules)
    P = r["players"]
    dealer = record["dealer"]
    a = auction(record["declarations"], dealer, r)
    n_sides = 2 if P == 4 else P
    before = list(record.get("before", {}).get("scores", [0] * n_sides))
    if len(before) != n_sides:
        raise ValueError(f"before.scores must have {n_sides} entries: {before}")
    if "hands" in record:
        hands = record["hands"]
        each = _cards_each(r)
        if len(hands) != P or any(len(h) != each for h in hands):
            raise ValueError(f"hands must be {P} hands of {each} cards")
        dealt = [c for h in hands for c in h]
        for c in dealt:
            parse_card(c)
        if len(set(dealt)) != len(dealt):
            dupes = sorted({c for c in dealt if dealt.count(c) > 1})
            raise ValueError(f"a card is dealt twice: {dupes}")
        winners, tricks = _play_out(hands, a["leader"], record["plays"], r)
    else:
        winners, tricks = None, list(record["tricks"])
    points = score_hand(record["declarations"], tricks, r, dealer=dealer)
    after = [before[s] + points[s] for s in range(n_sides)]
    over, winner = game_over(after, r)
    return {**a, "winners": winners, "tricks": tricks, "points": points, "after": after,
            "game_over": over, "winner": winner}
