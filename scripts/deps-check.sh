#!/usr/bin/env bash
# Checks scripts/deps.sh's lists against the built programs (Debian/Ubuntu):
#   libraries  every shared library PROGRAM... loads comes from a package that
#              the first command's lists (run_deps, and gpu_deps for the
#              GPU build) install, itself or as a dependency, or from the
#              base system (priority required or important);
#   commands   every program the service and the app run (ffmpeg, xdg-open,
#              xdg-mime) is installed by run_deps the same way;
#   no tests   no test tool (test_deps: speech, the sound server, browsers,
#              Xvfb, strace...) is in run_deps or gpu_deps.
# Prints what is wrong and exits 1 if anything is. Used by scripts/deb-tests.sh.
# Usage: scripts/deps-check.sh libraries|commands|no-tests [PROGRAM...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh

packages_of() { # ENTRY...: the packages the entries name
  local entry kind what packages
  for entry in "$@"; do
    read -r kind what packages <<<"$entry"
    echo "$packages"
  done | tr ' ' '\n' | sort -u
}

# Every package that installing run_deps and gpu_deps brings (depends and
# pre-depends): the package's programs are built for a GPU.
run_closure() {
  # shellcheck disable=SC2046
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances $(packages_of "${run_deps[@]}" "${gpu_deps[@]}") 2>/dev/null |
    sed -n 's/^\([a-z0-9][^ :]*\).*/\1/p' | sort -u
}

# owners FILE...: "FILE PACKAGE" for each FILE dpkg knows (usr-merged paths
# tried both ways), in one call to dpkg.
owners() {
  local file real candidates=()
  for file in "$@"; do
    real=$(readlink -f "$file")
    candidates+=("$file" "$real" "${real#/usr}" "/usr$real")
  done
  dpkg -S "${candidates[@]}" 2>/dev/null | sed -n 's/^\([^:,]*\)[^ ]*: \(.*\)$/\2 \1/p' >"$owned"
  for file in "$@"; do
    real=$(readlink -f "$file")
    awk -v a="$file" -v b="$real" -v c="${real#/usr}" -v d="/usr$real" -v f="$file" \
      '$1 == a || $1 == b || $1 == c || $1 == d { print f, $2; exit }' "$owned"
  done
}

# covered PACKAGE: in the base system or brought by run_deps.
covered() {
  local priority
  priority=$(dpkg-query -W -f='${Priority}' "$1" 2>/dev/null || true)
  case "$priority" in required | important) return 0 ;; esac
  grep -qx "$1" <<<"$closure"
}

# check_owned FILE...: each FILE's package is covered.
check_owned() {
  local found file package
  found=$(owners "$@")
  for file in "$@"; do
    package=$(awk -v f="$file" '$1 == f { print $2 }' <<<"$found")
    if [ -z "$package" ]; then
      report "$file belongs to no package"
    elif ! covered "$package"; then
      report "$file ($package) is not installed by run_deps or gpu_deps"
    fi
  done
}

owned=$(mktemp)
trap 'rm -f "$owned"' EXIT
problems=0
report() { echo "deps-check: $*" >&2; problems=$((problems + 1)); }

case "${1:-}" in
  libraries)
    shift
    closure=$(run_closure)
    mapfile -t libraries < <(ldd "$@" | awk '/=> \// { print $3 }' | sort -u)
    check_owned "${libraries[@]}"
    ;;
  commands)
    closure=$(run_closure)
    paths=()
    for command in ffmpeg xdg-open xdg-mime; do
      if path=$(command -v "$command"); then paths+=("$path"); else report "$command is not installed here"; fi
    done
    check_owned "${paths[@]}"
    ;;
  no-tests)
    run=$(packages_of "${run_deps[@]}" "${gpu_deps[@]}")
    for entry in "${test_deps[@]}"; do
      read -r kind what packages <<<"$entry"
      # Mesa's Vulkan drivers are for GPUs too; the tests need its software one.
      [ "$what" != "/usr/share/vulkan/icd.d/lvp_icd.*.json" ] || continue
      for package in $packages; do
        ! grep -qx "$package" <<<"$run" || report "the test tool $package is in run_deps"
      done
    done
    ;;
  *)
    echo "usage: scripts/deps-check.sh libraries|commands|no-tests [PROGRAM...]" >&2
    exit 2
    ;;
esac
[ "$problems" -eq 0 ]
