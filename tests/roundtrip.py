"""Hand records round trip for the rules tests: ``whistlab run --records`` with a rules file, then
the records replayed in full and as score sheets (RULES.md §5)."""

from __future__ import annotations

import json
from pathlib import Path

from sim.replay import replay_records
from whistlab.cli import main
from written import read_whole

__all__ = ["Roundtrip", "roundtrip"]


class Roundtrip:
    """``records``: the written records; ``table``: the hands table in record order;
    ``full``: the records replayed; ``sheets``: the records as score sheets (the replayed tricks
    instead of hands and plays); ``points``: the table's points per side, per record."""

    def __init__(self, out: Path, records: Path):
        self.records = [json.loads(x) for x in records.read_text().splitlines()]
        self.table = read_whole(out / "hands").sort_values(["game_id", "hand_no"])
        sides = sorted((c for c in self.table.columns if c.startswith("points_")),
                       key=lambda c: int(c.split("_")[1]))
        self.points = self.table[sides].values.tolist()
        self.full = replay_records(list(enumerate(self.records, 1)))
        self.sheets = [{k: v for k, v in r.items() if k not in ("hands", "plays")}
                       | {"tricks": f["tricks"]}
                       for r, f in zip(self.records, self.full, strict=True)]

    def sheet_points(self) -> list:
        return [r["points"] for r in replay_records(list(enumerate(self.sheets, 1)))]

    def refused(self, tmp_path: Path, record: dict, capsys) -> str:
        """Replay one bad record through the command: it must exit 2; returns stderr."""
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(record) + "\n")
        assert main(["replay", str(path), "--out", str(tmp_path / "bad_out.jsonl")]) == 2
        return capsys.readouterr().err


def roundtrip(tmp_path: Path, rules_toml: str, strategy: str = "random", games: int = 4,
              block_size: int = 2) -> Roundtrip:
    rules = tmp_path / "rules.toml"
    rules.write_text(rules_toml)
    out, records = tmp_path / "run", tmp_path / "records.jsonl"
    assert main(["run", "--rules", str(rules), "--strategy", strategy, "--games", str(games),
                 "--block-size", str(block_size), "--out", str(out), "--records", str(records),
                 "--n-jobs", "1", "--quiet"]) == 0
    return Roundtrip(out, records)
