"""The ``whistlab`` command: run experiments, replay hand records, list presets.

Every user error (bad file, key, value, record or play) ends as one line on standard error and exit
code 2, with nothing written: inputs are validated before any output is opened. So does a write
that fails (a read-only folder, a full disk: `sim.files.WriteError` names the file and the
system's error), with its temporary file removed; and any other file error, as a last resort.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import warnings
from pathlib import Path

from sim import __version__
from sim.errors import UserError, known_names
from sim.files import atomic_write, os_reason
from sim.folder import check_outside
from sim.inputs import shipped_names
from sim.limits import MAX_BLOCK, MAX_COUNT

__all__ = ["main"]

DESCRIPTION = """\
whistlab: a Monte Carlo simulator for whist-family card games (Spades and its house rules,
Portland whist, Norwegian whist). It plays millions of hands under the rules and strategies an
experiment names, writes Parquet tables, and reports on them."""

EPILOG = """\
start with:
  whistlab run                          the default experiment (standard Spades), its summary
  whistlab report results/default       its report: results/default/report/index.html
  whistlab presets                      the rules presets; whistlab presets spades.standard
  whistlab play                         play a game of Spades yourself (--rules: any preset)
  whistlab COMMAND --help               a command's options"""


def _integer(minimum: int, maximum: int | None = None):
    """An argparse type: an integer of at least ``minimum`` (and at most ``maximum``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at most {maximum}")
        return value

    return parse


def _n_jobs(text: str) -> int:
    value = _integer(-(10**6))(text)
    if value == 0:
        raise argparse.ArgumentTypeError("'0' is not a number of processes (1, 2, ... or -1 = all)")
    return value


def _check_output(path: str | Path | None, option: str, folder: bool = False) -> None:
    """Refuse, before any work, an output file that is a folder, an output folder that is a
    file, or a path under a file."""
    if path is None:
        return
    p = Path(path)
    if p.exists() and p.is_dir() != folder:
        kind = "a folder; give a file name" if p.is_dir() else "a file; give a folder"
        raise UserError(f"{path} is {kind}", source=option)
    if any(parent.exists() and not parent.is_dir() for parent in p.parents):
        raise UserError(f"cannot write {path}: a part of its path is a file", source=option)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: same one-line form, exit code 2
        raise UserError(message)


def build_parser() -> argparse.ArgumentParser:
    from strategies.base import games_of_strategies

    parser = _Parser(prog="whistlab", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"whistlab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="simulate an experiment into Parquet tables")
    run.add_argument("experiment", nargs="?", help="an experiment file (TOML), or the name of one "
                     f"shipped with whistlab: {', '.join(shipped_names('experiments'))} "
                     "(default: default)")
    run.add_argument("--rules", help="a preset (whistlab presets lists them) or a rules file "
                     "(TOML)")
    plays = games_of_strategies()
    every = max(map(len, plays.values()))
    run.add_argument("--strategy", help="the strategy at every seat: " + ", ".join(
        name if len(games) == every else f"{name} ({', '.join(games)} only)"
        for name, games in plays.items()) + " (each game has its own); or a strategy file "
        "(TOML), such as the tuned.toml of whistlab tune")
    count = run.add_mutually_exclusive_group()
    count.add_argument("--hands", type=_integer(1, MAX_COUNT), help="independent hands to "
                       "simulate")
    count.add_argument("--games", type=_integer(1, MAX_COUNT), help="whole games to simulate")
    run.add_argument("--seed", type=_integer(0), help="root seed")
    run.add_argument("--block-size", type=_integer(1, MAX_BLOCK),
                     help="games or hands per block")
    run.add_argument("--n-jobs", type=_n_jobs, default=-1,
                     help="processes; -1 = all cores (default), -2 = all but one ...")
    run.add_argument("--backend", choices=("loky", "dask"), default="loky",
                     help="local processes (default) or a Dask cluster")
    run.add_argument("--scheduler", help="with --backend dask: the scheduler's address "
                     "(tcp://host:8786); default: a local cluster of --n-jobs workers")
    run.add_argument("--out", help="results folder (default: results/<experiment name>)")
    run.add_argument("--force", action="store_true", help="run afresh: first delete what earlier "
                     "runs wrote in the results folder (tables, records, report)")
    run.add_argument("--records", help="also write hand records (JSON Lines) to this file")
    run.add_argument("--quiet", action="store_true", help="no progress bar")

    replay = sub.add_parser("replay", help="replay and score hand records (JSON Lines)")
    replay.add_argument("records", help="records file")
    replay.add_argument("--rules", help="score under these rules instead of the records' own")
    replay.add_argument("--out", help="write the output records here instead of standard output")

    report = sub.add_parser("report", help="build the report of a results folder")
    report.add_argument("results", help="a results folder written by whistlab run")
    report.add_argument("--out", help="report folder (default: RESULTS/report)")

    yardstick = sub.add_parser("yardstick", help="double-dummy tricks of a sample of a run's "
                               "hands (needs the extra: pip install 'whistlab[dds]')")
    yardstick.add_argument("results", help="a results folder written by whistlab run")
    yardstick.add_argument("--sample", type=_integer(1, MAX_COUNT), default=1000,
                           help="deals to solve in every cell (default 1000)")
    yardstick.add_argument("--seed", type=_integer(0), default=1,
                           help="seed of the sample (default 1)")
    yardstick.add_argument("--n-jobs", type=_n_jobs, default=-1,
                           help="processes; -1 = all cores (default), -2 = all but one ...")
    yardstick.add_argument("--quiet", action="store_true", help="no progress bar")

    tune = sub.add_parser("tune", help="search a strategy's parameters against a fixed line-up "
                          "on duplicate deals")
    tune.add_argument("file", help="a tune file (TOML), or the name of one shipped with "
                      f"whistlab: {', '.join(shipped_names('tunes'))}")
    tune.add_argument("--out", help="output folder (default: results/tune_<name>)")
    tune.add_argument("--n-jobs", type=_n_jobs, default=-1,
                      help="processes; -1 = all cores (default), -2 = all but one ...")
    tune.add_argument("--quiet", action="store_true", help="no progress lines")

    _play_parser(sub, plays)

    presets = sub.add_parser("presets", help="list rules presets, or show one preset's keys")
    presets.add_argument("name", nargs="?")
    return parser


PLAY_EPILOG = """\
examples:
  whistlab play                                   standard Spades, seat 0 (North), one game
  whistlab play --rules portland --seat 2 --partners expert --opponents random --hands 3
  whistlab play --rules norwegian --seed 7 --out mine.jsonl && whistlab replay mine.jsonl

Every decision the rules ask of your seat (bids, blind nil, passes, the kitty, declarations,
cards ...) is asked with the answers allowed in parentheses; a wrong answer is asked again. Cards
are written like AS, TH, 2C (10H for TH too). ? lists the answers, quit (or the end of input,
Ctrl-D) stops, keeping the hands finished. Moves can be piped in: the same --seed and answers
play the same game."""


def _play_parser(sub, plays: dict) -> None:
    play = sub.add_parser("play", help="play one seat yourself, in the terminal, against "
                          "strategies", description="Play one seat of any game's rules in the "
                          "terminal against whistlab's strategies.", epilog=PLAY_EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--rules", help="a preset (whistlab presets lists them) or a rules file "
                      "(TOML); default spades.standard")
    play.add_argument("--seat", type=_integer(0), default=0, help="your seat, 0..players-1 "
                      "(0 = North at four players; default 0)")
    strategy = (" (default: the game's seed): " + ", ".join(plays) + ", a strategy file "
                "(TOML, such as whistlab tune's tuned.toml) or an inline table such as "
                "'{name = \"seed\", nil_max_estimate = 0.5}'")
    play.add_argument("--partners", help="the strategy of your partners" + strategy)
    play.add_argument("--opponents", help="the strategy of the other players" + strategy)
    play.add_argument("--seed", type=_integer(0), help="the seed of the deals and of the "
                      "strategies' random choices (default: a new one, printed)")
    count = play.add_mutually_exclusive_group()
    count.add_argument("--hands", type=_integer(1, MAX_PLAYED), help="independent hands to play, "
                       "each from 0-0")
    count.add_argument("--games", type=_integer(1, MAX_PLAYED), help="whole games to play "
                       "(default 1)")
    play.add_argument("--out", help="write the hands played as hand records (JSON Lines) to "
                      "this file, rewritten after every hand; whistlab replay reads it")


MAX_PLAYED = 1000  # games or hands of one session of whistlab play


def _import_summary() -> None:
    """The summary's modules, and scipy.special for its intervals (`reports.stats` imports it
    on first use), imported while the workers play."""
    import scipy.special  # noqa: F401

    import reports.summary  # noqa: F401


def cmd_run(args) -> int:
    from .experiment import load_experiment
    from .runner import run_experiment

    overrides = {k: v for k, v in dict(rules=args.rules, strategy=args.strategy, hands=args.hands,
                                       games=args.games, seed=args.seed,
                                       block_size=args.block_size).items() if v is not None}
    exp = load_experiment(args.experiment, overrides)
    out = Path(args.out) if args.out else Path("results") / exp.name
    _check_output(out, "--out", folder=True)
    _check_output(args.records, "--records")
    check_outside(args.records, out, "--records")
    if args.scheduler and args.backend != "dask":
        raise UserError("--scheduler goes with --backend dask")
    run_experiment(exp, out, n_jobs=args.n_jobs, progress=not args.quiet,
                   records=args.records or False, backend=args.backend,
                   scheduler=args.scheduler, afresh=args.force,
                   notice=lambda text: print(f"whistlab: note: {text}", file=sys.stderr),
                   meanwhile=_import_summary)  # while the workers play: their cores, not ours
    from reports.summary import format_summary, summarize

    print(f"results: {out}")
    print(format_summary(summarize(out)))
    return 0


def cmd_replay(args) -> int:
    from sim.replay import replay_file

    _check_output(args.out, "--out")
    results = replay_file(args.records, args.rules)  # all checked before anything is written
    lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in results)
    if args.out:
        atomic_write(lines.encode("utf-8"), args.out)
    else:
        sys.stdout.write(lines)
    return 0


def cmd_report(args) -> int:
    from reports import build_report

    out = Path(args.out) if args.out else Path(args.results) / "report"
    _check_output(out, "--out", folder=True)
    check_outside(out, args.results, "--out")
    with _warnings_on_stderr():
        index = build_report(args.results, out)
    print(f"report: {index}")
    return 0


@contextlib.contextmanager
def _warnings_on_stderr():
    """A results folder's warnings (`sim.folder.FolderWarning`: mixed code, no checksums), one
    line each on standard error."""
    from sim.folder import FolderWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FolderWarning)
        yield
    for w in caught:
        if issubclass(w.category, FolderWarning):
            print(f"whistlab: warning: {w.message}", file=sys.stderr)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def cmd_yardstick(args) -> int:
    from .yardstick import compute_yardstick, format_yardstick

    with _warnings_on_stderr():
        info = compute_yardstick(args.results, sample=args.sample, seed=args.seed,
                                 n_jobs=args.n_jobs, progress=not args.quiet)
    print(f"yardstick: {Path(args.results) / 'yardstick'}")
    print(format_yardstick(info))
    return 0


def cmd_tune(args) -> int:
    from .tune import OBJECTIVES, describe, load_tune, run_tune

    spec = load_tune(args.file)
    out = Path(args.out or Path("results") / f"tune_{spec.name}")
    _check_output(out, "--out", folder=True)
    summary = run_tune(spec, out, n_jobs=args.n_jobs,
                       progress=(lambda message: None) if args.quiet else print)
    hold = summary["holdout"]
    print(f"tuned: {out / 'tuned.toml'}  " + "  ".join(
        f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}"
        for k, v in summary["tuned"].items() if k != "name"))
    for label, key in (("tuned against the opponents", "tuned"),
                       ("untuned against the opponents", "untuned"),
                       ("gain (tuned - untuned, paired)", "gain"),
                       ("tuned against untuned", "tuned_against_untuned")):
        x, objective = hold[key], summary["search"]["objective"]
        print(f"{label:32s} {describe(x, objective, difference=key == 'gain')} "
              f"({x['n']:,} {OBJECTIVES[objective][3]})")
    return 0


def cmd_play(args) -> int:
    from .play import play_session

    _check_output(args.out, "--out")
    mode = "hands" if args.hands else "games"
    return play_session(args.rules, args.seat, args.partners, args.opponents, args.seed, mode,
                        args.hands or args.games or 1, args.out)


def cmd_presets(args) -> int:
    from sim.options import PRESETS, rules_to_dict, unknown_preset

    if args.name is None:
        print("\n".join(PRESETS))
        return 0
    if args.name not in PRESETS:
        raise unknown_preset(args.name)
    for key, value in rules_to_dict(PRESETS[args.name]).items():
        print(f"{key} = {json.dumps(value)}")
    return 0


COMMANDS = {"run": "cmd_run", "report": "cmd_report", "replay": "cmd_replay",
            "presets": "cmd_presets", "tune": "cmd_tune", "yardstick": "cmd_yardstick",
            "play": "cmd_play"}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    try:
        parser = build_parser()
        if not argv:  # a bare `whistlab`: what it can do
            parser.print_help()
            return 0
        if not argv[0].startswith("-") and argv[0] not in COMMANDS:
            raise UserError(f"unknown command '{argv[0]}'"
                            + known_names(argv[0], COMMANDS, "commands", ""))
        args = parser.parse_args(argv)
        return globals()[COMMANDS[args.command]](args)
    except UserError as err:
        print(f"whistlab: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("whistlab: interrupted; finished blocks are kept, run again to resume",
              file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `whistlab replay f | head`: the reader left, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit flush
        return 0
    except OSError as err:  # a file error no command turned into a WriteError: still one line
        where = f"{err.filename}: " if err.filename else ""
        print(f"whistlab: error: {where}{os_reason(err)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
