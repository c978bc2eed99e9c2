"""whistlab benchmark: engine speed, OpenSpiel peer, whole runs and memory, in one run.

A script, not a test: it prints the machine and one Markdown table, and never asserts a timing.
From the repository root, after ``pip install -e '.[test]'`` (OpenSpiel is a test extra)::

    python bench/bench.py --quick          # a smoke run of every part (well under a minute)
    python bench/bench.py --full           # everything (2-3 minutes on the 2-core machine)
    python bench/bench.py --full --parts engine,openspiel   # only some parts
    python bench/bench.py --full --json /tmp/bench.json     # also keep the raw numbers

Parts (``--parts``, comma separated; default all):

``engine``
    `sim.spades.game.play_block` alone, in one process, for the strategies ``random`` and ``seed``
    at block sizes 10,000 / 50,000 / 100,000 hands (``--quick``: 10,000 only). Each configuration
    runs in a fresh subprocess: one warm-up block, then several timed blocks (different block
    indices, so different deals); best and median hands/s are reported. Memory of a configuration:
    ``ru_maxrss`` of that subprocess (``resource.getrusage(RUSAGE_SELF)``, peak resident set,
    interpreter and imports included; the RSS right after the imports is given as the baseline),
    and the ``tracemalloc`` peak of one extra, untimed block (numpy registers its buffers with
    tracemalloc, so this is the peak of Python + numpy allocations during one block).
``openspiel``
    OpenSpiel's C++ Spades (``pyspiel.load_game("spades")``, default parameters) with four
    ``pyspiel.make_uniform_random_bot`` players through ``pyspiel.evaluate_bots``, in a fresh
    subprocess. One OpenSpiel game is exactly one hand (52 chance deals, 4 bids, 52 plays; see
    tests/fixtures/make_openspiel_fixture.py); the warm-up games check it (terminal state, 108
    actions, 4 bids, returns = the hand's score). Several rounds are timed; best and median
    hands/s are reported, and the median is the peer rate that the ratios use.
``run``
    The whole pipeline, ``whistlab run EXP.toml --out DIR --n-jobs 1 --quiet`` as a subprocess,
    for ``random`` and ``seed``: 1,000,000 independent hands (``--quick``: 200,000) with
    ``block_size = 50,000``, Parquet written, summary printed. Wall time covers the whole command
    (interpreter start, imports, simulation, Parquet, the summary's scan of the Parquet).
``report``
    ``whistlab run`` of 1,000,000 and 10,000,000 ``seed`` hands on both cores (``--quick``:
    200,000 and 1,000,000), then ``whistlab report`` on the folder, its process tree sampled:
    wall time and peak RSS of building the report (lazy polars queries), and the Parquet bytes
    per hand on disk.
``memory``
    ``whistlab run`` with ``--n-jobs 2`` (both cores) for 1,000,000 and 10,000,000 hands
    (``--quick``: 200,000 and 1,000,000), strategy ``random`` (``--mem-strategies`` for more), with
    the process tree's memory sampled every 0.1 s: the sum of the RSS of the ``whistlab`` process
    and all its descendants (joblib/loky workers), and the same sum of PSS (shared pages split
    between processes, so libraries are not counted twice). The peak is given for the
    simulation phase (until the last block's Parquet file exists) and for the whole command
    (which ends with the summary: a polars scan of every hand). The ``run`` part's trees are
    sampled the same way.

Process-tree memory is read with psutil when it is installed (``pip install psutil``; it is used
by this script only and is not a project dependency), else from /proc directly.

Every result folder is written under a temporary directory (``--tmp``, default the system's temp
directory) and deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEED = 20261130
ENGINE_SIZES = (10_000, 50_000, 100_000)
ENGINE_REPS = {10_000: 12, 50_000: 6, 100_000: 5}  # timed blocks per configuration
STRATEGIES = ("random", "seed")
RUN_BLOCK = 50_000
OPENSPIEL_WARMUP = 200
TARGETS = {"engine": {"random": 250_000, "seed": 100_000}, "ratio": {"random": 8.0, "seed": 4.0}}


# --- machine ----------------------------------------------------------------------------------


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def machine() -> dict:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy

    info = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": numpy.__version__, "platform": platform.platform()}
    try:
        info["memory_gib"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
                                   / 2**30, 1)
    except (ValueError, OSError):
        pass
    try:
        info["open_spiel"] = version("open-spiel")
    except PackageNotFoundError:
        info["open_spiel"] = None
    return info


# --- workers (run in fresh subprocesses) --------------------------------------------------------


def _rss_now_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def engine_worker(strategy: str, size: int, reps: int, preset: str = "spades.standard") -> dict:
    import tracemalloc

    import sim  # noqa: F401
    import sim.games
    import sim.lineup
    import sim.options
    import strategies

    rules = sim.options.load_rules(preset)
    play_block = sim.games.game_of(rules).play_block
    players = getattr(rules, "players", 4)
    lineup = sim.lineup.Lineup([strategies.make_strategy(strategy, game=rules.game)] * players)
    baseline = _rss_now_mib()
    play_block(rules, lineup, SEED, 0, size, "hands")  # warm-up
    times = []
    for block in range(1, reps + 1):
        t0 = time.perf_counter()
        play_block(rules, lineup, SEED, block, size, "hands")
        times.append(time.perf_counter() - t0)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    tracemalloc.start()
    play_block(rules, lineup, SEED, reps + 1, size, "hands")
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"strategy": strategy, "preset": preset, "size": size, "times": times,
            "baseline_rss_mib": baseline,
            "maxrss_mib": maxrss, "tracemalloc_peak_mib": traced_peak / 2**20}


def openspiel_worker(games: int, rounds: int) -> dict:
    import pyspiel

    game = pyspiel.load_game("spades")
    bots = [pyspiel.make_uniform_random_bot(p, SEED + p) for p in range(4)]
    checked = 0
    for i in range(OPENSPIEL_WARMUP):  # warm-up, and check that one game is one hand
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, SEED + i)
        history = state.history()
        bids = [a for a in history[52:56] if 52 <= a <= 65]
        if not state.is_terminal() or len(history) != 108 or len(bids) != 4:
            raise RuntimeError(f"an OpenSpiel game is not one hand: {len(history)} actions")
        if [returns[0], returns[1]] != [float(x) for x in state.get_current_scores()]:
            raise RuntimeError("OpenSpiel returns differ from the hand's score")
        checked += 1
    per_round = games // rounds
    times = []
    n = OPENSPIEL_WARMUP
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(per_round):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, SEED + n)
            n += 1
        times.append(time.perf_counter() - t0)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"games_per_round": per_round, "times": times, "checked": checked,
            "maxrss_mib": maxrss}


def _run_worker(kind: str, args: list[str]) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", kind, *args]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- process-tree memory ----------------------------------------------------------------------


def _tree_pids(root: int) -> list[int]:
    """root and all its descendants, from /proc (used when psutil is missing)."""
    parent = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, frontier = [root], [root]
    while frontier:
        frontier = [p for p, pp in parent.items() if pp in frontier]
        tree += frontier
    return tree


def _proc_mem(pid: int) -> tuple[int, int]:
    """(rss, pss) in bytes from /proc."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) * 1024
    return rss, pss


class TreeSampler(threading.Thread):
    """Samples the summed RSS and PSS of a process and its descendants until stopped."""

    def __init__(self, pid: int, interval: float = 0.1, done_marker=None):
        super().__init__(daemon=True)
        self.pid, self.interval, self.done_marker = pid, interval, done_marker
        self.samples: list[tuple[float, int, int, int, bool]] = []  # t, rss, pss, n procs, done
        self._stop_event = threading.Event()
        try:
            import psutil

            self.psutil = psutil
            self.root = psutil.Process(pid)
        except ImportError:
            self.psutil = None

    def _measure(self) -> tuple[int, int, int]:
        rss = pss = n = 0
        if self.psutil is not None:
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except self.psutil.Error:
                return 0, 0, 0
            for p in procs:
                try:
                    m = p.memory_full_info()
                except self.psutil.Error:
                    continue
                rss += m.rss
                pss += getattr(m, "pss", m.rss)
                n += 1
            return rss, pss, n
        for pid in _tree_pids(self.pid):
            try:
                r, p = _proc_mem(pid)
            except OSError:
                continue
            rss, pss, n = rss + r, pss + p, n + 1
        return rss, pss, n

    def run(self):
        t0 = time.perf_counter()
        while not self._stop_event.is_set():
            rss, pss, n = self._measure()
            done = bool(self.done_marker and self.done_marker())
            if n:
                self.samples.append((time.perf_counter() - t0, rss, pss, n, done))
            self._stop_event.wait(self.interval)

    def stop(self):
        self._stop_event.set()
        self.join()


def whistlab_run(strategy: str, hands: int, n_jobs: int, block_size: int, tmp: Path) -> dict:
    """One ``whistlab run`` as a subprocess, its process tree sampled; the folder is deleted."""
    work = Path(tempfile.mkdtemp(prefix="whistlab-bench-", dir=tmp))
    try:
        name = f"bench-{strategy}-{hands}"
        exp = work / "exp.toml"
        exp.write_text(f'name = "{name}"\nrules = "spades.standard"\nstrategy = "{strategy}"\n'
                       f"hands = {hands}\nseed = {SEED}\nblock_size = {block_size}\n")
        out = work / "out"
        n_blocks = -(-hands // block_size)
        exe = shutil.which("whistlab")
        cmd = ([exe] if exe else [sys.executable, "-m", "whistlab.cli"]) + [
            "run", str(exp), "--out", str(out), "--n-jobs", str(n_jobs), "--quiet"]
        hands_dir = out / "hands"

        def all_blocks_written() -> bool:
            try:
                return sum(1 for f in os.scandir(hands_dir)
                           if f.name.endswith(".parquet")) >= n_blocks
            except OSError:
                return False

        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        sampler = TreeSampler(proc.pid, done_marker=all_blocks_written)
        sampler.start()
        stdout, stderr = proc.communicate()
        wall = time.perf_counter() - t0
        sampler.stop()
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{stderr}")
        written = sum(1 for _ in hands_dir.glob("*.parquet"))
        if written != n_blocks:
            raise RuntimeError(f"expected {n_blocks} block files, found {written}")
        parquet_mib = sum(f.stat().st_size for f in hands_dir.glob("*.parquet")) / 2**20
        sim_samples = [s for s in sampler.samples if not s[4]]
        sim_end = next((s[0] for s in sampler.samples if s[4]), wall)
        last_quarter = [s for s in sim_samples if s[0] >= 0.75 * sim_end]
        mib = 2**20

        def peak(samples, i):
            return max((s[i] for s in samples), default=0) / mib

        return {
            "strategy": strategy, "hands": hands, "n_jobs": n_jobs, "block_size": block_size,
            "wall_s": wall, "sim_phase_s": sim_end, "parquet_mib": parquet_mib,
            "samples": len(sampler.samples),
            "max_procs": max((s[3] for s in sampler.samples), default=0),
            "peak_rss_mib": peak(sampler.samples, 1), "peak_pss_mib": peak(sampler.samples, 2),
            "sim_peak_rss_mib": peak(sim_samples, 1), "sim_peak_pss_mib": peak(sim_samples, 2),
            "sim_last_quarter_peak_rss_mib": peak(last_quarter, 1),
            "summary": stdout.strip().splitlines()[1] if stdout.count("\n") > 1 else "",
            "memory_reader": "psutil" if sampler.psutil else "/proc",
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report_run(strategy: str, hands: int, block_size: int, tmp: Path) -> dict:
    """``whistlab run`` of ``hands`` hands on both cores, then ``whistlab report`` on its folder
    with the report's process tree sampled; bytes per hand on disk; the folder is deleted."""
    work = Path(tempfile.mkdtemp(prefix="whistlab-bench-", dir=tmp))
    try:
        exp = work / "exp.toml"
        exp.write_text(f'name = "report-{hands}"\nrules = "spades.standard"\n'
                       f'strategy = "{strategy}"\nhands = {hands}\nseed = {SEED}\n'
                       f"block_size = {block_size}\n")
        out = work / "out"
        exe = shutil.which("whistlab")
        base = [exe] if exe else [sys.executable, "-m", "whistlab.cli"]
        subprocess.run(base + ["run", str(exp), "--out", str(out), "--n-jobs", "2", "--quiet"],
                       check=True, capture_output=True, text=True)
        disk = sum(f.stat().st_size for f in out.rglob("*.parquet"))
        t0 = time.perf_counter()
        proc = subprocess.Popen(base + ["report", str(out)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        sampler = TreeSampler(proc.pid)
        sampler.start()
        _, stderr = proc.communicate()
        wall = time.perf_counter() - t0
        sampler.stop()
        if proc.returncode != 0:
            raise RuntimeError(f"whistlab report failed ({proc.returncode}):\n{stderr}")
        return {"strategy": strategy, "hands": hands, "wall_s": wall,
                "peak_rss_mib": max((s[1] for s in sampler.samples), default=0) / 2**20,
                "bytes_per_hand": disk / hands}
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- parts --------------------------------------------------------------------------------------


def rates(times: list[float], per: int) -> tuple[float, float]:
    return per / min(times), per / statistics.median(times)


def part_engine(quick: bool, log) -> list[dict]:
    sizes = (10_000,) if quick else ENGINE_SIZES
    out = []
    for strategy in STRATEGIES:
        for size in sizes:
            reps = 3 if quick else ENGINE_REPS[size]
            log(f"engine {strategy} block {size:,} x {reps} ...")
            r = _run_worker("engine", [strategy, str(size), str(reps)])
            r["best"], r["median"] = rates(r["times"], size)
            out.append(r)
    # Portland whist (RULES.md §1) and Norwegian whist (§2: 2 and 3 players, the classic four)
    for preset in ("portland", "norwegian", "norwegian.three", "norwegian.classic"):
        for strategy in STRATEGIES:
            size = 10_000 if quick else 50_000
            reps = 3 if quick else ENGINE_REPS[size]
            log(f"engine {preset} {strategy} block {size:,} x {reps} ...")
            r = _run_worker("engine", [strategy, str(size), str(reps), preset])
            r["best"], r["median"] = rates(r["times"], size)
            out.append(r)
    return out


def part_openspiel(quick: bool, log) -> dict:
    games, rounds = (2_000, 4) if quick else (20_000, 5)
    log(f"openspiel {games:,} games in {rounds} rounds ...")
    r = _run_worker("openspiel", [str(games), str(rounds)])
    r["best"], r["median"] = rates(r["times"], r["games_per_round"])
    r["games"] = r["games_per_round"] * rounds
    return r


def part_run(quick: bool, repeats: int, tmp: Path, log) -> list[dict]:
    hands = 200_000 if quick else 1_000_000
    out = []
    log("whistlab run random 1,000 hands --n-jobs 1 (fixed cost: start, imports, summary) ...")
    fixed = whistlab_run("random", 1_000, 1, RUN_BLOCK, tmp)
    fixed["fixed_cost"] = True
    fixed["walls"] = [fixed["wall_s"]]
    out.append(fixed)
    for strategy in STRATEGIES:
        runs = []
        for i in range(repeats):
            log(f"whistlab run {strategy} {hands:,} hands --n-jobs 1 ({i + 1}/{repeats}) ...")
            runs.append(whistlab_run(strategy, hands, 1, RUN_BLOCK, tmp))
        r = dict(runs[statistics.median_low(range(repeats))])  # a representative run
        r["walls"] = [x["wall_s"] for x in runs]
        r["sim_phases"] = [x["sim_phase_s"] for x in runs]
        for key in ("peak_rss_mib", "peak_pss_mib", "sim_peak_rss_mib", "sim_peak_pss_mib"):
            r[key] = max(x[key] for x in runs)
        out.append(r)
    return out


def part_memory(quick: bool, tmp: Path, strategies: list[str], log) -> list[dict]:
    counts = (200_000, 1_000_000) if quick else (1_000_000, 10_000_000)
    out = []
    for strategy in strategies:
        for hands in counts:
            log(f"whistlab run {strategy} {hands:,} hands --n-jobs 2 ...")
            out.append(whistlab_run(strategy, hands, 2, RUN_BLOCK, tmp))
    return out


def part_report(quick: bool, tmp: Path, log) -> list[dict]:
    counts = (200_000, 1_000_000) if quick else (1_000_000, 10_000_000)
    out = []
    for hands in counts:
        log(f"whistlab run seed {hands:,} hands --n-jobs 2, then whistlab report ...")
        out.append(report_run("seed", hands, RUN_BLOCK, tmp))
    return out


# --- report ---------------------------------------------------------------------------------


def _f(x: float, nd: int = 0) -> str:
    return f"{x:,.{nd}f}"


def report(res: dict) -> str:
    m = res["machine"]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, {m.get('memory_gib', '?')} GiB; "
             f"Python {m['python']}, numpy {m['numpy']}, open-spiel {m['open_spiel']}; "
             f"{m['platform']}",
             f"Mode: {res['mode']}; parts: {', '.join(res['parts'])}; "
             f"memory reader: {res.get('memory_reader', '-')}; load average (1/5/15 min) "
             f"at start {res['load_start']}, at end {res['load_end']}", ""]
    peer = res.get("openspiel", {}).get("median")

    def ratio(rate):
        return f"{rate / peer:.2f}x" if peer else "-"

    head = ["part", "configuration", "hands timed", "time (s)", "hands/s best",
            "hands/s median", "vs OpenSpiel", "peak memory (MiB)", "notes"]
    rows = []
    for r in res.get("engine", []):
        game = "" if r.get("preset", "spades.standard") == "spades.standard" else r["preset"] + " "
        rows.append(["engine, 1 process", f"{game}{r['strategy']}, block {r['size']:,}",
                     f"{len(r['times'])} x {r['size']:,}", _f(sum(r["times"]), 2),
                     _f(r["best"]), _f(r["median"]), ratio(r["median"]),
                     f"maxrss {_f(r['maxrss_mib'])} (base {_f(r['baseline_rss_mib'])}); "
                     f"tracemalloc {_f(r['tracemalloc_peak_mib'])}",
                     f"target {_f(TARGETS['engine'][r['strategy']])}" if not game
                     else "target: at least Spades' rate with the same strategy kind"])
    if "openspiel" in res:
        r = res["openspiel"]
        rows.append(["OpenSpiel C++", "uniform random bots, evaluate_bots",
                     f"{len(r['times'])} x {r['games_per_round']:,}", _f(sum(r["times"]), 2),
                     _f(r["best"]), _f(r["median"]), "1.00x", f"maxrss {_f(r['maxrss_mib'])}",
                     f"1 game = 1 hand (checked on {r['checked']} games); median = peer rate"])
    for r in res.get("run", []):
        walls = r["walls"]
        best, median = r["hands"] / min(walls), r["hands"] / statistics.median(walls)
        if r.get("fixed_cost"):
            rows.append(["whistlab run, --n-jobs 1", f"{r['strategy']}, 1 block (fixed cost)",
                         _f(r["hands"]), _f(r["wall_s"], 2), "-", "-", "-",
                         f"tree RSS {_f(r['peak_rss_mib'])}, PSS {_f(r['peak_pss_mib'])}",
                         "start-up, imports, one tiny block and the summary"])
            continue
        target = TARGETS["ratio"][r["strategy"]]
        times = ", ".join(_f(w, 1) for w in walls)
        rows.append(["whistlab run, --n-jobs 1", f"{r['strategy']}, block {r['block_size']:,}",
                     f"{len(walls)} x {_f(r['hands'])}", times, _f(best), _f(median),
                     ratio(median),
                     f"tree RSS {_f(r['peak_rss_mib'])}, PSS {_f(r['peak_pss_mib'])}",
                     f"target {target:.0f}x; simulation phase (s) "
                     f"{', '.join(_f(t, 1) for t in r['sim_phases'])}; "
                     f"Parquet {_f(r['parquet_mib'])} MiB"])
    for r in res.get("memory", []):
        rate = r["hands"] / r["wall_s"]
        rows.append(["whistlab run, --n-jobs 2", f"{r['strategy']}, block {r['block_size']:,}",
                     _f(r["hands"]), _f(r["wall_s"], 1), _f(rate), "-", ratio(rate),
                     f"simulation: tree RSS {_f(r['sim_peak_rss_mib'])}, "
                     f"PSS {_f(r['sim_peak_pss_mib'])}; whole command: RSS "
                     f"{_f(r['peak_rss_mib'])}, PSS {_f(r['peak_pss_mib'])}",
                     f"last quarter of simulation: RSS {_f(r['sim_last_quarter_peak_rss_mib'])};"
                     f" {r['max_procs']} processes; simulation phase {_f(r['sim_phase_s'], 1)} s"])
    for r in res.get("report", []):
        rows.append(["whistlab report", f"{r['strategy']} run of {_f(r['hands'])} hands",
                     _f(r["hands"]), _f(r["wall_s"], 1), _f(r["hands"] / r["wall_s"]), "-", "-",
                     f"tree RSS {_f(r['peak_rss_mib'])}",
                     f"Parquet on disk: {_f(r['bytes_per_hand'], 1)} bytes per hand"])
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join(" --- " for _ in head) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="smoke run, under a minute")
    size.add_argument("--full", action="store_true", help="everything at full size (default)")
    parser.add_argument("--parts", default="engine,openspiel,run,memory,report",
                        help="comma-separated subset of engine,openspiel,run,memory,report")
    parser.add_argument("--mem-strategies", default="random",
                        help="strategies for the memory part (default: random)")
    parser.add_argument("--run-repeats", type=int,
                        help="whole runs per strategy in the run part (default: 3; --quick: 1)")
    parser.add_argument("--tmp", default=tempfile.gettempdir(),
                        help="where result folders are written (and deleted)")
    parser.add_argument("--json", help="also write the raw results to this file")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        kind, *rest = args.worker
        if kind == "engine":
            result = engine_worker(rest[0], int(rest[1]), int(rest[2]), *rest[3:])
        else:
            result = openspiel_worker(int(rest[0]), int(rest[1]))
        print(json.dumps(result))
        return 0

    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - {"engine", "openspiel", "run", "memory", "report"}
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    quick = args.quick
    tmp = Path(args.tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - started:7.1f} s] (load {loadavg()}) {msg}",
              file=sys.stderr, flush=True)

    res: dict = {"machine": machine(), "mode": "quick" if quick else "full", "parts": parts}
    res["load_start"] = loadavg()
    log(f"machine: {res['machine']}; load average {res['load_start']}")
    if "engine" in parts:
        res["engine"] = part_engine(quick, log)
    if "openspiel" in parts:
        res["openspiel"] = part_openspiel(quick, log)
    if "run" in parts:
        repeats = args.run_repeats or (1 if quick else 3)
        res["run"] = part_run(quick, repeats, tmp, log)
    if "memory" in parts:
        strategies = [s.strip() for s in args.mem_strategies.split(",") if s.strip()]
        res["memory"] = part_memory(quick, tmp, strategies, log)
    if "report" in parts:
        res["report"] = part_report(quick, tmp, log)
    runs = res.get("run", []) + res.get("memory", [])
    if runs:
        res["memory_reader"] = runs[0]["memory_reader"]
    res["load_end"] = loadavg()
    log(f"done; load average {res['load_end']}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    print(report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
