"""scripts/setup.sh's install step: pip installs without byte-compiling and one parallel compileall
writes the bytecode afterwards (pip compiles one file at a time: about 40% of the install's CPU time,
24.5 of 59.1 CPU-s measured on the 2-core host).  Without the compileall line the venv would have no
.pyc files and, under PYTHONDONTWRITEBYTECODE=1, every process would compile every import again."""

from pathlib import Path

SETUP = Path(__file__).resolve().parents[1] / "scripts" / "setup.sh"


def _lines() -> list[str]:
    return [x.strip() for x in SETUP.read_text().splitlines() if x.strip() and not x.strip().startswith("#")]


def test_no_compile_install_is_followed_by_a_parallel_compileall_of_the_venv():
    lines = _lines()
    install = next(i for i, x in enumerate(lines) if "-r requirements.lock" in x)
    assert "--no-compile" in lines[install]
    compile_at = next(i for i, x in enumerate(lines) if "-m compileall" in x)
    assert compile_at > install and "-j 0 .venv/lib" in lines[compile_at]
    # compileall exits 1 for the few files of some packages that are not valid Python (pip ignores them)
    assert lines[compile_at].endswith("|| true")
    # the stamp that skips the install next time is written only after the bytecode
    stamp_at = next(i for i, x in enumerate(lines) if x.startswith('echo "$want" > "$stamp"'))
    assert stamp_at > compile_at


def test_editable_install_skips_build_isolation_only_with_setuptools_68():
    text = SETUP.read_text()
    assert "setuptools.__version__.split('.')[0]) < 68" in text and "|| iso=" in text
    assert "quiet_pip --no-deps $iso -e ." in text
