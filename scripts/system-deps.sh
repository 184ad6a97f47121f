#!/usr/bin/env bash
# Install the Debian/Ubuntu/Raspberry Pi OS packages Parlor needs, only those that are missing.
#   scripts/system-deps.sh          what running Parlor needs (`make run`, `make setup`)
#   scripts/system-deps.sh --test   that, plus what the tests, screenshots and bundle need (`make test`)
# runtime: python3-venv (the .venv), SDL/GL libraries Kivy's wheel loads, binutils (PyInstaller: make bundle)
# --test:  xvfb (headless Kivy), systemd (systemd-analyze verify),
#          the pi-check script's linter (shellcheck); espeak-ng and sox with its Vorbis format
#          (scripts/make_sounds.py: a test regenerates ui/sounds bit for bit); chromium and
#          chromium-driver (the phone page in a real browser: tests/ui/remote, screenshots)
set -euo pipefail
want=(python3-venv python3-dev make libgl1 libegl1 libgl1-mesa-dri libmtdev1 libgles2 binutils)
if [ "${1:-}" = "--test" ]; then
  want+=(xvfb xauth systemd shellcheck espeak-ng sox libsox-fmt-base chromium chromium-driver)
elif [ -n "${1:-}" ]; then
  echo "usage: $0 [--test]" >&2
  exit 2
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing system packages: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
