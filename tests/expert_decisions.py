"""Digests of every decision the `expert` strategies make on fixed deals: the proof that making
them faster (issue 21 item 4) changed no bid, declaration or card.

Each cell is a rules value × a line-up × a mode (independent hands or whole games), played by the
game's ``play_block`` on fixed seeds in two blocks; its digest is a SHA-256 over the block's
hand records (RULES.md §5: the deal, every card played in order, the bids, blind flags and house
rules' fields of Spades, the declarations of Norwegian whist, the turned-up card of Portland) as
JSON lines, with the number of records. The line-ups: the default expert at every seat, the
expert against the seed at alternate seats (the expert then reads another player's cards), and
and an expert with other settings (`VARIANT`: Portland's skills measured worse and left off
turned on, Norwegian's declarations and spoiling by the seed's rules), so that their code paths
are pinned too.

Stored by the code before the change, compared after it::

    python tests/expert_decisions.py --write tests/data/expert_decisions.json    # before
    python -m pytest tests/test_expert_decisions.py                             # after

A change that means to alter some cells' decisions (issue 21 item 5: the Spades expert at the
tables without partners) stores those cells anew and keeps every other digest as it was::

    python tests/expert_decisions.py --rules spades.three,spades.cutthroat,spades.five
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.games import game_of  # noqa: E402
from sim.lineup import Lineup  # noqa: E402
from sim.options import PRESETS, load_rules  # noqa: E402
from strategies import make_strategy  # noqa: E402

STORED = Path(__file__).resolve().parent / "data" / "expert_decisions.json"
SEED = 20260421
HANDS, GAMES = 600, 40  # per cell: two blocks of half as many hands or whole games

# Rules beyond the presets that take other branches of an expert (norwegian_expert: the
# thresholds and spoiling by scoring mode at three players).
EXTRA_RULES = {
    "norwegian.three+zero_sum": {"preset": "norwegian.three", "scoring": "zero_sum"},
    "norwegian.three+declarer": {"preset": "norwegian.three", "scoring": "declarer"},
    # two-player Spades (RULES.md §4.7: no preset; the draw in two of its modes)
    "spades.two": {"players": 2},
    "spades.two+first_decides_blind": {"players": 2, "draw_mode": "first_decides_blind"},
}

# An expert with other settings per game: its code paths are pinned too.
VARIANT = {
    "portland": {"safe_leads": True, "force_short": True, "return_lead": True,
                 "read_discards": True, "encourage": True, "cover_honours": True,
                 "ruff_second": True, "risk_cards": 1, "sequence_rank": 10, "ruff_first": True,
                 "trump_top": True, "keep_trumps": 1, "cash_first": True},
    "norwegian": {"declare_model": False, "spoil_declarer": False, "zero_sum_grand_at_three": 6.0,
                  "nullo_at": 3.0},
}


def rules_names() -> dict:
    """Every rules value played: the presets and `EXTRA_RULES`, by name."""
    return {**{name: name for name in PRESETS}, **EXTRA_RULES}


def lineups(game: str, players: int) -> dict:
    """The line-ups of a game's cells, by name: seat -> strategy."""
    expert = make_strategy("expert", game=game)
    seed = make_strategy("seed", game=game)
    out = {"expert": [expert] * players,
           "expert_seed": [expert if s % 2 == 0 else seed for s in range(players)]}
    if game in VARIANT:
        out["expert_variant"] = [make_strategy({"name": "expert", **VARIANT[game]}, game=game)
                                 ] * players
    return out


def cells() -> list[tuple[str, str, str]]:
    """(rules name, line-up name, mode) of every cell."""
    out = []
    for name, spec in rules_names().items():
        rules = load_rules(spec)
        for lineup in lineups(rules.game, rules.players):
            out += [(name, lineup, mode) for mode in ("hands", "games")]
    return out


def cell_key(rules: str, lineup: str, mode: str) -> str:
    return f"{rules}/{lineup}/{mode}"


def records_digest(rules_name: str, lineup_name: str, mode: str, scale: int = 1) -> dict:
    """``{"records": count, "sha256": digest of the records as JSON lines}`` of one cell
    (``scale`` times as many hands or games, for a longer comparison by hand)."""
    rules = load_rules(rules_names()[rules_name])
    game = game_of(rules)
    lineup = Lineup(lineups(rules.game, rules.players)[lineup_name])
    size = scale * (HANDS if mode == "hands" else GAMES) // 2
    sha, count = hashlib.sha256(), 0
    for block in (1, 2):
        result = game.play_block(rules, lineup, SEED, block, size, mode)
        for rec in game.block_records(result, SimpleNamespace(rules=rules), 0):
            sha.update(json.dumps(rec, sort_keys=True).encode() + b"\n")
            count += 1
    return {"records": count, "sha256": sha.hexdigest()}


def compute(games=None, scale: int = 1, progress=None, rules=None) -> dict:
    out = {}
    for cell in cells():
        if games and load_rules(rules_names()[cell[0]]).game not in games:
            continue
        if rules and cell[0] not in rules:
            continue
        out[cell_key(*cell)] = records_digest(*cell, scale=scale)
        if progress:
            progress(cell_key(*cell), out[cell_key(*cell)])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, default=None,
                        help=f"where to store the digests (default {STORED.relative_to(ROOT)})")
    parser.add_argument("--games", default=None, help="only these games (comma separated)")
    parser.add_argument("--rules", default=None,
                        help="only the cells of these rules values (comma separated), stored "
                        "into the existing digests in place of theirs")
    parser.add_argument("--scale", type=int, default=1,
                        help="play this many times as many hands (a longer comparison; the "
                        "stored digests are of scale 1)")
    args = parser.parse_args()
    target = args.write or STORED
    games = args.games.split(",") if args.games else None
    rules = args.rules.split(",") if args.rules else None
    unknown = set(rules or ()) - set(rules_names())
    if unknown:
        parser.error(f"unknown rules values {sorted(unknown)}")
    digests = compute(games, args.scale, progress=lambda k, d: print(k, d, flush=True),
                      rules=rules)
    if rules:  # only these cells anew: every other digest as stored
        digests = {**json.loads(target.read_text(encoding="utf-8")), **digests}
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(digests, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
