#!/usr/bin/env bash
# Install the Debian/Ubuntu/Raspberry Pi OS packages Parlor needs, only those that are missing.
#   runtime: python3-venv (the .venv), SDL/GL libraries Kivy's wheel loads
#   tests:   xvfb (headless Kivy), systemd (systemd-analyze verify), binutils (PyInstaller strip), shellcheck (the pi-check script's lint test)
#   sounds:  espeak-ng and sox with its Vorbis format (scripts/make_sounds.py; a test regenerates ui/sounds bit for bit)
set -euo pipefail
want=(python3-venv python3-dev make xvfb xauth libgl1 libegl1 libgl1-mesa-dri libmtdev1 libgles2 systemd binutils shellcheck espeak-ng sox libsox-fmt-base)
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
