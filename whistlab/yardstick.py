"""The double-dummy yardstick (issue 9): how many tricks each side would take with perfect
information, for a sample of the hands of a finished run, solved by Bo Haglund's DDS through
``endplay`` (the optional extra ``dds``: ``pip install 'whistlab[dds]'``).

For every sampled hand of every cell that DDS can solve, the deal as dealt (``hand_<seat>``) is
played double dummy under the hand's trump and first leader:

* Spades: the hand's ``trump`` (spades, or a suit revealed under ``seven_trump_reveal``), led by
  the engine's first leader (`sim.spades.hand.first_leader`: the dealer's left, the holder of the
  lowest club, a Mo side's first player);
* Portland whist: the turned-up trump (no trump under ``trump = "none"``), elder hand leading;
* Norwegian whist: no trump, led as RULES.md §2 says (the ``leader`` column: in the classic game
  the player left of the grand bidder). Nullo hands are played to lose tricks, which DDS does
  not solve: they are left out.

DDS solves four hands of 13 cards from one 52-card deck in four suits of 13, under the plain
rules of trick play (follow suit, the highest trump or card of the led suit wins). Other tables
(two, three, five, six or eight players, cutthroat, two decks, jokers, a kitty, card orders whose
suits are not 13 cards, the suit ladder) and hands changed before the first trick (card passing)
are skipped, each variant with its reason. Rules that restrict the play beyond following suit are
not modelled: Spades is approximated without ``spades_broken`` (spades may be led at any time),
and the other play constraints of RULES.md §4.3 that a variant uses are listed with it. Both
sides maximise their own tricks: bids, nils and contracts are not the solver's objective.

The results go beside the simulated tables, one file per cell and block of the run::

    <run>/yardstick/manifest.json                          the settings, counts, skips, timing
    <run>/yardstick/part-<variant>-<lineup>-00000.parquet  one row per sampled hand and cell

(columns in docs/SCHEMA.md). The sample is the same for the same seed and run, whatever
``n_jobs``: a deal (``game_id``, ``hand_no``) is drawn when its seeded hash is among the
``sample`` smallest of the run's deals, so every cell is solved on the same deals (paired), and
memory holds the sample's keys plus one block of the run at a time. Identical problems (the same
cards, trump and leader: the same deal in the cells of one variant) are solved once.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from reports.data import check_blocks, open_results
from sim import games
from sim.cards import SUITS, Deck
from sim.errors import UserError
from sim.files import WriteError, os_reason, remove_stale, writing
from sim.folder import lock_folder
from sim.options import rules_from_mapping
from sim.spades.hand import first_leader

from .workers import local_workers

__all__ = ["APPROXIMATION_NOTE", "CellPlan", "compute_yardstick", "dd_tricks", "format_yardstick",
           "plan_cell", "require_endplay", "sample_keys", "to_deal"]

RANKS = "23456789TJQKA"
DDS_SUITS = "SHDC"        # DDS / endplay's suit order (Denom 0..3), NT = 4
CHUNK = 48                # distinct problems per task (about a second of one core)
KEY_SHIFT = 16            # a deal's key: game_id << 16 | hand_no
NO_SEAT = -1
MISSING = ("the yardstick needs the optional extra 'dds' (endplay, which wraps Bo Haglund's "
           "DDS): pip install 'whistlab[dds]'")
APPROXIMATION_NOTE = ("Spades is approximated without the spades-broken rule: the double-dummy "
                      "play may lead spades at any time.")


def require_endplay():
    """endplay's solver module, or a `UserError` that says how to install it."""
    try:
        import endplay.dds as dds
    except ImportError:
        raise UserError(MISSING) from None
    return dds


# --- which cells DDS can solve -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CellPlan:
    """One cell of the run: its rules and deck, why DDS cannot solve it (``skip``) or what the
    double-dummy play leaves out of its rules (``approximations``)."""

    cell: dict
    game: str
    rules: object | None
    deck: Deck | None
    skip: str | None
    approximations: tuple[str, ...]

    @property
    def key(self) -> str:
        c = self.cell
        return f"{c['variant']}-{c['lineup']}" + ("-swapped" if c["swapped"] else "")


def _deck_problem(rules, deck: Deck) -> str | None:
    """Why the deals of ``rules`` are not four hands of one 52-card deck in four suits of 13, in
    plain trick-taking order; None when DDS can solve them."""
    game = rules.game
    players = getattr(rules, "players", 4)
    if players != 4:
        return f"{players} players (DDS solves four hands)"
    if game == "spades" and not rules.partnerships:
        return "cutthroat, no partnerships (DDS solves two sides of two partners)"
    if deck.copies != 1:
        return "two decks (DDS solves one 52-card deck)"
    if deck.ladder:
        return "trump_order = suit_ladder (suits outrank each other; DDS has one trump suit)"
    if deck.equal:
        return "cards of equal rank (DDS ranks every card of a suit)"
    sizes = [bin(int(m)).count("1") for m in deck.suit_masks]
    if sizes != [13] * 4:
        what = (f"trump_order = {rules.trump_order}, jokers = {rules.jokers}" if game == "spades"
                else "its deck")
        return (f"{what}: suits of {'/'.join(map(str, sizes))} cards (DDS solves four suits "
                "of 13)")
    if game == "spades" and rules.kitty:
        return "the kitty changes the hands before the first trick"
    if game == "spades" and (rules.pass_cards is not None or rules.nil_pass is not None):
        return "card passing: the hands at the first trick are not the dealt hands of the table"
    return None


def _approximations(rules) -> tuple[str, ...]:
    """What of ``rules`` the double-dummy play does not model (RULES.md §3, §4.3, §4.4)."""
    if rules.game != "spades":
        return ()
    out = []
    if rules.spades_broken is True:
        out.append("spades_broken: spades may be led before they are broken")
    elif rules.spades_broken == "never":
        out.append("spades_broken = never: spades may be led by any player")
    if rules.first_lead != "left_of_dealer":
        out.append(f"first_lead = {rules.first_lead}: the leader is right, his card is free")
    for key, what in (("first_trick_clubs", "no spade on trick 1"),
                      ("first_trick_lowest_club", "the lowest clubs on trick 1"),
                      ("no_spade_lead_first_trick", "a spade may be led to trick 1"),
                      ("must_trump", "a void player need not trump"),
                      ("no_trump_bids", "a no-trump bidder may trump"),
                      ("nil_in_the_dark", "a dark nil plays his cards by sight")):
        if getattr(rules, key):
            out.append(f"{key}: {what}")
    if rules.must_overtrump != "off":
        out.append(f"must_overtrump = {rules.must_overtrump}: a void player need not overtrump")
    return tuple(out)


def plan_cell(cell: dict) -> CellPlan:
    """The plan of one manifest cell (its ``rules`` as `rules_to_dict` wrote them)."""
    spec = cell.get("rules", {}) or {}
    game = spec.get("game", "spades")
    try:
        rules = rules_from_mapping(spec, source=f"manifest cell {cell.get('variant')}")
    except UserError as err:
        return CellPlan(cell, game, None, None, f"its rules cannot be read ({err})", ())
    deck = games.game_of(rules).deck_for(rules)
    skip = _deck_problem(rules, deck)
    return CellPlan(cell, game, rules, deck, skip, () if skip else _approximations(rules))


# --- the engine's bitmasks as endplay deals ------------------------------------------------------


def _canonical(hands: np.ndarray, deck: Deck) -> np.ndarray:
    """The bitboards ``hands`` (any shape) of ``deck``'s layout in the standard one (bit
    ``13 * suit + rank``): a suit's k-th weakest card of the layout gets rank k (2..A). The
    layout orders each suit's cards by strength, so a card order of 13 cards a suit keeps its
    ranking; the standard layout maps to itself."""
    hands = np.asarray(hands, np.uint64)
    target = np.full(64, -1)
    for suit, mask in enumerate(deck.suit_masks):
        bits = [b for b in range(64) if int(mask) >> b & 1]
        for k, b in enumerate(bits):
            target[b] = 13 * suit + k
    if all(target[b] == b for b in range(52)):
        return hands
    out = np.zeros_like(hands)
    one = np.uint64(1)
    for b in np.flatnonzero(target >= 0):
        out |= ((hands >> np.uint64(b)) & one) << np.uint64(target[b])
    return out


# each DDS suit (S, H, D, C): its standard bits with their rank characters, strongest first
_LAYOUT = [[(13 * SUITS.index(letter) + k, RANKS[k]) for k in range(12, -1, -1)]
           for letter in DDS_SUITS]


def _pbn(hands) -> str:
    """The PBN deal string of four bitboards in the standard layout (seats 0..3 = N, E, S,
    W)."""
    seats = []
    for h in hands:
        h = int(h)
        seats.append(".".join("".join(r for b, r in suit if h >> b & 1) for suit in _LAYOUT))
    return "N:" + " ".join(seats)


def _denom(trump: int) -> int:
    """The DDS denomination of a trump suit index (0..3 = C, D, H, S; -1 = no trump)."""
    return 4 if trump < 0 else DDS_SUITS.index(SUITS[trump])


def to_deal(hands, deck: Deck, trump: int, leader: int):
    """The endplay ``Deal`` of one hand: ``hands`` the four seats' bitboards in ``deck``'s
    layout (seat 0..3 = North, East, South, West, so side 0 is North-South), ``trump`` a suit
    index (0..3 = C, D, H, S) or -1 for no trump, ``leader`` the seat on lead."""
    require_endplay()
    from endplay.types import Deal, Denom, Player

    return Deal(_pbn(_canonical(hands, deck)), first=Player(int(leader)),
                trump=Denom(_denom(int(trump))))


_THREADS_SET = False


def _solve_chunk(hands: np.ndarray, trump: np.ndarray, leader: np.ndarray) -> np.ndarray:
    """int8[k]: the tricks the leader's side takes double dummy, for k problems (one task):
    ``hands`` uint64[k, 4] in the standard layout."""
    global _THREADS_SET
    dds = require_endplay()
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    if not _THREADS_SET:  # one DDS thread per process: joblib's processes are the parallelism
        import endplay._dds as raw

        raw.SetMaxThreads(1)
        _THREADS_SET = True
    deals = [Deal(_pbn(h), first=Player(int(p)), trump=Denom(_denom(int(t))))
             for h, t, p in zip(hands, trump, leader, strict=True)]
    out = np.empty(len(deals), np.int8)
    for start in range(0, len(deals), 100):  # DDS takes at most 200 boards a call
        boards = dds.solve_all_boards(deals[start:start + 100], SolveMode.OptimalOne)
        out[start:start + len(boards)] = [max(score for _, score in b) for b in boards]
    return out


def dd_tricks(hands, deck: Deck, trump, leader) -> np.ndarray:
    """int8[k, 2]: the tricks each side (0 = seats 0 and 2) takes double dummy in k hands:
    ``hands`` uint64[k, 4], ``trump`` (suit index or -1) and ``leader`` arrays of k."""
    hands = np.asarray(hands, np.uint64).reshape(-1, 4)
    trump = np.broadcast_to(np.asarray(trump, np.int8), hands.shape[:1])
    leader = np.broadcast_to(np.asarray(leader, np.int8), hands.shape[:1])
    _check_deals(hands, deck, "the hands")
    ours = (_solve_chunk(_canonical(hands, deck), trump, leader) if len(hands)
            else np.zeros(0, np.int8))
    return _by_side(ours, leader)


def _by_side(leader_tricks: np.ndarray, leader: np.ndarray) -> np.ndarray:
    side = np.asarray(leader) % 2
    out = np.empty((len(leader_tricks), 2), np.int8)
    out[np.arange(len(side)), side] = leader_tricks
    out[np.arange(len(side)), 1 - side] = 13 - leader_tricks
    return out


def _check_deals(hands: np.ndarray, deck: Deck, where: str, rows: pl.DataFrame | None = None
                 ) -> None:
    """Every row four disjoint hands of 13 cards that make ``deck``'s 52 cards (``rows``: the
    table rows of ``hands``, to name the bad one)."""
    if not len(hands):
        return
    counts = np.bitwise_count(hands)
    union = np.bitwise_or.reduce(hands, axis=1)
    total = counts.sum(axis=1)
    bad = ~((counts == 13).all(axis=1) & (union == deck.full_mask) & (total == 52))
    if bad.any():
        i = int(np.argmax(bad))
        row = (f"game {rows['game_id'][i]}, hand {rows['hand_no'][i]}" if rows is not None
               else f"row {i}")
        raise UserError(f"{row}: the four hands are not a deal of the 52 cards, 13 each",
                        source=where)


# --- the sample ----------------------------------------------------------------------------------


def _priority(keys: np.ndarray, seed: int) -> np.ndarray:
    """A seeded 64-bit hash of each key (splitmix64's finaliser): the sample's order."""
    salt = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
    z = keys.astype(np.uint64) ^ salt
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _keys_of(frame: pl.DataFrame) -> np.ndarray:
    game = frame["game_id"].to_numpy().astype(np.int64)
    return (game << KEY_SHIFT) | frame["hand_no"].to_numpy().astype(np.int64)


def sample_keys(files, n: int, seed: int) -> np.ndarray:
    """The keys (``game_id << 16 | hand_no``, sorted) of the ``n`` deals whose seeded hash is
    smallest among the deals of the hands ``files``; read one file at a time."""
    keep = np.zeros(0, np.int64)
    for path in files:
        frame = pl.read_parquet(path, columns=["game_id", "hand_no"])
        keys = np.union1d(keep, _keys_of(frame))  # unique, as every cell holds the same deals
        if len(keys) > n:
            order = np.lexsort((keys, _priority(keys, seed)))
            keys = keys[order[:n]]
        keep = np.sort(keys)
    return keep


# --- one block: the sampled rows of every cell, their problems ----------------------------------


def _columns(plan: CellPlan, names: list[str]) -> list[str]:
    want = ["variant", "lineup", "swapped", "game_id", "hand_no", "dealer",
            *[f"hand_{s}" for s in range(4)], *[f"tricks_{s}" for s in range(4)]]
    want += {"spades": ["trump", "side_contract_0", "side_contract_1", "auction_declarer"],
             "portland": ["trump"],
             "norwegian": ["leader", "declarer", "contract"]}[plan.game]
    return [c for c in want if c in names]


def _problems(plan: CellPlan, rows: pl.DataFrame, where: str):
    """The cell's sampled rows that DDS solves and, per row, trump, leader and declarer; and the
    number of rows left out (Norwegian nullo)."""
    n = rows.height
    if plan.game == "norwegian" and "contract" in rows.columns:
        grand = rows["contract"].to_numpy() == 1
        left_out = int((~grand).sum())
        rows = rows.filter(pl.Series(grand))
        n = rows.height
    else:
        left_out = 0
    hands = np.stack([rows[f"hand_{s}"].to_numpy().astype(np.uint64) for s in range(4)], axis=1
                     ) if n else np.zeros((0, 4), np.uint64)
    _check_deals(hands, plan.deck, where, rows)
    dealer = rows["dealer"].to_numpy().astype(np.int8)
    declarer = np.full(n, NO_SEAT, np.int8)
    if plan.game == "spades":
        trump = (rows["trump"].to_numpy().astype(np.int8) if "trump" in rows.columns
                 else np.full(n, 3, np.int8))
        contracts = np.stack([rows[f"side_contract_{s}"].to_numpy().astype(np.int8)
                              if f"side_contract_{s}" in rows.columns else np.zeros(n, np.int8)
                              for s in range(2)], axis=1)
        leader = first_leader(dealer, contracts, plan.rules, hands, plan.deck).astype(np.int8)
        if "auction_declarer" in rows.columns:
            declarer = rows["auction_declarer"].to_numpy().astype(np.int8)
    elif plan.game == "portland":
        trump = rows["trump"].to_numpy().astype(np.int8)
        leader = ((dealer + 1) % 4).astype(np.int8)
    else:
        trump = np.full(n, -1, np.int8)
        leader = rows["leader"].to_numpy().astype(np.int8)
        declarer = rows["declarer"].to_numpy().astype(np.int8)
    return rows, hands, trump, leader, declarer, left_out


@dataclass(eq=False)
class _Block:
    """A block's sampled rows (per cell) waiting for their double-dummy results."""

    block: int
    parts: list          # (plan, rows, trump, leader, declarer, slice into the problems)
    inverse: np.ndarray  # each row's distinct problem
    done: list


def _output(plan: CellPlan, rows: pl.DataFrame, trump, leader, declarer,
            dd: np.ndarray) -> pa.Table:
    tricks = [(rows[f"tricks_{s}"].cast(pl.Int16) + rows[f"tricks_{s + 2}"]).cast(pl.Int8)
              for s in range(2)]
    frame = pl.DataFrame({
        "variant": rows["variant"].cast(pl.String), "lineup": rows["lineup"].cast(pl.String),
        "swapped": rows["swapped"], "game_id": rows["game_id"].cast(pl.Int64),
        "hand_no": rows["hand_no"].cast(pl.Int16), "dealer": rows["dealer"].cast(pl.Int8),
        "trump": pl.Series(trump, dtype=pl.Int8), "leader": pl.Series(leader, dtype=pl.Int8),
        "declarer": pl.Series(declarer, dtype=pl.Int8),
        "dd_tricks_0": pl.Series(dd[:, 0], dtype=pl.Int8),
        "dd_tricks_1": pl.Series(dd[:, 1], dtype=pl.Int8),
        "tricks_0": tricks[0], "tricks_1": tricks[1]})
    table = frame.to_arrow()
    for name in ("variant", "lineup"):  # plain strings, as in the hands table
        table = table.set_column(table.schema.get_field_index(name), name,
                                 table[name].cast(pa.string()))
    return table


def _write(table: pa.Table, path: Path, meta: dict) -> None:
    schema_meta = dict(table.schema.metadata or {})
    schema_meta[b"whistlab"] = json.dumps(meta).encode()
    pq.write_table(table.replace_schema_metadata(schema_meta), path, compression="zstd")


# --- the run -------------------------------------------------------------------------------------


def _open_run(results: str | Path):
    """The results folder (`reports.data.Results`), checked as the report checks it
    (`reports.data.open_results`), with the rules of every cell and room for the yardstick."""
    res = open_results(results)
    path, manifest = res.path, res.manifest
    if not all("rules" in c for c in manifest["experiment"]["cells"]):
        raise UserError("is not a whistlab manifest (a cell without its rules)",
                        source=str(path / "manifest.json"))
    out = path / "yardstick"
    if out.exists() and not out.is_dir():
        raise UserError("is a file; the yardstick needs this path for its folder",
                        source=str(out))
    return res


def compute_yardstick(results: str | Path, sample: int = 1000, seed: int = 1, n_jobs: int = -1,
                      progress: bool = False) -> dict:
    """Solve a sample of ``sample`` deals of the run in ``results`` double dummy in every cell
    that DDS can solve; write ``results/yardstick/`` (replacing an earlier yardstick) and
    return its manifest (also ``yardstick/manifest.json``).

    The yardstick writes into the results folder, so it holds the folder's lock as a writer
    (`sim.folder`: refused while a run writes it or a report reads it) and reads only block
    files that match the folder's journal (`reports.data.check_blocks`). It is built in a
    temporary folder (``.yardstick.tmp<pid>``) that replaces ``yardstick/`` when whole; a write
    that fails is a `sim.files.WriteError` naming the file under ``yardstick/``."""
    if sample < 1:
        raise UserError(f"the sample must be at least one deal, not {sample}")
    res = _open_run(results)
    require_endplay()
    with lock_folder(res.path, "yardstick") as held:
        res = check_blocks(res)
        held.wrote = True
        path = res.path
        with writing(path):
            remove_stale([*path.glob(".yardstick.tmp*"), *path.glob(".yardstick.old*")],
                         only_dead=False)  # of killed yardsticks: the lock excludes others
        tmp = path / f".yardstick.tmp{os.getpid()}"
        try:
            return _compute(res, sample, seed, n_jobs, progress, tmp)
        except BaseException as err:
            shutil.rmtree(tmp, ignore_errors=True)
            if isinstance(err, WriteError) and tmp in err.path.parents:
                raise WriteError(path / "yardstick" / err.path.relative_to(tmp),
                                 err.reason) from None
            if isinstance(err, OSError):
                raise WriteError(path / "yardstick", os_reason(err)) from None
            raise


def _compute(res, sample: int, seed: int, n_jobs: int, progress: bool, tmp: Path) -> dict:
    import joblib

    path, manifest = res.path, res.manifest
    from endplay.config import __version__ as endplay_version

    exp = manifest["experiment"]
    plans = [plan_cell(c) for c in exp["cells"]]
    solvable = [p for p in plans if p.skip is None]
    skipped = {p.cell["variant"]: p.skip for p in plans if p.skip is not None}
    if not solvable:
        raise UserError("no variant of this run can be solved double dummy: " + "; ".join(
            f"{v}: {why}" for v, why in skipped.items()), source=str(path))
    n_blocks = -(-exp["count"] // exp["block_size"])

    def hands_file(plan, block):
        return path / "hands" / f"part-{plan.key}-{block:05d}.parquet"

    files = [(b, p, hands_file(p, b)) for b in range(n_blocks) for p in solvable]
    files = [(b, p, f) for b, p, f in files if f.exists()]
    keys = sample_keys([f for _, _, f in files], sample, seed)
    settings = {"sample": sample, "seed": seed, "deals": int(len(keys)),
                "endplay": endplay_version}

    with writing(path / "yardstick"):
        tmp.mkdir()
    cells = {p.key: {"variant": p.cell["variant"], "lineup": p.cell["lineup"],
                     "swapped": p.cell["swapped"], "rows": 0, "left_out": 0}
             for p in solvable}
    pending: deque = deque()
    counts = {"solved": 0, "rows": 0}

    def tasks():
        for block in range(n_blocks):
            parts, problems = [], []
            for b, plan, f in files:
                if b != block:
                    continue
                frame = pl.read_parquet(f, columns=_columns(plan, pq.read_schema(f).names))
                rows = frame.filter(pl.Series(np.isin(_keys_of(frame), keys)))
                if not rows.height:
                    continue
                rows, hands, trump, leader, declarer, left_out = _problems(plan, rows, str(f))
                cells[plan.key]["left_out"] += left_out
                if rows.height:
                    parts.append((plan, rows, trump, leader, declarer))
                    problems.append(np.column_stack([_canonical(hands, plan.deck),
                                                     trump.astype(np.uint64),
                                                     leader.astype(np.uint64)]))
            if not parts:
                continue
            unique, inverse = np.unique(np.concatenate(problems), axis=0, return_inverse=True)
            state = _Block(block, parts, inverse.reshape(-1), [])
            chunks = range(0, len(unique), CHUNK)
            for i, start in enumerate(chunks):
                u = unique[start:start + CHUNK]
                pending.append((state, i == len(chunks) - 1))
                counts["solved"] += len(u)
                yield joblib.delayed(_solve_chunk)(u[:, :4], u[:, 4].astype(np.int8),
                                                   u[:, 5].astype(np.int8))

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(keys), unit="deal", desc="yardstick", delay=0.5)
    started = time.perf_counter()
    with local_workers():
        try:
            results = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(tasks())
            for result in results:
                state, last = pending.popleft()
                state.done.append(result)
                if not last:
                    continue
                leader_tricks = np.concatenate(state.done)[state.inverse]
                at = 0
                for plan, rows, trump, leader, declarer in state.parts:
                    n = rows.height
                    dd = _by_side(leader_tricks[at:at + n], leader)
                    at += n
                    meta = {"yardstick": settings, "cell": plan.key, "block": state.block}
                    name = f"part-{plan.key}-{state.block:05d}.parquet"
                    with writing(tmp / name):
                        _write(_output(plan, rows, trump, leader, declarer, dd), tmp / name, meta)
                    cells[plan.key]["rows"] += n
                    counts["rows"] += n
                if bar is not None:
                    bar.update(len(np.unique(np.concatenate(
                        [_keys_of(rows) for _, rows, *_ in state.parts]))))
        finally:
            if bar is not None:
                bar.close()
    seconds = time.perf_counter() - started
    variants = {}
    for p in plans:
        entry = variants.setdefault(p.cell["variant"], {
            "game": p.game, "solved": p.skip is None, "skip": p.skip,
            "approximations": list(p.approximations)})
        if p.game == "norwegian" and p.skip is None:
            entry["left_out"] = "nullo hands (played to lose tricks; DDS maximises them)"
    info = {**settings, "rows": counts["rows"], "solved": counts["solved"],
            "seconds": round(seconds, 3),
            "deals_per_second": round(counts["solved"] / seconds, 2) if seconds > 0 else None,
            "n_jobs": n_jobs, "variants": variants, "cells": list(cells.values()),
            "note": APPROXIMATION_NOTE if any(p.game == "spades" and p.skip is None
                                              for p in plans) else None}
    with writing(tmp / "manifest.json"):
        (tmp / "manifest.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
    out = path / "yardstick"
    old = path / f".yardstick.old{os.getpid()}"
    with writing(out):
        if out.exists():
            out.rename(old)
        tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return info


def format_yardstick(info: dict) -> str:
    """The command's summary of a yardstick manifest."""
    lines = [f"sample: {info['deals']:,} deals (seed {info['seed']}); {info['rows']:,} rows, "
             f"{info['solved']:,} double-dummy solves in {info['seconds']:.1f} s"
             + (f" ({info['deals_per_second']:.1f} deals/s)" if info["deals_per_second"]
                else "")]
    for variant, v in info["variants"].items():
        if v["skip"]:
            lines.append(f"skipped {variant}: {v['skip']}")
        elif v["approximations"]:
            lines.append(f"approximated {variant}: without " + "; ".join(v["approximations"]))
        if v.get("left_out"):
            left = sum(c["left_out"] for c in info["cells"] if c["variant"] == variant)
            lines.append(f"left out of {variant}: {left:,} {v['left_out']}")
    if info.get("note"):
        lines.append(info["note"])
    return "\n".join(lines)
