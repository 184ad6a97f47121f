#!/bin/sh
# The AI targets (strength, speed, memory) measured one after another; results in $OUT.
# Strength runs use the CPU-time search clock (PARLOR_SEARCH_CLOCK=cpu) so other processes on a
# shared machine do not eat the bots' thinking time; the speed run uses the wall clock, like the
# appliance. Usage: scripts/ai_targets.sh [OUT_DIR] [JOBS]
set -eu
OUT=${1:-/tmp/ai_targets}
JOBS=${2:-2}
PY=${PY:-.venv/bin/python}
mkdir -p "$OUT"
run() {  # name, then the arena arguments
    name=$1; shift
    echo "== $name: python -m engine arena $*" | tee "$OUT/$name.txt"
    $PY -m engine arena "$@" >> "$OUT/$name.txt" 2>&1
    cat "$OUT/$name.txt"
}
export PARLOR_SEARCH_CLOCK=cpu
run meri_normal_vs_heuristic meri --a normal --b heuristic --deals 500 --seed 1 --jobs "$JOBS"
run tractor_normal_vs_heuristic tractor --a normal --b heuristic --deals 200 --seed 1 --jobs "$JOBS"
run chan_normal_vs_heuristic chan --a normal --b heuristic --deals 500 --seed 1 --jobs "$JOBS"
export PARLOR_SEARCH_CLOCK=wall
run meri_speed_normal meri --a normal --b heuristic --deals 10 --seed 7
run meri_speed_hard meri --a hard --b heuristic --deals 4 --seed 7
