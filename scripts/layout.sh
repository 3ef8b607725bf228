# Sourced by scripts/package-deb.sh and scripts/install.sh: where the built
# programs and their files go under a prefix (/usr in the package, ~/.local
# for scripts/install.sh), laid out alike in both.

# The programs, from the build's folder.
programs=(recorder recorder-gateway recorder-desktop recorder-llm)

# put MODE SOURCE DEST: installs SOURCE as DEST, making its folder (BSD
# install, macOS's, has no -D).
put() {
  mkdir -p "$(dirname "$3")"
  install -m "$1" "$2" "$3"
}

# lay_out BIN PREFIX [PROGRAM...]: the programs (all of them if none is
# named) from BIN into PREFIX/bin, with their man pages and bash, zsh and
# fish completions (generated from the programs' clap definitions), and the
# app's icons with the app, under PREFIX/share.
lay_out() {
  local bin=$1 prefix=$2 program size page docs
  shift 2
  local chosen=("$@")
  [ ${#chosen[@]} -gt 0 ] || chosen=("${programs[@]}")
  docs=$(mktemp -d)
  mkdir -p "$prefix/share/man/man1"
  for program in "${chosen[@]}"; do
    put 755 "$bin/$program" "$prefix/bin/$program"
    case "$program" in
      recorder) "$bin/recorder" write-docs "$docs" ;;
      recorder-gateway | recorder-desktop) "$bin/$program" --write-docs "$docs" ;;
      *) continue ;;
    esac
    put 644 "$docs/completions/$program.bash" "$prefix/share/bash-completion/completions/$program"
    put 644 "$docs/completions/_$program" "$prefix/share/zsh/vendor-completions/_$program"
    put 644 "$docs/completions/$program.fish" "$prefix/share/fish/vendor_completions.d/$program.fish"
  done
  for page in "$docs"/man/*.1; do
    [ -e "$page" ] || continue
    gzip -9n -c "$page" >"$prefix/share/man/man1/$(basename "$page").gz"
  done
  rm -rf "$docs"
  [[ " ${chosen[*]} " == *" recorder-desktop "* ]] || return 0
  for size in 32x32 128x128; do
    put 644 "crates/desktop/icons/$size.png" "$prefix/share/icons/hicolor/$size/apps/recorder-desktop.png"
  done
  put 644 crates/desktop/icons/128x128@2x.png "$prefix/share/icons/hicolor/256x256/apps/recorder-desktop.png"
  put 644 crates/desktop/icons/icon.png "$prefix/share/icons/hicolor/512x512/apps/recorder-desktop.png"
}
