"""Where ``search`` and ``expert`` disagree, and what the difference is worth (issue 21 item 6).

A script, not a test. ``--hands`` independent hands of ``--rules`` (from 0-0, the dealer turning
round the table) are played with the ``--player`` (default ``search``) at seats 0 and 2 and the
``--reference`` (default ``expert``) at seats 1 and 3, through the engine's own phases
(`sim.spades.hand.play_hand`). At every decision of the player (each bid and each card) the
reference is asked too, from the same view (the player's seat, what it sees): the decision is
classified, and where the two differ it is valued by **replaying the hand**: from the position of
that decision, on the true deal, once with the player's choice and once with the reference's, the
rest of the hand played out by the same line-up (the player at seats 0 and 2, the reference at 1
and 3; for a bid, the later bids made by them, then the play) and scored by the engine. The worth
of a disagreement is the player's side's margin after its own choice minus that after the
reference's (points, each bag taken priced at ``bag_penalty / bag_limit`` instead of the penalty,
as `bench/search_match.py`): positive where the player was right to differ. Only the one decision
differs between the two replays; the player's later decisions are its own (``search`` draws fresh
samples in each). With ``--estimate`` (the player a ``search``), also the search's own paired
estimate of the same margin at a card (`strategies.search.SearchStrategy.estimate`, on fresh
samples of the deals it cannot see, so that the samples its choice was made on do not flatter it).

A card is classified by the situation (``opening lead``: trick 1's lead; ``lead``; ``follow``:
holding the led suit; ``void``: not holding it, and then each choice a ``ruff`` or a
``discard``), by how the two choices differ (``higher``/``lower``: the player's card above or
below the reference's in the same suit; ``other suit``), by the trick (1-13) and by the nils
bid (``own``, ``partner``, ``opponent``, none). A bid: ``nil`` (the player nil, the reference a
number), ``not nil`` (the reverse), ``more`` or ``fewer`` tricks.

    python bench/search_disagreements.py --hands 1000 --out results/disagreements
    python bench/search_disagreements.py --player seed --hands 200     # any two Spades players

writes ``<out>/decisions.csv`` (one row per decision of the player), ``<out>/tables.md``
(the tables by situation, trick and nil, with 95% t intervals) and prints the tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.deal import deal  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import load_rules  # noqa: E402
from sim.phases import Seating  # noqa: E402
from sim.spades.bidding import complete_bidding, start_bidding  # noqa: E402
from sim.spades.hand import deck_for, pipeline, play_hand, play_setup, start_hand  # noqa: E402
from sim.tricks import check_card, play_card  # noqa: E402
from strategies import make_strategy  # noqa: E402
from strategies.card_search import after, candidates, own_class  # noqa: E402
from strategies.forced_answers import ForcedBid  # noqa: E402
from strategies.search import SearchStrategy, _hand_state  # noqa: E402

PLAYER_SEATS = (0, 2)


class Recorder:
    """Plays as ``player``; at each of its bids and cards also asks ``reference`` (from the same
    view, with its own random numbers) and keeps both answers with the view."""

    def __init__(self, player, reference, seed: int):
        self.player, self.reference = player, reference
        self.ref_rng = np.random.default_rng([seed, 1])
        self.bids, self.cards = [], []  # (view, the player's answers, the reference's)

    def __getattr__(self, name):  # any other decision: the player's
        return getattr(self.player, name)

    def bid(self, view, rng):
        ref = np.asarray(self.reference.bid(view, self.ref_rng), np.int8).copy()
        own = np.asarray(self.player.bid(view, rng), np.int8)
        self.bids.append((view, own.copy(), ref))
        return own

    def play(self, view, rng):
        ref = np.asarray(self.reference.play(view, self.ref_rng)).copy()
        own = np.asarray(self.player.play(view, rng))
        self.cards.append((view, own.copy(), ref))
        return own


def margin(score, seat: np.ndarray, rules) -> np.ndarray:
    """float64[N]: ``seat``'s side's points minus the other side's, each bag taken priced at
    ``bag_penalty / bag_limit`` instead of the penalty paid (RULES.md §3)."""
    price = rules.bag_penalty / rules.bag_limit
    points = (score.points - score.bag_penalty - price * score.bags_taken).astype(np.float64)
    side = (np.asarray(seat) % rules.sides).astype(np.intp)
    rows = np.arange(len(side))
    return points[rows, side] - points[rows, 1 - side]


def replay_cards(view, dealt, cards, lineup, rules, deck, rng) -> np.ndarray:
    """float64[n]: the margin (`margin`) of the seat of each row of ``view`` (a `PlayView`)
    after playing ``cards`` (uint64[n]) there, the deal being ``dealt`` (uint64[n, P], the hands
    as dealt) and the rest of the hand played out by ``lineup``."""
    n = len(view)
    at = Seating(rules, deck, lineup, rng)
    hand = _hand_state(view, dealt, np.arange(n))
    setup = play_setup(hand, at)
    so_far = np.concatenate([view.history, view.trick_cards], axis=1)
    play = setup.follow(setup.start(), so_far)  # checks the deal against every card so far
    legal, free = setup.legal(play)
    check_card(play, cards, legal, free, setup.lead_rule, setup.constraint)
    play_card(play, cards)
    setup.finish(play, lineup, at.rng)
    scored = play_hand(replace(hand, play=play.result()), at, after(pipeline(rules), "play"))
    return margin(scored.score, view.seat, rules)


def replay_bids(view, dealt, bids, strategies, rules, deck, rng) -> np.ndarray:
    """float64[n]: the margin of the seat of each row of ``view`` (a `BidView`) after bidding
    ``bids`` (int[n]) there on the deal ``dealt``, the later bids made and the hand played by
    ``strategies`` (one per seat)."""
    forced = Lineup([ForcedBid(s, view.seat, np.asarray(bids, np.int8)) for s in strategies])
    at = Seating(rules, deck, forced, rng)
    state = start_bidding(dealt, view.dealer, view.scores, view.bags, rules, bids=view.bids,
                          blind=view.blind)
    bidding = complete_bidding(state, rules, deck, forced, rng)
    hand = replace(start_hand(dealt, view.dealer, view.scores, view.bags), bidding=bidding)
    hand = play_hand(hand, replace(at, lineup=Lineup(strategies)), after(pipeline(rules), "bid"))
    return margin(hand.score, view.seat, rules)


def _suit(card: np.ndarray, deck) -> np.ndarray:
    """int[n]: the suit of each one-card bitboard."""
    return np.argmax(np.stack([(card & m) != 0 for m in deck.suit_masks], axis=1), axis=1)


def nil_context(bids: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The nils bid around ``seat``: "own nil", "partner nil", "opponent nil" (the first that
    applies, in that order) or "no nil"."""
    rows = np.arange(len(seat))
    s = seat.astype(np.intp)
    own = bids[rows, s] == 0
    partner = bids[rows, (s + 2) % 4] == 0
    opp = (bids[rows, (s + 1) % 4] == 0) | (bids[rows, (s + 3) % 4] == 0)
    return np.where(own, "own nil", np.where(partner, "partner nil",
                                             np.where(opp, "opponent nil", "no nil")))


def classify_cards(view, own: np.ndarray, ref: np.ndarray) -> dict:
    """The columns of the cards of ``view``: situation, how the choices differ, trick, nils."""
    deck = view.deck
    n = len(view)
    if view.position == 0:
        situation = np.full(n, "opening lead" if view.trick_no == 0 else "lead", dtype=object)
    else:
        follows = (view.hand & view.led) != 0
        kind = [np.where((c & view.trump) != 0, "ruff", "discard") for c in (own, ref)]
        situation = np.where(follows, "follow", "void: " + kind[0].astype(object) + " / "
                             + kind[1].astype(object)).astype(object)
    so, sr = _suit(own, deck), _suit(ref, deck)
    how = np.where(own == ref, "same", np.where(so != sr, "other suit",
                                                np.where(own > ref, "higher", "lower")))
    return {"situation": situation, "how": how, "trick": np.full(n, view.trick_no + 1),
            "position": np.full(n, view.position + 1), "nil": nil_context(view.bids, view.seat)}


def classify_bids(view, own: np.ndarray, ref: np.ndarray) -> dict:
    n = len(view)
    how = np.where(own == ref, "same", np.where(own == 0, "nil", np.where(
        ref == 0, "not nil", np.where(own > ref, "more", "fewer"))))
    return {"situation": np.full(n, "bid", dtype=object), "how": how, "trick": np.zeros(n, int),
            "position": np.zeros(n, int), "nil": nil_context(view.bids, view.seat)}


def run(rules_name: str, player_spec, reference_spec, hands: int, seed: int,
        estimate: bool = False) -> pl.DataFrame:
    """One row per decision of the player (module docstring): ``kind`` (bid, card), the
    classification, ``differs``, ``worth`` (the replayed margin of the player's choice minus the
    reference's; 0 where they agree), ``own_value`` (the replayed margin after the player's
    choice), ``actual`` (the hand's margin as played, from the player's side), ``estimate``
    (the search's paired estimate at a differing card, else null), ``hand`` (its row)."""
    rules = load_rules(rules_name)
    deck = deck_for(rules)
    player = make_strategy(player_spec, game="spades")
    reference = make_strategy(reference_spec, game="spades")
    strategies = [player if s in PLAYER_SEATS else reference for s in range(4)]
    recorder = Recorder(player, reference, seed)
    lineup = Lineup([recorder if s in PLAYER_SEATS else reference for s in range(4)])
    rng = np.random.default_rng([seed, 0])
    dealer = (np.arange(hands) % 4).astype(np.int8)
    dealt = deal(deck, dealer, 4, rng)
    zeros = np.zeros((hands, 2), np.int32)
    at = Seating(rules, deck, lineup, rng)
    outcome = play_hand(start_hand(dealt, dealer, zeros, zeros.copy()), at)
    actual = margin(outcome.score, np.zeros(hands, np.int8), rules)  # side 0: the player's
    frames = []
    replay_rng = np.random.default_rng([seed, 2])
    for kind, records in (("bid", recorder.bids), ("card", recorder.cards)):
        for view, own, ref in records:
            n = len(view)
            cols = (classify_bids if kind == "bid" else classify_cards)(view, own, ref)
            differs = own != ref
            if kind == "card":  # equal cards (touching in rank) are one choice
                cands = candidates(view)
                differs = own_class(view, own, cands)[:, 0] != own_class(view, ref, cands)[:, 0]
                cols["how"] = np.where(differs, cols["how"], "same")
            worth = np.zeros(n)
            own_value = np.full(n, np.nan)
            est = np.full(n, np.nan)
            d = np.flatnonzero(differs)
            if d.size:
                sub = view.take(d)
                truth = dealt[sub.rows]
                both = view.take(np.concatenate([d, d]))
                both_truth = np.concatenate([truth, truth])
                if kind == "card":
                    values = replay_cards(both, both_truth, np.concatenate([own[d], ref[d]]),
                                          Lineup(strategies), rules, deck, replay_rng)
                else:
                    values = replay_bids(both, both_truth, np.concatenate([own[d], ref[d]]),
                                         strategies, rules, deck, replay_rng)
                own_value[d] = values[:d.size]
                worth[d] = values[:d.size] - values[d.size:]
                if estimate and kind == "card" and isinstance(player, SearchStrategy):
                    cands, vals = player.estimate(sub, replay_rng)
                    pick = [np.argmax(cands == own_class(sub, c[d], cands), axis=1)
                            for c in (own, ref)]
                    r = np.arange(d.size)
                    est[d] = vals[r, pick[0]] - vals[r, pick[1]]
            frames.append(pl.DataFrame({
                "kind": [kind] * n, "hand": view.rows.astype(np.int64),
                "seat": view.seat.astype(np.int64),
                **{k: (v.astype(str) if v.dtype == object else v) for k, v in cols.items()},
                "differs": differs, "worth": worth, "own_value": own_value,
                "actual": actual[view.rows], "estimate": est}))
    return pl.concat(frames, how="vertical_relaxed")


def _ci(x: np.ndarray) -> tuple[float, float]:
    if x.size < 2:
        return (float(x.mean()) if x.size else float("nan")), float("nan")
    return float(x.mean()), float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1)
                                  / np.sqrt(x.size))


def summarise(frame: pl.DataFrame, by: list[str], hands: int) -> pl.DataFrame:
    """Per group of ``by``: decisions, disagreements and their share, the mean worth of a
    disagreement with its 95% t half-width, the points per hand the group's disagreements are
    worth in all (their worth summed over the hands played) and the search's mean estimate."""
    rows = []
    for key, g in frame.group_by(by, maintain_order=True):
        diff = g.filter(pl.col("differs"))
        w = diff["worth"].to_numpy()
        mean, half = _ci(w)
        est = diff["estimate"].drop_nulls().drop_nans().to_numpy()
        rows.append({**dict(zip(by, key, strict=True)), "decisions": g.height,
                     "differ": diff.height, "share": diff.height / g.height,
                     "worth": mean, "worth_95": half, "per_hand": float(w.sum()) / hands,
                     "estimate": float(est.mean()) if est.size else float("nan")})
    return pl.DataFrame(rows).sort(by)


def markdown(table: pl.DataFrame, by: list[str]) -> str:
    head = by + ["decisions", "differ", "share", "worth of a difference (95%)",
                 "points per hand", "search's estimate"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * len(by)
                                                                 + ["---:"] * 6) + " |"]
    for r in table.iter_rows(named=True):
        worth = "" if not r["differ"] else (
            f"{r['worth']:+.1f}" + ("" if np.isnan(r["worth_95"]) else f" ± {r['worth_95']:.1f}"))
        est = "" if np.isnan(r["estimate"]) else f"{r['estimate']:+.1f}"
        lines.append("| " + " | ".join(str(r[b]) for b in by) + f" | {r['decisions']:,} | "
                     f"{r['differ']:,} | {100 * r['share']:.1f}% | {worth} | "
                     f"{r['per_hand']:+.2f} | {est} |")
    return "\n".join(lines)


def tables(frame: pl.DataFrame, hands: int) -> str:
    out = []
    for title, by, part in (
            ("By decision", ["kind"], frame),
            ("Bids, by how they differ", ["how"], frame.filter(pl.col("kind") == "bid")),
            ("Cards, by situation", ["situation"], frame.filter(pl.col("kind") == "card")),
            ("Cards, by how they differ", ["situation", "how"],
             frame.filter((pl.col("kind") == "card") & pl.col("differs"))),
            ("Cards, by trick", ["trick"], frame.filter(pl.col("kind") == "card")),
            ("By the nils bid", ["kind", "nil"], frame)):
        if part.height:
            out.append(f"### {title}\n\n{markdown(summarise(part, by, hands), by)}")
    return "\n\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="spades.standard")
    parser.add_argument("--player", default='{"name": "search"}', help="a strategy (JSON or name)")
    parser.add_argument("--reference", default='"expert"', help="a strategy (JSON or name)")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--estimate", action="store_true",
                        help="also the search's own estimate at each differing card")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)

    def spec(text):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    start = time.process_time()
    frame = run(args.rules, spec(args.player), spec(args.reference), args.hands, args.seed,
                args.estimate)
    text = (f"{args.rules}: {args.player} (seats 0, 2) against {args.reference}, {args.hands:,} "
            f"hands, seed {args.seed}; worth = the player's side's margin (bags priced) after "
            f"its choice minus after the reference's, each replayed to the end of the hand\n\n"
            + tables(frame, args.hands)
            + f"\n\n{time.process_time() - start:.0f} CPU s\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        frame.write_csv(args.out / "decisions.csv")
        (args.out / "tables.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
