#!/usr/bin/env bash
# Builds the Debian package (scripts/package-deb.sh), installs it into this
# machine with dpkg, checks what a person gets from it, and removes it again:
# the three programs, `recorder serve` answering with the app built in, the
# man pages and completions, the desktop entry (valid, and the handler of
# recorder:// links), the systemd user unit, and the packaged desktop app
# showing its window under Xvfb (screenshot in target/desktop-screenshots/).
# Prints "N passed, M failed in Ts" for scripts/test.sh's totals. `--quick`
# (CI) builds the package's Rust unoptimised (scripts/package-deb.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "deb-tests: no dpkg here, so the Debian package was NOT built or tested"
  exit 0
fi
started=$(date +%s)
passed=0 failed=0
check() { # check NAME COMMAND...
  local name=$1; shift
  if "$@" >/tmp/deb-check.log 2>&1; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' /tmp/deb-check.log | tail -20; fi
}
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
need=()
command -v desktop-file-validate >/dev/null 2>&1 || need+=(desktop-file-utils)
command -v file >/dev/null 2>&1 || need+=(file)
[ ${#need[@]} -eq 0 ] || $sudo apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null

scripts/package-deb.sh "$@" || { echo "0 passed, 1 failed in $(( $(date +%s) - started ))s"; exit 1; }
deb=$(ls -t target/debian/recorder_*.deb | head -1)
work=$(mktemp -d)
cleanup() {
  [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null
  [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null
  [ -n "${bus_pid:-}" ] && kill "$bus_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
mkdir -p "$HOME"

check "dpkg -i installs it" $sudo dpkg -i "$deb"
for program in recorder recorder-gateway recorder-desktop; do
  check "$program --version runs from /usr/bin" "/usr/bin/$program" --version
done
check "the packaged recorder transcribes on Vulkan GPUs (libvulkan linked)" sh -c 'ldd /usr/bin/recorder | grep -q "libvulkan\.so"'
check "the binaries are stripped" sh -c '! file /usr/bin/recorder /usr/bin/recorder-desktop /usr/bin/recorder-llm | grep -q "not stripped"'
check "recorder-llm (the notes model inside) runs from /usr/bin" /usr/bin/recorder-llm --version
# The first command (scripts/install.sh) installs only scripts/deps.sh's
# run_deps: they must bring all that the programs load and run, and no test tool.
check "the first command's packages bring every library the programs load" \
  scripts/deps-check.sh libraries /usr/bin/recorder /usr/bin/recorder-gateway /usr/bin/recorder-desktop /usr/bin/recorder-llm
check "the first command's packages bring the programs the app runs" scripts/deps-check.sh commands
check "the first command installs no test tool" scripts/deps-check.sh no-tests
check "the test command installed the rest" bash -c '. scripts/deps.sh; [ -z "$(missing_packages "${all_deps[@]}")" ]'

/usr/bin/recorder serve --data-dir "$work/data" --port 0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" && break; sleep 0.1; done
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.out" | head -1)
check "recorder serve answers /v1/health" sh -c "curl -sf -H 'Authorization: Bearer $(cat "$work/data/api_token" 2>/dev/null)' http://127.0.0.1:$port/v1/health | grep -q '\"ok\":true'"
check "recorder serve serves the app built in" sh -c "curl -sf http://127.0.0.1:$port/ | grep -qi '<!doctype html'"
check "the packaged service finds recorder-llm for the notes model inside" sh -c "curl -sf -H 'Authorization: Bearer $(cat "$work/data/ui_token" 2>/dev/null)' http://127.0.0.1:$port/ui/notes-models | grep -q '\"worker_found\":true'"
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null; serve_pid=""

# Managed policy cannot be escaped in a release build (SECURITY.md):
# RECORDER_POLICY_PATH counts only for a file owned by root that no one else may
# write. Prints the `managed_by` the packaged service reports with FILE.
managed_by_with() {
  RECORDER_POLICY_PATH="$1" /usr/bin/recorder serve --data-dir "$work/policy-data" --port 0 >"$work/policy.out" 2>"$work/policy.err" &
  local pid=$! p
  for _ in $(seq 100); do grep -q listening "$work/policy.out" && break; sleep 0.1; done
  p=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/policy.out" | head -1)
  curl -sf -H "Authorization: Bearer $(cat "$work/policy-data/api_token")" "http://127.0.0.1:$p/v1/policy" | python3 -c 'import json, sys; print(json.load(sys.stdin)["managed_by"])'
  kill "$pid"; wait "$pid" 2>/dev/null
}
echo '{"OrganizationName": "Override"}' >"$work/override.json"
$sudo chown nobody "$work/override.json"
org=$(managed_by_with "$work/override.json")
check "a release build ignores RECORDER_POLICY_PATH for a file the person could write ($org)" test "$org" = "your organisation"
$sudo chown root:root "$work/override.json"; $sudo chmod 0644 "$work/override.json"
org=$(managed_by_with "$work/override.json")
check "a release build honours RECORDER_POLICY_PATH for a root-owned file ($org)" test "$org" = "Override"

check "man pages render" sh -c 'for p in recorder recorder-serve recorder-gateway recorder-desktop; do zcat /usr/share/man/man1/$p.1.gz | grep -q "^\.TH" || exit 1; done'
check "bash completes recorder" bash -c 'source /usr/share/bash-completion/completions/recorder && complete -p recorder'
check "zsh and fish completions are installed" test -s /usr/share/zsh/vendor-completions/_recorder -a -s /usr/share/fish/vendor_completions.d/recorder.fish
check "the desktop entry is valid" desktop-file-validate /usr/share/applications/recorder-desktop.desktop
check "the desktop entry handles recorder:// links" sh -c '[ "$(xdg-mime query default x-scheme-handler/recorder)" = recorder-desktop.desktop ]'
check "the systemd user unit runs the installed service" sh -c 'grep -q "^ExecStart=/usr/bin/recorder serve$" /usr/lib/systemd/user/recorder.service && grep -q "^WantedBy=default.target" /usr/lib/systemd/user/recorder.service'
check "the icons are installed" test -s /usr/share/icons/hicolor/128x128/apps/recorder-desktop.png

# The packaged desktop app shows its window (Xvfb, a D-Bus session).
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$work/display")
dbus-daemon --session --nofork --print-address=1 >"$work/bus" 2>/dev/null &
bus_pid=$!
for _ in $(seq 50); do [ -s "$work/bus" ] && break; sleep 0.1; done
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/bus")
/usr/bin/recorder-desktop --data-dir "$work/desktop" --port 0 2>"$work/desktop.err" &
app_pid=$!
for _ in $(seq 600); do grep -q 'page shown path="/"' "$work/desktop.err" && break; sleep 0.1; done
check "the packaged desktop app shows the library" grep -q 'page shown path="/"' "$work/desktop.err"
sleep 1
mkdir -p target/desktop-screenshots
# The window alone (1180×780 at the top left), without the pointer.
ffmpeg -loglevel error -y -f x11grab -draw_mouse 0 -video_size 1180x780 -i "$DISPLAY" -frames:v 1 target/desktop-screenshots/package-window.png
kill -TERM "$app_pid"
check "the desktop app quits on SIGTERM" wait "$app_pid"
app_pid=""

check "dpkg -r removes it" $sudo dpkg -r recorder
check "nothing is left in /usr/bin" sh -c '! ls /usr/bin/recorder /usr/bin/recorder-gateway /usr/bin/recorder-desktop /usr/bin/recorder-llm 2>/dev/null'
echo "deb: $deb, $(du -h "$deb" | cut -f1)"
echo "$passed passed, $failed failed in $(( $(date +%s) - started ))s"
[ "$failed" -eq 0 ]
