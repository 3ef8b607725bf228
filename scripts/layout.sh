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

# lay_out BIN PREFIX: the programs from BIN into PREFIX/bin, then their man
# pages and bash, zsh and fish completions (generated from the programs' clap
# definitions) and the app's icons under PREFIX/share.
lay_out() {
  local bin=$1 prefix=$2 program size page docs
  for program in "${programs[@]}"; do
    put 755 "$bin/$program" "$prefix/bin/$program"
  done
  for size in 32x32 128x128; do
    put 644 "crates/desktop/icons/$size.png" "$prefix/share/icons/hicolor/$size/apps/recorder-desktop.png"
  done
  put 644 crates/desktop/icons/128x128@2x.png "$prefix/share/icons/hicolor/256x256/apps/recorder-desktop.png"
  put 644 crates/desktop/icons/icon.png "$prefix/share/icons/hicolor/512x512/apps/recorder-desktop.png"
  docs=$(mktemp -d)
  "$bin/recorder" write-docs "$docs"
  "$bin/recorder-gateway" --write-docs "$docs"
  "$bin/recorder-desktop" --write-docs "$docs"
  mkdir -p "$prefix/share/man/man1"
  for page in "$docs"/man/*.1; do gzip -9n -c "$page" >"$prefix/share/man/man1/$(basename "$page").gz"; done
  for program in recorder recorder-gateway recorder-desktop; do
    put 644 "$docs/completions/$program.bash" "$prefix/share/bash-completion/completions/$program"
    put 644 "$docs/completions/_$program" "$prefix/share/zsh/vendor-completions/_$program"
    put 644 "$docs/completions/$program.fish" "$prefix/share/fish/vendor_completions.d/$program.fish"
  done
  rm -rf "$docs"
}
