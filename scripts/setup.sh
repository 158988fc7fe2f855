#!/usr/bin/env bash
# Idempotent set-up: system tools and the virtual environment with pinned dependencies; with --test
# also the llama.cpp build (cached outside the repo, keyed by source sha256 + backend + cmake flags),
# the models (cached by sha256) and chromium. Usage: scripts/setup.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0; [ "${1:-}" = "--test" ] && want_test=1

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v c++ >/dev/null || need_apt+=(build-essential)
command -v git >/dev/null || need_apt+=(git)
command -v fincore >/dev/null || need_apt+=(util-linux)
if [ "$want_test" = 1 ] && ! command -v chromium >/dev/null; then need_apt+=(chromium); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${need_apt[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup: missing ${need_apt[*]}; fix: sudo apt-get install -y ${need_apt[*]}" >&2; exit 1
  fi
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.benchbook-deps
want=$(cat requirements.lock pyproject.toml | sha256sum | cut -c1-16)
# pip noise from machine-wide index settings (missing local index folders) is filtered, errors are not
quiet_pip() { set -o pipefail; .venv/bin/python -m pip install -q --disable-pip-version-check "$@" 2>&1 \
  | { grep -v "is ignored: it is neither a file nor a directory" || true; }; }
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pinned dependencies into .venv (requirements.lock)"
  # pip byte-compiles one file at a time (about 40% of the install's CPU time): --no-compile, then one
  # compileall over every core writes the same .pyc files. A few files of some packages are not
  # valid Python (templates, test data): compileall reports them and exits 1, as pip ignores them.
  quiet_pip --no-compile -r requirements.lock
  # when .venv already has the build backend (pyproject.toml: setuptools>=68), no isolated build env
  iso=--no-build-isolation
  .venv/bin/python -c "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 68)" \
    2>/dev/null || iso=
  quiet_pip --no-deps $iso -e .
  .venv/bin/python -m compileall -q -j 0 .venv/lib >/dev/null 2>&1 || true
  echo "$want" > "$stamp"
fi
# only when not yet set: `dvc config` rewrites .dvc/config and drops its comments (a dirty tree after a run)
grep -Eq '^\s*analytics\s*=\s*false' .dvc/config 2>/dev/null \
  || .venv/bin/dvc config core.analytics false >/dev/null 2>&1 || true

# `make run` builds the toolchain and fetches models inside `benchbook run`, after rendering the site
# from the committed data; the tests need them up front.
if [ "$want_test" = 1 ]; then
  # the build time is announced only for a build: a cached toolchain is checked in about a second
  if .venv/bin/python -c "from benchbook import paths, resolve; resolve.get_toolchain(resolve.load_params(paths.repo_root()), build=False)" 2>/dev/null; then
    echo "setup: llama.cpp toolchain (cached)"
  else
    echo "setup: llama.cpp toolchain (a first build: ~6-7 min on 2 quiet cores, 20+ min on a busy host; log: <cache>/toolchains/*/build.log)"
  fi
  PYTHONUNBUFFERED=1 .venv/bin/benchbook toolchain build | grep --line-buffered -E "^(\$ |toolchain ready)"
  echo "setup: models"
  .venv/bin/benchbook models fetch
fi
