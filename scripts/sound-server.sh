#!/usr/bin/env bash
# Runs a private, headless PipeWire sound server for capture tests (no sound
# card needed). Works as root and as a normal user.
#
#   eval "$(scripts/sound-server.sh start DIR)"   # start (or reuse) it
#   scripts/sound-server.sh stop DIR               # stop it
#
# `start` uses DIR (created with mode 0700) as XDG_RUNTIME_DIR and runs a
# private session D-Bus (DIR/bus), pipewire, wireplumber and pipewire-pulse
# in the background (logs in DIR/*.log, pids in DIR/*.pid, wireplumber's
# state in DIR/state). Once the server answers it makes sure there are:
#   speakers     null sink, the default sink (what "the speakers" play);
#                record it through speakers.monitor (not @DEFAULT_MONITOR@:
#                pipewire-pulse 0.3.65 gives the default source for that)
#   mic_feed     null sink: play into it to speak into the microphone
#   virtual_mic  remap of mic_feed.monitor, the default source (the "mic")
# On success it prints only `export` lines (XDG_RUNTIME_DIR,
# PIPEWIRE_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, PULSE_SERVER) for eval;
# progress and errors go to stderr. Running `start` again on a live DIR
# reuses the server and only adds what is missing.
#
# Needs (Debian/Ubuntu):
#   apt-get install --no-install-recommends pipewire pipewire-bin wireplumber \
#     pipewire-pulse pulseaudio-utils dbus-daemon
# (and libpipewire-0.3-dev libspa-0.2-dev libpulse-dev libasound2-dev clang
# pkg-config to build Rust clients; espeak-ng sox to make and measure test
# speech). In a script, check the status before eval (eval "$(false)" is 0):
#   env_lines=$(scripts/sound-server.sh start DIR) && eval "$env_lines"
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR | env DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)
chmod 0700 "$dir"

export XDG_RUNTIME_DIR="$dir"
export PIPEWIRE_RUNTIME_DIR="$dir"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/bus"
export PULSE_SERVER="unix:$dir/pulse/native"
export XDG_STATE_HOME="$dir/state"
unset PIPEWIRE_REMOTE PULSE_SINK PULSE_SOURCE

print_env() {
  printf 'export XDG_RUNTIME_DIR=%q\n' "$XDG_RUNTIME_DIR"
  printf 'export PIPEWIRE_RUNTIME_DIR=%q\n' "$PIPEWIRE_RUNTIME_DIR"
  printf 'export DBUS_SESSION_BUS_ADDRESS=%q\n' "$DBUS_SESSION_BUS_ADDRESS"
  printf 'export PULSE_SERVER=%q\n' "$PULSE_SERVER"
}

# alive NAME: the pid in DIR/NAME.pid runs a program called NAME
# (dbus-daemon for "dbus"), so a recycled pid is never taken for ours.
alive() {
  local name=$1 pid comm state
  [ -s "$dir/$name.pid" ] || return 1
  pid=$(tr -dc '0-9' <"$dir/$name.pid")
  [ -n "$pid" ] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  # A zombie (dead, not yet reaped: some container inits never reap) is dead.
  state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ "$state" != Z ] || return 1
  [ "$name" = dbus ] && name=dbus-daemon
  [ "$comm" = "${name:0:15}" ]
}

pidof_ours() { tr -dc '0-9' <"$dir/$1.pid"; }

# launch NAME: run NAME detached, stdio away from the caller (so that
# "$(... start DIR)" does not wait for the daemons).
launch() {
  local name=$1
  alive "$name" && return 0
  setsid "$name" </dev/null >>"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

# kill_wait NAME: stop our NAME (TERM, then KILL after 3 s).
kill_wait() {
  local name=$1 pid i
  if alive "$name"; then
    pid=$(pidof_ours "$name")
    kill "$pid" 2>/dev/null || true
    for i in $(seq 1 30); do
      alive "$name" || break
      sleep 0.1
    done
    if alive "$name"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$dir/$name.pid"
}

stop_all() {
  local name
  for name in pipewire-pulse wireplumber pipewire dbus; do
    kill_wait "$name"
  done
  rm -f "$dir/bus" "$dir/pipewire-0" "$dir/pipewire-0.lock" \
    "$dir/pulse/native" "$dir/pulse/pid"
}

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local secs=$1 what=$2 i
  shift 2
  for i in $(seq 1 $((secs * 10))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "sound-server: timed out waiting for $what (logs in $dir)" >&2
  return 1
}

has() { # has sinks|sources NAME
  pactl list short "$1" 2>/dev/null | awk -v n="$2" '$2 == n { f = 1 } END { exit !f }'
}

set_default() { # set_default sink|source NAME: true once it is in effect
  pactl "set-default-$1" "$2" 2>/dev/null &&
    pactl info 2>/dev/null | grep -qix "Default $1: $2"
}

start_all() {
  local p
  for p in dbus-daemon pipewire wireplumber pipewire-pulse pactl; do
    command -v "$p" >/dev/null 2>&1 || {
      echo "sound-server: $p not found; install: pipewire pipewire-bin wireplumber pipewire-pulse pulseaudio-utils dbus-daemon" >&2
      exit 1
    }
  done
  mkdir -p "$XDG_STATE_HOME"

  if ! alive dbus; then
    rm -f "$dir/bus"
    dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --fork \
      --print-pid </dev/null >"$dir/dbus.pid" 2>>"$dir/dbus.log"
  fi
  if ! alive pipewire; then
    # A dead server's session manager and pulse server cannot be reused.
    kill_wait pipewire-pulse
    kill_wait wireplumber
    rm -f "$dir/pipewire-0" "$dir/pipewire-0.lock"
    launch pipewire
    wait_for 10 "pipewire's socket" test -S "$dir/pipewire-0"
  fi
  launch wireplumber
  launch pipewire-pulse
  wait_for 20 "pactl info" pactl info

  has sinks speakers ||
    pactl load-module module-null-sink sink_name=speakers \
      sink_properties=device.description=speakers >/dev/null
  has sinks mic_feed ||
    pactl load-module module-null-sink sink_name=mic_feed \
      sink_properties=device.description=mic_feed >/dev/null
  wait_for 10 "source mic_feed.monitor" has sources mic_feed.monitor
  has sources virtual_mic ||
    pactl load-module module-remap-source master=mic_feed.monitor \
      source_name=virtual_mic source_properties=device.description=virtual_mic >/dev/null
  wait_for 10 "source virtual_mic" has sources virtual_mic

  # wireplumber turns the configured defaults into the effective ones.
  wait_for 10 "default sink speakers" set_default sink speakers
  wait_for 10 "default source virtual_mic" set_default source virtual_mic
}

case "$cmd" in
start)
  start_all
  print_env
  ;;
stop)
  stop_all
  ;;
env)
  print_env
  ;;
*)
  usage
  ;;
esac
