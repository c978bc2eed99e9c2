"""Norwegian whist in the shared harness: its `Game` adapter, and the comparison of the engine
with the scalar reference (tests/reference_norwegian.py), hand by hand and game by game.

Declarations are codes in the table (docs/SCHEMA.md: -1 did not speak, 0 pass, 1 grand, 2
misère, 3 nullo) and names in records (``null`` for a seat that did not speak).
"""

from __future__ import annotations

import reference_norwegian as ref
from sim.options import rules_to_dict

from .core import GAMES, Game, Run

__all__ = ["CODES", "Norwegian", "compare", "ref", "ref_rules"]

CODES = {"pass": 0, "grand": 1, "misere": 2, "nullo": 3}


def ref_rules(rules) -> dict:
    """Our rules value as the reference's rules dict (it has no max_hands: see game_ends)."""
    out = rules_to_dict(rules)
    assert out.pop("game") == "norwegian"
    out.pop("max_hands")
    return out


def _opt(value) -> int:
    return -1 if value is None else value  # the table's -1 for "nobody"


class Norwegian(Game):
    name = "norwegian"

    def first_dealer(self, rules, players):
        return players - 1  # RULES.md section 2: seat 0 speaks first

    def first_leader(self, run, i):
        return int(run.hands["leader"][i])

    def check_record(self, run, i, where):
        said = [_opt(d if d is None else CODES[d]) for d in run.records[i]["declarations"]]
        assert said == run.by_seat("declaration")[i].tolist(), f"{where}: declarations"

    def replay_columns(self, out):
        return {"contract": CODES[out["contract"]], "declarer": _opt(out["declarer"]),
                "grand_player": _opt(out["grand_player"]), "leader": out["leader"],
                "doubled": out["doubled"]}

    def game_ends(self, run, rows, where):
        """A game ends at the first hand after which reference.game_over says so, or unfinished
        (no winner) after ``max_hands`` hands."""
        rd, limit = ref_rules(run.rules), run.rules.max_hands
        over = winner = None
        for k, i in enumerate(rows, start=1):
            over, winner = ref.game_over(run.scores_after[i].tolist(), rd)
            stops = over or (limit is not None and k == limit)
            assert stops == (k == len(rows)), f"{where} hand {k}: over {over}"
        g = int(run.hands["game_id"][rows[0]])
        games = run.games
        assert bool(games["finished"][g]) == over, f"{where}: finished"
        assert int(games["winner"][g]) == _opt(winner), f"{where}: winner"
        assert bool(games["draw"][g]) == (over and winner is None), f"{where}: draw"


GAMES["norwegian"] = Norwegian()


def compare(run: Run, name: str) -> int:
    """Every record of ``run`` replayed by the reference (a seat that did not speak given as
    "pass": the reference ignores every entry after the first bid): its contract, declarer, grand
    player, leader, trick winners, tricks, points and scores after equal the engine's. Returns
    how many hands were compared."""
    rd = ref_rules(run.rules)
    h = run.hands
    for i, rec in enumerate(run.records):
        where = f"{name} row {i} (game {rec['game_id']}, hand {rec['hand_no']})"
        said = [d or "pass" for d in rec["declarations"]]
        try:
            out = ref.replay_hand(dict(rec, declarations=said), rd)
        except ValueError as exc:  # IllegalDeclaration, IllegalPlay, a malformed deal
            raise AssertionError(f"{where}: the reference rejects the engine's hand: {exc}") from None
        mine = {"kind": int(h["contract"][i]), "declarer": int(h["declarer"][i]),
                "grand_player": int(h["grand_player"][i]), "leader": int(h["leader"][i]),
                "winners": run.winners[i].tolist(), "tricks": run.tricks[i].tolist(),
                "points": run.points[i].tolist(), "after": run.scores_after[i].tolist()}
        theirs = {**{k: out[k] for k in mine}, "kind": CODES[out["kind"]],
                  "declarer": _opt(out["declarer"]), "grand_player": _opt(out["grand_player"])}
        assert mine == theirs, f"{where}: engine {mine}, reference {theirs}"
    return len(run.records)
