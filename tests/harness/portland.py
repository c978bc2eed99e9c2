"""Portland whist in the shared harness: its `Game` adapter, and the comparison of the engine with
the scalar reference (tests/reference_portland.py), hand by hand and game by game."""

from __future__ import annotations

import reference_portland as ref
from sim.cards import SUITS
from sim.games import game_of
from sim.options import rules_to_dict

from .core import GAMES, Game, Run

__all__ = ["Portland", "compare", "ref", "ref_rules"]

FIRST_DEALER = 3  # hand 1 of a game is dealt by seat 3, so seat 0 is elder hand


def ref_rules(rules) -> dict:
    """Our rules value as the reference's rules dict."""
    out = rules_to_dict(rules)
    assert out.pop("game") == "portland"
    out.pop("dummy")  # who decides a seat's cards: the trick and scoring rules are the same
    out.pop("rubber")  # games grouped into rubbers: see Portland.game_ends
    return out


class Portland(Game):
    name = "portland"
    components = ("trick_points", "honours_points")

    def first_dealer(self, rules, players):
        return FIRST_DEALER

    def first_leader(self, run, i):
        return (int(run.hands["dealer"][i]) + 1) % 4  # RULES.md section 1: elder hand

    def check_record(self, run, i, where):
        """Section 1: the turned-up card is the dealer's last card and trump is its suit (no
        card and -1 under trump = "none")."""
        rec, trump = run.records[i], int(run.hands["trump"][i])
        if run.rules.trump == "none":
            assert rec["turn_up"] is None and trump == -1 and run.hands["turn_up"][i] == -1, where
            return
        deck = game_of(run.rules).deck_for(run.rules)
        card = rec["turn_up"]
        assert card == deck.names[int(run.hands["turn_up"][i])], f"{where}: turn_up"
        assert card in rec["hands"][rec["dealer"]], f"{where}: the turn-up is not the dealer's"
        assert trump == SUITS.index(card[1]), f"{where}: trump {trump}, turned up {card}"

    def game_ends(self, run, rows, where):
        """A game ends at the first hand after which reference.game_over says so; under
        ``rubber`` a unit is games until a side has won two, each from 0-0 (``game_no``)."""
        rd = ref_rules(run.rules)
        won, game_no, winner = [0, 0], 1, None
        for k, i in enumerate(rows, start=1):
            assert int(run.hands["game_no"][i]) == game_no, f"{where} hand {k}: game_no"
            over, winner = ref.game_over(run.scores_after[i].tolist(), rd)
            if over:
                won[winner] += 1
            unit_over = over and (not run.rules.rubber or max(won) == 2)
            assert unit_over == (k == len(rows)), (
                f"{where} hand {k}: over {over} at {run.scores_after[i].tolist()}, won {won}")
            if over and not unit_over:
                game_no += 1
        g = int(run.hands["game_id"][rows[0]])
        assert int(run.games["winner"][g]) == winner, f"{where}: winner"
        assert [int(run.games[f"games_won_{s}"][g]) for s in range(2)] == won, where


GAMES["portland"] = Portland()


def compare(run: Run, name: str) -> int:
    """Every hand of ``run`` replayed by the reference: no illegal card; its trick winners,
    tricks, honours held, trick and honours points, points and scores after equal the engine's.
    Returns how many hands were compared."""
    rd = ref_rules(run.rules)
    honours, parts = run.by_side("honours"), run.components
    for i, rec in enumerate(run.records):
        where = f"{name} row {i} (game {rec['game_id']}, hand {rec['hand_no']})"
        out = ref.replay_hand(rec["hands"], rec["dealer"], rec["turn_up"], rec["plays"],
                              rec["before"]["scores"], rd)
        assert out["errors"] == [], f"{where}: the reference rejects the play: {out['errors']}"
        mine = {"winners": run.winners[i].tolist(), "tricks": run.tricks[i].tolist(),
                "honours": honours[i].tolist(), "points": run.points[i].tolist(),
                "after": run.scores_after[i].tolist(),
                **{c: v[i].tolist() for c, v in parts.items()}}
        assert mine == {k: out[k] for k in mine}, f"{where}: engine {mine}, reference {out}"
    return len(run.records)
