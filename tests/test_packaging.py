"""whistlab as a package (issue 18 §1): the wheel holds every subpackage and the shipped data, and
installed into a fresh virtual environment (not editable) it runs and reports from any folder.

The wheel test builds the wheel from this checkout (``pip wheel --no-deps``), installs it with its
declared dependencies into a new venv (pip's cache makes that quick after the project's own
install), and runs the installed ``whistlab`` from an empty folder elsewhere: the default
experiment must be found inside the installed package, not in this source tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

import sim
from sim.inputs import shipped, shipped_names

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_is_listed():
    """The wheel's package list names every folder of Python code: a new subpackage that is not
    listed would be missing from the wheel (sim.spades was, once)."""
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("sim", "strategies", "reports", "whistlab")
             for p in (ROOT / top).rglob("__init__.py")}
    assert found == {p for p in listed if not p.startswith("sim.data.")}
    data = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert data == {f"sim.data.{folder}": folder for folder in ("experiments", "tunes")}


def test_the_report_templates_are_package_data():
    """Every file of reports/kit/templates matches the package data the wheel takes (the
    installed report reads them: tests the wheel in test_the_installed_command_runs_and_reports)."""
    import fnmatch

    patterns = _pyproject()["tool"]["setuptools"]["package-data"]["reports.kit"]
    files = [p.relative_to(ROOT / "reports" / "kit").as_posix()
             for p in (ROOT / "reports" / "kit" / "templates").iterdir()]
    assert {"templates/page.html", "templates/page.md", "templates/report.css"} <= set(files)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_shipped_files_in_a_checkout():
    assert shipped("experiments") == ROOT / "experiments"
    assert "default" in shipped_names("experiments")
    assert set(shipped_names("tunes")) == {p.stem for p in (ROOT / "tunes").glob("*.toml")}


def _run(args, cwd, env, timeout=600):
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout)
    assert out.returncode == 0, (args, out.stdout[-2000:], out.stderr[-3000:])
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the wheel of this checkout installed (not editable)."""
    base = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
          str(base / "dist"), str(ROOT)], cwd=base, env=os.environ)
    wheel = next((base / "dist").glob("whistlab-*.whl"))
    venv.create(base / "venv", with_pip=True)
    python = base / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], cwd=base, env=env)
    away = base / "elsewhere"
    away.mkdir()
    return base / "venv" / "bin", away, env


@pytest.mark.slow
def test_the_installed_package_is_the_wheel(installed):
    bin_dir, away, env = installed
    out = _run([str(bin_dir / "python"), "-c", "import json, sim, sim.spades, sim.portland, "
                "sim.norwegian, strategies, reports, whistlab; from sim.inputs import shipped; "
                "print(json.dumps([sim.__file__, str(shipped('experiments')), sim.__version__]))"],
               cwd=away, env=env)
    where, experiments, version = json.loads(out.stdout)
    assert Path(where).is_relative_to(bin_dir.parent), where
    assert Path(experiments).is_relative_to(bin_dir.parent), experiments
    assert version == sim.__version__
    names = sorted(p.stem for p in Path(experiments).glob("*.toml"))
    assert names == shipped_names("experiments")
    version_line = _run([str(bin_dir / "whistlab"), "--version"], cwd=away, env=env).stdout
    assert version_line.strip() == f"whistlab {sim.__version__}"


@pytest.mark.slow
def test_the_installed_command_runs_and_reports(installed):
    """`whistlab run` (the shipped default experiment, made small) and `whistlab report` from a
    folder that holds nothing of whistlab's."""
    bin_dir, away, env = installed
    run = _run([str(bin_dir / "whistlab"), "run", "--games", "60", "--block-size", "30",
                "--n-jobs", "1", "--quiet"], cwd=away, env=env)
    assert "results: results/default" in run.stdout
    manifest = json.loads((away / "results" / "default" / "manifest.json").read_text())
    assert manifest["experiment"]["name"] == "default"
    assert manifest["experiment"]["count"] == 60
    _run([str(bin_dir / "whistlab"), "report", "results/default"], cwd=away, env=env)
    page = (away / "results" / "default" / "report" / "index.html").read_text()
    assert '<nav aria-label="Contents">' in page and "<style>" in page  # the wheel's templates
    tune = _run([str(bin_dir / "whistlab"), "run", "nil", "--games", "4", "--block-size", "4",
                 "--n-jobs", "1", "--quiet", "--out", "nil"], cwd=away, env=env)
    assert "results: nil" in tune.stdout
