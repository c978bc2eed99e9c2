"""Replay of Spades hand records (RULES.md §5): bids and blind flags, then the plays or, in
score-sheet mode, the tricks alone; and a record up to a decision, replayed to that position
(`position_at`, issue 20 item 1)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import phases
from ..decisions import Position, play_position
from ..errors import UserError
from ..lineup import Lineup
from ..records import by_mode, ints, parse_records
from ..scripted import Scripted, output_record
from ..tricks import IllegalPlay
from .bidding import (
    BidResult,
    IllegalBid,
    _trailing,
    bid_view,
    blind_nil_allowed,
    blind_nil_offered,
    blind_view,
    check_bids,
    own_bidding,
    take_turn,
)
from .bidmasks import check_legal
from .contracts import NAMES
from .hand import PHASES, Seating, bid_state, deck_for, play_hand, play_setup, start_hand
from .house import DECLARED, HOUSE_RULES, in_force, no_flags, no_state
from .house.auction import MAX_CALLS, read_calls
from .rules import PROGRESSIVE_HANDS
from .scoring import COMPONENTS, score_hands

__all__ = ["position_at", "replay_group"]


def _codes(rec, key, allowed, err, sides: int = 2) -> list[int]:
    """A record's per-side list of contract names (or null) as codes."""
    value = rec.get(key, [None] * sides)
    names = [n for n in allowed if n]
    if (not isinstance(value, list) or len(value) != sides
            or any(v is not None and v not in names for v in value)):
        raise err(f"'{key}' must be a list of {sides} (by side), each null or one of {names}")
    return [0 if v is None else NAMES.index(v) for v in value]


class _Bids:
    """Parses each record's bids, blind flags, side contracts and bags before the hand into
    arrays. The partners of a side contract (RULES.md §4.4) bid nothing: ``null``."""

    def __init__(self, n: int, rules):
        self.players, self.sides = players, sides = rules.players, rules.sides
        self.bids = np.zeros((n, players), np.int8)
        self.blind = np.zeros((n, players), bool)
        self.bags = np.zeros((n, sides), np.int32)
        self.progressive = np.zeros((n, sides), np.int32)
        self.house_state = no_state(n, players=players)  # the plug-ins' (sim/spades/house)
        self.passed = np.zeros((n, players), np.uint64)  # the cards each seat passed (§4.5)
        # two players (§4.7): the discards each seat saw drawing its hand, where records say
        self.seen = np.zeros((n, players), np.uint64) if players == 2 else None
        self.drawn = False  # some record gave its discards
        self.contracts = np.zeros((n, sides), np.int8)
        self.bemo = np.zeros((n, sides), np.int8)
        self.flags = no_flags(n, players)  # the house rules' (sim/spades/house)
        self.half = np.zeros((n, players), bool)
        self.auction = np.full((n, MAX_CALLS), -1, np.int8)
        self.rules = rules
        self.deck = deck_for(rules)

    def as_bid(self) -> np.ndarray:
        """The bids as first made (a record gives them as they stand after ``bid_raise``)."""
        bids = self.bids
        for rule in in_force(self.rules):
            if rule.as_bid:
                bids = rule.as_bid(bids, self.flags)
        return bids

    def answers(self) -> dict:
        """The house rules' decisions, each answered by the record's flags (bool[N, P]) or by
        the plug-in's answer from the record's fields (``answers``: seven_trump_reveal's)."""
        out = {decision: self.flags[flag] for rule in in_force(self.rules)
               for decision, flag in rule.decisions.items()}
        for rule in in_force(self.rules):
            if rule.answers:
                out.update(rule.answers(self.house_state))
        return out

    def __call__(self, i, rec, err):
        players, sides = self.players, self.sides
        if self.rules.auction:  # RULES.md §4.4: the calls replace the bids
            calls = read_calls(rec, err)  # the plug-in's reading of its field
            self.auction[i, :len(calls)] = calls
            rec = {**rec, "bids": [0, 0, 0, 0]}  # no bids under an auction (-1 below)
        for key, rule in (*((flag, plugin.key) for plugin in HOUSE_RULES
                            for flag in plugin.declares), ("half", "half_trick_bids")):
            flags = rec.get(key, [False] * players)
            if not isinstance(flags, list) or len(flags) != players or any(
                    type(v) is not bool for v in flags):
                raise err(f"'{key}' must be a list of {players} true/false ({rule})")
            if any(flags) and key in DECLARED and not getattr(self.rules, rule):
                raise err(f"'{key}' needs {rule} = true")
            (self.flags[key] if key in DECLARED else getattr(self, key))[i] = flags
        self.contracts[i] = _codes(rec, "side_contracts", NAMES[1:8], err, sides)
        self.bemo[i] = _codes(rec, "bemo", NAMES[8:], err, sides)
        bids = rec.get("bids")
        covered = [bool(self.contracts[i, s % sides]) for s in range(players)]
        if isinstance(bids, list) and len(bids) == players:
            # null: the players of a side contract's side (one player without partners, RULES.md
            # §4), or a joint bid's partners (partnership_bidding)
            table = self.rules.table
            mates = [[m for m in table.members[table.side_of[s]] if m != s]
                     for s in range(players)]
            joint = [b is None and not c and any(bids[m] is not None for m in mates[s])
                     for s, (b, c) in enumerate(zip(bids, covered, strict=True))]
            if any((b is None) != (c or j) for b, c, j in zip(bids, covered, joint, strict=True)):
                raise err("'bids': the partners of a side contract bid nothing (null), the "
                          "others bid (under partnership_bidding one partner bids for both)")
            covered = [c or j for c, j in zip(covered, joint, strict=True)]
            bids = [0 if c else b for b, c in zip(bids, covered, strict=True)]
        self.bids[i] = ints({"bids": bids}, "bids", players, 0, self.rules.tricks_per_hand, err)
        self.bids[i] = np.where(covered, -1, self.bids[i])
        if self.rules.auction:
            self.bids[i] = -1
        passed = rec.get("passed")
        if passed is not None:  # RULES.md §4.5: what each seat passed (its play's views show it)
            if (not isinstance(passed, list) or len(passed) != players
                    or any(not isinstance(p, list) for p in passed)):
                raise err(f"'passed' must list the cards each of the {players} seats passed")
            try:
                self.passed[i] = [self.deck.mask_of(p) for p in passed]
            except (KeyError, TypeError, ValueError):
                raise err("'passed' holds a name that is not a card of this deck") from None
        if self.seen is not None:
            self._discards(i, rec, err)
        b = rec.get("blind", [False] * players)
        if not isinstance(b, list) or len(b) != players or any(type(v) is not bool for v in b):
            raise err(f"'blind' must be a list of {players} true/false")
        self.blind[i] = b
        before = rec.get("before", {}) or {}
        if "bags" in before:  # below bag_limit: the count drops by it on reaching it (§3)
            limit = self.rules.bag_limit
            self.bags[i] = ints(before, "bags", sides, 0, limit - 1, err, "before.bags",
                                f" (the bag count drops by bag_limit = {limit} on reaching it)")
        if "progressive" in before:  # RULES.md §4.6: progressive bonuses earned so far
            self.progressive[i] = ints(
                before, "progressive", sides, 0, PROGRESSIVE_HANDS, err, "before.progressive",
                f" (one bonus a hand at most, in a game of at most {PROGRESSIVE_HANDS} hands)")
        plugins = in_force(self.rules)
        for rule in plugins:  # the plug-ins' record fields
            if rule.read:
                for name, value in rule.read(rec, self.rules, self.deck, err).items():
                    self.house_state[name][i] = value
        for rule in HOUSE_RULES:  # those of a rule that is off (the kitty, a reveal)
            for name, refusal in () if rule.in_force(self.rules) else rule.fields.items():
                if name in rec:
                    raise err(refusal or f"'{name}' needs {rule.key} = true")

    def _discards(self, i, rec, err) -> None:
        """Two players (RULES.md §4.7): ``discarded``, the cards each seat discarded drawing its
        hand, and ``unseen_discards`` (``first_decides_blind``), those of them it threw away
        without seeing them: what each seat saw is the difference (its views' ``discards``).
        Without ``discarded`` the hand's views show none (a record of the hands alone)."""
        masks = {}
        for key in ("discarded", "unseen_discards"):
            value = rec.get(key)
            if value is None:
                masks[key] = [0] * self.players
                continue
            if (not isinstance(value, list) or len(value) != self.players
                    or any(not isinstance(p, list) for p in value)):
                raise err(f"'{key}' must list the cards each of the {self.players} seats "
                          f"{'discarded' if key == 'discarded' else 'discarded unseen'}")
            try:
                masks[key] = [self.deck.mask_of(p) for p in value]
            except (KeyError, TypeError, ValueError):
                raise err(f"'{key}' holds a name that is not a card of this deck") from None
        discarded, unseen = masks["discarded"], masks["unseen_discards"]
        if any(u & ~d for u, d in zip(unseen, discarded, strict=True)):
            raise err("'unseen_discards': each seat's are among its 'discarded'")
        if "discarded" in rec:
            self.drawn = True
            self.seen[i] = [d & ~u for d, u in zip(discarded, unseen, strict=True)]

    def scripted(self, plays) -> Lineup:
        """Every seat answering what the records say (`sim.scripted.Scripted`): ``plays`` the
        cards, and the bids, flags and decisions read here."""
        return Lineup([Scripted(plays, self.as_bid(), self.blind, contracts=self.contracts,
                                bemo=self.bemo, answers=self.answers(), auction=self.auction,
                                half=self.half)] * self.players)

    def hand(self, recs):
        """The records' hands before the phases a record's decisions are fed into
        (`sim.spades.hand.start_hand`): as dealt, with the plug-ins' state read here."""
        hand = start_hand(recs.hands, recs.dealer, recs.scores, self.bags,
                          progressive=self.progressive, twice=recs.twice,
                          house_state=self.house_state)
        return replace(hand, passed=self.passed, seen=self.seen if self.drawn else None)


def replay_group(members, rules, source):
    """Score records ``(position, line, record)`` that share ``rules``; yields (position,
    output record)."""
    deck = deck_for(rules)
    for sheet, part in by_mode(members):
        extra = _Bids(len(part), rules)
        recs = parse_records([(m[1], m[2]) for m in part], deck, rules.players,
                             rules.tricks_per_hand, source, extra, sides=rules.sides,
                             cards_each=rules.cards_each, dead_tricks=rules.cancel_spades)
        lines = [m[1] for m in part]
        if not sheet:  # the plug-ins' checks of the records' fields (the kitty's)
            for rule in in_force(rules):
                if rule.audit:
                    rule.audit(recs, extra.bids, extra.house_state, rules, deck, lines, source,
                               [m[2] for m in part])
        _check_blind(recs, extra, rules, lines, source)
        try:
            if sheet:
                own = own_bidding(rules)  # a bidding of its own (the auction's)
                auction = _sheet_bidding(own, recs, extra, rules, deck).auction if own else None
                if own is None:
                    check_bids(extra.bids, extra.blind, recs.dealer, rules, extra.contracts,
                               extra.flags, extra.half, extra.bemo)
                tricks = recs.tricks
                try:
                    score = score_hands(extra.bids, extra.blind, tricks, extra.bags, rules,
                                        extra.contracts, extra.bemo, None,
                                        extra.flags, auction, extra.half,
                                        progressive=extra.progressive)
                except ValueError as exc:  # Mo, bemo and trick bonuses are scored from the plays
                    raise UserError(f"score-sheet mode: {exc}", source=source,
                                    line=lines[0]) from None
                points, winners = score.points, None
            else:
                outcome = play_hand(extra.hand(recs), Seating(
                    rules, deck, extra.scripted(recs.plays), np.random.default_rng(0),
                    replay=True))
                tricks, score, points = outcome.play.tricks, outcome.score, outcome.score.points
                winners = outcome.play.winners
                _same_declarations(outcome.bidding, extra, outcome.house_state)
        except (IllegalPlay, IllegalBid) as err:
            err.source, err.line = source, lines[err.row]
            raise
        for i, (pos, line, rec) in enumerate(part):
            after = {"scores": (recs.scores[i] + points[i]).tolist(),
                     "bags": score.bags_after[i].tolist()}
            if rules.seven_plus == "progressive" or rules.highlander:  # RULES.md §4.6
                after["progressive"] = score.progressive_after[i].tolist()
            out = output_record(
                rec, line, source, tricks[i], None if winners is None else winners[i], points[i],
                {c: getattr(score, c)[i] for c in COMPONENTS}, after)
            if rules.auction:  # the auction's outcome
                a = outcome.bidding.auction if winners is not None else auction
                out["auction_result"] = {"bid": int(a.bid[i]), "declarer": int(a.declarer[i])}
            if score.wins_game[i] >= 0:  # a moon or lexington made (RULES.md §4.4)
                out["wins_game"] = int(score.wins_game[i])
            if rules.cancel_spades and winners is not None:  # tricks won by nobody (§4.7)
                out["dead_tricks"] = int((winners[i] < 0).sum())
            yield pos, out


def _same_declarations(bidding, extra, state) -> None:
    """A recorded side contract or bemo the engine never offered at its turn was not made:
    the record is refused (its scripted player answers only the stage that offers it); so is a
    plug-in's recorded decision that was not open (``verify``: seven_trump_reveal's reveals,
    the hand's ``state`` against the record's)."""
    for name, got, want in (("side contract", bidding.contracts, extra.contracts),
                            ("bemo", bidding.bemo, extra.bemo)):
        bad = got != want
        if bad.any():
            i, side = (int(v[0]) for v in np.nonzero(bad))
            raise IllegalBid(f"{name} {NAMES[int(want[i, side])]} is not allowed at its turn "
                             "(RULES.md §4.4)", row=i, seat=side)
    for rule in in_force(extra.rules):
        if rule.verify:
            rule.verify(state, extra.house_state)
    if bidding.auction is None:
        bad = (bidding.blind != extra.blind) | (bidding.bids != extra.bids)
        if bad.any():  # e.g. a blind nil the rules did not offer at that turn
            i, seat = (int(v[0]) for v in np.nonzero(bad))
            raise IllegalBid("the recorded bid (or blind flag) was not open to the seat at its "
                             "turn", row=i, seat=seat)


def _sheet_bidding(own, recs, extra, rules, deck) -> BidResult:
    """A score sheet's bidding of its own (a plug-in's ``bidding``: the auction), the scripted
    player answering from the records (the auction's calls; the cards do not matter to it)."""

    n = recs.dealer.shape[0]
    hands = np.zeros((n, rules.players), np.uint64)
    lineup = Lineup([Scripted(None, auction=extra.auction)] * rules.players)
    return BidResult(**own(hands, recs.dealer, recs.scores, extra.bags, rules, deck, lineup,
                           np.random.default_rng(0), None))


def _check_blind(recs, bids, rules, lines, source):
    """A blind bid must be a nil that the rules allow to that side at that score, or under
    ``blind_bids`` a bid of 1..7 by a side trailing by ``blind_bid_min_deficit``."""

    for seat in range(rules.players):
        seats = np.full(len(lines), seat, np.int8)
        nil_ok = blind_nil_allowed(seats, recs.scores, rules)
        bid_ok = (_trailing(seats, recs.scores, rules.blind_bid_min_deficit) & rules.blind_bids)
        bid = bids.bids[:, seat]
        bad = bids.blind[:, seat] & ~np.where(bid == 0, nil_ok, bid_ok & (bid >= 1) & (bid <= 7))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise UserError(f"bidding, seat {seat}: a blind bid must be a nil, allowed only with "
                            f"blind_nil = true and a side trailing by at least "
                            f"{rules.blind_nil_min_deficit}, or under blind_bids a bid of 1..7 by "
                            f"a side trailing by at least {rules.blind_bid_min_deficit}",
                            source=source, line=lines[i])


# -- a record up to a decision (issue 20 item 1) ------------------------------------------------

# the phase slots whose plug-ins change the hands between the deal and the play (RULES.md §4.1
# kitty, §4.5 passing): a record gives the hands of the play (§5), not those the seats bid with
_CHANGE_HANDS = ("kitty_before_bids", "pass_before_bids", "kitty_after_bids", "pass_after_bids")


def bidding_refusals(rules) -> list[str]:
    """The keys in force under which a position in the bidding is not rebuilt from a record
    (`position_at`): a plug-in asking a turn's decision other than the blind nil and the bid
    (side contracts, blind bids, half bids, no trump, the dark), a round after the bids
    (``bid_raise``), a bidding of its own (``auction``), one joint bid per side
    (``partnership_bidding``: a record's null bid means another thing there), or hands that
    change before the play (the kitty, card passing: the record gives the play's hands). The
    bid rules that only narrow the bids open (RULES.md §4.4: ``fledu``, ``hook``, ``whiz`` ...)
    are no refusal."""
    return [rule.key for rule in in_force(rules)
            if rule.turn or rule.contracts or rule.after_bids or rule.bidding or rule.joint_bid
            or any(slot in _CHANGE_HANDS and (rule.timing is None or slot in rule.timing(rules))
                   for slot in rule.phases)]


def _before(name: str, rules) -> tuple:
    """The phases a replayed record runs before the phase ``name``."""
    steps = phases.pipeline(PHASES, rules, True)
    return steps[:[p.name for p in steps].index(name)]


def position_at(rec: dict, rules, source: str, line: int | None = None) -> Position:
    """The decision a Spades record stops at (a hand record up to it, RULES.md §5): the seat to
    bid where some ``bids`` are null or missing (the seats yet to bid, in turn from the dealer's
    left; see `bidding_refusals` for the rules refused), else the seat to play the card after
    the record's ``plays``. The record is replayed to that point by the engine (the scripted
    player of replay answering its decisions, each checked) and the seat's view is the one the
    engine shows there (`sim.spades.bidding.bid_view`, `blind_view`; `sim.tricks.PlaySetup`)."""
    players = rules.players
    bids = rec.get("bids")
    refusals = bidding_refusals(rules)

    def err(message):
        return UserError(message, source=source, line=line)

    pending = []
    if not refusals:  # a null bid is a seat yet to bid
        if bids is None:
            bids = [None] * players
        if isinstance(bids, list) and len(bids) == players:
            pending = [s for s, b in enumerate(bids) if b is None]
    elif bids is None:
        raise err(f"a position in the bidding is not rebuilt under {', '.join(refusals)} (see "
                  "README, 'One decision from a position'): give every bid, and the plays so far")
    if pending:
        if rec.get("plays"):
            raise err("'plays' before every seat has bid: a null bid is a seat yet to bid")
        blind = rec.get("blind", [False] * players)
        if isinstance(blind, list) and any(blind[s] is True for s in pending
                                           if s < len(blind)):
            raise err("'blind': a seat yet to bid (null) has no blind flag")
        rec = {**rec, "bids": [0 if b is None else b for b in bids]}  # read as bids of 0
    deck = deck_for(rules)
    extra = _Bids(1, rules)
    recs = parse_records([(line, rec)], deck, players, rules.tricks_per_hand, source, extra,
                         sides=rules.sides, cards_each=rules.cards_each, partial=True)
    at = Seating(rules, deck, extra.scripted(recs.plays), np.random.default_rng(0), replay=True)
    try:
        if pending:
            return _bidding_position(extra, recs, at, pending)
        return _play_position(extra, recs, at, source, line)
    except UserError as error:  # the engine's refusals (IllegalBid, IllegalPlay) among them
        error.source, error.line = error.source or source, error.line or line
        raise


def _bidding_position(extra, recs, at, pending: list[int]) -> Position:
    """The seat to bid after the record's bids (RULES.md §3): each given bid is the turn of a
    seat in order from the dealer's left, played by the engine (`take_turn`, which checks it)."""
    rules, deck = at.rules, at.deck
    players = rules.players
    order = [(int(recs.dealer[0]) + 1 + j) % players for j in range(players)]
    made = players - len(pending)
    if sorted(pending) != sorted(order[made:]):
        raise UserError(f"bids are made in turn from the dealer's left ({order}): the seats "
                        f"yet to bid (null) are the last ones of that order")
    state = bid_state(play_hand(extra.hand(recs), at, _before("bid", rules)), at)
    for _ in range(made):
        take_turn(state, rules, deck, at.lineup, at.rng)
    given = np.zeros_like(state.bids, dtype=bool)
    given[0, order[:made]] = True
    bad = given & ((state.bids != extra.bids) | (state.blind != extra.blind))
    if bad.any():  # e.g. a blind nil the rules did not offer at that turn
        raise IllegalBid("the recorded bid (or blind flag) was not open to the seat at its "
                         "turn", row=0, seat=int(np.flatnonzero(bad[0])[0]))
    view = bid_view(state, rules, deck)
    offered = bool(blind_nil_offered(state, rules, deck)[0])
    seat = int(state.seat[0])

    def check(bid):
        check_legal(bid, view.legal, view.seat)

    return Position("bid", seat, view, check,
                    blind_view(state, rules, deck) if offered else None)


def _play_position(extra, recs, at, source, line) -> Position:
    """The seat to play after the record's cards (RULES.md §0, §3, §4.2-4.3): the record's
    decisions before the play fed to the engine's phases, then each card played and checked."""
    rules = at.rules
    _check_blind(recs, extra, rules, [line], source)
    hand = play_hand(extra.hand(recs), at, _before("play", rules))
    _same_declarations(hand.bidding, extra, hand.house_state)
    position = play_position(play_setup(hand, at), recs.plays[:, :int(recs.played[0])])
    if hand.bidding.flags["dark"][0, position.seat]:
        raise UserError(f"seat {position.seat} plays in the dark (nil_in_the_dark, RULES.md "
                        "§4.4): the engine draws his cards, he decides none")
    return position
